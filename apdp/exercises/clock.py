"""The platform's event clock (T1, T2): vehicles advance in steps of one simulated hour.

Each step adds 10^9 ns to every active vehicle's unused time; a vehicle still under way moves
``min(target - progress, unused * speed // 10^9)`` units and gives back ``move * 10^9 // speed`` ns
(integer divisions). The vehicles that have arrived are then served one at a time, the one with
the most unused time (the earliest) first, ties in creation order: each is asked for its next
action, stamped ``time = simulated time - unused``, and, if that action ends within the step
(a zero-length one), served again in time order. A move's target is its distance in units; a pickup
or a delivery waits 0.3 h, a target of ``300 * 10^6 * speed // 10^9`` units. At time 0 every
vehicle has arrived at its home.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

#: One simulated hour, the headless step (ns).
NANOS_PER_HOUR = 10**9
#: How long a pickup or a delivery takes (ns).
PICKUP_DELIVERY_NANOS = 300 * 10**6


def wait_units(speed: int) -> int:
    """The target, in units, of a pickup's or a delivery's wait for a vehicle of ``speed`` units/h."""
    return PICKUP_DELIVERY_NANOS * speed // NANOS_PER_HOUR


class Motion:
    """One vehicle's progress towards its current target (``MovingObject``)."""

    __slots__ = ("progress", "speed", "target", "unused")

    def __init__(self, speed: int) -> None:
        if speed <= 0:
            raise ValueError(f"speed must be > 0 units per hour, got {speed}")
        self.speed = speed
        self.unused = 0
        self.progress = self.target = 1

    def step(self, nanos: int) -> None:
        """Advance by ``nanos`` of simulated time."""
        self.unused += nanos
        if self.progress < self.target:
            move = min(self.target - self.progress, self.unused * self.speed // NANOS_PER_HOUR)
            self.progress += move
            self.unused -= move * NANOS_PER_HOUR // self.speed

    @property
    def arrived(self) -> bool:
        """Whether the current target is reached (the vehicle wants its next action)."""
        return self.progress == self.target

    def start(self, target: int) -> None:
        """Begin an action of ``target`` units (a move's distance, or :func:`wait_units`)."""
        self.target = target
        self.progress = 0


#: ``serve(vehicle, time)``: the vehicle's next action's target in units, or None when it stops.
Serve = Callable[[int, int], "int | None"]


class Clock:
    """The simulated time of one round; vehicles are numbered in creation (configuration) order."""

    def __init__(self, speeds: Sequence[int]) -> None:
        self.motions = [Motion(s) for s in speeds]
        #: Simulated time at the end of the last step (ns).
        self.time = 0

    def run(self, serve: Serve) -> None:
        """Step until every vehicle has stopped (``serve`` returned None for it)."""
        active = list(range(len(self.motions)))
        while active:
            self.step(active, serve)

    def step(self, active: list[int], serve: Serve) -> None:
        """One step of an hour over the ``active`` vehicles (those that stop are removed)."""
        queue: list[tuple[int, int]] = []
        for v in active:
            motion = self.motions[v]
            motion.step(NANOS_PER_HOUR)
            if motion.arrived:
                queue.append((-motion.unused, v))
        self.time += NANOS_PER_HOUR
        heapq.heapify(queue)
        while queue:
            _, v = heapq.heappop(queue)
            motion = self.motions[v]
            target = serve(v, self.time - motion.unused)
            if target is None:
                active.remove(v)
                continue
            motion.start(target)
            motion.step(0)
            if motion.arrived:
                heapq.heappush(queue, (-motion.unused, v))

"""A hostile agent for the tests: the scenario parameter ``mode`` picks how it misbehaves.

It bids 0 on every task (so it wins them all against an honest opponent) unless its mode says
otherwise, and plans correctly unless its mode breaks a rule.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

from apdp import Action, Agent, Company, Deliver, Move, Pickup, Stop, Task, TaskDistribution, Topology, Vehicle
from apdp import plan_from_stops


class Misbehave(Agent):
    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        self.mode = str(self.params.get("mode", "none"))
        self.others: list[Task] = []
        self._act("setup")

    def _act(self, phase: str) -> None:
        mode = self.mode
        if mode == f"sleep_{phase}":
            time.sleep(3600)
        if mode == f"spin_{phase}":
            while True:
                pass
        if mode == f"raise_{phase}":
            raise RuntimeError(f"hostile agent raises in {phase}")
        if mode == f"exit_{phase}":
            sys.exit(3)
        if mode == f"hard_exit_{phase}":
            os._exit(0)
        if mode == f"kill_{phase}":
            os.kill(os.getpid(), 9)
        if mode == f"memory_{phase}":
            hog = []
            while True:
                hog.append(bytearray(64 * 1024 * 1024))
        if mode == f"flood_{phase}":
            while True:
                print("x" * 10_000)
        if mode == f"half_reply_{phase}":  # half a reply on the referee's pipe, then nothing
            for fd in os.listdir("/proc/self/fd"):
                try:
                    if os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
                        os.write(int(fd), b"\x00\x00\x10\x00{")
                except OSError:
                    continue
            time.sleep(3600)
        if mode == f"fork_{phase}":
            if os.fork() == 0:
                time.sleep(3600)
            time.sleep(3600)

    def bid(self, task: Task) -> float | None:
        self._act("bid")
        bad = {"bid_nan": float("nan"), "bid_inf": float("inf"), "bid_negative": -1.0,
               "bid_string": "cheap", "bid_bool": True, "bid_list": [1.0]}
        if self.mode in bad:
            return bad[self.mode]  # type: ignore[return-value]
        if self.mode == "big_reply":
            return "x" * (20 * 1024 * 1024)  # type: ignore[return-value]
        if self.mode == "plan_other_company" and task.id % 2:
            return None  # leave some tasks to the other company
        if self.mode == "print_some":
            print(f"bidding on task {task.id}")
        return 0.0

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        self._act("auction_result")
        if winner is not None and winner != self.agent_id:
            self.others.append(task)

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        self._act("plan")
        mode, topo = self.mode, self.topology
        first = vehicles[0]
        stops: list[Stop] = []
        for t in tasks:
            stops += [Stop.pickup(t), Stop.deliver(t)]
        good = [plan_from_stops(topo, first, stops)] + [[] for _ in vehicles[1:]]
        t0 = tasks[0]
        if mode == "plan_undelivered":
            return [plan_from_stops(topo, first, stops[:-1])] + good[1:]
        if mode == "plan_other_vehicle":
            a = plan_from_stops(topo, first, [Stop.pickup(t0)])
            b = plan_from_stops(topo, vehicles[1], [Stop.deliver(t0)])
            return [a, b] + [[] for _ in vehicles[2:]]
        if mode == "plan_deliver_first":
            swapped = [stops[1], stops[0], *stops[2:]]
            return [plan_from_stops(topo, first, swapped)] + good[1:]
        if mode == "plan_wrong_city":
            return [[Pickup(t0.id)] + good[0]] + good[1:] if first.home != t0.pickup else [
                [Move(next(iter(topo.neighbours(first.home)))), Pickup(t0.id)]] + good[1:]
        if mode == "plan_no_road":
            far = max(topo.cities, key=lambda c: topo.distance(first.home, c))
            return [[Move(far)] + plan_from_stops(topo, Vehicle("", far, first.capacity, 1), stops)] + good[1:]
        if mode == "plan_capacity":
            loads = [Stop.pickup(t) for t in tasks] + [Stop.deliver(t) for t in tasks]
            return [plan_from_stops(topo, first, loads)] + good[1:]
        if mode == "plan_other_company":
            return [good[0] + [Pickup(self.others[0].id)]] + good[1:]
        if mode == "plan_twice":
            return [good[0] + plan_from_stops(topo, Vehicle("", t0.delivery, 1e9, 1), [Stop.pickup(t0)])] + good[1:]
        if mode == "plan_unknown_city":
            return [[Move("Atlantis")] + good[0]] + good[1:]
        if mode == "plan_unknown_task":
            return [good[0] + [Deliver(10_000)]] + good[1:]
        if mode == "plan_missing_vehicle":
            return good[:1]
        if mode == "plan_not_list":
            return "a plan"  # type: ignore[return-value]
        if mode == "plan_task_object":
            return [[Pickup(t0)]] + good[1:]  # type: ignore[arg-type]
        return good

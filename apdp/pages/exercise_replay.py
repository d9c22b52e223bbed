"""The replay of an exercise's round (reactive, deliberative, centralized): one self-contained HTML
page made from its record (``apdp replay``, ``apdp match --exercise ... --replay``).

The record keeps the agents' answers, not the round: the round is played again from them
(:func:`apdp.check.exercise_verify.replay_exercise`, on the configuration the record names, with its
draws) and the page is made from what that replay did. Its events go in as columns (a reactive round
has tens of thousands of them): the time, the vehicle, the kind, the city (a move) or the task (a
pickup or a delivery), and the acting agent's distance, cost and reward once the event began, as the
platform counts them (:meth:`apdp.exercises.round.AgentState.totals`). The tasks are the batch
(deliberative, centralized: by id) and then every offer a reactive vehicle picked up: each is task 0
to its agent, so the page numbers them apart, in the order they were picked up, with the city where
it was picked up and where it was delivered (its weight and reward are the distribution's for that
pair, as the offer's were).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apdp.check.exercise_verify import Replayed, replay_exercise
from apdp.errors import UserError
from apdp.exercises.configuration import VehicleSpec
from apdp.exercises.history import Event
from apdp.exercises.round import Round
from apdp.files import write_atomically
from apdp.game.plan import Deliver, Move
from apdp.logist.money import java_round
from apdp.pages.html import page, stage
from apdp.pages.replay import labels
from apdp.referee.exercise_record import ExerciseRecord

#: Event kinds in the page's data.
MOVE, PICKUP, DELIVER = 0, 1, 2
#: The columns of the page's events, in this order.
EVENT_COLUMNS = ("time", "vehicle", "kind", "target", "units", "cost", "reward")


class ExerciseReplayError(UserError):
    """An exercise record whose round cannot be played again (its configuration is gone or broken,
    or its answers are not the round's)."""


@dataclass
class _Vehicle:
    """A vehicle as the replay walks the events: its agent, spec, city and the tasks it carries."""

    agent: int
    number: int
    spec: VehicleSpec
    city: str
    carried: list[int] = field(default_factory=list)


@dataclass
class _Walk:
    """The replayed round's events walked once: who did each, the tasks and each agent's figures."""

    round: Round
    kinds: tuple[str, ...]
    vehicles: list[_Vehicle] = field(default_factory=list)
    #: The page's tasks: [id, pickup city, delivery city or None, weight or None, reward or None,
    #: offer number (a reactive agent's: 1, 2, ...) or None, agent or None (the batch's)].
    tasks: list[list[Any]] = field(default_factory=list)
    columns: dict[str, list[Any]] = field(default_factory=lambda: {c: [] for c in EVENT_COLUMNS})

    def __post_init__(self) -> None:
        configuration = self.round.configuration
        for a, company in enumerate(configuration.companies[:len(self.kinds)]):
            self.vehicles += [_Vehicle(a, k, spec, spec.home) for k, spec in enumerate(company.vehicles)]
        self.by_name: dict[str, list[int]] = {}
        for v, vehicle in enumerate(self.vehicles):
            self.by_name.setdefault(vehicle.spec.name, []).append(v)
        self.index = configuration.network.index
        batch = self.round.batch if any(k != "reactive" for k in self.kinds) else []  # drawn, but no one's
        self.batch = {t.id: i for i, t in enumerate(batch)}
        self.tasks = [[t.id, self.index[t.pickup], self.index[t.delivery], int(t.weight), int(t.reward or 0),
                       None, None] for t in batch]
        n = len(self.kinds)
        self.units, self.weighted, self.reward, self.offers = [0] * n, [0] * n, [0] * n, [0] * n

    def vehicle_of(self, event: Event) -> int:
        """The vehicle that did ``event``: its number in the round; else (an event without one) the
        vehicle of that name, and of vehicles named alike, the first that could have done it (a move
        to a neighbour, a delivery of a task it carries, a pickup by a reactive agent's first vehicle
        or by a vehicle of a planning agent)."""
        if event.number is not None and 0 <= event.number < len(self.vehicles):
            return event.number
        candidates = self.by_name.get(event.vehicle)
        if not candidates:
            raise ValueError(f"its event {event.id} names a vehicle {event.vehicle!r} of no company")
        action, topology = event.action, self.round.topology
        for v in candidates:
            vehicle = self.vehicles[v]
            reactive = self.kinds[vehicle.agent] == "reactive"
            if isinstance(action, Move):
                fits = action.city in topology.index and topology.has_neighbor(vehicle.city, action.city)
            elif isinstance(action, Deliver):
                fits = any(self.tasks[t][0] == action.task for t in vehicle.carried)
            else:
                fits = vehicle.number == 0 if reactive else True
            if fits:
                return v
        return candidates[0]

    def walk(self, event: Event) -> None:
        """Add ``event`` to the columns (its vehicle moves, picks up or delivers)."""
        v = self.vehicle_of(event)
        vehicle = self.vehicles[v]
        a, action = vehicle.agent, event.action
        if isinstance(action, Move):
            units = self.round.topology.distance_units(vehicle.city, action.city)
            self.units[a] += units
            self.weighted[a] += units * vehicle.spec.cost_per_km
            vehicle.city = action.city
            kind, target = MOVE, self.index[action.city]
        elif isinstance(action, Deliver):
            kind, target = DELIVER, self._delivered(vehicle, action.task)
        else:
            kind, target = PICKUP, self._picked_up(vehicle, action.task)
        values = (round(event.time / 1e9, 4), v, kind, target, self.units[a],
                  java_round(self.weighted[a] / 1000.0), self.reward[a])
        for column, value in zip(EVENT_COLUMNS, values, strict=True):
            self.columns[column].append(value)

    def _picked_up(self, vehicle: _Vehicle, task_id: int) -> int:
        if self.kinds[vehicle.agent] == "reactive":  # a new offer, numbered apart
            self.offers[vehicle.agent] += 1
            self.tasks.append([task_id, self.index[vehicle.city], None, None, None, self.offers[vehicle.agent],
                               vehicle.agent])
            t = len(self.tasks) - 1
        elif task_id in self.batch:
            t = self.batch[task_id]
        else:
            raise ValueError(f"a pickup of task {task_id}, which is not in the batch")
        vehicle.carried.append(t)
        return t

    def _delivered(self, vehicle: _Vehicle, task_id: int) -> int:
        t = next((t for t in vehicle.carried if self.tasks[t][0] == task_id), None)
        if t is None:
            raise ValueError(f"{vehicle.spec.name} delivers task {task_id}, which it does not carry")
        vehicle.carried.remove(t)
        task = self.tasks[t]
        if task[5] is not None:  # a reactive offer: delivered here; the distribution's weight and reward
            pickup, delivery = self.round.configuration.network.cities[task[1]], vehicle.city
            stream = self.round.stream
            task[2:5] = [self.index[delivery], stream.weight(pickup, delivery), stream.reward(pickup, delivery)]
        self.reward[vehicle.agent] += task[4]
        return t


def _topology(round_: Round) -> dict[str, Any]:
    network = round_.configuration.network
    return {
        "name": network.name,
        "title": network.title,
        "cities": [[c, *network.coordinates[c]] for c in network.cities],
        "roads": [[network.index[r.a], network.index[r.b], r.distance] for r in network.roads],
    }


def _companies(walk: _Walk) -> list[dict[str, Any]]:
    companies = walk.round.configuration.companies[:len(walk.kinds)]
    return [{"name": c.name, "vehicles": [
        {"name": v.name, "home": walk.index[v.home], "capacity": v.capacity, "cost_per_km": v.cost_per_km,
         "speed": v.speed / 1000.0} for v in c.vehicles]} for c in companies]


def _outcome(record: ExerciseRecord, replayed: Replayed) -> dict[str, Any]:
    """How the round ended: the record's statistics, its fault, and where its replay stopped."""
    return {
        "statistics": [{"rank": s.rank, "agent": s.agent, "total_tasks": s.total_tasks, "distance": s.total_distance,
                        "cost": s.total_cost, "reward": s.total_reward, "profit": s.total_profit}
                       for s in record.statistics],
        "fault": None if record.fault is None else record.fault.to_json(),
        "traceback": record.traceback,
        "referee_error": record.referee_error,
        "stopped": replayed.stopped,
        "stopped_agent": replayed.stopped_agent,
    }


def exercise_replay_data(record: ExerciseRecord, replayed: Replayed) -> dict[str, Any]:
    """What the page draws, from ``record`` and its round played again (``replayed``)."""
    round_ = replayed.round
    walk = _Walk(round_, record.agent_kinds)
    for event in round_.events:
        walk.walk(event)
    network = round_.configuration.network
    agents = labels(list(record.agents))
    return {
        "title": f"{record.exercise} exercise on {network.title or network.name}: {', '.join(agents)}",
        "exercise": record.exercise,
        "scenario": record.scenario,
        "seed": None if record.seed is None else str(record.seed),  # a string: JavaScript rounds above 2**53
        "draws": "platform" if record.draws is None else "secret",
        "end": {"hours": record.end_hours, "acts": record.end_acts},
        "topology": _topology(round_),
        "agents": agents,
        "kinds": list(record.agent_kinds),
        "companies": _companies(walk),
        "batch": len(walk.batch),
        "tasks": walk.tasks,
        "events": walk.columns,
        "recorded_events": record.events,
        "stuck": len(round_.stuck_actions),
        "totals": [{"units": walk.units[a], "cost": java_round(walk.weighted[a] / 1000.0), "reward": walk.reward[a]}
                   for a in range(len(agents))],
        **_outcome(record, replayed),
    }


#: How many events a step of the play button covers.
_SPEED = """
    <select id="speed" aria-label="events per step" title="events per step when playing">
      <option value="1">1 / step</option><option value="10">10 / step</option>
      <option value="100">100 / step</option><option value="1000">1000 / step</option>
    </select>"""

_BODY = stage("event", _SPEED) + """\
<aside id="panel">
  <h2>Agents</h2><table id="standing"></table>
  <h2>Vehicles</h2><div class="scroll"><table id="vehicles"></table></div>
</aside>
<section id="event-list"><h2>Events</h2><table id="events"></table></section>
<section id="result"><h2>Result (the record's statistics)</h2><table id="statistics"></table>
  <div id="faults"></div></section>
</main>"""


def replayed_data(record: ExerciseRecord, source: str = "record") -> dict[str, Any]:
    """``record``'s round played again, as the page's data (:func:`exercise_replay_data`); a record
    whose round cannot be played again raises ExerciseReplayError, one line naming ``source``."""
    try:
        return exercise_replay_data(record, replay_exercise(record))
    except (UserError, ValueError, KeyError, IndexError, TypeError, OSError) as exc:
        text = (str(exc).splitlines() or [type(exc).__name__])[0][:300]
        raise ExerciseReplayError(f"{source}: cannot replay it: {text}") from None


def exercise_page(data: dict[str, Any]) -> str:
    """The page of :func:`exercise_replay_data`'s ``data``."""
    return page(f"apdp replay: {data['title']}", _BODY, data, ("common.css", "stage.css", "exercise_replay.css"),
                ("common.js", "exercise_replay.js"))


def exercise_replay_html(record: ExerciseRecord, source: str = "record") -> str:
    """The replay page of ``record``; ``source`` names the record in errors. A record whose round
    cannot be played again raises ExerciseReplayError, one line."""
    return exercise_page(replayed_data(record, source))


def write_exercise_replay(record: ExerciseRecord, out: str | Path, source: str = "record") -> int:
    """Write the replay page of ``record`` to ``out`` (atomically); returns its size in bytes."""
    text = exercise_replay_html(record, source)
    write_atomically(out, text)
    return len(text.encode("utf-8"))


def replay_summary(data: dict[str, Any]) -> list[str]:
    """A few lines on the replayed round for the terminal: what each vehicle did, where it stopped."""
    vehicles = [(v["name"], a) for a, c in enumerate(data["companies"]) for v in c["vehicles"]]
    counts = [[0, 0, 0] for _ in vehicles]
    for v, kind in zip(data["events"]["vehicle"], data["events"]["kind"], strict=True):
        counts[v][kind] += 1
    lines = [f"{name} ({data['agents'][a]}): {moves} moves, {pickups} pickups, {deliveries} deliveries"
             for (name, a), (moves, pickups, deliveries) in zip(vehicles, counts, strict=True)]
    if data["stopped"] is not None:
        lines.append(f"played again, the round stops: {data['stopped']}")
    return lines

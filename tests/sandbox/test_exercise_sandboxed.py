"""Exercise agents in their sandboxed processes (issue 33): scripted agents reproduce the platform's
reference runs exactly through the referee; hostile agents are faulted and the referee survives;
records round-trip and verify catches a tampered one."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from apdp.agents.discovery import AgentSource
from apdp.check.exercise_verify import replay_exercise, verify_exercise_record
from apdp.exercises.configuration import read_exercise
from apdp.exercises.history import read_history
from apdp.exercises.round import ReactiveEnd
from apdp.game.fault import FaultKind
from apdp.game.plan import Action
from apdp.logist.money import java_round
from apdp.referee.exercise_record import ExerciseRecord, exercise_record_from_json
from apdp.referee.exercise_round import play_exercise
from tests.exercise_runs import CONFIG, RUNS, deliberative_plans, reactive_acts, vehicle_actions

SCRIPTED_DELIBERATIVE = '''
from apdp import Deliver, DeliberativeAgent, Move, Pickup

def _action(a):
    return Move(a[1]) if a[0] == "move" else Pickup(a[1]) if a[0] == "pickup" else Deliver(a[1])

class Scripted(DeliberativeAgent):
    def setup(self, topology, distribution, company):
        self.plans, self.n = self.params["plans"], 0

    def plan(self, vehicle, tasks):
        self.n += 1
        return [_action(a) for a in self.plans[self.n - 1]]
'''

SCRIPTED_CENTRALIZED = '''
from apdp import CentralizedAgent, Deliver, Move, Pickup

def _action(a):
    return Move(a[1]) if a[0] == "move" else Pickup(a[1]) if a[0] == "pickup" else Deliver(a[1])

class Scripted(CentralizedAgent):
    def plan(self, vehicles, tasks):
        return [[_action(a) for a in self.params["plans"].get(v.name, [])] for v in vehicles]
'''

SCRIPTED_REACTIVE = '''
from apdp import Deliver, Move, Pickup, ReactiveAgent

def _action(a):
    return Move(a[1]) if a[0] == "move" else Pickup(a[1]) if a[0] == "pickup" else Deliver(a[1])

class Scripted(ReactiveAgent):
    def setup(self, topology, distribution, company):
        self.actions, self.n = self.params["actions"], 0

    def act(self, vehicle, task):
        offer = "none" if task is None else f"{task.pickup}->{task.delivery}:w{int(task.weight)}:r{int(task.reward)}"
        print(f"ACT {self.n + 1} city={vehicle.city} task={offer} reward={vehicle.reward} "
              f"units={vehicle.distance_units} cpk={vehicle.cost_per_km}", flush=True)
        self.n += 1
        return _action(self.actions[self.n - 1])
'''

HOSTILE = {
    "crash": "raise RuntimeError('boom')",
    "hang": "import time\n        time.sleep(30)",
    "garbage": "return 'garbage'",
    "illegal": "return Move(vehicle.city)",  # not a neighbour: the platform's IllegalPlanException
    "exits": "import os\n        os._exit(3)",
}


def _agent(tmp_path: Path, name: str, source: str) -> AgentSource:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return AgentSource(name, path)


def _actions_json(actions: list[Action]) -> list[list[object]]:
    return [a.to_json() for a in actions]


@pytest.mark.parametrize(("run", "names"), [("06_probe_seq_x2", ["dprobe-seq", "dprobe-seq"]),
                                            ("07_probe_overload_vs_seq", ["dprobe-overload", "dprobe-seq"])])
def test_sandboxed_deliberative_agents_reproduce_the_platform(tmp_path: Path, run: str, names: list[str]) -> None:
    configuration = read_exercise(CONFIG / "deliberative.xml")
    plans = deliberative_plans(RUNS / "deliberative" / run)
    sources, params = [], []
    for i, name in enumerate(names):
        (tmp_path / str(i)).mkdir()
        sources.append(_agent(tmp_path / str(i), name, SCRIPTED_DELIBERATIVE))
        params.append({"plans": [_actions_json(p) for p in plans[configuration.companies[i].vehicles[0].name]]})
    record = play_exercise(configuration, sources, exercise="deliberative", params=params, platform_draw=True)
    played = read_history(RUNS / "deliberative" / run / "history.xml")
    assert record.fault is None and record.referee_error is None
    assert record.statistics == played.statistics
    assert record.events == len(played.events)
    assert replay_exercise(record).round.events == list(played.events)
    assert verify_exercise_record(record) == []


@pytest.mark.parametrize(("run", "names"), [("04_probe", ["rprobe"]),
                                            ("05_probe_three", ["rprobe", "rprobe2", "rprobe-half"])])
def test_sandboxed_reactive_agents_reproduce_the_platform(tmp_path: Path, run: str, names: list[str]) -> None:
    # three agents on one random stream: each offer depends on when every agent's act comes (R3)
    acts = reactive_acts(RUNS / "reactive" / run)
    sources, params = [], []
    for i, name in enumerate(names):
        (tmp_path / str(i)).mkdir()
        sources.append(_agent(tmp_path / str(i), name, SCRIPTED_REACTIVE))
        params.append({"actions": [a.action.to_json() for a in acts if a.agent == name]})
    record = play_exercise(CONFIG / "reactive.xml", sources, params=params, end=ReactiveEnd(hours=None, acts=len(acts)),
                           platform_draw=True)
    assert record.fault is None and record.referee_error is None, record.fault
    played = read_history(RUNS / "reactive" / run / "history.xml")
    assert replay_exercise(record).round.events[:len(played.events)] == list(played.events)
    for i, name in enumerate(names):
        seen = [line.split(" ", 2)[2] for line in record.outputs[i].splitlines() if line.startswith("ACT ")]
        recorded = [a for a in acts if a.agent == name]
        assert len(seen) == len(recorded) > 0
        for line, act in zip(seen, recorded, strict=True):
            offer = "none" if act.task is None else f"{act.task[0]}->{act.task[1]}:w{act.task[2]}:r{act.task[3]}"
            assert line.startswith(f"city={act.city} task={offer} reward={act.vehicle_reward} "
                                   f"units={act.vehicle_units} "), (line, act)
            cpk = int(line.rsplit("cpk=", 1)[1])  # the agent's totals, as the platform's Agent gives them
            cost = java_round(act.vehicle_units * cpk / 1000.0)
            assert (act.vehicle_reward, cost, act.vehicle_reward - cost) == (act.agent_reward, act.agent_cost,
                                                                             act.agent_profit)
    assert verify_exercise_record(record) == []


def test_sandboxed_centralized_agents_reproduce_the_platform(tmp_path: Path) -> None:
    run = RUNS / "centralized" / "04_two_agents"
    played = read_history(run / "history.xml")
    actions = {v: _actions_json(a) for v, a in vehicle_actions(played).items()}
    sources = []
    for name in ("cprobe-naive", "cprobe-round-robin"):
        (tmp_path / name).mkdir()
        sources.append(_agent(tmp_path / name, name, SCRIPTED_CENTRALIZED))
    record = play_exercise(CONFIG / "centralized_2co.xml", sources, exercise="centralized", platform_draw=True,
                           params=[{"plans": actions}, {"plans": actions}])
    assert record.fault is None
    assert record.statistics == played.statistics
    assert replay_exercise(record).round.events == list(played.events)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_reactive_agent_is_faulted_and_the_referee_survives(tmp_path: Path, kind: str) -> None:
    source = ("from apdp import Move, Pickup, ReactiveAgent\n\nclass Hostile(ReactiveAgent):\n"
              "    def act(self, vehicle, task):\n        " + HOSTILE[kind] + "\n")
    configuration = dataclasses.replace(read_exercise(CONFIG / "reactive.xml"),
                                        timeouts_ms={"setup": 10_000, "plan": 1_000})
    record = play_exercise(configuration, [_agent(tmp_path, "hostile", source)], exercise="reactive")
    assert record.referee_error is None and record.fault is not None
    expected = {"crash": FaultKind.EXCEPTION, "hang": FaultKind.TIMEOUT, "garbage": FaultKind.INVALID_PLAN,
                "illegal": FaultKind.INVALID_PLAN, "exits": FaultKind.PROCESS_DIED}[kind]
    assert record.fault.kind == expected and record.fault.phase == "act", record.fault
    if kind == "illegal":
        assert "not a neighbor" in record.fault.message
    assert verify_exercise_record(record) == []  # the replay stops where the round did


def test_a_record_round_trips_and_a_tampered_one_is_caught(tmp_path: Path) -> None:
    from apdp.bundled import BUNDLED_AGENTS

    record = play_exercise(CONFIG / "deliberative.xml", [str(BUNDLED_AGENTS / "exercises" / "deliberative.py")],
                           platform_draw=True)
    assert (record.statistics[0].total_cost, record.statistics[0].total_profit) == (25900, 511286)  # the platform's
    data = json.loads(json.dumps(record.to_json()))
    assert exercise_record_from_json(data) == record and data["schema"] == 2
    data["statistics"][0]["total_profit"] += 1
    assert verify_exercise_record(exercise_record_from_json(data))
    tampered: ExerciseRecord = dataclasses.replace(record, answers=((),))
    assert verify_exercise_record(tampered)


SEER = '''
from apdp import Move, ReactiveAgent
from apdp.logist.javarandom import JavaRandom


class Seer(ReactiveAgent):
    """Knows the platform's generator where the offers begin (an agent can work it back from the raw
    values it is told, or anyone can run it from the file's rngSeed) and foresees each offer."""

    def setup(self, topology, distribution, company):
        self.rng = JavaRandom(0)
        self.rng._seed = int(self.params["state"])
        self.hits = self.calls = 0

    def act(self, vehicle, task):
        x = self.rng.next_double()
        foreseen = None
        for city in self.distribution.cities:
            x -= self.distribution.probability(vehicle.city, city)
            if x <= 0.0:
                foreseen = city
                break
        self.calls += 1
        self.hits += foreseen == (None if task is None else task.delivery)
        print(f"foreseen {self.hits} of {self.calls}", flush=True)
        return Move(sorted(self.topology.neighbours(vehicle.city))[0])
'''


def test_no_agent_foresees_the_offers_but_under_the_platform_s_own_draw(tmp_path: Path) -> None:
    from apdp.exercises.distribution import TaskStream
    from apdp.logist.javarandom import JavaRandom

    configuration = read_exercise(CONFIG / "reactive.xml")
    stream = TaskStream(configuration)
    stream.batch(configuration.tasks)  # the platform draws a batch before the first offer, also here
    assert isinstance(stream.random, JavaRandom)
    seer = [_agent(tmp_path, "seer", SEER)]
    params = [{"state": stream.random._seed}]
    end = ReactiveEnd(hours=None, acts=60)

    def foreseen(record: ExerciseRecord) -> str:
        assert record.fault is None and verify_exercise_record(record) == [], record.fault
        return record.outputs[0].strip().splitlines()[-1]

    platform = play_exercise(configuration, seer, params=params, end=end, platform_draw=True)
    assert foreseen(platform) == "foreseen 60 of 60" and platform.draws is None
    secret, other = bytes(range(32)), bytes(range(1, 33))
    drawn = play_exercise(configuration, seer, params=params, end=end, secret=secret)
    hits = int(foreseen(drawn).split()[1])
    assert hits < 45 and drawn.draws is not None and drawn.seed == configuration.laws.rng_seed
    again = play_exercise(configuration, seer, params=params, end=end, secret=secret)
    assert again.outputs == drawn.outputs and again.draws == drawn.draws  # same secret and seed, same round
    assert play_exercise(configuration, seer, params=params, end=end, secret=other).draws != drawn.draws
    elsewhere = play_exercise(configuration, seer, params=params, end=end, secret=secret, seed=7)
    assert elsewhere.draws != drawn.draws and elsewhere.seed == 7


LONG_PLAN = '''
from apdp import DeliberativeAgent, Move


class Long(DeliberativeAgent):
    def plan(self, vehicle, tasks):
        there = sorted(self.topology.neighbours(vehicle.city))[0]
        print("x" * 50_000, flush=True)
        return [Move(there), Move(vehicle.city)] * 20_000
'''

CHATTY = '''
from apdp import Move, ReactiveAgent


class Chatty(ReactiveAgent):
    def act(self, vehicle, task):
        print("y" * 5_000, flush=True)
        return Move(sorted(self.topology.neighbours(vehicle.city))[0])
'''


def test_a_record_keeps_to_its_limit_and_names_the_agent_s_file(tmp_path: Path) -> None:
    from apdp.agents.files import agent_hash
    from apdp.errors import UserError
    from apdp.referee.record import record_size
    from apdp.scenario import Limits

    long = _agent(tmp_path, "long", LONG_PLAN)
    record = play_exercise(CONFIG / "deliberative.xml", [long], exercise="deliberative")
    assert record.fault is not None and record.fault.phase == "plan" and "share of the record" in record.fault.message
    assert record_size(record.to_json()) <= Limits().record_kb * 1024 and verify_exercise_record(record) == []
    assert record.identities[0]["sha256"] == agent_hash(long.path) and record.identities[0]["name"] == "long"
    assert record.timing[0]["plan"] > 0
    chatty = _agent(tmp_path, "chatty", CHATTY)
    small = Limits(record_kb=32)
    talked = play_exercise(CONFIG / "reactive.xml", [chatty], end=ReactiveEnd(hours=None, acts=40), limits=small)
    assert talked.fault is None and record_size(talked.to_json()) <= 32 * 1024 and len(talked.answers[0]) == 40
    assert "y" * 5_000 in talked.outputs[0]  # it did print, 200 KB in all, cut to fit the record
    assert verify_exercise_record(exercise_record_from_json(json.loads(json.dumps(talked.to_json())))) == []
    for end in (ReactiveEnd(hours=1e6), ReactiveEnd(hours=None, acts=10**7), ReactiveEnd(hours=None, acts=None)):
        with pytest.raises(UserError, match=r"--acts|an end"):
            play_exercise(CONFIG / "reactive.xml", [chatty], end=end)


DAWDLER = '''
import time

from apdp import Move, ReactiveAgent


class Dawdler(ReactiveAgent):
    def act(self, vehicle, task):
        time.sleep(0.4)
        return Move(sorted(self.topology.neighbours(vehicle.city))[0])
'''


def test_a_reactive_agent_s_act_calls_share_their_time_limit(tmp_path: Path) -> None:
    # each act within its limit of 1.5 s, but not all of them: the round would last as long as the agent liked
    from apdp.check.exercise_check import with_timeouts

    configuration = with_timeouts(read_exercise(CONFIG / "reactive.xml"), {"setup": 30.0, "plan": 1.5})
    record = play_exercise(configuration, [_agent(tmp_path, "dawdler", DAWDLER)], end=ReactiveEnd(hours=None, acts=20))
    assert record.fault is not None and record.fault.kind == FaultKind.TIMEOUT and record.fault.phase == "act"
    assert "in all" in record.fault.message and 2 <= len(record.answers[0]) <= 4, record.fault
    assert verify_exercise_record(record) == []

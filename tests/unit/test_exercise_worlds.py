"""The three worlds replayed against the platform's reference runs: the decisions their agents
recorded (a probe's console, or a history's events) drive scripted controllers, and the offers,
event times, stuck actions and statistics come out exactly as the platform's."""

from __future__ import annotations

import pytest

from apdp.exercises.centralized import CentralizedSeat
from apdp.exercises.clock import Clock, wait_units
from apdp.exercises.configuration import read_exercise
from apdp.exercises.deliberative import DeliberativeSeat
from apdp.exercises.history import read_history
from apdp.exercises.naive_plan import naive_plan, naive_plans
from apdp.exercises.reactive import ActCall, ReactiveSeat
from apdp.exercises.round import ReactiveEnd, Round
from apdp.exercises.verifier import ExerciseFault, IllegalPlan
from apdp.game.plan import Action, Move, Pickup
from tests.exercise_runs import (
    CONFIG,
    RUNS,
    ScriptedCentralized,
    ScriptedDeliberative,
    ScriptedReactive,
    deliberative_plans,
    reactive_acts,
    stuck_lines,
    vehicle_actions,
)


def test_the_clock_by_hand() -> None:
    # 584 km at 220 km/h: arrives at 2654545454 ns (04_probe's second event); a wait at 220 km/h is 66000 units
    clock = Clock([220_000])
    times: list[int] = []

    def serve(v: int, time: int) -> int | None:
        times.append(time)
        return [584_000, wait_units(220_000)][len(times) - 1] if len(times) <= 2 else None

    clock.run(serve)
    assert times == [0, 2654545454, 2954545454] and wait_units(90_000) == 27_000


@pytest.mark.parametrize(("run", "names"), [("04_probe", ["rprobe"]),
                                            ("05_probe_three", ["rprobe", "rprobe2", "rprobe-half"])])
def test_reactive_runs_offer_and_time_as_the_platform(run: str, names: list[str]) -> None:
    acts = reactive_acts(RUNS / "reactive" / run)
    controllers = [ScriptedReactive([a for a in acts if a.agent == name]) for name in names]
    round_ = Round(read_exercise(CONFIG / "reactive.xml"), [ReactiveSeat(c) for c in controllers], names,
                   end=ReactiveEnd(hours=None, acts=len(acts)))
    history = round_.run()
    played = read_history(RUNS / "reactive" / run / "history.xml")
    assert history.tasks == played.tasks
    assert history.events[: len(played.events)] == played.events  # the platform's file kept its first events
    for name, controller in zip(names, controllers, strict=True):
        recorded = [a for a in acts if a.agent == name]
        assert len(controller.calls) == len(recorded)
        for act, call in zip(recorded, controller.calls, strict=True):
            offer = None if call.task is None else (call.task.pickup, call.task.delivery, call.task.weight,
                                                    call.task.reward)
            assert (call.vehicle.city, offer, call.vehicle.reward, call.vehicle.distance_units) == (
                act.city, act.task, act.vehicle_reward, act.vehicle_units)
            assert (call.totals.reward, call.totals.cost, call.totals.profit) == (
                act.agent_reward, act.agent_cost, act.agent_profit)
    assert round_.acts == len(acts)


class Wanderer:
    """Takes every offer; otherwise the first neighbour."""

    def __init__(self, neighbours: dict[str, tuple[str, ...]]) -> None:
        self.neighbours = neighbours
        self.calls: list[ActCall] = []

    def act(self, call: ActCall) -> Action:
        self.calls.append(call)
        return Pickup(0) if call.task is not None else Move(self.neighbours[call.vehicle.city][0])


def test_the_reactive_end_rule_is_a_prefix_of_the_endless_run() -> None:
    configuration = read_exercise(CONFIG / "reactive.xml")
    near = {c: configuration.topology.neighbors(c) for c in configuration.topology.cities}
    long = Round(configuration, [ReactiveSeat(Wanderer(near)), ReactiveSeat(Wanderer(near))], ["a", "b"],
                 end=ReactiveEnd(hours=200)).run()
    short_round = Round(configuration, [ReactiveSeat(Wanderer(near)), ReactiveSeat(Wanderer(near))], ["a", "b"],
                        end=ReactiveEnd(hours=100))
    short = short_round.run()
    before = [e for e in long.events if e.time < 100 * 10**9]
    assert short.events[: len(before)] == tuple(before)
    assert all(e.time >= 100 * 10**9 for e in short.events[len(before):])  # only the deliveries begun before
    assert not any(isinstance(e.action, Pickup) for e in short.events[len(before):])
    assert [s.agent for s in short.statistics] and short.statistics[0].total_profit >= short.statistics[1].total_profit


def test_reactive_faults() -> None:
    class Stay:
        def act(self, call: ActCall) -> Action:
            return Move(call.vehicle.city)

    with pytest.raises(IllegalPlan, match="not a neighbor"):
        Round(read_exercise(CONFIG / "reactive.xml"), [ReactiveSeat(Stay())], ["r"]).run()

    class Greedy:  # reactive2_cap15: Vehicle 1 carries 15, tasks weigh 10 to 30
        def act(self, call: ActCall) -> Action:
            return Pickup(0) if call.task is not None else Move(neighbours[call.vehicle.city][0])

    configuration = read_exercise(CONFIG / "reactive2_cap15.xml")
    neighbours = {c: configuration.topology.neighbors(c) for c in configuration.topology.cities}
    with pytest.raises(IllegalPlan, match="exceeds remaining vehicle capacity"):
        Round(configuration, [ReactiveSeat(Greedy())], ["r"]).run()


@pytest.mark.parametrize(("run", "names"), [("06_probe_seq_x2", ["dprobe-seq", "dprobe-seq"]),
                                            ("07_probe_overload_vs_seq", ["dprobe-overload", "dprobe-seq"])])
def test_deliberative_agents_share_the_tasks_and_replan_when_stuck(run: str, names: list[str]) -> None:
    configuration = read_exercise(CONFIG / "deliberative.xml")
    plans = deliberative_plans(RUNS / "deliberative" / run)
    controllers = [ScriptedDeliberative(plans[configuration.companies[i].vehicles[0].name]) for i in range(2)]
    round_ = Round(configuration, [DeliberativeSeat(c) for c in controllers], names)
    history = round_.run()
    played = read_history(RUNS / "deliberative" / run / "history.xml")
    assert history.events == played.events and history.statistics == played.statistics
    stuck = [f"LP: Stuck action : Pickup (Task {s.action.task})" for s in round_.stuck_actions
             if isinstance(s.action, Pickup)]
    assert stuck == stuck_lines(RUNS / "deliberative" / run)
    for controller in controllers:
        assert len(controller.calls) == len(controller.plans)
        # each cancellation but one after the last task was taken is followed by a plan at once
        assert len(controller.cancelled) in (len(controller.calls) - 1, len(controller.calls))
        for call, cancel in zip(controller.calls[1:], controller.cancelled, strict=False):
            assert call.time == cancel.time and call.vehicle.city == cancel.vehicle.city  # replanned at once
            assert {t.id for t in cancel.carried} == {t.id for t in call.vehicle.carried}
    if run == "07_probe_overload_vs_seq":  # overload was stuck carrying tasks 1 and 2
        assert [t.id for t in controllers[0].cancelled[1].carried] == [1, 2]


def test_the_deliberative_template_run() -> None:
    configuration = read_exercise(CONFIG / "deliberative.xml")
    played = read_history(RUNS / "deliberative/01_template/history.xml")
    plan = naive_plan(configuration.topology, "Lausanne", played.tasks)
    assert plan == vehicle_actions(played)["Vehicle 1"]
    history = Round(configuration, [DeliberativeSeat(ScriptedDeliberative([plan]))], ["deliberative-random"]).run()
    assert history.events == played.events and history.statistics == played.statistics
    assert (history.statistics[0].total_distance, history.statistics[0].total_cost) == (5180.0, 25900)


def test_deliberative_plans_must_pick_up_every_task() -> None:
    configuration = read_exercise(CONFIG / "deliberative.xml")
    with pytest.raises(IllegalPlan, match="Not all available tasks were picked up"):
        Round(configuration, [DeliberativeSeat(ScriptedDeliberative([[]]))], ["d"]).run()


@pytest.mark.parametrize(("run", "config", "names"), [
    ("01_template_naive", "centralized.xml", ["centralized-naive"]),
    ("03_probe_round_robin", "centralized.xml", ["cprobe-round-robin"]),
    ("04_two_agents", "centralized_2co.xml", ["cprobe-naive", "cprobe-round-robin"]),
])
def test_centralized_runs(run: str, config: str, names: list[str]) -> None:
    played = read_history(RUNS / "centralized" / run / "history.xml")
    configuration = read_exercise(CONFIG / config)
    history = Round(configuration, [CentralizedSeat(ScriptedCentralized(played)) for _ in names], names).run()
    assert history.events == played.events and history.statistics == played.statistics


def test_the_centralized_template_plan_and_its_rounding() -> None:
    configuration = read_exercise(CONFIG / "centralized.xml")
    played = read_history(RUNS / "centralized/01_template_naive/history.xml")
    homes = [v.home for v in configuration.companies[0].vehicles]

    class Template:
        def plan(self, call: object) -> list[list[Action]]:
            return naive_plans(configuration.topology, homes, played.tasks)

    history = Round(configuration, [CentralizedSeat(Template())], ["centralized-naive"]).run()
    assert history.events == played.events
    assert (history.statistics[0].total_cost, history.statistics[0].total_profit) == (68731, 1735012)
    robin = read_history(RUNS / "centralized/03_probe_round_robin/history.xml").statistics[0]
    assert (robin.total_distance_units, robin.total_cost) == (16_000_100, 80001)  # 80000.5 rounds up


def test_centralized_faults() -> None:
    configuration = read_exercise(CONFIG / "centralized.xml")

    class Fewer:
        def plan(self, call: object) -> list[list[Action]]:
            return [[]]

    with pytest.raises(ExerciseFault, match="number of plans"):
        Round(configuration, [CentralizedSeat(Fewer())], ["c"]).run()

    class Idle:
        def plan(self, call: object) -> list[list[Action]]:
            return [[], [], [], []]

    with pytest.raises(IllegalPlan, match="Not all available tasks"):
        Round(configuration, [CentralizedSeat(Idle())], ["c"]).run()
    with pytest.raises(ExerciseFault, match="more agents than companies"):
        Round(configuration, [CentralizedSeat(Idle()), CentralizedSeat(Idle())], ["a", "b"])

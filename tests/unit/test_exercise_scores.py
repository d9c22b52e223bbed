"""Scores of the course's exercises: each reference (the optimal reactive policy, the optimal
deliberative plan, the centralized template and planner) on networks of three or four cities small
enough to work out by hand, and the scores of scripted agents played through rounds."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from apdp.exercises.centralized import CentralizedPlanCall, CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration, read_exercise
from apdp.exercises.deliberative import CancelCall, DeliberativeSeat, PlanCall
from apdp.exercises.distribution import TaskStream
from apdp.exercises.naive_plan import naive_plan
from apdp.exercises.optimal_plan import Heuristic, farthest_task, search_plan, sum_of_task_distances
from apdp.exercises.reactive import ActCall, ReactiveSeat
from apdp.exercises.reactive_mdp import reward_per_km, value_iteration
from apdp.exercises.round import ReactiveEnd, Round
from apdp.exercises.scores import (
    Admissibility,
    AgentOutcome,
    AnsweredPlan,
    CentralizedScore,
    DeliberativeScore,
    DiscriminatingInstance,
    ReactiveScore,
    admissibility,
    discriminating_instances,
    score_centralized,
    score_deliberative,
    score_reactive,
)
from apdp.exercises.scores.centralized import PlannerController, TemplateController, play_company
from apdp.exercises.scores.deliberative import RecordingDeliberative, optimal_units
from apdp.exercises.scores.reactive import PolicyController
from apdp.exercises.topology import LogistTopology
from apdp.game.exercise import ExerciseVehicle
from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task
from tests.exercise_runs import CONFIG

LINE = [("A", "B", 100), ("B", "C", 100)]
#: A hub H and three leaves at 100, 200 and 300 km.
STAR = [("H", "X", 100), ("H", "Y", 200), ("H", "Z", 300)]


def configuration(folder: Path, routes: Sequence[tuple[str, str, int]], homes: Sequence[Sequence[str]], *,
                  tasks: int = 2, seed: int = 3) -> ExerciseConfiguration:
    """A course configuration on ``routes``: every pair equally likely, no task half the time, short
    trips paid 1000 and the longest 100, weight 3; ``homes[c]`` the homes of company c's vehicles
    (capacity 30, 1 per km)."""
    cities = sorted({c for a, b, _ in routes for c in (a, b)})
    (folder / "settings.xml").write_text('<settings><set timeout-plan="1000"/></settings>', encoding="utf-8")
    (folder / "net.xml").write_text(
        '<topology name="t"><cities>' + "".join(f'<city name="{c}" x="{k}" y="0"/>' for k, c in enumerate(cities))
        + "</cities><routes>" + "".join(f'<route from="{a}" to="{b}" distance="{d}"/>' for a, b, d in routes)
        + "</routes></topology>", encoding="utf-8")
    companies = "".join(
        f'<company name="C{c}">' + "".join(
            f'<vehicle name="V{c}{v}"><set home="{home}"/><set capacity="30"/><set cost-per-km="1"/></vehicle>'
            for v, home in enumerate(company)) + "</company>"
        for c, company in enumerate(homes))
    (folder / "c.xml").write_text(
        f'<configuration name="t"><settings import="settings.xml"/><topology import="net.xml"/>'
        f'<tasks number="{tasks}" rngSeed="{seed}"><probability distribution="constant" value="1"/>'
        '<reward distribution="constant" policy="short-distances" min="100" max="1000"/>'
        '<weight distribution="constant" value="3"/><no-task distribution="constant" value="0.5"/></tasks>'
        f"<companies>{companies}</companies></configuration>", encoding="utf-8")
    return read_exercise(folder / "c.xml")


# -- reactive ----------------------------------------------------------------------------------


def test_the_optimal_reactive_policy_by_hand(tmp_path: Path) -> None:
    # A - B - C, 100 km each; an offer to each other city with p 1/4, none with 1/2; A->B, B->C pay
    # 1000, A->C 100 for 200 km. Taking A->C lands in C, moving lands in B, and B is worth more
    # (every trip from B is short): refuse long trips. With E_X the value of arriving in X:
    # E_A = 1/4 (900 + g E_B) + 3/4 (-100 + g E_B) = 150 + g E_B, E_B = 1/2 (900 + g E_A) + 1/2 (-100 + g E_A)
    config = configuration(tmp_path, LINE, [["A"]])
    stream = TaskStream(config)
    assert (stream.reward("A", "B"), stream.reward("A", "C"), stream.probability("A", "B")) == (1000, 100, 0.25)
    g = 0.85
    policy = value_iteration(config.topology, stream, cost_per_km=1, capacity=30, discount=g, tolerance=1e-12)
    e_a = (150 + 400 * g) / (1 - g * g)
    e_b = 400 + g * e_a
    assert policy.act("A", "B") == ("take", "B") and policy.act("A", "C") == ("move", "B")
    assert policy.act("C", "A") == ("move", "B") and policy.act("B", "A") == ("take", "A")
    assert policy.act("B", None) == ("move", "A") and policy.act("A", None) == ("move", "B")  # ties: first neighbour
    assert math.isclose(policy.values[("A", "C")], -100 + g * e_b, rel_tol=1e-9)
    assert math.isclose(policy.values[("B", "C")], 900 + g * e_a, rel_tol=1e-9)
    assert math.isclose(policy.values[("B", None)], -100 + g * e_a, rel_tol=1e-9)
    # every step drives 100 km; half the steps start in B (reward 1/2 x 1000), half in A or C (1/4 x 1000)
    assert math.isclose(reward_per_km(config.topology, stream, policy, "A").reward_per_km, 3.75, rel_tol=1e-9)


class TakeAll:
    """Takes every offer; with none, moves to the first neighbour."""

    def __init__(self, topology: LogistTopology) -> None:
        self.topology = topology

    def act(self, call: ActCall) -> Action:
        return Pickup(0) if call.task is not None else Move(self.topology.neighbors(call.vehicle.city)[0])


def _reactive_round(config: ExerciseConfiguration, controllers: Sequence[object], end: ReactiveEnd) -> Round:
    round_ = Round(config, [ReactiveSeat(c) for c in controllers], [f"r{k}" for k in range(len(controllers))],  # type: ignore[arg-type]
                   end=end)
    round_.run()
    return round_


def test_the_optimal_policy_scores_exactly_one_on_the_same_draws(tmp_path: Path) -> None:
    config = configuration(tmp_path, LINE, [["A"]])
    end = ReactiveEnd(hours=None, acts=300)
    stream = TaskStream(config)
    policy = value_iteration(config.topology, stream, cost_per_km=1, capacity=30)
    played = _reactive_round(config, [PolicyController(policy)], end)
    (score,) = score_reactive(config, [AgentOutcome.of_round(played, 0)], end=end)
    assert score.ratio == 1.0 and score.reward == score.optimal_reward
    totals = played.agents[0].totals()
    assert score.reward_per_km == totals.reward / (totals.distance_units / 1000)
    assert score.profit_per_km == totals.profit / (totals.distance_units / 1000)
    assert math.isclose(score.expected_reward_per_km, 3.75) and abs(score.optimal_reward_per_km - 3.75) < 0.5
    assert ReactiveScore.from_json(score.to_json()) == score


def test_an_agent_that_takes_every_task_scores_less(tmp_path: Path) -> None:
    config = configuration(tmp_path, LINE, [["A"], ["C"]])
    end = ReactiveEnd(hours=None, acts=10_000)  # long enough for the averages to settle
    played = _reactive_round(config, [TakeAll(config.topology), TakeAll(config.topology)], end)
    scores = score_reactive(config, [AgentOutcome.of_round(played, a) for a in range(2)], end=end)
    for a, score in enumerate(scores):
        totals = played.agents[a].totals()
        assert (score.agent, score.reward, score.distance_km) == (a, totals.reward, totals.distance_units / 1000)
        assert score.ratio is not None and score.ratio < 1
        # in the long run: taking all spends 3/7 of the steps in B (500 per 100 km) and 4/7 in A or C
        # (275 per 125 km): 3.25 per km; the optimal policy 3.75
        assert abs(score.reward_per_km - 3.25) < 0.15 and abs(score.optimal_reward_per_km - 3.75) < 0.15
    # the reference is a round of two optimal agents sharing the stream, each scored on its own company
    assert scores[0].optimal_reward != scores[1].optimal_reward


# -- deliberative ------------------------------------------------------------------------------


def _network(routes: Sequence[tuple[str, str, int]], folder: Path) -> LogistTopology:
    return configuration(folder, routes, [[routes[0][0]]]).topology


def _view(city: str, carried: tuple[Task, ...] = (), capacity: int = 30) -> ExerciseVehicle:
    return ExerciseVehicle(0, "V", city, city, capacity, 1, 90.0, carried, 0, 0)


def brute_force(topology: LogistTopology, start: str, capacity: int, tasks: Sequence[Task]) -> int:
    """The least units over every order of the stops (pickup before delivery, within capacity)."""
    stops = [(t, kind) for t in tasks for kind in ("pickup", "deliver")]
    best = None
    for order in itertools.permutations(stops):
        held: set[int] = set()
        here, units, ok = start, 0, True
        for task, kind in order:
            if kind == "pickup":
                held.add(task.id)
                ok = ok and sum(int(t.weight) for t in tasks if t.id in held) <= capacity
                there = task.pickup
            else:
                ok = ok and task.id in held
                held.discard(task.id)
                there = task.delivery
            units += topology.distance_units(here, there)
            here = there
        if ok and (best is None or units < best):
            best = units
    assert best is not None
    return best


def _stops(topology: LogistTopology, start: str, stops: Sequence[tuple[str, Action]]) -> tuple[Action, ...]:
    plan: list[Action] = []
    here = start
    for city, action in stops:
        plan += [Move(c) for c in topology.path(here, city)]
        plan.append(action)
        here = city
    return tuple(plan)


def test_an_optimal_deliberative_plan_by_hand(tmp_path: Path) -> None:
    # from the hub H, tasks X->Y and Y->Z; the six orders of the stops drive 900 (X, Y, Y, Z twice),
    # 1300 (Y, X, Y, Z) or 1400 km (the other three)
    star = _network(STAR, tmp_path)
    tasks = (Task(0, "X", "Y", 3, 1000), Task(1, "Y", "Z", 3, 1000))
    call = PlanCall(0, 1, 0, _view("H"), tasks)
    assert optimal_units(star, call) == brute_force(star, "H", 30, tasks) == 900_000
    good = _stops(star, "H", [("X", Pickup(0)), ("Y", Deliver(0)), ("Y", Pickup(1)), ("Z", Deliver(1))])
    worse = _stops(star, "H", [("Y", Pickup(1)), ("X", Pickup(0)), ("Y", Deliver(0)), ("Z", Deliver(1))])
    outcome = AgentOutcome(index=0, name="a", reward=2000, distance_units=1_300_000, cost=1300, profit=700,
                           vehicles_used=1, vehicles=1)
    score = score_deliberative(star, [AnsweredPlan(call, good, 0.5, 12), AnsweredPlan(call, worse, None, 30)],
                               outcome)
    assert [p.units for p in score.plans] == [900_000, 1_300_000]
    assert [p.optimal for p in score.plans] == [True, False] and not score.all_optimal
    assert math.isclose(score.plans[1].excess, 4 / 9) and (score.plan_cost, score.optimal_cost) == (900.0, 900.0)
    assert (score.seconds, score.nodes) == (0.5, 42)
    # carrying X->Y already (picked up at H), only Y->Z left: H, Y, Z = 200 + 500
    carrying = PlanCall(0, 2, 0, _view("H", carried=(tasks[0],)), (tasks[1],))
    assert optimal_units(star, carrying) == 700_000
    assert DeliberativeScore.from_json(score.to_json()) == score


class Naive:
    """The course template's naive plan (one task after the other), and the calls it got."""

    def __init__(self, topology: LogistTopology) -> None:
        self.topology = topology
        self.nodes = 7

    def plan(self, call: PlanCall) -> list[Action]:
        return naive_plan(self.topology, call.vehicle.city, call.tasks)

    def plan_cancelled(self, call: CancelCall) -> None:
        pass


class AStar:
    """A* with ``heuristic`` from where the vehicle is."""

    def __init__(self, topology: LogistTopology, heuristic: Heuristic) -> None:
        self.topology = topology
        self.heuristic = heuristic

    def plan(self, call: PlanCall) -> list[Action]:
        v = call.vehicle
        return list(search_plan(self.topology, v.city, v.capacity, call.tasks, v.carried, self.heuristic).actions)

    def plan_cancelled(self, call: CancelCall) -> None:
        pass


def _deliberative(config: ExerciseConfiguration, controller: object) -> tuple[DeliberativeScore, Round]:
    recording = RecordingDeliberative(controller)  # type: ignore[arg-type]
    round_ = Round(config, [DeliberativeSeat(recording)], ["d"])
    round_.run()
    return score_deliberative(config.topology, recording.answered, AgentOutcome.of_round(round_, 0)), round_


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_template_agent_scored_against_the_enumerated_optimum(tmp_path: Path, seed: int) -> None:
    square = [("A", "B", 100), ("B", "C", 150), ("C", "D", 100), ("D", "A", 250)]
    config = configuration(tmp_path, square, [["A"]], tasks=3, seed=seed)
    score, round_ = _deliberative(config, Naive(config.topology))
    (plan,) = score.plans
    assert plan.optimal_units == brute_force(config.topology, "A", 30, round_.batch)
    assert plan.units == score.distance_units == naive_units(config.topology, "A", round_.batch)
    assert plan.nodes == 7 and plan.seconds is not None and plan.tasks == 3
    assert plan.optimal == (plan.units == plan.optimal_units)


def naive_units(topology: LogistTopology, start: str, tasks: Sequence[Task]) -> int:
    here, units = start, 0
    for t in sorted(tasks, key=lambda t: t.id):
        units += topology.distance_units(here, t.pickup) + topology.distance_units(t.pickup, t.delivery)
        here = t.delivery
    return units


def test_instances_where_an_inadmissible_heuristic_is_not_optimal() -> None:
    course = read_exercise(CONFIG / "deliberative.xml")
    found = discriminating_instances(course, tasks=4, count=2)
    assert len(found) == 2
    by_agent: dict[str, list[DeliberativeScore]] = {"admissible": [], "inadmissible": []}
    for instance in found:
        config = instance.configuration(course)
        batch = TaskStream(config).batch(config.tasks)
        assert instance.optimal_units == brute_force(config.topology, instance.home, instance.capacity, batch)
        assert all(units > instance.optimal_units for units in instance.inadmissible_units.values())
        admissible, _ = _deliberative(config, AStar(config.topology, farthest_task))
        inadmissible, _ = _deliberative(config, AStar(config.topology, sum_of_task_distances))
        assert admissible.all_optimal and not inadmissible.all_optimal
        assert inadmissible.plans[0].units == instance.inadmissible_units["sum_of_task_distances"]
        assert DiscriminatingInstance.from_json(instance.to_json()) == instance
        by_agent["admissible"].append(admissible)
        by_agent["inadmissible"].append(inadmissible)
    assert admissibility(by_agent["admissible"]).admissible
    verdict = admissibility(by_agent["inadmissible"])
    assert (verdict.instances, verdict.optimal, verdict.admissible) == (2, 0, False)
    assert not admissibility([]).admissible and Admissibility.from_json(verdict.to_json()) == verdict


# -- centralized -------------------------------------------------------------------------------


def test_the_centralized_template_and_planner_by_hand(tmp_path: Path) -> None:
    # A - B - C; vehicles at A and C; the draw of seed 3: task 0 C->B (pays 1000), task 1 A->C (100).
    # The template: all on the vehicle at A: A->C, C->B, B->A, A->C = 600 km. The best: 300 km.
    config = configuration(tmp_path, LINE, [["A", "C"]])
    assert [(t.pickup, t.delivery, t.reward) for t in TaskStream(config).batch(2)] == [("C", "B", 1000),
                                                                                        ("A", "C", 100)]
    template = play_company(config, 0, TemplateController(config.topology), "t")
    assert (template.cost, template.reward, template.profit, template.vehicles_used) == (600, 1100, 500, 1)
    planner = play_company(config, 0, PlannerController(config, iterations=50), "p")
    assert (planner.cost, planner.profit) == (300, 800)


class OnePerVehicle:
    """Task k on vehicle k (mod the fleet), one after the other."""

    def __init__(self, topology: LogistTopology) -> None:
        self.topology = topology

    def plan(self, call: CentralizedPlanCall) -> list[list[Action]]:
        n = len(call.vehicles)
        return [naive_plan(self.topology, v.city, [t for t in call.tasks if t.id % n == k])
                for k, v in enumerate(call.vehicles)]


def test_centralized_scores_of_scripted_agents(tmp_path: Path) -> None:
    config = configuration(tmp_path, LINE, [["A", "C"], ["B", "A"]])
    round_ = Round(config, [CentralizedSeat(OnePerVehicle(config.topology)),
                            CentralizedSeat(TemplateController(config.topology))], ["spread", "template"])
    history = round_.run()
    spread, template = (score_centralized(config, AgentOutcome.of_history(history, a), iterations=50)
                        for a in range(2))
    # spread: C->B on the vehicle at A (A, C, B: 300 km), A->C on the vehicle at C (C, A, C: 400 km)
    assert (spread.cost, spread.vehicles_used, spread.vehicles) == (700, 2, 2)
    assert (spread.template_cost, spread.planner_cost) == (600, 300)
    assert spread.cost_vs_template == pytest.approx(1 / 6) and spread.cost_vs_planner == pytest.approx(4 / 3)
    # the template of company 1 starts at B: B, C, B, A, C = 500 km, as the agent that plays it
    assert (template.cost, template.template_cost, template.cost_vs_template) == (500, 500, 0.0)
    assert template.vehicles_used == template.template_vehicles_used == 1
    assert CentralizedScore.from_json(spread.to_json()) == spread


def test_the_course_template_scores_as_the_platform_billed_it() -> None:
    # centralized/01_template_naive: 13746.2 km, cost 68731, profit 1735012
    course = read_exercise(CONFIG / "centralized.xml")
    template = play_company(course, 0, TemplateController(course.topology), "template")
    assert (template.distance_units, template.cost, template.profit) == (13_746_200, 68_731, 1_735_012)
    score = score_centralized(course, template, iterations=200)
    assert score.cost_vs_template == 0.0 and score.planner_cost < score.template_cost / 3

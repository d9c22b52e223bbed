"""The references exercises are scored against: value iteration on the reactive MDP, exact search
for one vehicle's optimal plan (and an inadmissible heuristic's worse plan), the templates' naive plan."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from apdp.exercises.configuration import read_exercise
from apdp.exercises.distribution import TaskStream
from apdp.exercises.history import read_history
from apdp.exercises.naive_plan import naive_plan, plan_units
from apdp.exercises.optimal_plan import farthest_task, no_heuristic, search_plan, sum_of_task_distances
from apdp.exercises.reactive_mdp import COURSE_DISCOUNT, reward_per_km, value_iteration
from apdp.exercises.topology import LogistTopology
from apdp.game.task import Task
from apdp.game.topology import parse_topology
from tests.exercise_runs import CONFIG, RUNS

TWO_CITIES = """<?xml version="1.0" encoding="UTF-8"?>
<configuration name="two">
  <settings import="settings.xml"/>
  <topology import="two.xml"/>
  <tasks number="1" rngSeed="1">
    <probability distribution="constant" value="1"/>
    <reward distribution="constant" value="300"/>
    <weight distribution="constant" value="{weight}"/>
    <no-task distribution="constant" value="0.5"/>
  </tasks>
  <companies><company name="A"><vehicle name="V"><set home="A"/><set capacity="10"/><set cost-per-km="1"/>
  </vehicle></company></companies>
</configuration>"""


def _two_cities(folder: Path, weight: int) -> TaskStream:
    (folder / "settings.xml").write_text('<settings><set timeout-plan="1000"/></settings>', encoding="utf-8")
    (folder / "two.xml").write_text('<topology name="two"><cities><city name="A" x="0" y="0"/><city name="B" '
                                    'x="1" y="0"/></cities><routes><route from="A" to="B" distance="100"/></routes>'
                                    '</topology>', encoding="utf-8")
    (folder / "c.xml").write_text(TWO_CITIES.format(weight=weight), encoding="utf-8")
    return TaskStream(read_exercise(folder / "c.xml"))


def test_value_iteration_by_hand(tmp_path: Path) -> None:
    # offer with p = 1/2; take: 300 - 100 + gW, move: -100 + gW; W = (x + y) / 2 = 50 / (1 - g)
    stream = _two_cities(tmp_path, weight=3)
    topology = read_exercise(tmp_path / "c.xml").topology
    policy = value_iteration(topology, stream, cost_per_km=1, discount=0.85)
    w = 50 / (1 - 0.85)
    assert math.isclose(policy.values[("A", "B")], 200 + 0.85 * w, rel_tol=1e-9)
    assert math.isclose(policy.values[("A", None)], -100 + 0.85 * w, rel_tol=1e-9)
    assert policy.act("A", "B") == ("take", "B") and policy.act("B", None) == ("move", "A")
    run = reward_per_km(topology, stream, policy, "A")
    assert math.isclose(run.reward_per_km, 1.5) and math.isclose(run.profit_per_km(1), 0.5)
    # a task heavier than the capacity is never taken: W = -100 / (1 - g)
    heavy = value_iteration(topology, _two_cities(tmp_path, weight=30), cost_per_km=1, capacity=10, discount=0.5)
    assert heavy.act("A", "B") == ("move", "B") and math.isclose(heavy.values[("A", "B")], -200, rel_tol=1e-9)


def test_value_iteration_on_the_course_configuration() -> None:
    configuration = read_exercise(CONFIG / "reactive.xml")
    stream = TaskStream(configuration)
    policy = value_iteration(configuration.topology, stream, cost_per_km=5, discount=COURSE_DISCOUNT)
    assert COURSE_DISCOUNT == 0.85 and policy.iterations < 1000
    run = reward_per_km(configuration.topology, stream, policy, "Paris")
    always = value_iteration(configuration.topology, stream, cost_per_km=5, discount=0.0)  # myopic: takes all
    assert run.reward_per_km >= reward_per_km(configuration.topology, stream, always, "Paris").reward_per_km - 1e-9
    assert run.profit_per_km(5) > 0


def _network(routes: list[tuple[str, str, int]]) -> LogistTopology:
    cities = sorted({c for a, b, _ in routes for c in (a, b)})
    return LogistTopology.of(parse_topology({"name": "t", "cities": [{"name": c} for c in cities],
                                             "routes": [{"from": a, "to": b, "distance": d} for a, b, d in routes]},
                                            "t"))


def test_optimal_plan_by_hand() -> None:
    # a line A-B-C: both tasks ride together from A to C (200 km), not one after the other (400 km)
    line = _network([("A", "B", 100), ("B", "C", 100)])
    tasks = [Task(0, "A", "C", 1, 10), Task(1, "B", "C", 1, 10)]
    best = search_plan(line, "A", 10, tasks, heuristic=no_heuristic)
    assert best.units == 200_000 and search_plan(line, "A", 10, tasks).units == 200_000
    # capacity 1: one at a time, A -> C -> B -> C
    assert search_plan(line, "A", 1, tasks).units == 400_000


def test_an_inadmissible_heuristic_finds_a_longer_plan() -> None:
    net = _network([("A", "B", 9), ("B", "C", 5), ("C", "D", 3), ("A", "D", 15)])
    tasks = [Task(0, "D", "A", 1, 10), Task(1, "D", "C", 1, 10), Task(2, "A", "B", 1, 10)]
    optimal = search_plan(net, "A", 10, tasks, heuristic=no_heuristic)
    assert optimal.units == search_plan(net, "A", 10, tasks, heuristic=farthest_task).units == 32_000
    assert search_plan(net, "A", 10, tasks, heuristic=sum_of_task_distances).units == 34_000


@pytest.mark.parametrize("carrying", [False, True])
def test_optimal_plan_beats_the_template_on_the_course_run(carrying: bool) -> None:
    configuration = read_exercise(CONFIG / "deliberative.xml")
    tasks = list(read_history(RUNS / "deliberative/01_template/history.xml").tasks)
    carried = tasks[:2] if carrying else []
    waiting = tasks[2:] if carrying else tasks
    best = search_plan(configuration.topology, "Lausanne", 30, waiting, carried)
    if not carrying:  # 02_astar and 03_bfs of the study found 1820 km; the template drove 5180
        assert best.units == 1_820_000
        assert plan_units(configuration.topology, "Lausanne", naive_plan(configuration.topology, "Lausanne",
                                                                          tasks)) == 5_180_000
    assert plan_units(configuration.topology, "Lausanne", best.actions) == best.units

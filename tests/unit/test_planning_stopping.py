"""The rules a search asks when to stop and how far along it is (apdp.baselines.planning.stopping),
and that an LNS run stops by them: after its budget, or at its deadline counted as a clock stop."""

from __future__ import annotations

import random

from apdp.baselines.planning import Problem, SearchLog, Solution, construct
from apdp.baselines.planning.lns import anneal
from apdp.baselines.planning.stopping import AtDeadline, ElapsedTime, IterationBudget, NoImprovement
from apdp.game.company import Vehicle
from apdp.game.deadline import Deadline
from apdp.game.task import Task
from apdp.scenario.networks import load_topology


def test_an_iteration_budget_stops_after_its_iterations_and_schedules_by_them() -> None:
    budget = IterationBudget(4)
    assert [budget(i) for i in range(6)] == [False, False, False, False, True, True]
    assert [budget.progress(i) for i in (0, 1, 4)] == [0.0, 0.25, 1.0]


def test_a_deadline_stops_once_past_and_elapsed_time_runs_from_0_to_1() -> None:
    assert not AtDeadline(Deadline.never())(0)
    assert AtDeadline(Deadline(0.0))(0)
    assert ElapsedTime(Deadline(0.0)).progress(0) == 1.0  # no time to go at all
    assert 0.0 <= ElapsedTime(Deadline.after(60.0)).progress(0) < 0.01


def test_no_improvement_counts_from_the_last_best_and_0_is_never() -> None:
    assert not NoImprovement(0)(10**6, 0)
    assert not NoImprovement(3)(5, 3)
    assert NoImprovement(3)(6, 3)


def test_a_run_stops_on_its_budget_or_on_the_clock_and_logs_which() -> None:
    topology = load_topology("france")
    rng = random.Random(1)
    pairs = [rng.sample(topology.cities, 2) for _ in range(8)]
    tasks = [Task(k, pickup, delivery, rng.randint(1, 5)) for k, (pickup, delivery) in enumerate(pairs)]
    problem = Problem(topology, [Vehicle("a", "Paris", 20, 5), Vehicle("b", "Lyon", 20, 5)], tasks)
    start = construct(Solution.empty(problem), list(range(len(tasks))))
    log = SearchLog()
    anneal(start, random.Random(2), Deadline.never(), 50, log=log)
    assert (log.iterations, log.budget, log.clock_stops) == (50, 50, 0)
    anneal(start, random.Random(2), Deadline(0.0), 50, log=log)
    assert (log.iterations, log.budget, log.clock_stops) == (50, 100, 1)

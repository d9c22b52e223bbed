"""The -lns baselines' searches end on their work budgets, not on the clock: the same seed gives the
same bids and plans on a machine however slow (a fake clock stands for one), and a search the clock
ends all the same says so in the agent's output, which the record keeps."""

from __future__ import annotations

import contextlib
import io
import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from apdp.agents.discovery import find_agent, load_agent_class
from apdp.baselines.planning import Problem, SearchLog, Solution, construct, improve
from apdp.baselines.planning.planning_agent import BUDGET_TASKS, CLOCK_STOP, clock_stops, iterations_for
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import check_plans
from apdp.sandbox.worker import deadline_for
from apdp.scenario import make_scenario

LNS = ["exp-cost-fixed-bid-lns", "honest-lns", "model-opponent-lns", "risk-seeking-lns"]
SMALL = {"bid_iterations": 30, "plan_iterations": 300, "prior_iterations": 200}


class SlowClock:
    """``time.monotonic`` of a machine where every reading of the clock finds ``step`` seconds gone."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def slow_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Make the clock as slow as asked: ``slow_clock(step)``."""

    def install(step: float) -> None:
        monkeypatch.setattr(time, "monotonic", SlowClock(step))

    yield install


def play(name: str, seed: int = 4, tasks: int = 16) -> tuple[list[float | None], list[Any], str]:
    """``name`` as company 0 of a match on France (the opponent takes every third task): its bids,
    its plans and what it wrote to stderr."""
    scenario = make_scenario({"tasks": tasks})
    network = scenario.load_topology()
    [company, _] = scenario.build_companies(network, 2)
    distribution = TaskDistribution(network)
    agent = load_agent_class(find_agent(name).path)()
    agent.topology, agent.distribution, agent.company = network, distribution, company
    agent.agent_id, agent.agents, agent.params = 0, 2, dict(SMALL)
    agent.rng = np.random.default_rng(seed)
    agent.timeouts = {"setup": 10.0, "bid": 2.5, "plan": 5.0}
    output = io.StringIO()
    bids: list[float | None] = []
    won = []
    with contextlib.redirect_stderr(output):
        agent.deadline = deadline_for(10.0)
        agent.setup(network, distribution, company)
        for task in distribution.sample_tasks(np.random.default_rng(seed), tasks):
            agent.deadline = deadline_for(2.5)
            bid = agent.bid(task)
            bids.append(bid)
            winner = 1 if task.id % 3 == 0 else 0
            if winner == 0:
                won.append(task)
            agent.deadline = deadline_for(2.5)
            agent.auction_result(task, winner, [bid, 1.0])
        agent.deadline = deadline_for(5.0)
        plans = agent.plan(company.vehicles, won)
    assert check_plans(network, company.vehicles, plans, won) == []
    return bids, plans, output.getvalue()


@pytest.mark.parametrize("name", LNS)
def test_a_slow_machine_plays_the_same_bids_and_plans(name: str, slow_clock: Any) -> None:
    normal = play(name)
    assert normal[2] == ""
    slow_clock(0.001)  # each search reads the clock about once an iteration: 0.3 s for the plan's 300
    slow = play(name)
    assert slow == normal


@pytest.mark.parametrize("name", LNS)
def test_a_search_the_clock_ended_is_marked_in_the_output(name: str, slow_clock: Any) -> None:
    slow_clock(0.1)  # 300 plan iterations would take 30 s of the plan's 5, 30 bid iterations 3 s of 2.5
    *_, output = play(name)
    lines = clock_stops(output)
    assert lines and output.splitlines() == lines
    assert any("plan of 10 tasks: the clock ended the search after" in line for line in lines)
    assert all(line.startswith(CLOCK_STOP) and "depends on the machine's speed" in line for line in lines)
    if name != "exp-cost-fixed-bid-lns":  # it bids its setup's prior, which ended on the clock too
        assert any("bid on task" in line for line in lines)


def test_search_log_counts_iterations_and_clock_stops() -> None:
    scenario = make_scenario({})
    network = scenario.load_topology()
    [company, _] = scenario.build_companies(network, 2)
    problem = Problem(network, company.vehicles)
    tasks = TaskDistribution(network).sample_tasks(np.random.default_rng(1), 12)
    start = construct(Solution.empty(problem), [problem.slot(t) for t in tasks])
    log = SearchLog()
    improve(start, random.Random(1), max_iterations=200, explore_fleet=False, log=log)
    assert (log.iterations, log.budget, log.clock_stops) == (200, 200, 0) and not log.stopped_by_clock
    log = SearchLog()
    improve(start, random.Random(1), max_iterations=200, deadline=Deadline(0.0), log=log)
    assert log.iterations == 0 and log.stopped_by_clock
    log = SearchLog()
    improve(start, random.Random(1), max_iterations=300, log=log)  # three fleet starts, then the best
    assert log.iterations == log.budget == 300 and not log.stopped_by_clock


def test_budgets_shrink_for_plans_larger_than_the_reference_size() -> None:
    assert iterations_for(3000, 1) == iterations_for(3000, BUDGET_TASKS) == 3000
    assert iterations_for(3000, 2 * BUDGET_TASKS) == 1500
    assert iterations_for(100, 100 * BUDGET_TASKS) == 1

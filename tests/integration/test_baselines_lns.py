"""The LNS-based baselines (``honest-lns``, ...): each follows its rule, abstains on tasks it cannot
carry, and plays clean matches."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from apdp.agents.discovery import find_agent, load_agent_class
from apdp.baselines.exp_cost_fixed_bid_lns import ExpCostFixedBidLns
from apdp.baselines.honest_lns import HonestLns
from apdp.baselines.model_opponent_lns import ModelOpponentLns
from apdp.baselines.planning import Problem, Solution, construct
from apdp.baselines.risk_seeking_lns import RiskSeekingLns
from apdp.game.agent import Agent
from apdp.game.company import Company, Vehicle
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import check_plans, plan_cost
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology

NAMES = ["exp-cost-fixed-bid-lns", "honest-lns", "model-opponent-lns", "risk-seeking-lns"]
FAST = {"bid_iterations": 60, "plan_iterations": 300, "prior_iterations": 200}


@pytest.fixture(scope="module")
def france() -> Topology:
    return load_topology("france")


def make(cls: type[Agent], topology: Topology, params: dict[str, Any] | None = None, seed: int = 1,
         agent_id: int = 0) -> Any:
    agent = cls()
    agent.topology = topology
    agent.distribution = TaskDistribution(topology)
    agent.company = Company(
        "A", (Vehicle("A1", "Paris", 30, 5), Vehicle("A2", "Marseille", 20, 3))
    )
    agent.agent_id = agent_id
    agent.agents = 2
    agent.params = dict(FAST, **(params or {}))
    agent.rng = np.random.default_rng(seed)
    agent.timeouts = {"setup": 10.0, "bid": 2.5, "plan": 5.0}
    agent.deadline = Deadline.after(10)
    agent.setup(agent.topology, agent.distribution, agent.company)
    return agent


def tasks_of(topology: Topology, count: int, seed: int = 5) -> list[Task]:
    return TaskDistribution(topology).sample_tasks(np.random.default_rng(seed), count)


def auction(agent: Any, task: Task, won: bool) -> float | None:
    agent.deadline = Deadline.after(2.5)
    bid = agent.bid(task)
    winner = agent.agent_id if won else 1 - agent.agent_id
    agent.auction_result(task, winner, [bid, 1.0] if agent.agent_id == 0 else [1.0, bid])
    return bid  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", NAMES)
def test_found_by_every_spelling(name: str) -> None:
    spellings = {name, name.replace("-", "_"), "".join(w.title() for w in name.split("-"))}
    for spelling in spellings:
        source = find_agent(spelling)
        assert load_agent_class(source.path).__name__.lower() == name.replace("-", "")


@pytest.mark.parametrize("cls", [ExpCostFixedBidLns, HonestLns, ModelOpponentLns, RiskSeekingLns])
def test_abstains_on_a_task_too_heavy_and_plans_the_rest(france: Topology, cls: type[Agent]) -> None:
    agent = make(cls, france)
    assert agent.bid(Task(99, "Paris", "Lyon", 31)) is None
    won = tasks_of(france, 6)
    for task in won:
        bid = auction(agent, task, won=True)
        assert bid is not None and math.isfinite(bid) and bid >= 0
    agent.deadline = Deadline.after(5)
    plans = agent.plan(agent.company.vehicles, won)
    assert check_plans(france, agent.company.vehicles, plans, won) == []


def test_exp_cost_fixed_bid_bids_the_same_on_every_task(france: Topology) -> None:
    agent = make(ExpCostFixedBidLns, france)
    bids = {auction(agent, task, won=k % 3 == 0) for k, task in enumerate(tasks_of(france, 12))}
    assert len(bids) == 1
    (bid,) = bids
    assert bid is not None and bid > 0 and bid == agent.fixed_bid


def test_honest_bids_its_marginal_cost(france: Topology) -> None:
    agent = make(HonestLns, france)
    for k, task in enumerate(tasks_of(france, 10)):
        before = agent.fleet.cost
        agent.deadline = Deadline.after(2.5)
        bid = agent.bid(task)
        offer = agent.fleet._offer[1]
        # the bid is the improved plan with the task minus the (possibly improved) plan without
        assert bid == pytest.approx(offer.cost - agent.fleet.cost)
        assert agent.fleet.cost <= before + 1e-9
        # never more than inserting the task at its cheapest place into the plan
        trial = agent.fleet.solution.copy()
        cheapest = construct(trial, [agent.fleet.problem.slot(task)]).cost - agent.fleet.cost
        assert bid <= cheapest + 1e-6
        agent.auction_result(task, 0 if k % 2 == 0 else 1, [bid, 1.0])
    assert {t.id for t in agent.fleet.tasks()} == {t.id for t in tasks_of(france, 10)[::2]}


def test_model_opponent_bids_the_larger_of_its_and_the_shadow_fleets_cost(
    france: Topology,
) -> None:
    agent = make(ModelOpponentLns, france)
    tasks = tasks_of(france, 14)
    for k, task in enumerate(tasks[:10]):
        auction(agent, task, won=k % 3 == 0)  # the opponent wins two tasks in three
    shadow = agent.shadows.fleets[1]
    assert {t.id for t in shadow.tasks()} == {t.id for k, t in enumerate(tasks[:10]) if k % 3}
    for task in tasks[10:]:
        agent.deadline = Deadline.after(2.5)
        bid = agent.bid(task)
        own = agent.fleet._offer[1].cost - agent.fleet.cost
        theirs = shadow._offer[1].cost - shadow.cost
        assert bid == pytest.approx(max(own, theirs))
        agent.auction_result(task, 1, [bid, 0.0])


def test_risk_seeking_moves_from_the_prior_to_the_marginal_cost(france: Topology) -> None:
    agent = make(RiskSeekingLns, france, {"horizon": 3.0})
    tasks = tasks_of(france, 16)
    weights = []
    for k, task in enumerate(tasks):
        w = agent.prior_weight()
        assert w == pytest.approx(math.exp(-k / 3.0))
        weights.append(w)
        agent.deadline = Deadline.after(2.5)
        bid = agent.bid(task)
        own = agent.fleet._offer[1].cost - agent.fleet.cost
        shadow = agent.shadows.fleets[1]
        theirs = shadow._offer[1].cost - shadow.cost
        expected = max(w * agent.prior + (1 - w) * own, w * agent.prior + (1 - w) * theirs)
        assert bid == pytest.approx(expected)
        if k == 0:
            assert bid == pytest.approx(agent.prior)  # all prior at the start
        agent.auction_result(task, k % 2, [bid, bid])
    assert weights[-1] < 0.01  # all marginal cost at the end


def test_same_seed_same_bids(france: Topology) -> None:
    tasks = tasks_of(france, 8)
    runs = []
    for _ in range(2):
        agent = make(RiskSeekingLns, france, seed=3)
        runs.append([auction(agent, t, won=k % 2 == 0) for k, t in enumerate(tasks)])
    assert runs[0] == runs[1]


def test_plan_starts_from_the_kept_plan(france: Topology) -> None:
    agent = make(HonestLns, france)
    won = tasks_of(france, 12)
    for task in won:
        auction(agent, task, won=True)
    kept = agent.fleet.cost
    agent.deadline = Deadline.after(5)
    plans = agent.plan(agent.company.vehicles, won)
    total = sum(plan_cost(france, v, p) for v, p in zip(agent.company.vehicles, plans, strict=True))
    assert total <= kept + 1e-6
    problem = Problem(france, agent.company.vehicles, won)
    assert total <= construct(Solution.empty(problem), list(range(12))).cost + 1e-6


@pytest.mark.parametrize(
    "pair",
    [("naive", "honest-lns"), ("exp-cost-fixed-bid-lns", "model-opponent-lns"), ("risk-seeking-lns", "honest")],
)
def test_plays_a_short_match_without_fault(pair: tuple[str, str]) -> None:
    match = pytest.importorskip("apdp.referee.match")
    from apdp.check.verify import verify_record
    from apdp.scenario import make_scenario

    scenario = make_scenario({"topology": "switzerland", "tasks": 8, "agents": {
        name: {"plan_iterations": 500} for name in pair
    }})
    record = match.play_match(scenario, list(pair), seed=11).to_json()
    assert record["result"]["faults"] == []
    assert verify_record(record) == []


def test_a_plan_the_clock_ended_is_marked_in_the_record() -> None:
    from apdp.baselines.planning.planning_agent import clock_stops
    from apdp.referee.match import play_match
    from apdp.scenario import make_scenario

    scenario = make_scenario({"topology": "switzerland", "tasks": 8, "timeouts": {"plan": 1.0},
                              "agents": {"honest-lns": {"plan_iterations": 10**9}}})
    record = play_match(scenario, ["honest-lns", "naive"], seed=11).to_json()
    assert record["result"]["faults"] == []
    won = sum(1 for a in record["auctions"] if a["winner"] == 0)
    assert won > 0
    [line] = clock_stops(record["output"][0])
    assert line.startswith(f"clock stop: HonestLns, plan of {won} tasks: the clock ended the search after ")
    assert clock_stops(record["output"][1]) == []

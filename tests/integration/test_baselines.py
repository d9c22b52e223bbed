"""The study's five baselines, to the letter, on small hand-computed cases.

Most cases play on LINE: cities A - B - C - D - E, 10 km apart, so that a schedule's cost can be
added up by hand (A to D is 30 km).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from apdp.agents.discovery import find_agent, load_agent_class
from apdp.baselines.exp_cost_fixed_bid import ExpCostFixedBid
from apdp.baselines.greedy import GreedyFleet, Schedule, prior_cost, uniform_tasks
from apdp.baselines.honest import Honest
from apdp.baselines.model_opponent import ModelOpponent
from apdp.baselines.naive import Naive
from apdp.baselines.risk_seeking import RiskSeeking
from apdp.game.agent import Agent
from apdp.game.company import Company, Vehicle
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Deliver, Pickup, Stop, check_plans, plan_cost
from apdp.game.task import Task
from apdp.game.topology import Topology, parse_topology
from apdp.scenario.networks import load_topology

NAMES = ["naive", "exp-cost-fixed-bid", "honest", "model-opponent", "risk-seeking"]
CLASSES: list[type[Agent]] = [Naive, ExpCostFixedBid, Honest, ModelOpponent, RiskSeeking]

LINE = parse_topology(
    {
        "name": "line",
        "cities": [{"name": c} for c in "ABCDE"],
        "routes": [{"from": a, "to": b, "distance": 10} for a, b in ("AB", "BC", "CD", "DE")],
    },
    "line",
)
AT_A = Vehicle("a", "A", 10, 1)  # home A, capacity 10, 1 per km
AT_E = Vehicle("e", "E", 10, 1)


def task(id: int, pickup: str, delivery: str, weight: float = 1) -> Task:
    return Task(id, pickup, delivery, weight)


def stops(schedule: Schedule) -> list[str]:
    """A schedule as 'P1', 'D1', ... (pickup or delivery, task id)."""
    return [("P" if s.kind == "pickup" else "D") + str(s.task.id) for s in schedule.stops]


def make(cls: type[Agent], topology: Topology = LINE, vehicles: tuple[Vehicle, ...] = (AT_A, AT_E),
         params: dict[str, Any] | None = None, seed: int = 1, agent_id: int = 0) -> Any:
    agent = cls()
    agent.topology = topology
    agent.distribution = TaskDistribution(topology)
    agent.company = Company("C", vehicles)
    agent.agent_id = agent_id
    agent.agents = 2
    agent.params = params or {}
    agent.rng = np.random.default_rng(seed)
    agent.timeouts = {"setup": 10.0, "bid": 2.5, "plan": 5.0}
    agent.deadline = Deadline.after(10)
    agent.setup(agent.topology, agent.distribution, agent.company)
    return agent


def auction(agent: Any, t: Task, won: bool) -> float | None:
    agent.deadline = Deadline.after(2.5)
    bid = agent.bid(t)
    winner = agent.agent_id if won else 1 - agent.agent_id
    agent.auction_result(t, winner, [bid, 1.0] if agent.agent_id == 0 else [1.0, bid])
    return bid  # type: ignore[no-any-return]


def copy_of(rng: np.random.Generator) -> np.random.Generator:
    twin = np.random.default_rng()
    twin.bit_generator.state = rng.bit_generator.state
    return twin


# ---------------------------------------------------------------------------- greedy insertion


def test_schedule_cost_is_km_from_home_times_cost_per_km() -> None:
    far = task(1, "A", "E")
    schedule = Schedule(LINE, Vehicle("v", "C", 10, 2.5), [Stop.pickup(far), Stop.deliver(far)])
    assert schedule.cost == (20 + 40) * 2.5
    assert Schedule(LINE, AT_A).cost == 0.0


def test_insertion_keeps_the_earlier_of_two_equally_cheap_positions() -> None:
    schedule = Schedule(LINE, AT_A)
    schedule.insert(task(1, "B", "D"))
    assert stops(schedule) == ["P1", "D1"] and schedule.cost == 30
    # Pickup of 2 (C): before P1 costs 50, between 30, at the end 40 -> between.
    # Delivery of 2 (D): before D1 or after it, both 30 -> the earlier one.
    assert schedule.marginal_cost(task(2, "C", "D")) == 0
    schedule.insert(task(2, "C", "D"))
    assert stops(schedule) == ["P1", "P2", "D2", "D1"]


def test_insertion_skips_positions_that_overload_the_vehicle() -> None:
    roomy = Schedule(LINE, Vehicle("v", "A", 20, 1))
    tight = Schedule(LINE, AT_A)  # capacity 10
    for schedule in (roomy, tight):
        schedule.insert(task(1, "B", "E", 8))
        assert stops(schedule) == ["P1", "D1"] and schedule.cost == 40
    carried = task(2, "C", "D", 5)
    # Room for 13: pick 2 up on the way and drop it before E, free.
    assert roomy.marginal_cost(carried) == 0
    roomy.insert(carried)
    assert stops(roomy) == ["P1", "P2", "D2", "D1"]
    # Room for 10: only after task 1 is delivered; E -> C -> D is 30 km more.
    assert tight.marginal_cost(carried) == 30
    tight.insert(carried)
    assert stops(tight) == ["P1", "D1", "P2", "D2"]


def test_pickup_alone_counts_its_weight_to_the_end_of_the_list() -> None:
    # Task 1 (8) is picked up at B and delivered at E; task 2 (3) from A: picking it up first
    # would carry 11 until 2's delivery is placed, so its pickup goes after D1.
    schedule = Schedule(LINE, AT_A, [Stop.pickup(task(1, "B", "E", 8)), Stop.deliver(task(1, "B", "E", 8))])
    heavy = task(2, "A", "B", 3)
    assert schedule.position_for(schedule.stops, Stop.pickup(heavy), 0) == 2
    schedule.insert(heavy)
    assert stops(schedule) == ["P1", "D1", "P2", "D2"]


def test_when_no_position_fits_the_first_candidate_is_taken() -> None:
    schedule = Schedule(LINE, AT_A, [Stop.pickup(task(1, "B", "E", 8)), Stop.deliver(task(1, "B", "E", 8))])
    schedule.insert(task(2, "D", "E", 12))  # heavier than the vehicle
    assert stops(schedule) == ["P2", "D2", "P1", "D1"]


def test_the_fleet_takes_the_cheapest_vehicle_and_the_first_on_a_tie() -> None:
    fleet = GreedyFleet(LINE, [AT_A, AT_E])
    assert fleet.cheapest(task(1, "D", "E")) == (1, 20)  # from A 40, from E 20
    assert fleet.cheapest(task(2, "C", "C")) == (0, 20)  # 20 from either end: the first vehicle
    fleet.add(task(1, "D", "E"))
    fleet.add(task(2, "C", "C"))
    assert [stops(s) for s in fleet.schedules] == [["P2", "D2"], ["P1", "D1"]]
    assert fleet.cost == 40


def test_the_fleet_never_gives_a_task_to_a_vehicle_too_small_for_it() -> None:
    fleet = GreedyFleet(LINE, [Vehicle("small", "A", 5, 1), AT_E])
    assert fleet.cheapest(task(1, "A", "B", 7)) == (1, 50)  # the small one would cost 10
    assert not fleet.can_carry(task(2, "A", "B", 11))


# ---------------------------------------------------------------------------- honest and model-opponent


def test_honest_bids_its_truncated_marginal_cost_plus_ten() -> None:
    agent = make(Honest, vehicles=(Vehicle("a", "A", 10, 0.99), AT_E))
    assert auction(agent, task(0, "B", "C"), won=True) == 29  # 20 km x 0.99 = 19.8 -> 19, + 10
    assert stops(agent.fleet.schedules[0]) == ["P0", "D0"]
    assert auction(agent, task(1, "D", "E"), won=False) == 29  # A: 20 km more x 0.99 = 19.8; E: 20
    assert auction(agent, task(2, "A", "B", 11), won=False) is None
    assert make(Honest, params={"margin": 0}).bid(task(0, "B", "C")) == 20


def test_model_opponent_bids_the_larger_of_its_cost_plus_ten_and_the_shadow_fleets() -> None:
    agent = make(ModelOpponent)
    assert auction(agent, task(0, "B", "C"), won=True) == 30  # own 20 + 10, shadow (empty) 20
    assert agent.shadow.tasks() == []
    # own: 10 km past C; the opponent, on a copy of our empty vehicles, 30 from A or E
    assert auction(agent, task(1, "C", "D"), won=False) == 30
    assert [stops(s) for s in agent.shadow.schedules] == [["P1", "D1"], []]  # the first on a tie
    assert [stops(s) for s in agent.fleet.schedules] == [["P0", "D0"], []]
    # A -> B lies on the way of both fleets' first vehicle: 0 each, so the bid is own 0 + 10
    assert agent.bid(task(2, "A", "B")) == 10
    assert make(ModelOpponent, params={"margin": 0, "min_bid": 50}).bid(task(0, "A", "B")) == 50


def test_the_shadow_fleet_holds_every_task_the_agent_did_not_win() -> None:
    agent = make(ModelOpponent)
    agent.auction_result(task(0, "A", "B"), 1, [None, 5.0])
    agent.auction_result(task(1, "E", "D"), None, [None, None])  # nobody won it
    agent.auction_result(task(2, "B", "C"), 0, [5.0, 9.0])
    assert [stops(s) for s in agent.shadow.schedules] == [["P0", "D0"], ["P1", "D1"]]
    assert [t.id for t in agent.fleet.tasks()] == [2]


def test_greedy_plans_are_the_schedules_as_they_stand() -> None:
    agent = make(Honest)
    won = [task(0, "B", "D"), task(1, "C", "D"), task(2, "E", "D")]
    for t in won:
        auction(agent, t, won=True)
    plans = agent.plan(agent.company.vehicles, won)
    assert check_plans(LINE, agent.company.vehicles, plans, won) == []
    assert [[type(a).__name__[0] + str(a.task) for a in p if isinstance(a, Pickup | Deliver)] for p in plans] == [
        ["P0", "P1", "D1", "D0"], ["P2", "D2"]
    ]
    total = sum(plan_cost(LINE, v, p) for v, p in zip(agent.company.vehicles, plans, strict=True))
    assert total == agent.fleet.cost == 30 + 10


@pytest.mark.parametrize("cls", [Honest, ModelOpponent])
def test_honest_and_model_opponent_bid_the_same_whatever_the_seed(cls: type[Agent]) -> None:
    france = load_topology("france")
    tasks = TaskDistribution(france).sample_tasks(np.random.default_rng(5), 20)
    vehicles = (Vehicle("A1", "Paris", 30, 5), Vehicle("A2", "Marseille", 20, 3))
    runs = [[auction(make(cls, france, vehicles, seed=seed), t, won=k % 3 == 0) for k, t in enumerate(tasks)]
            for seed in (1, 1, 2)]
    assert runs[0] == runs[1] == runs[2]
    assert all(b is not None and b == int(b) for b in runs[0])


def test_a_match_of_honest_and_model_opponent_is_the_same_twice() -> None:
    from apdp.referee.match import play_match
    from apdp.scenario import make_scenario

    bids = [[a["bids"] for a in play_match(make_scenario({"topology": "ch", "tasks": 12}),
                                           ["honest", "model-opponent"], seed=4).to_json()["auctions"]]
            for _ in range(2)]
    assert bids[0] == bids[1]


# ---------------------------------------------------------------------------- the prior


def test_prior_option_b_one_share_per_vehicle() -> None:
    fleet = GreedyFleet(LINE, [AT_A, AT_E])
    near_each = [task(-1, "A", "B"), task(-2, "E", "D")]
    # (a) A alone: A-B, then E-D: 10 + 30 + 10 = 50; E alone: 50 too. (b) 10 + 10 = 20.
    assert prior_cost(fleet, near_each) == 20 / 2


def test_prior_option_a_one_vehicle_takes_them_all() -> None:
    fleet = GreedyFleet(LINE, [AT_A, AT_E])
    chained = [task(-1, "A", "B"), task(-2, "B", "C")]
    # (a) A alone: A-B-C, 20; (b) A takes A-B (10), E takes B-C (30 + 10): 50.
    assert prior_cost(fleet, chained) == 20 / 2
    # with three vehicles a share would be empty: only option (a) counts
    three = GreedyFleet(LINE, [Vehicle("x", "E", 10, 1), AT_E, Vehicle("y", "C", 10, 1)])
    assert prior_cost(three, chained) == 40 / 2  # from C: C-B, B-A, A-B, B-C; from E: 60


def test_prior_starts_from_the_current_schedules_and_leaves_them_alone() -> None:
    fleet = GreedyFleet(LINE, [AT_A, AT_E])
    fleet.add(task(0, "A", "C"))
    before = [stops(s) for s in fleet.schedules]
    # A's schedule already passes B and C: (a) A alone adds nothing for B-C
    assert prior_cost(fleet, [task(-1, "B", "C"), task(-2, "A", "B")]) == 0
    assert [stops(s) for s in fleet.schedules] == before


def test_uniform_tasks_draw_every_city_and_may_coincide() -> None:
    tasks = uniform_tasks(LINE, np.random.default_rng(3), 200, 4)
    assert {t.pickup for t in tasks} == set("ABCDE") == {t.delivery for t in tasks}
    assert any(t.pickup == t.delivery for t in tasks)
    assert {t.weight for t in tasks} == {4} and [t.id for t in tasks[:3]] == [-1, -2, -3]


# ---------------------------------------------------------------------------- risk-seeking


def test_risk_seeking_blends_fresh_priors_into_both_costs() -> None:
    agent = make(RiskSeeking, seed=7)
    history = [(task(0, "A", "B", 3), 0), (task(1, "E", "D", 4), 1), (task(2, "C", "E", 2), 1)]
    for k, (t, winner) in enumerate(history):
        assert agent.prior_weight() == math.exp(-0.1 * k)
        agent.auction_result(t, winner, [1.0, 1.0])
    assert agent.synthetic_weight() == (1 + 3 + 4 + 2) // 4 == 2
    offered = task(3, "B", "D", 5)
    twin = copy_of(agent.rng)
    own_prior = prior_cost(agent.fleet, uniform_tasks(LINE, twin, 10, 2))  # drawn first
    opp_prior = prior_cost(agent.shadow, uniform_tasks(LINE, twin, 10, 2))
    w = math.exp(-0.3)
    own = math.trunc((1 - w) * agent.fleet.marginal_cost(offered) + w * own_prior)
    opp = math.trunc((1 - w) * agent.shadow.marginal_cost(offered) + w * opp_prior)
    assert agent.bid(offered) == max(own + 10, opp, 10)
    assert agent.rng.bit_generator.state == twin.bit_generator.state  # exactly 2 x 10 tasks drawn


def test_risk_seeking_first_bid_is_all_prior() -> None:
    agent = make(RiskSeeking, seed=2)
    twin = copy_of(agent.rng)
    own = math.trunc(prior_cost(agent.fleet, uniform_tasks(LINE, twin, 10, 1)))  # weight (1 + 0) // 1
    opp = math.trunc(prior_cost(agent.shadow, uniform_tasks(LINE, twin, 10, 1)))
    assert agent.bid(task(0, "A", "E")) == max(own + 10, opp, 10)


# ---------------------------------------------------------------------------- exp-cost-fixed-bid


def test_exp_cost_fixed_bid_is_the_truncated_prior_of_distribution_tasks() -> None:
    france = load_topology("france")
    vehicles = (Vehicle("A1", "Paris", 30, 5), Vehicle("A2", "Marseille", 20, 3))
    twin = np.random.default_rng(9)
    drawn = [TaskDistribution(france).sample(twin, -1 - k) for k in range(10)]
    expected = math.trunc(prior_cost(GreedyFleet(france, vehicles), drawn))
    agent = make(ExpCostFixedBid, france, vehicles, seed=9)
    assert agent.fixed_bid == expected > 0
    tasks = TaskDistribution(france).sample_tasks(np.random.default_rng(5), 8)
    assert {auction(agent, t, won=k % 2 == 0) for k, t in enumerate(tasks)} == {float(expected)}
    assert agent.bid(Task(99, "Paris", "Lyon", 31)) is None


# ---------------------------------------------------------------------------- naive and template


class FixedDraw:
    """A stand-in generator whose every uniform draw is ``u``."""

    def __init__(self, u: float) -> None:
        self.u = u

    def random(self) -> float:
        return self.u


def test_naive_noise_grows_with_the_task_id() -> None:
    agent = make(Naive, vehicles=(Vehicle("a", "A", 10, 2), AT_E))
    agent.rng = FixedDraw(0.5)
    assert auction(agent, task(0, "A", "B"), won=False) == 20  # 10 km x 2, no noise at id 0
    assert auction(agent, task(10, "A", "B"), won=False) == 25  # x (1 + 0.5 x 0.05 x 10)
    assert auction(agent, task(20, "A", "B"), won=True) == 30  # x 1.5
    # now at B: B -> C -> D, 20 km x 2 = 40, x (1 + 0.5 x 0.05 x 3) = 43
    assert auction(agent, task(3, "C", "D"), won=False) == 43
    assert agent.bid(task(4, "A", "B", 11)) is None  # too heavy for its first vehicle
    agent.rng = FixedDraw(0.99)
    assert agent.bid(task(7, "B", "C")) == round(20 * (1 + 0.99 * 0.05 * 7))  # 26.93 -> 27


def test_naive_rounds_half_up() -> None:
    agent = make(Naive, vehicles=(Vehicle("a", "A", 10, 0.25), AT_E))
    agent.rng = FixedDraw(0.0)
    assert agent.bid(task(1, "A", "B")) == 3  # 2.5 -> 3 (Python's round would give 2)


def test_naive_plans_its_first_vehicle_in_increasing_id() -> None:
    agent = make(Naive)
    won = [task(5, "C", "D"), task(2, "B", "E")]
    plans = agent.plan(agent.company.vehicles, won)
    assert plans[1] == [] and check_plans(LINE, agent.company.vehicles, plans, won) == []
    assert [str(a.task) for a in plans[0] if isinstance(a, Pickup | Deliver)] == ["2", "2", "5", "5"]


def test_template_plays_naives_rule() -> None:
    template = load_agent_class(find_agent("template").path)
    france = load_topology("france")
    vehicles = (Vehicle("A1", "Paris", 30, 5), Vehicle("A2", "Marseille", 20, 3))
    tasks = TaskDistribution(france).sample_tasks(np.random.default_rng(5), 30)
    bids, plans = [], []
    for cls in (Naive, template):
        agent = make(cls, france, vehicles, seed=4)
        bids.append([auction(agent, t, won=k % 4 == 0) for k, t in enumerate(tasks)])
        plans.append(agent.plan(vehicles, tasks[::4]))
    assert bids[0] == bids[1] and plans[0] == plans[1]


# ---------------------------------------------------------------------------- every baseline


@pytest.mark.parametrize("name", NAMES + [n + "-lns" for n in NAMES if n != "naive"])
def test_found_by_every_spelling(name: str) -> None:
    spellings = {name, name.replace("-", "_"), "".join(w.title() for w in name.split("-"))}
    for spelling in spellings:
        source = find_agent(spelling)
        assert load_agent_class(source.path).__name__.lower() == name.replace("-", "")


@pytest.mark.parametrize("cls", CLASSES)
def test_bids_whole_numbers_abstains_when_too_heavy_and_plans_validly(cls: type[Agent]) -> None:
    france = load_topology("france")
    vehicles = (Vehicle("A1", "Paris", 30, 5), Vehicle("A2", "Marseille", 20, 3))
    agent = make(cls, france, vehicles)
    assert agent.bid(Task(99, "Paris", "Lyon", 31)) is None
    won = TaskDistribution(france).sample_tasks(np.random.default_rng(5), 12)
    for t in won:
        bid = auction(agent, t, won=True)
        assert bid is not None and bid >= 0 and bid == int(bid)
    agent.deadline = Deadline.after(5)
    assert check_plans(france, vehicles, agent.plan(vehicles, won), won) == []


@pytest.mark.parametrize("pair", [("naive", "risk-seeking"), ("exp-cost-fixed-bid", "model-opponent")])
def test_plays_a_short_match_without_fault(pair: tuple[str, str]) -> None:
    from apdp.check.verify import verify_record
    from apdp.referee.match import play_match
    from apdp.scenario import make_scenario

    record = play_match(make_scenario({"topology": "nl", "tasks": 10}), list(pair), seed=11).to_json()
    assert record["result"]["faults"] == []
    assert verify_record(record) == []

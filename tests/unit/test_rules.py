"""The rules of the game: bids, auctions, plan validity and cost, the distribution, scenarios."""

from __future__ import annotations

import math
import pickle
from pathlib import Path

import numpy as np
import pytest

from apdp import Deliver, Move, Pickup, Stop, Task, Vehicle, check_plans, load_topology, plan_cost, plan_from_stops
from apdp.game.auction import auction_winner, check_bid
from apdp.game.distribution import TaskDistribution
from apdp.game.laws import DistributionSpec
from apdp.referee.record import match_winner
from apdp.scenario import ScenarioError, load_scenario

FR = load_topology("france")
V0 = Vehicle("v0", "Paris", 10, 5)
V1 = Vehicle("v1", "Lyon", 10, 2)
T1 = Task(1, "Paris", "Lyon", 4)
T2 = Task(2, "Lyon", "Marseille", 7)
T9 = Task(9, "Brest", "Paris", 1)  # won by another company


@pytest.mark.parametrize("bid", [0, 0.0, 12.5, 10**6, None])
def test_valid_bids(bid: float | None) -> None:
    assert check_bid(bid) is None


@pytest.mark.parametrize(
    ("bid", "why"),
    [(math.nan, "finite"), (math.inf, "finite"), (-math.inf, "finite"), (-1, ">= 0"), ("3", "number"),
     (True, "number"), ([1], "number")],
)
def test_invalid_bids(bid: object, why: str) -> None:
    assert why in (check_bid(bid) or "")


def test_lowest_bid_wins_and_abstention() -> None:
    rng = np.random.default_rng(0)
    assert auction_winner([5.0, 3.0, None], rng) == 1
    assert auction_winner([None, None], rng) is None
    assert auction_winner([None, 0.0], rng) == 1


def test_ties_are_broken_by_the_seeded_generator() -> None:
    draws = [auction_winner([2.0, 2.0, 2.0], np.random.default_rng(s)) for s in range(40)]
    assert set(draws) == {0, 1, 2}
    again = [auction_winner([2.0, 2.0, 2.0], np.random.default_rng(s)) for s in range(40)]
    assert draws == again


def test_match_winner_rules() -> None:
    assert match_winner([10.0, 5.0], set()) == 0
    assert match_winner([10.0, 10.0], set()) is None  # draw
    assert match_winner([10.0, -50.0], {0}) == 1  # the faulty agent loses
    assert match_winner([10.0, 5.0], {0, 1}) is None


def test_plan_from_stops_moves_along_shortest_paths_and_costs() -> None:
    big = Vehicle("big", "Paris", 20, 5)
    plan = plan_from_stops(FR, big, [Stop.pickup(T1), Stop.pickup(T2), Stop.deliver(T1), Stop.deliver(T2)])
    assert plan[:3] == [Pickup(1), Move("Lyon"), Pickup(2)]
    assert check_plans(FR, [big, V1], [plan, []], [T1, T2]) == []
    km = FR.distance("Paris", "Lyon") + FR.distance("Lyon", "Marseille")
    assert plan_cost(FR, big, plan) == km * 5


def _messages(plans, won=(T1,)):  # type: ignore[no-untyped-def]
    known = {t.id: t for t in (T1, T2, T9)}
    return [str(v) for v in check_plans(FR, [V0, V1], plans, list(won), known)]


def test_every_rule_is_reported() -> None:
    good = plan_from_stops(FR, V0, [Stop.pickup(T1), Stop.deliver(T1)])
    assert _messages([good, []]) == []
    assert _messages([[Pickup(1)], []]) == ["vehicle 0: task 1 picked up but never delivered"]
    assert _messages([[], []]) == ["won task 1 is never picked up nor delivered"]
    assert "delivered by vehicle 1 but picked up by vehicle 0" in " ".join(
        _messages([[Pickup(1)], [Deliver(1)]]))
    assert "delivered before it was picked up" in _messages([[Deliver(1), Pickup(1)], []])[0]
    assert "picked up in Lyon, not in Paris" in _messages([[Move("Lyon"), Pickup(1), Deliver(1)], []])[0]
    assert "delivered in Paris, not in Lyon" in _messages([[Pickup(1), Deliver(1)], []])[0]
    assert "from Paris to Marseille follows no road" in _messages([[Pickup(1), Move("Marseille")], []])[0]
    assert "task 9 is a task of another company" in " ".join(_messages([[*good, Pickup(9)], []]))
    assert "task 77 is an unknown task" in " ".join(_messages([[*good, Pickup(77)], []]))
    assert "unknown city 'Atlantis'" in " ".join(_messages([[Move("Atlantis"), *good], []]))
    assert "picked up twice" in " ".join(_messages([[Pickup(1), Pickup(1), Move("Lyon"), Deliver(1)], []]))
    assert "expected 2 vehicle plans, got 1" in _messages([good])[0]
    heavy = plan_from_stops(FR, V0, [Stop.pickup(T1), Stop.pickup(T2), Stop.deliver(T1), Stop.deliver(T2)])
    assert "load 11 exceeds capacity 10" in " ".join(_messages([heavy, []], won=(T1, T2)))


def test_distribution_default_is_uniform_with_integer_weights() -> None:
    d = TaskDistribution(FR)
    n = len(FR.cities)
    assert len(d.pairs) == n * (n - 1)
    assert math.isclose(d.probability("Paris", "Lyon"), 1 / (n * (n - 1)))
    assert d.probability("Paris", "Paris") == 0
    assert d.expected_weight() == 5.5
    tasks = d.sample_tasks(np.random.default_rng(3), 200)
    assert {t.weight for t in tasks} <= set(range(1, 11))
    assert all(t.pickup != t.delivery for t in tasks)
    assert tasks == d.sample_tasks(np.random.default_rng(3), 200)


def test_a_distribution_without_laws_has_the_schemas_defaults() -> None:
    from apdp.game.distribution import DEFAULT_LAWS

    assert DistributionSpec().model_dump() == DEFAULT_LAWS
    plain, stated = TaskDistribution(FR), TaskDistribution(FR, DistributionSpec())
    assert plain.spec == stated.spec == DistributionSpec()
    assert plain.probabilities == stated.probabilities
    assert plain.sample_tasks(np.random.default_rng(4), 50) == stated.sample_tasks(np.random.default_rng(4), 50)


def test_a_distribution_keeps_its_laws_as_plain_values() -> None:
    spec = DistributionSpec.model_validate({"pairs": {"policy": "long", "distribution": "uniform", "seed": 3},
                                            "weight": {"distribution": "constant", "value": 4, "integer": False}})
    d = TaskDistribution(FR, spec)
    assert d.spec == spec
    assert d.weight_law == spec.weight.model_dump()
    copy = pickle.loads(pickle.dumps(d))
    assert copy.spec == spec and copy.probabilities == d.probabilities
    assert "pydantic" not in pickle.dumps(d).decode("latin-1")  # an agent's process unpickles it without the schema


def test_distribution_policies_shape_probabilities() -> None:
    short = TaskDistribution(FR, DistributionSpec.model_validate({"pairs": {"policy": "short"}}))
    long = TaskDistribution(FR, DistributionSpec.model_validate({"pairs": {"policy": "long"}}))
    assert short.probability("Le Havre", "Paris") > short.probability("Brest", "Monaco")
    assert long.probability("Le Havre", "Paris") < long.probability("Brest", "Monaco")
    assert math.isclose(sum(short.probabilities), 1.0)
    const = DistributionSpec.model_validate({"weight": {"distribution": "constant", "value": 3}})
    assert {t.weight for t in TaskDistribution(FR, const).sample_tasks(np.random.default_rng(1), 20)} == {3}


@pytest.mark.parametrize("pairs", [{}, {"policy": "short"}, {"distribution": "uniform", "min": 0.1, "seed": 7}])
def test_tasks_are_drawn_as_generator_choice_draws_them(pairs: dict[str, object]) -> None:
    d = TaskDistribution(FR, DistributionSpec.model_validate({"pairs": pairs}))
    rng, reference = np.random.default_rng(11), np.random.default_rng(11)
    for task in d.sample_tasks(rng, 500):
        k = int(reference.choice(len(d.pairs), p=np.array(d.probabilities)))
        reference.integers(1, 11)  # the weight's draw
        assert (task.pickup, task.delivery) == d.pairs[k]


def test_scenario_file_and_overrides(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('topology = "nl"\ntasks = 12\n[timeouts]\nbid = 1.5\n')
    s = load_scenario(path, {"seed": 4, "timeouts.plan": 3.0, "tasks": None})
    assert (s.topology, s.tasks, s.seed, s.timeouts.bid, s.timeouts.plan, s.timeouts.setup) == (
        "nl", 12, 4, 1.5, 3.0, 10.0)
    companies = s.build_companies(s.load_topology(), 2)
    assert len(companies) == 2 and all(len(c.vehicles) == 2 for c in companies)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tasks = 0", "tasks: Input should be greater than or equal to 1 (got 0)"),
        ("[timeouts]\nbid = -1", "timeouts.bid: Input should be greater than 0 (got -1)"),
        ("colour = 'red'", "colour: unknown field"),
        ("tasks = 'many'", "tasks: Input should be a valid integer"),
        ("[[companies]]\nname = 'X'\n[[companies.vehicles]]\nname='v'\nhome='Paris'\ncapacity=0\ncost_per_km=1",
         "companies.0.vehicles.0.capacity: Input should be greater than 0"),
        ("tasks = ", "not valid TOML"),
    ],
)
def test_bad_scenario_is_one_line_naming_the_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert message in str(info.value)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_company_home_must_be_a_city() -> None:
    s = load_scenario(None, {"topology": "ch", "companies": [
        {"name": "X", "vehicles": [{"name": "v", "home": "Paris", "capacity": 5, "cost_per_km": 1}]}] * 2})
    with pytest.raises(ScenarioError, match="home 'Paris' is not a city of switzerland"):
        s.build_companies(s.load_topology(), 2)
    with pytest.raises(ScenarioError, match="3 agents need 3 companies"):
        load_scenario(None).build_companies(FR, 3)


def test_a_markdown_table_keeps_every_text_in_its_cell() -> None:
    """A name or label with markdown's punctuation cannot open cells, links or markup of its own."""
    from apdp.text import markdown_table

    table = markdown_table([["evil|9|0", 3, "[x](http://a) <b>_*`\\"]], ["agent", "wins", "note"])
    row = table.splitlines()[2]
    assert row.count("|") - row.count("\\|") == 4  # three cells: four bars of the table's own
    assert "\\[x\\](http://a) \\<b\\>\\_\\*\\`\\\\" in row and row.split("|")[-3].strip() == "3"

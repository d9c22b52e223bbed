"""``apdp analyze``'s figures on hand-built records, checked against numbers worked out by hand.

The network is a line, A -10- B -10- C -10- D. Company 0 has one vehicle at A, company 1 one at D
(capacity 10, 1 per km). Task 0 goes A -> B, task 1 B -> C (weight 1 each).

* Task 0: company 0's reference marginal cost is 10 (A to B), company 1's 40 (D to A, A to B). The
  planner bids 15 (markup 0.5), the at-cost agent 40 (markup 0): the planner wins, leaving 25.
* Task 1: company 0's fleet ends at B, so its marginal cost is 10 (B to C); company 1's is 30 (D to
  B, B to C). Bids 12.5 (markup 0.25) and 30 (markup 0): the planner wins, leaving 17.5.
* The planner's plan drives A, B, C, D and back to C: 40 km where 20 do (gap 40 / 20 - 1 = 1). Its
  profit is 27.5 - 40 = -12.5 against the at-cost agent's 0: it loses; with the reference plan its
  profit would be 27.5 - 20 = 7.5 >= 0: lost on planning.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from apdp.analysis.figures import analyse_record
from apdp.analysis.run import analyse
from apdp.analysis.summary import summarise, to_json, to_text
from apdp.check.verify import verify_record
from apdp.errors import UserError
from apdp.referee.record_format import MatchRecord
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.store import STORE_FILE, ResultsStore

pytestmark = pytest.mark.unit

NETWORK = {
    "name": "line",
    "cities": [{"name": c, "x": 10.0 * k, "y": 0.0} for k, c in enumerate("ABCD")],
    "roads": [{"from": a, "to": b, "km": 10.0} for a, b in ("AB", "BC", "CD")],
}

DETOUR = [["pickup", 0], ["move", "B"], ["deliver", 0], ["pickup", 1], ["move", "C"], ["move", "D"], ["move", "C"],
          ["deliver", 1]]
STRAIGHT = [["pickup", 0], ["move", "B"], ["deliver", 0], ["pickup", 1], ["move", "C"], ["deliver", 1]]


def _record(planner_bids: tuple[float | None, float | None], at_cost_bids: tuple[float | None, float | None],
            plan: list[list[Any]], winner: int | None) -> dict[str, Any]:
    """A match of the planner (company 0) and the at-cost agent (company 1); the planner wins both
    auctions, and its plan is ``plan``."""
    revenue = float(sum(b for b in planner_bids if b is not None))
    cost = 10.0 * sum(1 for a in plan if a[0] == "move")
    return {
        "format": "apdp-record/1", "topology": "line", "seed": 7, "network": NETWORK,
        "agents": ["planner", "at-cost"],
        "companies": [
            {"name": "Company A", "vehicles": [{"name": "A1", "home": "A", "capacity": 10.0, "cost_per_km": 1.0}]},
            {"name": "Company B", "vehicles": [{"name": "B1", "home": "D", "capacity": 10.0, "cost_per_km": 1.0}]},
        ],
        "tasks": [{"id": 0, "pickup": "A", "delivery": "B", "weight": 1.0},
                  {"id": 1, "pickup": "B", "delivery": "C", "weight": 1.0}],
        "auctions": [{"task": 0, "bids": [planner_bids[0], at_cost_bids[0]], "winner": 0},
                     {"task": 1, "bids": [planner_bids[1], at_cost_bids[1]], "winner": 0}],
        "settlement": "delivered",
        "plans": [[plan], [[]]],
        "result": {"revenue": [revenue, 0.0], "cost": [cost, 0.0], "profit": [revenue - cost, 0.0],
                   "winner": winner, "faults": []},
    }


def detour_match() -> dict[str, Any]:
    """The match of the module's text."""
    return _record((15.0, 12.5), (40.0, 30.0), DETOUR, winner=1)


def test_the_hand_built_records_are_valid_records() -> None:
    assert verify_record(detour_match()) == []
    assert verify_record(_record((15.0, 12.5), (40.0, 30.0), STRAIGHT, winner=0)) == []


def test_a_plan_with_a_detour_has_the_gap_worked_out_by_hand() -> None:
    planner, at_cost = analyse_record(detour_match(), "m").agents
    assert (planner.won, planner.cost, planner.reference_cost) == (2, 40.0, 20.0)
    assert planner.planning_gap == 1.0
    assert at_cost.won == 0 and at_cost.planning_gap is None  # won nothing: no gap


def test_a_straight_plan_has_no_gap() -> None:
    planner, _ = analyse_record(_record((15.0, 12.5), (40.0, 30.0), STRAIGHT, winner=0)).agents
    assert planner.planning_gap == 0.0


def test_bidding_the_reference_marginal_cost_is_a_markup_of_zero() -> None:
    planner, at_cost = analyse_record(detour_match()).agents
    assert at_cost.markups == (0.0, 0.0)
    assert planner.markups == (0.5, 0.25)


def test_money_left_on_the_table_is_the_next_lowest_bid_minus_the_winning_one() -> None:
    planner, at_cost = analyse_record(detour_match()).agents
    assert (planner.left_on_table, planner.left_auctions) == (25.0 + 17.5, 2)
    assert (at_cost.left_on_table, at_cost.left_auctions) == (0.0, 0)


def test_a_match_lost_to_a_detour_is_lost_on_planning() -> None:
    planner, at_cost = analyse_record(detour_match()).agents
    assert (planner.outcome, planner.profit, planner.opponent_profit) == ("loss", -12.5, 0.0)
    assert planner.counterfactual_profit == 7.5
    assert planner.lost_on_planning
    assert at_cost.outcome == "win" and not at_cost.lost_on_planning


def test_a_loss_the_reference_plans_would_not_save_is_not_lost_on_planning() -> None:
    record = _record((5.0, 5.0), (40.0, 30.0), DETOUR, winner=1)  # revenue 10 < the reference's cost 20
    planner, _ = analyse_record(record).agents
    assert planner.counterfactual_profit == -10.0
    assert planner.outcome == "loss" and not planner.lost_on_planning


def test_abstentions_and_bids_on_tasks_that_cost_nothing_have_no_markup() -> None:
    both = [["pickup", 0], ["pickup", 1], ["move", "B"], ["deliver", 0], ["deliver", 1]]
    record = _record((15.0, 12.5), (None, 30.0), both, winner=0)
    record["tasks"][1] = {"id": 1, "pickup": "A", "delivery": "B", "weight": 1.0}  # on the planner's way: costs 0
    assert verify_record(record) == []
    planner, at_cost = analyse_record(record).agents
    assert at_cost.markups == (None, 30.0 / 40.0 - 1)  # abstained on the first
    assert planner.markups == (0.5, None) and planner.zero_cost == 1


def test_a_task_auctioned_twice_is_an_unreadable_record() -> None:
    record = detour_match()
    record["auctions"][1]["task"] = 0
    analysis = analyse_record(record, "m")
    assert analysis.excluded == "unreadable" and "task 0" in analysis.reason


def test_the_reference_plans_do_not_depend_on_anything_but_the_record() -> None:
    assert analyse_record(detour_match(), "m") == analyse_record(copy.deepcopy(detour_match()), "m")


def test_faulted_and_unreadable_matches_are_left_out_and_counted() -> None:
    faulted = detour_match()
    faulted["result"]["faults"] = [{"agent": 1, "kind": "timeout", "phase": "bid", "task": 1, "message": "slow"}]
    unknown_task = detour_match()
    unknown_task["auctions"][1]["task"] = 9
    no_plans = detour_match()
    no_plans["plans"] = [None, None]
    error = detour_match()
    error["result"]["referee_error"] = "worker died"
    analyses = [analyse_record(r, f"m{k}") for k, r in enumerate((detour_match(), faulted, unknown_task, no_plans,
                                                                    error))]
    assert [a.excluded for a in analyses] == [None, "faulted", "unreadable", "unreadable", "referee_error"]
    assert "task 9" in analyses[2].reason
    summary = summarise(analyses)
    assert (summary.matches, summary.faulted, summary.referee_errors) == (1, 1, 1)
    assert [m for m, _ in summary.unreadable] == ["m2", "m3"]
    at_cost, planner = summary.agents
    assert (planner.agent, planner.matches, planner.faulted) == ("planner", 1, 1)
    assert (at_cost.agent, at_cost.matches, at_cost.faulted) == ("at-cost", 1, 1)
    assert "unreadable record m2" in to_text(summary)
    assert "left out for a fault: at-cost 1, planner 1" in to_text(summary)


def test_an_agents_figures_are_means_over_its_matches() -> None:
    straight = _record((15.0, 12.5), (40.0, 30.0), STRAIGHT, winner=0)
    summary = summarise([analyse_record(detour_match(), "a"), analyse_record(straight, "b")])
    at_cost, planner = summary.agents
    assert planner.planning_gap == (1.0 + 0.0) / 2 and planner.planning_gap_matches == 2
    assert planner.markup == (0.5 + 0.25 + 0.5 + 0.25) / 4 and planner.markup_median == 0.375
    assert planner.markup_by_auction == [0.5, 0.25]
    assert planner.left_on_table == 42.5 and planner.left_per_task == 21.25
    assert (planner.lost, planner.lost_on_planning) == (1, 1)
    assert at_cost.markup == 0.0 and at_cost.planning_gap is None and at_cost.lost == 1
    data = to_json(summary)
    entry = next(a for a in data["agents"] if a["agent"] == "planner")
    wanted = {"agent": "planner", "matches": 2, "planning_gap": 0.5, "markup": 0.375, "left_on_table": 42.5,
              "lost_on_planning": 1}
    assert {k: entry[k] for k in wanted} == wanted
    assert len(data["match_figures"]) == 4


def test_the_table_fits_a_terminal() -> None:
    summary = summarise([analyse_record(detour_match(), "a")])
    text = to_text(summary)
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "+100.0%" in text and "+37.5%" in text


def _store(folder: Path, records: list[dict[str, Any]]) -> Path:
    """A results folder holding ``records`` (no configured field: its matches are the tournament)."""
    store = ResultsStore.create_or_resume(folder, {"format": "apdp-tournament/1"}, b"k" * 32)
    for k, record in enumerate(records):
        store.add(MatchSpec("line", k, k, tuple(record["agents"])), MatchRecord.read(record))
    store.close()
    return folder


def test_a_store_is_analysed_match_by_match(tmp_path: Path) -> None:
    faulted = detour_match()
    faulted["result"]["faults"] = [{"agent": 0, "kind": "invalid_plan", "phase": "plan", "task": None, "message": "x"}]
    faulted["result"]["winner"] = 1
    analysis = analyse([_store(tmp_path / "r", [detour_match(), faulted])])
    assert (analysis.matches, analysis.faulted) == (1, 1)
    planner = next(a for a in analysis.agents if a.agent == "planner")
    assert (planner.planning_gap, planner.markup, planner.lost_on_planning, planner.faulted) == (1.0, 0.375, 1, 1)


def test_what_is_no_store_or_holds_no_match_is_one_line_saying_so(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no tournament results here"):
        analyse([tmp_path / "nothing"])
    with pytest.raises(UserError, match="no finished matches in"):
        analyse([_store(tmp_path / "empty", [])])
    damaged = _store(tmp_path / "damaged", [detour_match()])
    (damaged / STORE_FILE).write_bytes(b"not a database at all" * 100)
    with pytest.raises(UserError) as raised:
        analyse([damaged])
    assert "\n" not in str(raised.value) and "not a readable results store" in str(raised.value)

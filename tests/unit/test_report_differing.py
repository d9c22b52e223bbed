"""Two stores of one tournament (same configuration, seed and secret) are merged only when their records
of the matches both hold agree on what the seed decides; otherwise the report refuses them, naming
the matches and where their records differ, or with --mixed counts each as a tournament of its own
(made-up records: no match is played)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from apdp.errors import UserError
from apdp.tournament.pool import load_pool
from apdp.tournament.report import report
from apdp.tournament.schedule import MatchSpec, double_round_robin
from apdp.tournament.store import ResultsStore
from tests.records import typed_record

AGENTS = ["a", "b", "c"]
CONFIG: dict[str, Any] = {
    "format": "apdp-tournament/1", "agents": AGENTS, "topologies": ["france"], "seed": 0, "repeat": 1,
    "scenario": {"tasks": 2}, "agent_files": {a: a * 64 for a in AGENTS},
}
KEY = b"k" * 32


def record(match: MatchSpec) -> dict[str, Any]:
    """A two-task match: the first agent in alphabetical order wins both tasks."""
    first = match.agents.index(min(match.agents))
    bids = [[100.0, 200.0], [300.0, 250.0]]
    if first == 1:
        bids = [[b, a] for a, b in bids]
    plans = [[["move", "Lyon"], ["pickup", 0], ["deliver", 0], ["pickup", 1], ["deliver", 1]]], [[]]
    order = 1 if first == 0 else -1  # the winner's figures first
    return {
        "format": "apdp-record/1", "topology": match.topology, "seed": match.seed, "agents": list(match.agents),
        "tasks": [{"id": 0, "pickup": "Lyon", "delivery": "Lyon", "weight": 1},
                  {"id": 1, "pickup": "Lyon", "delivery": "Lyon", "weight": 1}],
        "auctions": [{"task": 0, "bids": bids[0], "winner": first}, {"task": 1, "bids": bids[1], "winner": first}],
        "plans": list(plans)[::order],
        "result": {"revenue": [350.0, 0.0][::order], "cost": [100.0, 0.0][::order],
                   "profit": [250.0, 0.0][::order], "winner": first, "faults": []},
        "timing": {"match": 0.5}, "output": ["", ""],
    }


def store(folder: Path, change: dict[int, Any] | None = None) -> Path:
    """A results folder of the whole schedule; ``change`` maps a match's index to a function that
    alters its record."""
    s = ResultsStore.create_or_resume(folder, CONFIG, KEY)
    for k, m in enumerate(double_round_robin(AGENTS, ["france"], 0, 1)):
        r = record(m)
        if change and k in change:
            r = copy.deepcopy(r)
            change[k](r)
        s.add(m, typed_record(r))
    s.close()
    return folder


def keys() -> list[str]:
    return [m.match_id for m in double_round_robin(AGENTS, ["france"], 0, 1)]


def a_losing_bid(r: dict[str, Any]) -> None:
    r["auctions"][1]["bids"][1 - r["result"]["winner"]] += 1.0  # no figure changes


def another_plan(r: dict[str, Any]) -> None:
    w = r["result"]["winner"]
    r["plans"][w][0][:0] = [["move", "Paris"], ["move", "Lyon"]]
    r["result"]["cost"][w] += 900.0
    r["result"]["profit"][w] -= 900.0


def machine_only(r: dict[str, Any]) -> None:
    r["timing"] = {"match": 3.0}
    r["output"] = ["clock stop: X, plan of 2 tasks: ...", ""]
    r["sandbox"] = {"unprotected": ["seccomp"]}


def test_stores_of_one_tournament_that_differ_are_refused_naming_the_matches(tmp_path: Path) -> None:
    a = store(tmp_path / "a")
    b = store(tmp_path / "b", {1: a_losing_bid, 4: another_plan, 5: machine_only})
    with pytest.raises(UserError) as caught:
        report([a, b], "table")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(
        f"cannot pool stores of one tournament whose results differ: {b} and {a} hold france seed 0 (same "
        "configuration, seed and secret) with different results in 2 of the 6 matches both hold: "
    )
    k = keys()
    assert f"{k[1]} (auctions[1].bids[" in message and "then" in message
    assert f"{k[4]} (plans[" in message
    assert k[5] not in message  # timing, output and sandbox notes are the machine's, not the game's
    assert "report each folder alone, or pool them anyway with --mixed" in message


def test_with_mixed_each_store_counts_as_a_tournament_of_its_own(tmp_path: Path) -> None:
    a = store(tmp_path / "a")
    b = store(tmp_path / "b", {4: another_plan})
    data = json.loads(report([a, b], "json", mixed=True))
    assert data["tournaments"] == 2 and len(data["matches"]) == 12
    [note] = data["notes"]
    assert note.startswith(f"{b} and {a} hold france seed 0 (same configuration, seed and secret) with different "
                           f"results in 1 of the 6 matches both hold: {keys()[4]} (plans[")
    assert note.endswith("counted as two tournaments (--mixed)")
    pool = load_pool([a, b], mixed=True)
    [d] = pool.disagreements
    assert (d.first.results, d.other.results, d.shared) == (str(a), str(b), 6)
    assert [key for key, _ in d.matches] == [keys()[4]]


def test_stores_that_agree_on_the_game_are_one_tournament(tmp_path: Path) -> None:
    a = store(tmp_path / "a")
    b = store(tmp_path / "b", {k: machine_only for k in range(6)})
    shutil.copytree(a, tmp_path / "c")
    data = json.loads(report([a, b, tmp_path / "c"], "json"))
    assert data["tournaments"] == 1 and len(data["matches"]) == 6
    assert all("a copy or a replay" in n and n.endswith("counted once") for n in data["notes"])
    assert load_pool([a, b]).disagreements == []


def test_a_copy_resumed_further_only_compares_the_matches_both_hold(tmp_path: Path) -> None:
    a = store(tmp_path / "a")
    s = ResultsStore.open(a)
    s.conn.execute("DELETE FROM matches WHERE key = ?", (keys()[5],))
    s.conn.commit()
    s.close()
    b = store(tmp_path / "b", {5: another_plan})  # its extra match has nothing to differ from
    data = json.loads(report([a, b], "json"))
    assert data["tournaments"] == 1 and len(data["matches"]) == 6 and data["incomplete"] == []

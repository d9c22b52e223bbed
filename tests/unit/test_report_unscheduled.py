"""A report pools only the matches a tournament's schedule makes: rows a copied store was given under
ids the schedule never makes, in a tournament its configuration never plans, with another seed than
the schedule's, or won by an agent who did not play, are left out with a one-line note, and none of
their wins counts (issue 32, point 8; made-up records: no match is played)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from apdp.errors import UserError
from apdp.tournament.report import report
from apdp.tournament.schedule import MatchSpec, double_round_robin, match_seed
from apdp.tournament.store import STORE_FILE, ResultsStore
from tests.records import typed_record

AGENTS = ["a", "b", "c"]
CONFIG: dict[str, Any] = {
    "format": "apdp-tournament/1", "agents": AGENTS, "topologies": ["france"], "seed": 0, "repeat": 1,
    "scenario": {"tasks": 2}, "agent_files": {a: a * 64 for a in AGENTS},
}
KEY = b"k" * 32
SCHEDULE = double_round_robin(AGENTS, ["france"], 0, 1)


def record(match: MatchSpec, winner: str | None = None) -> dict[str, Any]:
    """``winner`` (else the first agent in alphabetical order) wins; only what the store reads."""
    first = match.agents.index(winner or min(match.agents))
    profit = [10.0 if k == first else 5.0 for k in range(len(match.agents))]
    return {"format": "apdp-record/1", "topology": match.topology, "seed": match.seed,
            "agents": list(match.agents), "result": {"profit": profit, "winner": first, "faults": []}}


def store(folder: Path, matches: list[MatchSpec], winner: str | None = None) -> Path:
    s = ResultsStore.create_or_resume(folder, CONFIG, KEY)
    for m in matches:
        s.add(m, typed_record(record(m, winner if winner in m.agents else None)))
    s.close()
    return folder


def as_json(*folders: Path) -> dict[str, Any]:
    return dict(json.loads(report(list(folders), "json")))


def wins(data: dict[str, Any]) -> dict[str, Any]:
    return {row["agent"]: (row["total_wins"], row["total_losses"]) for row in data["agents"]}


def games(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(m["topology"], m["tournament_seed"], m["seed"], m["agents"], m["winner"]) for m in data["matches"]]


#: Rows no schedule of CONFIG makes, each a win for c: another id, a tournament never planned.
FORGED = [
    MatchSpec("france", 0, 7, ("c", "c")),
    MatchSpec("france", 0, 7, ("c", "a", "b")),
    MatchSpec("france", 9, match_seed("france", 9, ("a", "c")), ("c", "a")),
    MatchSpec("spain", 0, match_seed("spain", 0, ("a", "c")), ("c", "a")),
]


def test_a_copy_given_rows_its_schedule_never_makes_counts_none_of_their_wins(tmp_path: Path) -> None:
    original = store(tmp_path / "a", SCHEDULE)
    shutil.copytree(original, tmp_path / "b")
    store(tmp_path / "b", FORGED, winner="c")
    alone, pooled = as_json(original), as_json(original, tmp_path / "b")
    assert wins(pooled) == wins(alone) and len(pooled["matches"]) == len(alone["matches"]) == 6
    (note,) = [n for n in pooled["notes"] if "left out" in n]
    assert note.startswith(f"{tmp_path / 'b'}: 4 stored match(es) that its tournaments' schedule does not make")
    assert "france/0/c/c" in note and "\n" not in note
    assert games(as_json(tmp_path / "b")) == games(alone)  # the copy alone: the same


def test_a_scheduled_id_with_another_seed_or_a_winner_who_did_not_play_is_left_out(tmp_path: Path) -> None:
    *kept, reseeded, rewon = SCHEDULE
    folder = store(tmp_path / "a", [*kept, MatchSpec(reseeded.topology, 0, reseeded.seed + 1, reseeded.agents),
                                    rewon], winner="c")
    conn = sqlite3.connect(folder / STORE_FILE)
    with conn:
        conn.execute("UPDATE matches SET winner = 'z' WHERE key = ?", (rewon.match_id,))
    conn.close()
    data = as_json(folder)
    assert len(data["matches"]) == 4 and "z" not in wins(data)
    assert any(n.startswith(f"{folder}: 2 stored match(es)") for n in data["notes"])
    assert any("2 of 6 matches missing" in n for n in data["notes"])  # left out: still to play


def test_a_configuration_that_plans_no_tournament_apdp_runs_is_one_line(tmp_path: Path) -> None:
    folder = store(tmp_path / "a", SCHEDULE)
    conn = sqlite3.connect(folder / STORE_FILE)
    with conn:
        conn.execute("UPDATE tournament SET config = json_set(config, '$.repeat', 1000000000000)")
    conn.close()
    with pytest.raises(UserError, match="plans no tournament apdp runs") as error:
        as_json(folder)  # listing its schedule would never end
    assert "\n" not in str(error.value)

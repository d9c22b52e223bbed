"""Reports count each tournament once, say what is missing, refuse to mix unlike tournaments, group
from stored identities, and print tidy CSV, a section per network and the rating scale (made-up
records: no match is played)."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from apdp.errors import UserError
from apdp.tournament.report import report
from apdp.tournament.schedule import MatchSpec, double_round_robin
from apdp.tournament.store import ResultsStore
from apdp.tournament.tidy import TABLES
from tests.records import typed_record

AGENTS = ["a", "b", "c"]


def config(**changes: Any) -> dict[str, Any]:
    """A stored configuration as apdp tournament writes it."""
    data: dict[str, Any] = {
        "format": "apdp-tournament/1", "agents": AGENTS, "topologies": ["france"], "seed": 0, "repeat": 2,
        "scenario": {"tasks": 10}, "agent_files": {a: a * 64 for a in AGENTS},
    }
    data.update(changes)
    return data


def record(match: MatchSpec) -> dict[str, Any]:
    """The first agent in alphabetical order wins; only what the store reads."""
    first = min(match.agents)
    profit = [10.0 if a == first else 5.0 for a in match.agents]
    return {"format": "apdp-record/1", "topology": match.topology, "seed": match.seed,
            "agents": list(match.agents),
            "result": {"profit": profit, "winner": match.agents.index(first), "faults": []}}


def store(folder: Path, cfg: dict[str, Any], *, secret: bytes = b"k" * 32, skip: int = 0,
          identities: dict[str, dict[str, Any]] | None = None) -> Path:
    """A results folder holding ``cfg``'s schedule, less its last ``skip`` matches."""
    s = ResultsStore.create_or_resume(folder, cfg, secret)
    schedule = double_round_robin(cfg["agents"], cfg["topologies"], cfg["seed"], cfg["repeat"])
    for m in schedule[: len(schedule) - skip]:
        s.add(m, typed_record(record(m)))
    if identities is not None:
        s.add_identities(identities)
    s.close()
    return folder


def as_json(*folders: Path, **options: Any) -> dict[str, Any]:
    return dict(json.loads(report(list(folders), "json", **options)))


def test_a_copy_of_a_results_folder_is_counted_once(tmp_path: Path) -> None:
    a = store(tmp_path / "a", config())
    shutil.copytree(a, tmp_path / "b")
    alone, both = as_json(a), as_json(a, tmp_path / "b")
    assert both["tournaments"] == alone["tournaments"] == 2
    assert len(both["matches"]) == len(alone["matches"]) == 12
    assert both["agents"] == alone["agents"]
    assert both["notes"] == [f"{tmp_path / 'b'} holds 2 tournament(s) that {a} holds too (a copy or a replay): "
                             "counted once"]
    assert "counted once" in report([a, tmp_path / "b"], "table").split("\n\n")[0]  # the note, wrapped


def test_a_replay_with_the_published_key_is_the_same_tournament_but_another_key_is_not(tmp_path: Path) -> None:
    a = store(tmp_path / "a", config(), skip=3)  # interrupted
    b = store(tmp_path / "b", config(), secret=b"k" * 32)  # replayed to the end elsewhere
    data = as_json(a, b)
    assert data["tournaments"] == 2 and len(data["matches"]) == 12  # merged: nothing twice, nothing lost
    assert data["incomplete"] == []
    c = store(tmp_path / "c", config(), secret=b"x" * 32)  # same seed, another key: other tasks
    assert as_json(b, c)["tournaments"] == 4


def test_an_incomplete_tournament_says_which_matches_are_missing(tmp_path: Path) -> None:
    a = store(tmp_path / "a", config(), skip=2)
    data = as_json(a)
    [gap] = data["incomplete"]
    assert (gap["topology"], gap["seed"], gap["scheduled"]) == ("france", 1, 6)
    assert len(gap["missing"]) == 2 and all(k.startswith("france/1/") for k in gap["missing"])
    [note] = data["notes"]
    assert note.startswith(f"{a}: france seed 1 is incomplete: 2 of 6 matches missing (")
    assert "resume it with the same apdp tournament command" in note
    table = report([a], "table")
    assert " ".join(table.split()).startswith(f"Note: {a}: france seed 1 is incomplete")  # wrapped at 100


def test_a_tournament_not_started_is_named(tmp_path: Path) -> None:
    cfg = config(repeat=1)
    a = store(tmp_path / "a", cfg)
    s = ResultsStore.open(a)
    s.conn.execute("UPDATE tournament SET config = ?", (json.dumps(config(repeat=2)),))
    s.conn.commit()
    s.close()
    assert as_json(a)["notes"] == [f"{a}: france seed 1: not started, none of its 6 matches is stored"]


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"agents": ["a", "b", "d"], "agent_files": {"a": "a" * 64, "b": "b" * 64, "d": "d" * 64}},
         "agents: {b}: france seed 0 adds d and lacks c (against {a}: france seed 0)"),
        ({"agent_files": {"a": "a" * 64, "b": "e" * 64, "c": "c" * 64}},
         "agent files: 'b' is another file in {b} than in {a}"),
        ({"topologies": ["switzerland"]}, "networks: {a} plays france, {b} plays switzerland"),
        ({"scenario": {"tasks": 20}}, "tasks per match: 10 in {a}, 20 in {b}"),
    ],
)
def test_unlike_tournaments_are_pooled_only_with_mixed(tmp_path: Path, changes: dict[str, Any], says: str) -> None:
    a = store(tmp_path / "a", config())
    b = store(tmp_path / "b", config(**changes), secret=b"z" * 32)
    expected = says.format(a=a, b=b)
    with pytest.raises(UserError) as info:
        report([a, b], "table")
    message = str(info.value)
    assert message.startswith("cannot pool tournaments that differ: ") and expected in message
    assert message.endswith("pool them anyway with --mixed") and "\n" not in message
    data = as_json(a, b, mixed=True)
    assert data["tournaments"] == 4 and any(expected in n for n in data["notes"])


def test_groups_come_from_the_stored_identities(tmp_path: Path) -> None:
    generated = {"origin": "generated", "sha256": "0" * 64, "apdp": "0.1.0",
                 "provenance": {"model": "model-x", "strategy": "a1"}}
    identities = {"a": {"name": "a", **generated}, "b": {"name": "b", "origin": "baseline"},
                  "c": {"name": "c", "origin": "hand-written"}}
    a = store(tmp_path / "a", config(), identities=identities)
    data = as_json(a, group_by="model")
    groups = {g["group"]: g for g in data["groups"]}
    assert set(groups) == {"model-x", "baseline", "human"}  # none of a, b, c exists as a file
    assert data["notes"] == []
    x = groups["model-x"]
    assert (x["agents"], x["tournaments"], x["avg_wins"], x["sd_wins"], x["avg_losses"]) == (["a"], 2, 4.0, 0.0, 0.0)
    assert x["matches"] == 8 and x["rating_low"] is None and x["rating_high"] is None  # too few for an interval
    table = report([a], "table", group_by="provenance")
    assert "model-x / a1" in table and "avg wins" in table and "95% CI" in table


def test_a_store_without_identities_still_groups_and_says_so(tmp_path: Path) -> None:
    a = store(tmp_path / "a", config())
    data = as_json(a, group_by="strategy")
    assert {g["group"] for g in data["groups"]} == {"unknown"}
    assert data["notes"] == [
        "no stored identity for a, b, c (results made before apdp kept them): grouped by strategy "
        "from the agent files present now"
    ]


def test_csv_is_one_tidy_table(tmp_path: Path) -> None:
    a = store(tmp_path / "a", config())
    text = report([a], "csv")
    assert "#" not in text
    rows = list(csv.DictReader(io.StringIO(text)))
    header = text.splitlines()[0].split(",")
    assert len(header) == len(set(header))
    assert [r["agent"] for r in rows] == AGENTS
    assert rows[0]["rating_low"] == rows[0]["rating_high"] == ""  # 8 matches: too few for an interval
    assert int(rows[0]["total_wins"]) == 8
    for name in TABLES:
        if name == "groups":
            continue
        table = report([a], "csv", table=name)
        header = table.splitlines()[0].split(",")
        assert len(header) == len(set(header)), name
    grid = list(csv.DictReader(io.StringIO(report([a], "csv", table="grid"))))
    assert len(grid) == 6 and {"agent", "opponent", "wins", "draws", "losses"} == set(grid[0])
    groups = report([a], "csv", group_by="model", table="groups")
    assert groups.splitlines()[0].startswith("group,agents,tournaments,matches,avg_wins,sd_wins")
    with pytest.raises(UserError, match="unknown table 'nope'"):
        report([a], "csv", table="nope")
    with pytest.raises(UserError, match="--table chooses the one table of --format csv"):
        report([a], "markdown", table="grid")


def test_a_section_per_network_and_the_rating_scale(tmp_path: Path) -> None:
    a = store(tmp_path / "a", config(topologies=["france", "switzerland"], repeat=1))
    table = report([a], "table")
    assert "Standings: 2 tournaments: 2 networks x 1 seed (france, switzerland), 12 matches" in table
    assert "Standings on france: 1 tournament, 6 matches" in table
    assert "Standings on switzerland: 1 tournament, 6 matches" in table
    assert "Elo scale: the field averages 1500 and 400 points more means 10:1 odds" in " ".join(table.split())
    data = as_json(a)
    assert [n["network"] for n in data["networks"]] == ["france", "switzerland"]
    assert [x["agent"] for x in data["networks"][0]["agents"]] == AGENTS
    assert "Elo scale" in data["rating_scale"]
    networks = list(csv.DictReader(io.StringIO(report([a], "csv", table="networks"))))
    assert [(r["network"], r["agent"]) for r in networks][:4] == [
        ("france", "a"), ("france", "b"), ("france", "c"), ("switzerland", "a")]


def test_cli_refuses_in_one_line_and_mixed_pools(tmp_path: Path) -> None:
    a = store(tmp_path / "a", config())
    b = store(tmp_path / "b", config(scenario={"tasks": 20}), secret=b"z" * 32, skip=1)
    command = [sys.executable, "-c", "from apdp.cli import console; console()", "report", str(a), str(b)]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "tasks per match: 10" in refused.stderr
    pooled = subprocess.run([*command, "--mixed", "--format", "csv", "--table", "pairs"], capture_output=True,
                            text=True, timeout=120)
    assert pooled.returncode == 0, pooled.stderr
    assert pooled.stdout.startswith(
        "agent,opponent,matches,wins,draws,losses,profit,opponent_profit,faulted,opponent_faulted\n")
    assert "note: " in pooled.stderr and "is incomplete" in pooled.stderr and "#" not in pooled.stdout

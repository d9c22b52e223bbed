"""The apdp command as a user meets it: output, exit codes, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.command import apdp
from tests.paths import TEMPLATE, ZOO


def test_match_prints_auctions_result_and_writes_a_valid_record(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    run = apdp("match", "--topology", "france", "--agents", "template", "template", "--seed", "7",
               "--tasks", "6", "--record", str(record))
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("task ") >= 6
    assert "revenue" in run.stdout and "profit" in run.stdout and "winner" in run.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["seed"] == 7 and len(data["tasks"]) == 6
    ok = apdp("verify", str(record))
    assert ok.returncode == 0 and "valid" in ok.stdout
    data["result"]["profit"][0] += 1
    record.write_text(json.dumps(data))
    bad = apdp("verify", str(record))
    assert bad.returncode == 1 and "result.profit of agent 0" in bad.stdout


def test_a_match_plays_on_one_core(tmp_path: Path) -> None:
    (tmp_path / "core_bidder.py").write_text((ZOO / "core_bidder.py").read_text())
    (tmp_path / "template.py").write_text(TEMPLATE.read_text())
    record = tmp_path / "r.json"
    run = apdp("match", "--agents", str(tmp_path / "core_bidder.py"), str(tmp_path / "core_bidder.py"),
               "--tasks", "3", "--record", str(record))
    assert run.returncode == 0, run.stderr
    bids = {bid for auction in json.loads(record.read_text())["auctions"] for bid in auction["bids"]}
    assert len(bids) == 1 and 1000 <= bids.pop() < 2000, bids  # both agents, every auction: one core


def test_verify_unreadable_is_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    run = apdp("verify", str(junk))
    assert run.returncode == 2 and "not JSON" in run.stderr
    junk.write_text('{"format": "other"}')
    assert apdp("verify", str(junk)).returncode == 2
    assert apdp("verify", str(tmp_path / "missing.json")).returncode == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["match", "--agents", "template", "nobody"], "no agent named 'nobody'; available:"),
        (["match", "--agents", "template", "template", "--topology", "mars"], "unknown topology 'mars'"),
        (["match", "--agents", "template", "template", "--tasks", "0"], "tasks: Input should be greater than"),
        (["match", "--agents", "template", "template", "--tasks", "x"], "Invalid value for '--tasks'"),
        (["match", "--agents", "template"], "a match needs at least 2 agents"),
        (["match", "--agents", "template", "template", "--bid-timeout", "-1"], "timeouts.bid"),
        (["match", "--agents", "template", "template", "--scenario", "nope.toml"], "nope.toml: cannot read"),
        (["frobnicate"], "No such command"),
    ],
)
def test_user_mistakes_are_one_line_without_traceback(args: list[str], words: str) -> None:
    run = apdp(*args)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], run.stderr
    assert "Traceback" not in run.stderr


def test_faulty_agent_match_still_prints_result() -> None:
    run = apdp("match", "--agents", str(ZOO / "syntax_error.py"), "template", "--tasks", "3")
    assert run.returncode == 0
    assert "exception in setup" in run.stdout and "winner: template" in run.stdout


@pytest.mark.parametrize("args", [["--agents", "nosuch", "naive"],
                                  ["--agents", "naive", "naive", "--topology", "atlantis"]])
def test_match_with_an_unknown_agent_or_network_prints_no_header(args: list[str]) -> None:
    run = apdp("match", *args)
    assert run.returncode == 2 and run.stdout == "", run.stdout  # no "match on ..." of a match never played
    assert len(run.stderr.strip().splitlines()) == 1 and ("no agent named" in run.stderr or "atlantis" in run.stderr)

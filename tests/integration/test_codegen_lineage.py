"""Agents made from agents: ``--strategy improve`` (a Python or a Java parent) and ``apdp codegen
evolve`` (tournament in the loop), their lineage in provenance and in the report.

The models are scripted servers on loopback (tests/chat.py), never a real model. Tournaments are
tiny (3 tasks, one network) and no test depends on time.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from apdp.agents.files import agent_hash
from apdp.agents.provenance import read_provenance
from apdp.codegen.loop import RunSettings, run
from apdp.codegen.parent import read_parent
from apdp.errors import UserError
from apdp.testing import CheckConfig
from tests.chat import ChatServer
from tests.replies import answer, version


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


CHECK = CheckConfig(opponents=("template",), topologies=("france",), tasks=3, timeouts={"bid": 1.0, "plan": 5.0})
CHECK_ARGS = ["--tasks", "3", "--bid-timeout", "1", "--opponent", "template", "--topology", "france"]


def apdp(args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    from apdp.cli import main

    monkeypatch.setattr(sys, "argv", ["apdp", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return int(info.value.code or 0)


# -- improve -------------------------------------------------------------------------------------


def test_improve_a_python_agent(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    agents = tmp_path / "agents"
    agents.mkdir()
    parent_file = agents / "winner.py"
    parent_file.write_text(version(900), encoding="utf-8")
    server.reply(answer(version(400)))
    base = ["codegen", "run", "--model", "m", "--base-url", server.url, "--agents-dir", str(agents), "--backoff", "0"]
    code = apdp([*base, "--strategy", "improve", "--parent", str(parent_file), "--name", "child", *CHECK_ARGS],
                monkeypatch)
    out = capsys.readouterr()
    assert code == 0, out.err
    sent = server.user_messages(0)[0]
    assert "class Margin900" in sent and "# 1. The problem" in sent and "# 6. The template" not in sent
    prov = read_provenance(agents / "child.py")
    assert prov is not None and prov["strategy"] == "improve"
    assert prov["parent"] == "winner" and prov["parent_sha256"] == agent_hash(parent_file)

    # a sidecar is no provenance: a hand-written agent claiming the parent has none
    (agents / "claimer.py").write_text(version(500), encoding="utf-8")
    (agents / "claimer.json").write_text(json.dumps({**prov, "model": "m"}), encoding="utf-8")
    # the report sets the child against its parent
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    assert apdp(["tournament", "--topology", "france", "--agents", "winner,child,claimer,template", "--tasks", "3",
                 "--seed", "1", "--out", str(tmp_path / "out"), "--jobs", "1", "--quiet"], monkeypatch) == 0
    capsys.readouterr()
    from apdp.tournament.report import report

    data = json.loads(report([tmp_path / "out"], "json"))
    (pair,) = data["lineage"]["pairs"]
    assert (pair["agent"], pair["parent"]) == ("child", "winner")
    assert pair["matches"] == 2 and pair["wins"] + pair["draws"] + pair["losses"] == 2
    assert {"win_rate", "parent_win_rate", "rating", "parent_rating"} <= set(pair)
    table = report([tmp_path / "out"], "table")
    assert "Lineage" in table and "winner" in table.split("Lineage", 1)[1]


def test_improve_needs_a_parent_it_can_read(server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    base = ["codegen", "run", "--model", "m", "--base-url", server.url, "--agents-dir", str(tmp_path)]
    assert apdp([*base, "--strategy", "improve"], monkeypatch) == 2
    assert "--parent AGENT" in capsys.readouterr().err
    assert apdp([*base, "--strategy", "improve", "--parent", "no-such-agent"], monkeypatch) == 2
    assert apdp([*base, "--strategy", "a1", "--parent", "honest"], monkeypatch) == 2
    program = tmp_path / "prog"
    program.mkdir()
    (program / "agent.toml").write_text('command = ["./agent"]\n')
    with pytest.raises(UserError, match="neither"):
        read_parent(str(program))
    assert server.requests == []
    # a shipped baseline is a parent like any other
    honest = read_parent("honest")
    assert honest.language == "python" and "class" in honest.source and honest.sha256 == agent_hash(honest.path)


def test_improve_keeps_lineage_through_repairs(server: ChatServer, tmp_path: Path) -> None:
    server.reply("I would rather not.")
    server.reply(answer(version(300)))
    settings = RunSettings(strategy="improve", name="kid", agents_dir=tmp_path / "agents", rounds=1, check=CHECK,
                           parent=read_parent("template"))
    result = run(settings, server.client())
    assert result.ok and result.rounds == 1
    prov = read_provenance(tmp_path / "agents" / "kid.py")
    assert prov is not None and prov["parent"] == "template" and prov["round"] == 1
    start: dict[str, Any] = json.loads(result.transcript.read_text().splitlines()[0])
    assert start["parent"] == "template"


# -- evolve --------------------------------------------------------------------------------------


def tokens(total: int) -> dict[str, int]:
    return {"prompt_tokens": total - 100, "completion_tokens": 100, "total_tokens": total}


EVOLVE_ARGS = ["--tasks", "3", "--check-tasks", "3", "--opponent", "template", "--check-topology", "france",
               "--bid-timeout", "1", "--topology", "france", "--backoff", "0"]


def test_evolve_against_a_field_of_shipped_agents(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from apdp.tournament.report import report

    for margin, used in ((900, 1000), (600, 2000), (300, 3000)):
        server.reply(answer(version(margin)), usage=tokens(used))
    agents, work = tmp_path / "agents", tmp_path / "work"
    code = apdp(["codegen", "evolve", "--model", "m", "--base-url", server.url, "--name", "evo", "--rounds", "2",
                 "--field", "honest,naive", "--agents-dir", str(agents), "--work", str(work), *EVOLVE_ARGS],
                monkeypatch)
    out = capsys.readouterr()
    assert code == 0, out.err
    assert len(server.requests) == 3
    first, second = server.user_messages(0)[0], server.user_messages(1)[0]
    assert "# 6. The template" in first  # version 0: the A1 prompt
    # round 1 sends version 0's own results: its losses with every bid, its plan; no opponent's code
    assert "class Margin900" in second and "tournament (round 1)" in second
    assert "## Matches you lost:" in second and "Auctions (task, your bid, the other bids" in second
    assert "honest " in second.split("## Matches you lost", 1)[1] and "Your plan:" in second
    assert "## Your CPU use" in second and "## Your faults" in second
    for shipped in ("honest", "naive"):
        source = read_parent(shipped)
        assert source.source.strip() not in second and str(source.path) not in second
        assert str(source.path.parent) not in second
    assert "class Honest" not in second and "apdp/baselines" not in second

    for r in range(3):
        prov = read_provenance(agents / f"evo-v{r}.py")
        assert prov is not None and prov["lineage"] == "evo" and prov["evolve_round"] == r
        assert prov["cumulative_tokens"] == [1000, 3000, 6000][r]
        if r:
            assert prov["parent"] == f"evo-v{r - 1}" and prov["strategy"] == "evolve"
            assert prov["parent_sha256"] == agent_hash(agents / f"evo-v{r - 1}.py")
    rows = list(csv.DictReader((work / "curve.csv").open(encoding="utf-8")))
    assert [(r["round"], r["version"], r["cumulative_tokens"]) for r in rows] == [
        ("0", "evo-v0", "1000"), ("1", "evo-v1", "3000"), ("2", "evo-v2", "6000")]
    data = json.loads((work / "evolve.json").read_text(encoding="utf-8"))
    assert len(data["curve"]) == 3 and data["field"] == ["honest", "naive"]
    assert "evo-v2" in out.out and "curve.csv" in out.out

    # the report of the final tournament: each version against its parent, and the curve
    final = data["final"]
    lineage = json.loads(report([final], "json"))["lineage"]
    assert [(p["agent"], p["parent"], p["matches"]) for p in lineage["pairs"]] == [
        ("evo-v1", "evo-v0", 2), ("evo-v2", "evo-v1", 2)]
    (curve,) = lineage["curves"]
    assert curve["lineage"] == "evo" and [p["round"] for p in curve["points"]] == [0, 1, 2]
    assert [p["cumulative_tokens"] for p in curve["points"]] == [1000, 3000, 6000]
    assert "Lineage evo: rating per round" in report([final], "table")
    curves = list(csv.DictReader(io.StringIO(report([final], "csv", table="curves"))))
    assert [(r["lineage"], r["round"], r["agent"]) for r in curves] == [
        ("evo", "0", "evo-v0"), ("evo", "1", "evo-v1"), ("evo", "2", "evo-v2")]
    pairs = list(csv.DictReader(io.StringIO(report([final], "csv", table="lineage"))))
    assert [(r["agent"], r["parent"], r["evolve_round"]) for r in pairs] == [("evo-v1", "evo-v0", "1"),
                                                                            ("evo-v2", "evo-v1", "2")]

    # a rerun continues: nothing is asked again
    code = apdp(["codegen", "evolve", "--model", "m", "--base-url", server.url, "--name", "evo", "--rounds", "2",
                 "--field", "honest,naive", "--agents-dir", str(agents), "--work", str(work), *EVOLVE_ARGS],
                monkeypatch)
    assert code == 0 and len(server.requests) == 3
    assert list(csv.DictReader((work / "curve.csv").open(encoding="utf-8"))) == rows


def test_evolve_in_self_play_from_a_start_agent(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from apdp.study.evolve import EvolveSettings, evolve

    server.reply(answer(version(500)))
    server.reply(answer(version(200)))
    settings = EvolveSettings(name="solo", rounds=2, agents_dir=tmp_path / "agents", work=tmp_path / "work",
                              start="template", repairs=0, check=CHECK, tasks=3)
    said: list[str] = []
    result = evolve(settings, server.client(), say=said.append)
    assert [v.name for v in result.versions] == ["template", "solo-v1", "solo-v2"]
    assert [p["round"] for p in result.curve] == [0, 1, 2]
    first = server.user_messages(0)[0]
    assert "class Template" in first and "You are template." in first and "solo-mirror" in first
    second = server.user_messages(1)[0]
    assert "You are solo-v1." in second and "template" in second  # against its earlier versions
    prov = read_provenance(tmp_path / "agents" / "solo-v1.py")
    assert prov is not None and prov["parent"] == "template" and prov["cumulative_tokens"] == 0


def test_evolve_bad_usage_is_one_line(server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    base = ["codegen", "evolve", "--model", "m", "--base-url", server.url, "--agents-dir", str(tmp_path / "a"),
            "--work", str(tmp_path / "w")]
    for extra in (["--name", "x", "--rounds", "0"], ["--name", "x", "--strategy", "improve"],
                  ["--name", "bad name"], ["--name", "x", "--field", "honest,,naive"],
                  ["--name", "x", "--start", "no-such-agent"]):
        assert apdp([*base, *extra], monkeypatch) == 2, extra
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("error: "), err
    assert server.requests == []
    (tmp_path / "a").mkdir(exist_ok=True)
    (tmp_path / "a" / "mine-v0.py").write_text(version(100), encoding="utf-8")  # not a version: refused
    assert apdp([*base, "--name", "mine"], monkeypatch) == 2
    assert "no version of the evolution" in capsys.readouterr().err and server.requests == []


LAZY = version(100).replace(
    "        first = plan_from_stops(self.topology, vehicles[0], stops)\n"
    "        return [first] + [[] for _ in vehicles[1:]]",
    "        return [[] for _ in vehicles]",
)


def test_evolve_moves_a_faulty_version_out_of_play_and_goes_on(server: ChatServer, tmp_path: Path) -> None:
    from apdp.study.evolve import EvolveSettings, evolve

    assert "return [[] for _ in vehicles]" in LAZY
    server.reply(answer(version(700)))
    server.reply(answer(LAZY))  # delivers nothing: an invalid plan, and no repair left
    agents = tmp_path / "agents"
    settings = EvolveSettings(name="lazy", rounds=1, agents_dir=agents, work=tmp_path / "work", repairs=0,
                              check=CHECK, tasks=3)
    said: list[str] = []
    result = evolve(settings, server.client(), say=said.append)
    assert [v.name for v in result.versions] == ["lazy-v0"] and result.rejected == [1]
    assert [p["version"] for p in result.curve] == ["lazy-v0"]  # rated against a copy of itself
    assert (agents / "rejected" / "lazy-v1.py").is_file() and not (agents / "lazy-v1.py").exists()
    assert any("moved out of play" in line for line in said)
    assert len(server.requests) == 2
    again = evolve(settings, server.client(), say=said.append)  # the rerun asks nothing again
    assert again.rejected == [1] and len(server.requests) == 2


def test_improve_by_hand_prompt_then_ingest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    prompt = tmp_path / "prompt.md"
    assert apdp(["codegen", "prompt", "--strategy", "improve", "--parent", "honest", "--out", str(prompt)],
                monkeypatch) == 0
    text = prompt.read_text(encoding="utf-8")
    assert "class Honest" in text and "# 6. The agent to improve" in text
    reply = tmp_path / "reply.md"
    reply.write_text(answer(version(50)), encoding="utf-8")
    agents = tmp_path / "agents"
    assert apdp(["codegen", "ingest", str(reply), "--name", "pasted", "--model", "chat", "--strategy", "improve",
                 "--parent", "honest", "--agents-dir", str(agents)], monkeypatch) == 0
    prov = read_provenance(agents / "pasted.py")
    from apdp.codegen.prompts import prompt_hash

    assert prov is not None and prov["parent"] == "honest" and prov["parent_sha256"] == read_parent("honest").sha256
    assert prov["prompt_hash"] == prompt_hash(text)
    assert apdp(["codegen", "prompt", "--strategy", "improve"], monkeypatch) == 2
    assert "--parent" in capsys.readouterr().err

"""Prompts, reply extraction, ingest with provenance, and the prompt/ingest/check commands."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

import apdp
from apdp.agents.discovery import load_agent_class
from apdp.agents.provenance import FIELDS, read_provenance
from apdp.codegen.extract import (
    NoAgentError,
    NoCodeError,
    code_blocks,
    defines_agent,
    extract_agent_code,
)
from apdp.codegen.ingest import ingest_code, ingest_reply
from apdp.codegen.prompts import TEMPLATE_AGENT, render, strategy_prompt, template_names
from apdp.errors import UserError

AGENT = """\
from apdp import Agent


class Mine(Agent):
    def bid(self, task):
        return 1.0

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
"""


# -- prompts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["a1", "a2"])
def test_prompt_holds_the_template_verbatim(strategy: str) -> None:
    prompt = strategy_prompt(strategy)
    assert TEMPLATE_AGENT.read_text(encoding="utf-8").rstrip("\n") in prompt.text
    assert prompt.sha256 == hashlib.sha256(prompt.text.encode()).hexdigest()
    assert prompt.sha256 == strategy_prompt(strategy).sha256  # stable
    assert "{{" not in prompt.text and not prompt.text.startswith("<!--")
    assert "2.5 s" in prompt.text  # the default bid time limit, filled in


def test_a1_has_every_part_of_the_assignment() -> None:
    text = strategy_prompt("a1").text
    assert text.startswith("You are an expert")
    for part in [
        r"\sum_{v \in V} x_{t,v} = 1",  # constraints in LaTeX
        r"\min",
        "any other approach is allowed",
        "Marginal cost",
        "opponent's cost",
        "Early losses",
        "Future tasks",
        "What you must implement",
        "Competition rules",
        "# 7. Summary",
    ]:
        assert part in text, part


def test_a1_and_a2_are_different_prompts() -> None:
    a1, a2 = strategy_prompt("a1"), strategy_prompt("a2")
    assert a1.sha256 != a2.sha256
    for fact in ["marginal cost", "capacity", "deadline", "plan_from_stops", "abstain"]:
        assert fact in a1.text.lower() and fact in a2.text.lower(), fact


@pytest.mark.parametrize("strategy", ["a1", "a2"])
def test_prompt_names_only_real_api(strategy: str) -> None:
    text = strategy_prompt(strategy).text.split("```python")[0]
    for name in set(re.findall(r"`([A-Za-z_]+)\(", text)):
        if name[0].isupper() or name in {"plan_from_stops", "stops_cost", "plan_cost", "check_plans"}:
            assert hasattr(apdp, name), name
    for method in ["distance", "path", "neighbours", "road_length"]:
        assert hasattr(apdp.Topology, method)
    for method in ["probability", "expected_weight", "sample", "sample_tasks"]:
        assert hasattr(apdp.TaskDistribution, method)
    assert hasattr(apdp.Deadline, "remaining") and hasattr(apdp.Deadline, "expired")


def test_every_template_renders_with_its_placeholders() -> None:
    assert {"a1", "a2", "gen", "refine", "ir", "cr_critic", "cr_implement"} <= set(template_names())
    assert "R-E-P" in render("refine", report="R-E-P").text
    with pytest.raises(KeyError):
        render("refine")
    with pytest.raises(KeyError):
        render("refine", report="x", extra="y")
    with pytest.raises(UserError):
        strategy_prompt("a9")


# -- extraction ------------------------------------------------------------------------------


def test_extract_the_agent_block_among_others() -> None:
    reply = (
        "Plan:\n```bash\npip install nothing\n```\nHelper:\n```python\ndef f():\n    pass\n```\n"
        f"Final:\n```python\n{AGENT}```\nThat's it. ```python\nx = 1\n```"
    )
    assert extract_agent_code(reply) == AGENT


def test_extract_accepts_variants() -> None:
    assert extract_agent_code(f"~~~py\n{AGENT}~~~") == AGENT
    assert extract_agent_code(f"```python\n{AGENT}") == AGENT  # reply cut before closing fence
    assert extract_agent_code(AGENT) == AGENT  # bare code
    derived = "import apdp\nclass Base(apdp.Agent):\n    pass\nclass Sub(Base):\n    pass\n"
    assert defines_agent(derived) and defines_agent(
        "class X(Agent):\n    def bid(self t):\n"
    )  # syntax error: text search
    assert code_blocks("```json\n{}\n```") == []


def test_extract_errors_are_one_line() -> None:
    with pytest.raises(NoCodeError, match="no fenced"):
        extract_agent_code("I suggest a genetic algorithm.")
    with pytest.raises(NoAgentError, match=r"defines no subclass of apdp\.Agent"):
        extract_agent_code("```python\nclass Mine:\n    pass\n```")


# -- ingest and provenance -------------------------------------------------------------------


def test_ingest_writes_agent_header_and_sidecar(tmp_path: Path) -> None:
    agent = ingest_reply(
        f"```python\n{AGENT}```",
        "mine",
        agents_dir=tmp_path,
        model="gpt-x",
        strategy="a1",
        round=2,
        prompt_hash="abc",
    )
    assert agent.path == tmp_path / "mine.py"
    text = agent.path.read_text()
    assert text.startswith("# apdp-provenance: ") and text.endswith(AGENT)
    assert load_agent_class(agent.path).__name__ == "Mine"
    sidecar = json.loads((tmp_path / "mine.json").read_text())
    assert set(FIELDS) <= sidecar.keys()
    assert (sidecar["model"], sidecar["strategy"], sidecar["round"]) == ("gpt-x", "a1", 2)
    assert read_provenance(agent.path) == sidecar
    (tmp_path / "mine.json").unlink()  # the header alone still tells
    header = read_provenance(agent.path)
    assert header is not None and header["model"] == "gpt-x" and header["prompt_hash"] == "abc"


def test_read_provenance_of_a_plain_agent() -> None:
    assert read_provenance(TEMPLATE_AGENT) is None
    assert read_provenance("/no/such/agent.py") is None


def test_ingest_refuses_to_replace_or_shadow(tmp_path: Path) -> None:
    ingest_code(AGENT, "mine", agents_dir=tmp_path)
    ingest_code(AGENT, "mine", agents_dir=tmp_path, round=1)  # same code: fine
    other = AGENT.replace("1.0", "2.0")
    with pytest.raises(UserError, match="already exists"):
        ingest_code(other, "mine", agents_dir=tmp_path)
    ingest_code(other, "mine", agents_dir=tmp_path, force=True)
    assert "2.0" in (tmp_path / "mine.py").read_text()
    with pytest.raises(UserError, match="would shadow"):
        ingest_code(AGENT, "template", agents_dir=tmp_path)
    for bad in ["", "1abc", "a/b", "../x", "a b"]:
        with pytest.raises(UserError, match="bad agent name"):
            ingest_code(AGENT, bad, agents_dir=tmp_path)


# -- commands --------------------------------------------------------------------------------


def apdp_cli(args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    from apdp.cli import main

    monkeypatch.setattr(sys, "argv", ["apdp", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return int(info.value.code or 0)


def test_cli_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert apdp_cli(["codegen", "prompt", "--strategy", "a1"], monkeypatch) == 0
    out = capsys.readouterr()
    assert out.out == strategy_prompt("a1").text
    assert strategy_prompt("a1").sha256 in out.err
    target = tmp_path / "a2.md"
    assert apdp_cli(["codegen", "prompt", "--strategy", "a2", "--out", str(target)], monkeypatch) == 0
    assert target.read_text() == strategy_prompt("a2").text
    assert apdp_cli(["codegen", "prompt", "--strategy", "zz"], monkeypatch) == 2


CHECK_ARGS = ["--tasks", "5", "--bid-timeout", "0.5", "--opponent", "template", "--topology", "france"]


def test_cli_ingest_then_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    agents = tmp_path / "agents"
    reply = tmp_path / "reply.md"
    reply.write_text(f"Sure!\n```python\n{AGENT}```\n")
    args = ["codegen", "ingest", str(reply), "--name", "pasted", "--agents-dir", str(agents)]
    assert apdp_cli([*args, "--model", "chat-window", "--strategy", "a1"], monkeypatch) == 0
    prov = read_provenance(agents / "pasted.py")
    assert prov is not None and prov["prompt_hash"] == strategy_prompt("a1").sha256
    assert apdp_cli(args, monkeypatch) == 0  # the same code again: allowed
    capsys.readouterr()
    # the pasted agent bids 1.0 for everything and never delivers: the check names the fault
    check = ["codegen", "check", "pasted", "--agents-dir", str(agents), *CHECK_ARGS]
    assert apdp_cli(check, monkeypatch) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "Undelivered tasks" in out
    assert apdp_cli(["codegen", "check", "template", *CHECK_ARGS], monkeypatch) == 0
    assert "PASSED" in capsys.readouterr().out
    assert apdp_cli(["codegen", "check", "no-such-agent"], monkeypatch) == 2
    empty = tmp_path / "empty.md"
    empty.write_text("nothing here")
    bad = ["codegen", "ingest", str(empty), "--name", "e", "--agents-dir", str(agents)]
    assert apdp_cli(bad, monkeypatch) == 2
    assert "no fenced" in capsys.readouterr().err

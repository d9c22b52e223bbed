"""Generated code is trusted no earlier than it has earned: a model's reply never names a path outside
its new agent's folder, every check of model code runs confined (a failure is a check result, not a
traceback), and an agent is "generated" only if the harness recorded its file when it wrote it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from apdp.agents.identity import agent_identity
from apdp.agents.provenance import HEADER_MARK, LEDGER, read_provenance
from apdp.codegen.extract import ExtractError, defines_agent
from apdp.codegen.ingest import ingest_code
from apdp.codegen.java import agent_class, code_only, ingest_java
from apdp.errors import UserError
from apdp.testing import CheckConfig, check_agent
from tests.paths import TEMPLATE as TEMPLATE_PATH

TEMPLATE = TEMPLATE_PATH.read_text(encoding="utf-8")

JAVA_AGENT = """\
{package}
import logist.behavior.AuctionBehavior;

public class Evil implements AuctionBehavior {{
    // the class's body does not matter: the agent is not compiled here
}}
"""


@pytest.mark.parametrize("package", [
    "package .tmp.evil;",
    "package ..;",
    "package a/../../b;",
    "package a..b;",
    "package a.class;",
    "package \\u002e.tmp;",
])
def test_a_package_line_that_is_no_java_name_is_refused(package: str, tmp_path: Path) -> None:
    with pytest.raises(ExtractError, match="not a Java package name"):
        agent_class(JAVA_AGENT.format(package=package))


def test_a_package_or_class_in_a_comment_or_a_string_is_not_the_real_one() -> None:
    code = JAVA_AGENT.format(package='/* package ..;\n*/ // package /etc;\npackage  agents . mine ;')
    code += 'class Decoy { String s = "class Fake implements AuctionBehavior {"; char q = \'"\'; }\n'
    assert agent_class(code) == ("agents.mine", "Evil")
    assert "package /etc" not in code_only(code) and "Fake" not in code_only(code)
    commented = "/*\npackage evil;\n*/\n" + JAVA_AGENT.format(package="")
    assert agent_class(commented) == ("", "Evil")


def test_java_ingest_writes_only_inside_the_new_agents_folder(java_cache: Path, tmp_path: Path) -> None:
    agents = tmp_path / "agents"
    victim = agents / "victim.py"
    agents.mkdir()
    victim.write_text(TEMPLATE, encoding="utf-8")
    for package in (f"package .{str(agents).strip('/').replace('/', '.')};", "package ..;"):
        with pytest.raises(ExtractError):
            ingest_java(JAVA_AGENT.format(package=package), "evil", agents_dir=agents, model="m")
    agent = ingest_java(JAVA_AGENT.format(package="/* package .tmp; */ package agents.mine;"), "evil",
                        agents_dir=agents, model="m")
    written = sorted(p.relative_to(agent.path).as_posix() for p in (agent.path / "src").rglob("*") if p.is_file())
    assert written == ["src/agents/mine/Evil.java"]
    assert victim.read_text(encoding="utf-8") == TEMPLATE


def test_an_install_refuses_source_names_that_leave_its_folder(java_cache: Path, tmp_path: Path) -> None:
    from apdp.agents.java.install import Origin, install

    agents = tmp_path / "agents"
    for name in ("../../outside.java", "/tmp/outside.java", "a/./B.java", "notes.txt"):
        with pytest.raises(UserError, match="source file"):
            install(Origin("sources", agents / "x" / "src", "B"), "x", agents, compile_now=False, sources={name: ""})
    assert not (tmp_path / "outside.java").exists() and not Path("/tmp/outside.java").exists()


def test_code_too_deep_for_the_parser_is_a_check_result(tmp_path: Path) -> None:
    deep = TEMPLATE + "\nDEPTH = " + "-" * 200_000 + "1\n"
    nested = TEMPLATE + "\nDEPTH = " + "[" * 100_000 + "]" * 100_000 + "\n"
    assert defines_agent(deep) and defines_agent(nested)
    agent = tmp_path / "deep.py"
    agent.write_text(deep, encoding="utf-8")
    report = check_agent(agent, CheckConfig(opponents=(), topologies=("france",), tasks=2))
    assert not report.ok
    assert [p.category for p in report.problems] == ["import"]
    assert "nested too deeply" in report.problems[0].message
    command = [sys.executable, "-c", "from apdp.cli import console; console()", "codegen", "check", str(agent),
               "--tasks", "2", "--topology", "france"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stdout + done.stderr and "nested too deeply" in done.stdout


def _forge(path: Path, model: str) -> None:
    header = f'{HEADER_MARK} {{"model": "{model}", "strategy": "a1", "round": 0, "prompt_hash": null, "date": null}}\n'
    path.write_text(header + TEMPLATE.replace("class Template", "class Forged"), encoding="utf-8")
    path.with_suffix(".json").write_text(json.dumps({"model": model, "strategy": "a1", "round": 0}), encoding="utf-8")


def test_a_forged_header_or_sidecar_claims_nothing(tmp_path: Path) -> None:
    agents = tmp_path / "agents"
    agents.mkdir()
    _forge(agents / "forged.py", "gpt-5")
    assert read_provenance(agents / "forged.py") is None
    assert agent_identity("forged", agents / "forged.py")["origin"] == "hand-written"
    (agents / LEDGER).write_text('{"sha256": "00", "provenance": {"model": "gpt-5"}}\nnot json\n', encoding="utf-8")
    assert agent_identity("forged", agents / "forged.py")["origin"] == "hand-written"


def test_the_harness_ledger_vouches_for_what_it_wrote_and_nothing_changed_since(tmp_path: Path) -> None:
    agents = tmp_path / "agents"
    gen = ingest_code(TEMPLATE.replace("class Template", "class Gen"), "gen", agents_dir=agents, model="model-x",
                      strategy="a2")
    identity = agent_identity("gen", gen.path)
    assert identity["origin"] == "generated" and identity["provenance"]["model"] == "model-x"
    entries = [json.loads(line) for line in (agents / LEDGER).read_text(encoding="utf-8").splitlines()]
    assert [(e["file"], e["sha256"]) for e in entries] == [("gen.py", identity["sha256"])]
    elsewhere = tmp_path / "copied" / "gen.py"  # a copy away from the ledger: nobody vouches for it
    elsewhere.parent.mkdir()
    shutil.copyfile(gen.path, elsewhere)
    assert agent_identity("gen", elsewhere)["origin"] == "hand-written"
    gen.path.write_text(gen.path.read_text(encoding="utf-8") + "# changed by hand\n", encoding="utf-8")
    assert agent_identity("gen", gen.path)["origin"] == "hand-written"


def test_a_forged_model_is_grouped_with_the_humans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from apdp.tournament.groups import label_function

    agents = tmp_path / "agents"
    ingest_code(TEMPLATE.replace("class Template", "class Gen"), "gen", agents_dir=agents, model="gpt-5",
                strategy="a1")
    _forge(agents / "forged.py", "gpt-5")
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    label = label_function("model")
    assert (label("gen"), label("forged")) == ("gpt-5", "human")

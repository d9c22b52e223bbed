"""Agent names are never picked between silently: shadowing a shipped agent, or two files of one name."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from apdp.agents.discovery import BUNDLED_TEMPLATE, AgentNameConflict, available_agents, find_agent, is_bundled

TEMPLATE = BUNDLED_TEMPLATE.read_text(encoding="utf-8")


@pytest.fixture
def user_agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder of the user's agents, in a fresh working directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("APDP_AGENTS", raising=False)
    folder = tmp_path / "agents"
    folder.mkdir()
    return folder


def test_a_users_agent_may_not_shadow_a_baseline(user_agents: Path) -> None:
    (user_agents / "naive.py").write_text(TEMPLATE.replace("class Template", "class Naive"))
    with pytest.raises(AgentNameConflict) as info:
        find_agent("naive")
    message = str(info.value)
    assert "agents/naive.py would shadow the shipped agent 'naive'" in message
    assert "mv agents/naive.py agents/my_naive.py" in message and "\n" not in message
    with pytest.raises(AgentNameConflict):
        available_agents()  # "every agent" is ambiguous too
    assert is_bundled(find_agent("honest").path)  # other names still play


def test_a_users_template_may_not_shadow_the_shipped_one(user_agents: Path) -> None:
    (user_agents / "Template.py").write_text(TEMPLATE + "\n# changed\n")
    with pytest.raises(AgentNameConflict, match="would shadow the shipped agent 'template'"):
        find_agent("template")


def test_an_identical_copy_of_a_shipped_agent_is_that_agent(user_agents: Path) -> None:
    shutil.copy(BUNDLED_TEMPLATE, user_agents / "template.py")  # e.g. so that another agent imports it
    assert find_agent("template").path == BUNDLED_TEMPLATE


def test_two_files_with_one_name_are_refused(user_agents: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (user_agents / "my_agent.py").write_text(TEMPLATE.replace("class Template", "class A"))
    (user_agents / "My-Agent.py").write_text(TEMPLATE.replace("class Template", "class B"))
    with pytest.raises(AgentNameConflict, match=r"both play as .*; rename one of them"):
        find_agent("my-agent")
    (user_agents / "My-Agent.py").unlink()
    assert find_agent("MyAgent").path == (user_agents / "my_agent.py").resolve()
    elsewhere = tmp_path / "more"
    elsewhere.mkdir()
    (elsewhere / "my-agent.py").write_text(TEMPLATE.replace("class Template", "class C"))
    monkeypatch.setenv("APDP_AGENTS", str(elsewhere))
    with pytest.raises(AgentNameConflict, match=r"more/my-agent\.py and agents/my_agent\.py both play as"):
        find_agent("my_agent")


def test_the_cli_refuses_a_shadowing_agent_in_one_line(user_agents: Path) -> None:
    (user_agents / "naive.py").write_text(TEMPLATE.replace("class Template", "class Naive"))
    run = subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", "match", "--agents", "naive",
         "template", "--tasks", "2"],
        capture_output=True, text=True, timeout=120, cwd=user_agents.parent,
    )
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "would shadow the shipped agent 'naive'" in lines[0], run.stderr


def test_names_that_read_as_one_or_pass_for_another_never_play_together(tmp_path: Path) -> None:
    """Parameters are found by name, case and separators aside: two agents whose names read as one
    would share them, so they may not meet; and a name is ASCII, so none can pass for a shipped
    agent's (a Cyrillic o) or break a table (a '|')."""
    from apdp.agents.discovery import AgentNameError, display_name
    from apdp.errors import UserError
    from apdp.referee.match import play_match
    from tests.matches import fast_scenario
    from tests.paths import TEMPLATE

    for stem in ("alice_bot", "Alice-Bot"):
        (tmp_path / f"{stem}.py").write_text(TEMPLATE.read_text())
    with pytest.raises(UserError, match="have names apdp reads as one"):
        play_match(fast_scenario(tasks=1), [str(tmp_path / "alice_bot.py"), str(tmp_path / "Alice-Bot.py")], seed=1)
    for bad in ("h\u043enest", "honest ", "evil|9|0", "a\u200eb"):
        with pytest.raises(AgentNameError, match="cannot be an agent's name"):
            display_name(Path(f"/x/{bad}.py"))
    assert display_name(Path("/x/my_agent.v2.py")) == "my-agent.v2"

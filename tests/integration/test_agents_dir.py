"""Where a user's agents come from: ./agents, ``--agents-dir DIR`` or ``$APDP_AGENTS``; and a
tournament without ``--agents`` says who it plays (the shipped agents and the user's)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apdp.bundled import BUNDLED_BASELINES, BUNDLED_TEMPLATE
from apdp.cli import app
from apdp.cli.tournament import every_agent_found


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder, and the user's agent in a folder of its own, ``mine/``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("APDP_AGENTS", raising=False)
    (tmp_path / "mine").mkdir()
    shutil.copy(BUNDLED_TEMPLATE, tmp_path / "mine" / "me.py")
    (tmp_path / "mine" / "me.py").write_text(
        (tmp_path / "mine" / "me.py").read_text().replace("class Template", "class Me")
    )
    return tmp_path


def test_match_and_tournament_find_agents_in_agents_dir(elsewhere: Path) -> None:
    runner = CliRunner()
    pair = ["--agents", "me", "--agents", "template"]
    missing = runner.invoke(app, ["match", *pair, "--topology", "ch", "--tasks", "2"])
    assert missing.exit_code != 0 and "no agent named 'me'" in str(missing.exception)
    played = runner.invoke(app, ["match", *pair, "--topology", "ch", "--tasks", "2", "--seed", "1", "--quiet",
                                 "--agents-dir", "mine"])
    assert played.exit_code == 0, played.output
    assert "APDP_AGENTS" not in os.environ  # the search path is the command's alone
    run = runner.invoke(app, ["tournament", "--agents", "me,template", "--topology", "ch", "--tasks", "2",
                              "--seed", "1", "--quiet", "--jobs", "1", "--out", "r", "--agents-dir", "mine"])
    assert run.exit_code == 0, run.output
    assert "2 matches in r" in run.stdout


def test_a_missing_agents_dir_is_one_line(elsewhere: Path) -> None:
    out = CliRunner().invoke(app, ["match", "--agents", "me", "--agents", "template", "--agents-dir", "nowhere"])
    assert out.exit_code != 0 and "nowhere: no such folder" in str(out.exception)


def test_a_broken_parameter_file_is_one_line_before_the_match(elsewhere: Path) -> None:
    """A params.toml that does not parse (or is nested too deeply for the parser) is the user's to fix,
    said before the match's header, never a failure of the referee."""
    from tests.command import apdp

    for text in ("a = \n", "a = " + "[" * 3000 + "]" * 3000 + "\n"):
        (elsewhere / "mine" / "params.toml").write_text(text)
        done = apdp("match", "--agents", "me", "template", "--agents-dir", "mine", "--tasks", "2", cwd=elsewhere)
        assert done.returncode == 2 and done.stdout == "", done.stdout
        assert done.stderr.startswith("error: ") and "params.toml: not a valid parameter file" in done.stderr
        assert done.stderr.count("\n") == 1 and "referee" not in done.stderr, done.stderr


def test_without_agents_the_line_names_the_shipped_agents_and_the_users() -> None:
    shipped = [str(BUNDLED_BASELINES / "naive.py"), str(BUNDLED_TEMPLATE)]
    line = every_agent_found(["naive", "template", "me"], [*shipped, "/home/u/agents/me.py"])
    assert line == "no --agents: every agent found plays, 2 shipped (naive, template) and 1 of yours (me)"
    alone = every_agent_found(["naive", "template"], shipped)
    assert alone.endswith("2 shipped (naive, template) and none of yours")


def test_an_install_s_own_agents_folder_is_not_searched_from_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable install's clone keeps drafts in its agents/ beside the template: from another
    folder only the template is found there (a shipped agent), never the drafts."""
    import apdp.agents.discovery as discovery
    from apdp.agents.discovery import AgentNotFound, available_agents, find_agent

    clone = tmp_path / "clone" / "agents"
    clone.mkdir(parents=True)
    shutil.copy(BUNDLED_TEMPLATE, clone / "template.py")
    (clone / "draft.py").write_text((clone / "template.py").read_text().replace("class Template", "class Draft"))
    monkeypatch.setattr(discovery, "BUNDLED_TEMPLATE", clone / "template.py")
    monkeypatch.setattr(discovery, "BUNDLED_AGENTS", clone, raising=False)  # where apdp once searched
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.delenv("APDP_AGENTS", raising=False)
    assert find_agent("template").path == clone / "template.py"
    with pytest.raises(AgentNotFound):
        find_agent("draft")
    assert "draft" not in {a.name for a in available_agents()}
    monkeypatch.chdir(tmp_path / "clone")  # in the clone, its agents/ is the user's own folder
    assert find_agent("draft").path == clone / "draft.py"

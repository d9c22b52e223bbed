"""The command line explains itself: examples in every --help, flags shown as flags, -h, --version,
and ``apdp new`` to start an agent from the template (in a clone or outside one)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from apdp.agents.discovery import load_agent_class
from apdp.cli import app


def command_paths() -> list[list[str]]:
    """Every command and subcommand of ``apdp``, as the words that name it (not the hidden old
    names of renamed commands, whose help is the new command's)."""
    paths: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:  # a click command (typer may carry its own click)
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            if not getattr(sub, "hidden", False):
                walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "apdp")
def test_every_help_shows_examples_and_flags_as_flags(path: list[str]) -> None:
    out = CliRunner().invoke(app, [*path, "--help"])
    assert out.exit_code == 0, out.output
    assert "<bool>" not in out.stdout
    assert CliRunner().invoke(app, [*path, "-h"]).stdout == out.stdout
    if path:  # the root lists the commands instead
        assert "Examples:" in out.stdout, f"apdp {' '.join(path)} --help has no example"
        examples = out.stdout.split("Examples:", 1)[1]
        assert re.search(r"^\s+apdp " + re.escape(" ".join(path)), examples, re.MULTILINE), examples


def test_version() -> None:
    out = CliRunner().invoke(app, ["--version"])
    assert out.exit_code == 0 and re.fullmatch(r"apdp \S+\n", out.stdout), out.stdout


def test_new_writes_an_agent_from_the_template(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("APDP_AGENTS", raising=False)
    out = CliRunner().invoke(app, ["new", "my-agent"])
    assert out.exit_code == 0, out.output
    path = tmp_path / "agents" / "my-agent.py"
    assert "apdp match --topology france --agents my-agent template" in out.stdout
    assert load_agent_class(path).__name__ == "MyAgent"
    again = CliRunner().invoke(app, ["new", "my-agent"])
    assert again.exit_code != 0 and "already exists" in str(again.exception)
    shipped = CliRunner().invoke(app, ["new", "Naive"])
    assert shipped.exit_code != 0 and "choose another name" in str(shipped.exception)
    assert not (tmp_path / "agents" / "Naive.py").exists()

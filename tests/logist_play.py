"""Playing a Logist project as the platform's users laid it out (``src/`` and ``config/``) in apdp:
its agents installed from its ``config/agents.xml``, and one of its configurations played."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from apdp.referee.match import play_match
from apdp.scenario import load_scenario
from tests.paths import LOGIST


def logist_project(data: Path, folder: Path) -> Path:
    """A project folder ``folder`` made of ``data``'s ``src/`` and ``config/`` over the course's
    configuration files (tests/data/logist/config: networks, settings, the four auction
    configurations), with its agents installed in ``folder/agents``; returns ``folder``."""
    from apdp.agents.java.project import import_project

    shutil.copytree(LOGIST / "config", folder / "config")
    shutil.copytree(data / "config", folder / "config", dirs_exist_ok=True)
    shutil.copytree(data / "src", folder / "src")
    imported = import_project(folder, folder / "agents")
    assert imported.failed == [], imported.failed
    return folder


def play_configuration(project: Path, configuration: str, agents: list[str], monkeypatch: pytest.MonkeyPatch,
                       seed: int = 1, **overrides: Any) -> dict[str, Any]:
    """The record of ``agents`` (installed in ``project/agents``) playing ``config/<configuration>.xml``
    with the platform's own task draw, from the project's folder as the platform is run (its imports
    are relative to it)."""
    monkeypatch.chdir(project)
    monkeypatch.setenv("APDP_AGENTS", str(project / "agents"))
    scenario = load_scenario(project / "config" / f"{configuration}.xml", {"task_draw": "platform", **overrides})
    return play_match(scenario, agents, seed=seed).to_json()

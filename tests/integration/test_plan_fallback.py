"""``apdp plan --backend ortools`` never falls back to another plan without saying why."""

from __future__ import annotations

import builtins
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from apdp.baselines.planning.planner import plan_tasks
from apdp.cli import app
from apdp.game.deadline import Deadline
from apdp.game.task import Task
from apdp.scenario.networks import load_topology

#: One task for one vehicle: the insertion plan is already the best, so OR-Tools cannot beat it.
ONE_TASK: dict[str, Any] = {
    "network": "france",
    "vehicles": [{"home": "Paris", "capacity": 30, "cost_per_km": 5}],
    "tasks": [{"id": 0, "pickup": "Lyon", "delivery": "Brest", "weight": 4}],
}


def plan(tmp_path: Path, *args: str) -> Any:
    path = tmp_path / "instance.json"
    path.write_text(json.dumps(ONE_TASK), encoding="utf-8")
    return CliRunner().invoke(app, ["plan", str(path), *args])


@pytest.mark.skipif(importlib.util.find_spec("ortools") is None, reason="OR-Tools is not installed")
def test_a_fallback_to_insertion_says_why(tmp_path: Path) -> None:
    out = plan(tmp_path, "--backend", "ortools", "--time-limit", "2")
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("cost: ") and "(insertion, 1 tasks)" in out.stdout
    assert "note: --backend ortools fell back to insertion: OR-Tools found nothing cheaper" in out.stdout
    data = json.loads(plan(tmp_path, "--backend", "ortools", "--time-limit", "2", "--json").stdout)
    assert data["method"] == "insertion" and "found nothing cheaper" in data["note"]


def test_no_time_left_and_no_ortools_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    topology = load_topology("france")
    from apdp.game.company import Vehicle

    vehicles = [Vehicle("V0", "Paris", 30, 5)]
    tasks = [Task(0, "Lyon", "Brest", 4), Task(1, "Bordeaux", "Le Havre", 3)]
    if importlib.util.find_spec("ortools") is not None:
        late = plan_tasks(topology, vehicles, tasks, deadline=Deadline.after(0.0), backend="ortools")
        assert late.method == "insertion" and "no time was left for OR-Tools" in late.note
    real_import = builtins.__import__

    def no_ortools(name: str, *args: Any, **kwargs: Any) -> Any:  # as if OR-Tools were not installed
        if name.startswith("ortools"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ortools)
    missing = plan_tasks(topology, vehicles, tasks, deadline=Deadline.after(1.0), backend="ortools")
    assert missing.method == "insertion" and "pip install 'apdp[ortools]'" in missing.note
    best = plan_tasks(topology, vehicles, tasks, deadline=Deadline.after(0.2), max_iterations=50)
    assert best.method == "lns" and best.note == ""


def test_the_command_without_ortools_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ortools" else real(name, *a))
    out = plan(tmp_path, "--backend", "ortools")
    assert out.exit_code != 0
    assert "--backend ortools needs OR-Tools: pip install 'apdp[ortools]'" in str(out.exception)

"""``apdp plan FILE``: prints a valid plan and its cost; bad files get a one-line error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from apdp.cli import app
from apdp.cli.plan import load_instance
from apdp.errors import UserError
from apdp.game.plan import Stop, check_plans, plan_cost, plan_from_stops, plans_from_json
from apdp.scenario.networks import load_topology
from tests.paths import INSTANCES

INSTANCE: dict[str, Any] = {
    "name": "small",
    "network": "france",
    "vehicles": [
        {"home": "Paris", "capacity": 30, "cost_per_km": 5},
        {"home": "Lyon", "capacity": 20, "cost_per_km": 3},
    ],
    "tasks": [
        {"id": 0, "pickup": "Strasbourg", "delivery": "Marseille", "weight": 4},
        {"id": 1, "pickup": "Lyon", "delivery": "Brest", "weight": 10},
        {"id": 2, "pickup": "Paris", "delivery": "Bordeaux", "weight": 25},
    ],
    "best_known_cost": 1.0,
}


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "instance.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def test_json_output_is_a_valid_plan_of_the_printed_cost(tmp_path: Path) -> None:
    path = write(tmp_path, INSTANCE)
    out = CliRunner().invoke(app, ["plan", str(path), "--time-limit", "0.2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    plans = plans_from_json(data["plans"])
    instance = load_instance(path)
    assert check_plans(instance.topology, instance.vehicles, plans, instance.tasks) == []
    total = sum(plan_cost(instance.topology, v, p) for v, p in zip(instance.vehicles, plans, strict=True))
    assert data["cost"] == pytest.approx(total)
    assert data["plans"][0][0][0] in ("move", "pickup")


def test_an_iteration_budget_gives_the_same_plan_for_the_same_seed(tmp_path: Path) -> None:
    path = write(tmp_path, INSTANCE)
    args = ["plan", str(path), "--iterations", "200", "--seed", "3", "--json"]
    first, second = CliRunner().invoke(app, args), CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout


@pytest.mark.parametrize("backend", ["lns", "ortools"])
def test_text_output_names_cost_and_vehicles(tmp_path: Path, backend: str) -> None:
    path = write(tmp_path, INSTANCE)
    out = CliRunner().invoke(
        app, ["plan", str(path), "--time-limit", "0.3", "--backend", backend]
    )
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("cost: ")
    assert "V0 from Paris" in out.stdout and "V1 from Lyon" in out.stdout


@pytest.mark.parametrize("data", json.loads(INSTANCES.read_text(encoding="utf-8"))["instances"],
                         ids=lambda data: data["name"])
def test_reads_the_reference_format_and_prices_its_best_plans_alike(data: dict[str, Any]) -> None:
    instance = load_instance_from(data)
    assert len(instance.tasks) == len(data["tasks"])
    assert instance.topology is load_topology("france")
    tasks = {task.id: task for task in instance.tasks}
    plans = [
        plan_from_stops(instance.topology, vehicle,
                        [Stop.pickup(tasks[i]) if kind == "pickup" else Stop.deliver(tasks[i]) for kind, i in stops])
        for vehicle, stops in zip(instance.vehicles, data["best_known_stops"], strict=True)
    ]
    assert check_plans(instance.topology, instance.vehicles, plans, instance.tasks) == []
    cost = sum(plan_cost(instance.topology, v, p) for v, p in zip(instance.vehicles, plans, strict=True))
    assert cost == pytest.approx(data["best_known_cost"])  # the reference's validator's figure


def load_instance_from(data: dict[str, Any]) -> Any:
    from apdp.cli.plan import parse_instance

    return parse_instance(data, "reference")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ({**INSTANCE, "network": "mars"}, "unknown topology 'mars'"),
        (
            {**INSTANCE, "tasks": [{"id": 0, "pickup": "Atlantis", "delivery": "Lyon", "weight": 1}]},
            "task 0 pickup: unknown city 'Atlantis'",
        ),
        (
            {**INSTANCE, "tasks": [{"id": 7, "pickup": "Paris", "delivery": "Lyon", "weight": 31}]},
            "task 7 weighs 31, more than every vehicle's capacity",
        ),
        ({**INSTANCE, "vehicles": []}, "give at least one vehicle"),
        ({"network": "france", "vehicles": [{"home": "Paris", "capacity": -1, "cost_per_km": 1}],
          "tasks": []}, "vehicle 0 capacity must be > 0"),
    ],
)
def test_bad_input_is_one_line_naming_the_item(
    tmp_path: Path, content: object, message: str
) -> None:
    path = write(tmp_path, content)
    with pytest.raises(UserError, match=message) as caught:
        load_instance(path)
    assert "\n" not in str(caught.value)


def test_missing_file_exits_2_with_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    missing = tmp_path / "nope.json"
    done = subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", "plan", str(missing)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "cannot read the instance file" in done.stderr

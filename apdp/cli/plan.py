"""``apdp plan FILE``: plan one company's vehicles for a fixed set of tasks (no auction).

FILE holds one instance as in ``pdp-instances.json``: ``network``, ``vehicles`` (``home``,
``capacity``, ``cost_per_km``, optional ``name``) and ``tasks`` (``id``, ``pickup``, ``delivery``,
``weight``); other fields are ignored. A file with ``{"instances": [...]}`` is accepted when it
holds exactly one instance.
"""

from __future__ import annotations

import importlib.util
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from apdp.errors import UserError
from apdp.game.company import Vehicle
from apdp.game.deadline import Deadline
from apdp.game.plan import Deliver, Move, Pickup, plans_to_json
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology


@dataclass(frozen=True, slots=True)
class Instance:
    """One planning instance: a network, a fleet and the tasks to carry."""

    name: str
    topology: Topology
    vehicles: tuple[Vehicle, ...]
    tasks: tuple[Task, ...]
    best_known_cost: float | None


def _number(value: object, where: str, positive: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UserError(f"{where} must be a number, got {value!r:.40}")
    if positive and value <= 0:
        raise UserError(f"{where} must be > 0, got {value!r}")
    return float(value)


def _city(topology: Topology, value: object, where: str) -> str:
    if not isinstance(value, str) or value not in topology:
        raise UserError(
            f"{where}: unknown city {value!r:.40} on {topology.name} "
            f"(cities are named as in the topology file, e.g. {topology.cities[0]!r})"
        )
    return value


def _list(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise UserError(f"{where}: `{key}` must be a list")
    return value


def parse_instance(data: object, source: str) -> Instance:
    """Check and build an instance; UserError names the bad item and how to fix it."""
    if isinstance(data, dict) and "instances" in data and "tasks" not in data:
        items = data["instances"]
        if not isinstance(items, list) or len(items) != 1:
            raise UserError(f"{source}: holds several instances; put one instance in the file")
        data = items[0]
    if not isinstance(data, dict):
        raise UserError(f"{source}: an instance must be a JSON object with network, vehicles, tasks")
    network = data.get("network")
    if not isinstance(network, str):
        raise UserError(f'{source}: missing "network" (e.g. "network": "france")')
    topology = load_topology(network)
    vehicles = []
    for k, raw in enumerate(_list(data, "vehicles", source)):
        where = f"{source}: vehicle {k}"
        if not isinstance(raw, dict):
            raise UserError(f"{where} must be an object with home, capacity, cost_per_km")
        vehicles.append(
            Vehicle(
                str(raw.get("name", f"V{k}")),
                _city(topology, raw.get("home"), f"{where} home"),
                _number(raw.get("capacity"), f"{where} capacity"),
                _number(raw.get("cost_per_km"), f"{where} cost_per_km"),
            )
        )
    if not vehicles:
        raise UserError(f"{source}: `vehicles` is empty; give at least one vehicle")
    biggest = max(v.capacity for v in vehicles)
    tasks = []
    seen: set[int] = set()
    for k, raw in enumerate(_list(data, "tasks", source)):
        where = f"{source}: task #{k}"
        if not isinstance(raw, dict):
            raise UserError(f"{where} must be an object with id, pickup, delivery, weight")
        tid = raw.get("id")
        if isinstance(tid, bool) or not isinstance(tid, int):
            raise UserError(f"{where}: `id` must be a whole number, got {tid!r:.40}")
        if tid in seen:
            raise UserError(f"{where}: duplicate task id {tid}; give every task its own id")
        seen.add(tid)
        where = f"{source}: task {tid}"
        weight = _number(raw.get("weight"), f"{where} weight")
        if weight > biggest:
            raise UserError(
                f"{where} weighs {weight:g}, more than every vehicle's capacity (largest "
                f"{biggest:g}); lighten the task or add a bigger vehicle"
            )
        tasks.append(
            Task(
                tid,
                _city(topology, raw.get("pickup"), f"{where} pickup"),
                _city(topology, raw.get("delivery"), f"{where} delivery"),
                int(weight) if weight == int(weight) else weight,
            )
        )
    best = data.get("best_known_cost")
    return Instance(
        str(data.get("name", Path(source).stem)),
        topology,
        tuple(vehicles),
        tuple(tasks),
        float(best) if isinstance(best, int | float) and not isinstance(best, bool) else None,
    )


def load_instance(path: str | Path) -> Instance:
    """Read an instance file (see the module docstring)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot read the instance file ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return parse_instance(data, str(path))


def plan(
    file: Annotated[Path, typer.Argument(help="Instance file (JSON, as in pdp-instances.json).")],
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=0.01, help="Seconds to search.")
    ] = 5.0,
    backend: Annotated[str, typer.Option(help="Planner: lns or ortools.")] = "lns",
    seed: Annotated[int, typer.Option(help="Seed of the search.")] = 0,
    iterations: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="LNS iteration budget: the plan then depends on the seed only, whatever the "
            "machine's load (--time-limit only caps it; about 10,000 take 1 s of CPU at 25 tasks).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: cost and plans.")] = False,
) -> None:
    """Plan one company's vehicles for a fixed set of tasks and print the cost and the plan."""
    from apdp.baselines.planning.planner import BACKENDS, plan_tasks

    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; use --backend lns or --backend ortools")
    if backend == "ortools" and importlib.util.find_spec("ortools") is None:
        raise UserError("--backend ortools needs OR-Tools: pip install 'apdp[ortools]', or use --backend lns")
    instance = load_instance(file)
    result = plan_tasks(
        instance.topology,
        instance.vehicles,
        instance.tasks,
        deadline=Deadline.after(time_limit),
        max_iterations=iterations,
        seed=seed,
        backend=backend,  # type: ignore[arg-type]
    )
    if as_json:
        data = {"cost": result.cost, "method": result.method, "plans": plans_to_json(result.plans)}
        if result.note:
            data["note"] = result.note
        typer.echo(json.dumps(data))
        return
    typer.echo(f"cost: {result.cost:.2f} ({result.method}, {len(instance.tasks)} tasks)")
    if result.note:
        more = "; give it a longer --time-limit, or try --backend lns" if backend == "ortools" else ""
        typer.echo(f"note: --backend {backend} fell back to {result.method}: {result.note}{more}")
    if instance.best_known_cost:
        gap = 100 * (result.cost / instance.best_known_cost - 1)
        typer.echo(f"best known: {instance.best_known_cost:.2f} (gap {gap:+.2f}%)")
    for vehicle, actions in zip(instance.vehicles, result.plans, strict=True):
        steps = []
        for action in actions:
            if isinstance(action, Move):
                steps.append(action.city)
            elif isinstance(action, Pickup):
                steps.append(f"[pickup {action.task}]")
            elif isinstance(action, Deliver):
                steps.append(f"[deliver {action.task}]")
        typer.echo(f"{vehicle.name} from {vehicle.home}: " + (" ".join(steps) or "stays home"))


def register(app: typer.Typer) -> None:
    """Add ``apdp plan`` to the command line."""
    app.command(name="plan")(plan)

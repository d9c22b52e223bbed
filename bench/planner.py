"""Planner benchmark: mean gap to best known, per instance size and time limit, LNS vs OR-Tools.

Runs on ``../shared/reference/pdp-instances.json`` (80 France instances, 10-40 tasks, with their
best-known costs) one instance at a time on one core, and measures the latency of one
marginal-cost insertion into a 30-task plan.

    python bench/planner.py                                   # everything (about 16 minutes)
    python bench/planner.py --sizes 30 --limits 1 --instances 5
    python bench/planner.py --backends lns --limits 0.1 1
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from apdp.baselines.planning import Problem, Solution, cheapest_insertion, construct
from apdp.baselines.planning.lns import improve
from apdp.baselines.planning.planner import plan_tasks
from apdp.cli.plan import Instance, parse_instance
from apdp.game.deadline import Deadline
from apdp.game.task import Task

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "pdp-instances.json"


def load(path: Path) -> list[Instance]:
    """Every instance of the reference file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [parse_instance(item, f"{path.name}[{k}]") for k, item in enumerate(data["instances"])]


def insertion_latency(instance: Instance, repeats: int = 2000) -> float:
    """Median seconds of one marginal-cost insertion of a new task into ``instance``'s plan."""
    problem = Problem(instance.topology, instance.vehicles, instance.tasks)
    slots = list(range(len(instance.tasks)))
    solution = improve(
        construct(Solution.empty(problem), slots), random.Random(0), max_iterations=300
    )
    rng = random.Random(1)
    cities = instance.topology.cities
    new = []
    for k in range(50):
        pickup, delivery = rng.sample(cities, 2)
        new.append(problem.slot(Task(10_000 + k, pickup, delivery, rng.randint(1, 10))))
    times = []
    for k in range(repeats):
        slot = new[k % len(new)]
        t0 = time.perf_counter()
        cheapest_insertion(solution, slot)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--sizes", type=int, nargs="*", help="task counts (default: all)")
    parser.add_argument("--limits", type=float, nargs="*", default=[0.1, 1.0, 5.0])
    parser.add_argument("--instances", type=int, help="at most this many instances per size")
    parser.add_argument("--backends", nargs="*", default=["lns", "ortools"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    instances = load(args.file)
    by_size: dict[int, list[Instance]] = defaultdict(list)
    for instance in instances:
        if instance.best_known_cost and (not args.sizes or len(instance.tasks) in args.sizes):
            by_size[len(instance.tasks)].append(instance)
    sizes = sorted(by_size)
    columns = [(b, lim) for lim in args.limits for b in args.backends]
    gaps: dict[tuple[int, str, float], list[float]] = defaultdict(list)
    for size in sizes:
        chosen = by_size[size][: args.instances] if args.instances else by_size[size]
        for instance in chosen:
            for backend, limit in columns:
                result = plan_tasks(
                    instance.topology,
                    instance.vehicles,
                    instance.tasks,
                    deadline=Deadline.after(limit),
                    seed=args.seed,
                    backend=backend,  # type: ignore[arg-type]
                )
                assert instance.best_known_cost is not None
                gap = 100 * (result.cost / instance.best_known_cost - 1)
                gaps[(size, backend, limit)].append(gap)
            print(
                f"  {instance.name}: "
                + "  ".join(
                    f"{b}@{lim:g}s {gaps[(size, b, lim)][-1]:+.2f}%" for b, lim in columns
                ),
                file=sys.stderr,
                flush=True,
            )
    header = ["tasks", "n"] + [f"{b}@{lim:g}s" for b, lim in columns]
    print("mean gap to best known (%)")
    print("  ".join(f"{h:>12}" for h in header))
    for size in sizes:
        count = len(gaps[(size, columns[0][0], columns[0][1])])
        cells = [f"{statistics.mean(gaps[(size, b, lim)]):+.2f}" for b, lim in columns]
        print("  ".join(f"{c:>12}" for c in [str(size), str(count), *cells]))
    thirty = next((i for i in instances if len(i.tasks) == 30), None)
    if thirty is not None:
        latency = insertion_latency(thirty)
        print(f"marginal-cost insertion into a 30-task plan: {latency * 1000:.3f} ms (median)")


if __name__ == "__main__":
    main()

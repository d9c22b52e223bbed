"""Matches per second of a tournament of the baseline field at --jobs 1, --jobs 2 and on a local
two-CPU Ray cluster (--executor ray), side by side, and the ratios.

Goals on a 2-core machine: jobs 2 / jobs 1 >= 1.8; Ray / jobs 2 >= 0.9 (the baselines are CPU-bound
agents). The runs play the same schedule (same seeds and key) into fresh folders, one after the other,
and must end with the same outcomes. The Ray cluster is started before its run and stopped after it;
its start is not counted, its workers' start is.

    python bench/tournament.py [--topology france] [--tasks 20] [--repeat 1] [--agents a,b,c] [--no-ray]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

# This file is called tournament.py: keep its folder off the path, or it hides the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from apdp.agents.discovery import available_agents  # noqa: E402
from apdp.bundled import BUNDLED_BASELINES  # noqa: E402
from apdp.tournament.config import make_config  # noqa: E402
from apdp.tournament.ray_executor import RayCluster  # noqa: E402
from apdp.tournament.run import run_tournament  # noqa: E402
from apdp.tournament.store import ResultsStore  # noqa: E402


def cpu_times() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far (Linux), or (0, 0)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def outcomes(folder: Path) -> tuple[list[tuple[object, ...]], float]:
    """Every match's key, profits and winner, and the sum of the matches' own wall times."""
    store = ResultsStore.open(folder)
    try:
        matches = list(store.matches())
        seconds = 0.0
        for m in matches:
            record = store.record(m.match_id) or {}
            seconds += float(record.get("timing", {}).get("match", 0.0))
        return [(m.match_id, m.profit, m.winner) for m in matches], seconds
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topology", default="france")
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--agents", default=None, help="default: every baseline")
    parser.add_argument("--no-ray", action="store_true", help="skip the run on Ray")
    args = parser.parse_args()
    if args.agents:
        agents = args.agents.split(",")
    else:
        agents = [a.name for a in available_agents() if a.path.parent == BUNDLED_BASELINES]
    config = make_config(
        topology=args.topology, agents=agents, repeat=args.repeat, overrides={"tasks": args.tasks}
    )
    print(f"field: {', '.join(config.agents)}; {args.topology}, {args.tasks} tasks, "
          f"repeat {args.repeat}")
    load = os.getloadavg()[0]
    rates: dict[str, float] = {}
    results = {}
    key = bytes(range(32))  # one key: every run plays the same tasks
    runs: list[tuple[str, int, RayCluster | None]] = [("--jobs 1", 1, None), ("--jobs 2", 2, None)]
    if not args.no_ray:
        runs.append(("ray, 2 CPUs", 2, RayCluster(None, cpus=2)))
    with tempfile.TemporaryDirectory() as tmp:
        for label, jobs, ray in runs:
            out = Path(tmp) / label.replace(" ", "").replace(",", "")
            before = cpu_times()
            summary = run_tournament(config, out, jobs=jobs, progress=False, secret=key, ray=ray)
            busy, total = (a - b for a, b in zip(cpu_times(), before, strict=True))
            rates[label] = summary.played / summary.seconds
            results[label], match_seconds = outcomes(out)
            print(f"{label:>12}: {summary.played} matches in {summary.seconds:.1f} s = "
                  f"{rates[label]:.2f} matches/s ({summary.faulted} with faults, "
                  f"{summary.errors} errors); matches in flight on average "
                  f"{match_seconds / summary.seconds:.2f}; machine busy {busy / max(total, 1):.0%}")
    print(f"cores: {os.cpu_count()}; load average before: {load:.2f} (a busy machine when "
          "jobs 1 runs means other work: it lowers the ratio)")
    print(f"ratio jobs 2 / jobs 1: {rates['--jobs 2'] / rates['--jobs 1']:.2f}x (goal >= 1.8x)")
    if "ray, 2 CPUs" in rates:
        print(f"ratio ray / jobs 2: {rates['ray, 2 CPUs'] / rates['--jobs 2']:.2f}x (goal >= 0.90x)")
    same = all(r == results["--jobs 1"] for r in results.values())
    print(f"same outcomes: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()

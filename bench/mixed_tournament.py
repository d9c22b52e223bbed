"""Throughput of a mixed tournament, and where its CPU time goes: Python baselines (naive, honest,
model-opponent), a Java agent (demo.Plain of tests/data/java/project, installed with apdp logist add)
and an agent program (tests/data/programs/perl_greedy), double all-play-all, sandbox on.

Prints matches per core-second (matches / (wall seconds x jobs)) and how those core-seconds split:
the agents' thinking (their processes' CPU in each call, as the records' timing counts it: a Java
agent's JVM start is in its setup), apdp's own work in the matches (each match holds a core while it
plays: its time less its agents' CPU, i.e. the referee, starting and confining agents, messages,
and any wait for a core shared with other work) and between them (the tournament's scheduling and
store, the workers' start, idle cores at the end).

    python bench/mixed_tournament.py [--jobs 2] [--tasks 20] [--topology france] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

# keep this folder off the path (bench/tournament.py would hide the package)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from apdp.agents.java.install import add_agent  # noqa: E402
from apdp.tournament.config import make_config  # noqa: E402
from apdp.tournament.run import run_tournament  # noqa: E402
from apdp.tournament.store import ResultsStore  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
BASELINES = ("naive", "honest", "model-opponent")
KINDS = {"plain-java": "java", "perl-greedy": "program"}


def _split(folder: Path) -> tuple[int, float, dict[str, float]]:
    """The matches stored, the sum of their times, and the agents' CPU seconds by kind (python, java,
    program)."""
    store = ResultsStore.open(folder)
    by_kind: dict[str, float] = {}
    in_matches = 0.0
    try:
        matches = list(store.matches())
        for match in matches:
            record = store.record(match.match_id) or {}
            in_matches += float(record.get("timing", {}).get("match", 0.0))
            names = [str(a) for a in record.get("agents", [])]
            for name, timing in zip(names, record.get("timing", {}).get("agents", []), strict=False):
                kind = KINDS.get(name, "python")
                by_kind[kind] = by_kind.get(kind, 0.0) + sum(timing.get("cpu", {}).values())
    finally:
        store.close()
    return len(matches), in_matches, by_kind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--topology", default="france")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="apdp-bench-mixed-") as tmp:
        agents = Path(tmp) / "agents"
        add_agent(DATA / "java" / "project" / "src", "demo.Plain", name="plain-java", agents_dir=agents)
        shutil.copytree(DATA / "programs" / "perl_greedy", agents / "perl_greedy")
        os.environ["APDP_AGENTS"] = str(agents)
        config = make_config(topology=args.topology, agents=[*BASELINES, "plain-java", "perl_greedy"],
                             repeat=args.repeat, overrides={"tasks": args.tasks})
        out = Path(tmp) / "out"
        start = time.perf_counter()
        summary = run_tournament(config, out, jobs=args.jobs, progress=False, secret=bytes(range(32)))
        wall = time.perf_counter() - start
        played, in_matches, by_kind = _split(out)
    cores = wall * args.jobs
    thinking = sum(by_kind.values())
    print(f"{', '.join(config.agents)}; {args.topology}, {args.tasks} tasks, repeat {args.repeat}, "
          f"--jobs {args.jobs}, sandbox on")
    print(f"{played} matches ({summary.faulted} with faults, {summary.errors} referee errors) in {wall:.1f} s "
          f"on {args.jobs} cores: {played / cores:.2f} matches per core-second")
    print(f"of {cores:.1f} core-seconds: agents' thinking {thinking:.1f} ({thinking / cores:.0%}; "
          + ", ".join(f"{kind} {seconds:.1f}" for kind, seconds in sorted(by_kind.items()))
          + f"), apdp's own work in the matches {in_matches - thinking:.1f} ({(in_matches - thinking) / cores:.0%}), "
          f"between matches {cores - in_matches:.1f} ({(cores - in_matches) / cores:.0%})")


if __name__ == "__main__":
    main()

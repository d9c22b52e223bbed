"""Does a tournament replay the same under load? Play it twice, same configuration, seed and secret:
once on the machine as it is, once with a busy process on every core; print the matches whose
records differ (on what the seed decides: tasks, bids, winners, plans, figures, fault kinds).

Goal: 0 differing matches for the shipped agents. Each run also counts the searches the clock ended
(the ``clock stop:`` lines agents write, which the records keep) and the matches with faults; the
two runs' wall times show how much the load slowed the second.

    python bench/loaded_replay.py                        # every shipped agent, france, 50 tasks
    python bench/loaded_replay.py --topology england --tasks 30 --agents honest-lns,model-opponent-lns
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from apdp.agents.discovery import available_agents, is_bundled
from apdp.baselines.planning.planning_agent import clock_stops
from apdp.tournament.config import make_config
from apdp.tournament.pool import load_pool
from apdp.tournament.run import run_tournament
from apdp.tournament.store import ResultsStore

BUSY = "while True: pass"


def count_clock_stops(folder: Path) -> tuple[int, int]:
    """(clock-stop lines, matches with faults) in a results folder."""
    store = ResultsStore.open(folder)
    try:
        stops = faulted = 0
        for m in store.matches():
            record = store.record(m.match_id) or {}
            stops += sum(len(clock_stops(str(o))) for o in record.get("output") or [])
            faulted += bool(m.faults)
        return stops, faulted
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topology", default="france")
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default=None, help="default: every shipped agent")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    agents = args.agents.split(",") if args.agents else [a.name for a in available_agents() if is_bundled(a.path)]
    config = make_config(topology=args.topology, agents=agents, seed=args.seed, overrides={"tasks": args.tasks})
    key = bytes(range(32))
    cores = os.cpu_count() or 1
    print(f"field: {', '.join(config.agents)}; {args.topology}, {args.tasks} tasks, seed {args.seed}, "
          f"--jobs {args.jobs}; {cores} cores; load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        folders: list[Path] = []
        for label in ("as it is", f"loaded ({cores} busy processes)"):
            out = Path(tmp) / ("loaded" if folders else "plain")
            busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(cores)] if folders else []
            try:
                started = time.monotonic()
                summary = run_tournament(config, out, jobs=args.jobs, progress=False, secret=key)
                seconds = time.monotonic() - started
            finally:
                for process in busy:
                    process.kill()
                    process.wait()
            stops, faulted = count_clock_stops(out)
            print(f"{label:>28}: {summary.played} matches in {seconds:.1f} s; {faulted} with faults; "
                  f"{stops} searches ended by the clock")
            folders.append(out)
        pool = load_pool(folders, mixed=True)
        differing = [(key, where) for d in pool.disagreements for key, where in d.matches]
        print(f"differing matches: {len(differing)} of {len(config.agents) * (len(config.agents) - 1)} (goal 0)")
        for match, where in differing:
            print(f"  {match}: {where}")


if __name__ == "__main__":
    main()

"""How long ``apdp analyze`` takes on a results store: wall seconds, and CPU seconds of the work.

    python bench/analysis.py RESULTS [--jobs N]

RESULTS is a folder of ``apdp tournament --out`` (e.g. the default France tournament of the shipped
agents: ``apdp tournament --topology france --out /tmp/t1``, 90 matches of 50 tasks). Prints the
wall time on ``--jobs`` cores (default: all) and on one, the CPU time of the one-core run (the
work itself, whatever else the machine runs), and whether both runs gave the same figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apdp.analysis.run import analyse  # noqa: E402
from apdp.analysis.summary import to_json  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    started = time.monotonic()
    many = analyse([args.results], jobs=args.jobs)
    wall_many = time.monotonic() - started
    started, cpu = time.monotonic(), time.process_time()
    one = analyse([args.results], jobs=1)
    wall_one, cpu_one = time.monotonic() - started, time.process_time() - cpu
    same = json.dumps(to_json(many)) == json.dumps(to_json(one))
    print(f"{one.matches} matches analysed ({one.faulted} left out for a fault)")
    print(f"jobs {args.jobs}: {wall_many:.1f} s wall")
    print(f"jobs 1: {wall_one:.1f} s wall, {cpu_one:.1f} s CPU ({cpu_one / max(1, one.matches) * 1000:.0f} ms a match)")
    print(f"same figures on {args.jobs} cores and on one: {same}")


if __name__ == "__main__":
    main()

"""Platform overhead per match: wall time of a 50-task match, with the template agents and with
agents that answer at once (the referee alone: process start, calls, validation, settlement).

Goal: <= 0.035 s of overhead per match on a 2-core machine (the Java platform spends ~0.35 s).

    python bench/match_overhead.py [--matches 30] [--topology france]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from apdp.match import play_match
from apdp.scenario import load_scenario

INSTANT = str(Path(__file__).with_name("instant_agent.py"))


def measure(agents: list[str], topology: str, matches: int) -> list[float]:
    scenario = load_scenario(None, {"topology": topology, "tasks": 50})
    play_match(scenario, agents, seed=0)  # warm-up: starts the zygote, fills caches
    times = []
    for seed in range(1, matches + 1):
        start = time.perf_counter()
        record = play_match(scenario, agents, seed=seed)
        times.append(time.perf_counter() - start)
        assert not record["result"]["faults"], record["result"]["faults"]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--topology", default="france")
    args = parser.parse_args()
    rows = [("template vs template", ["template", "template"]),
            ("referee alone (instant agents)", [INSTANT, INSTANT])]
    print(f"{args.matches} matches of 50 tasks on {args.topology}, one at a time")
    print(f"{'':34}{'mean s':>9}{'median s':>10}{'min s':>8}")
    for label, agents in rows:
        t = measure(agents, args.topology, args.matches)
        print(f"{label:34}{statistics.mean(t):9.4f}{statistics.median(t):10.4f}{min(t):8.4f}")
    print("goal: referee alone <= 0.035 s per match (Java Logist: ~0.35 s)")


if __name__ == "__main__":
    main()

"""Platform overhead per match: wall time of a 50-task match, with the template agents and with
agents that answer at once (the referee alone: process start, confinement, calls, validation,
settlement), with the sandbox on and off, measured side by side (interleaved) in one run.

Goals on a 2-core machine: <= 0.035 s of overhead per match unconfined (the Java platform spends
~0.35 s), and confinement adding at most 20% to it.

    python bench/match_overhead.py [--matches 30] [--topology france]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from apdp.match import play_match
from apdp.scenario import Scenario, load_scenario

INSTANT = str(Path(__file__).with_name("instant_agent.py"))


def _scenario(topology: str, sandbox: bool) -> Scenario:
    return load_scenario(None, {"topology": topology, "tasks": 50, "limits.sandbox": sandbox})


def measure(agents: list[str], topology: str, matches: int) -> dict[bool, list[float]]:
    """Seconds per match with the sandbox on (True) and off (False), interleaved match by match."""
    scenarios = {on: _scenario(topology, on) for on in (True, False)}
    for scenario in scenarios.values():
        play_match(scenario, agents, seed=0)  # warm-up: starts the zygote, fills caches
    times: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(1, matches + 1):
        for on in ((True, False) if seed % 2 else (False, True)):
            start = time.perf_counter()
            record = play_match(scenarios[on], agents, seed=seed)
            times[on].append(time.perf_counter() - start)
            assert not record["result"]["faults"], record["result"]["faults"]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--topology", default="france")
    args = parser.parse_args()
    rows = [("template vs template", ["template", "template"]),
            ("referee alone (instant agents)", [INSTANT, INSTANT])]
    print(f"{args.matches} matches of 50 tasks on {args.topology}, one at a time, sandbox on/off interleaved")
    print(f"{'':34}{'sandbox':>8}{'mean s':>9}{'median s':>10}{'min s':>8}{'on/off':>8}")
    for label, agents in rows:
        t = measure(agents, args.topology, args.matches)
        for on in (False, True):
            ratio = statistics.median(t[True]) / statistics.median(t[False])
            print(f"{label:34}{'on' if on else 'off':>8}{statistics.mean(t[on]):9.4f}"
                  f"{statistics.median(t[on]):10.4f}{min(t[on]):8.4f}"
                  f"{(f'{ratio:8.2f}' if on else ''):>8}")
    print("goals: referee alone, sandbox off <= 0.035 s per match (Java Logist: ~0.35 s); on/off <= 1.20")


if __name__ == "__main__":
    main()

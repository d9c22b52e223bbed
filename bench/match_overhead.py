"""Platform overhead per match: wall time of a 50-task match, with the template agents and with
agents that answer at once (the referee alone: process start, confinement, calls, validation,
settlement), with the sandbox on and off, measured side by side (interleaved) in one run; the
referee's own CPU time per match; and the whole `apdp tournament` command (start-up, workers,
store, exit included) per match, for 6 and for 90 matches between agents that answer at once.

Goals on a 2-core machine: <= 0.035 s of overhead per match unconfined (the Java platform spends
~0.35 s), confinement adding at most 20% to it; the referee's own time under 15 ms per match; the
whole command for 6 matches under 1.2 s in all.

    python bench/match_overhead.py [--matches 30] [--topology france] [--commands 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from apdp.match import play_match
from apdp.scenario import Scenario, load_scenario

INSTANT = str(Path(__file__).with_name("instant_agent.py"))


def _scenario(topology: str, sandbox: bool) -> Scenario:
    return load_scenario(None, {"topology": topology, "tasks": 50, "limits.sandbox": sandbox})


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(agents: list[str], topology: str, matches: int) -> tuple[dict[bool, list[float]], dict[bool, list[float]]]:
    """Wall seconds per match, and the referee's own CPU seconds per match, with the sandbox on
    (True) and off (False), interleaved match by match."""
    scenarios = {on: _scenario(topology, on) for on in (True, False)}
    for scenario in scenarios.values():
        play_match(scenario, agents, seed=0)  # warm-up: starts the zygote, fills caches
    times: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(1, matches + 1):
        for on in ((True, False) if seed % 2 else (False, True)):
            start, used = time.perf_counter(), _cpu()
            record = play_match(scenarios[on], agents, seed=seed)
            times[on].append(time.perf_counter() - start)
            cpu[on].append(_cpu() - used)
            assert not record["result"]["faults"], record["result"]["faults"]
    return times, cpu


def whole_command(agents: int, runs: int, topology: str) -> list[float]:
    """Wall seconds of `apdp tournament --quiet` with ``agents`` instant agents (50 tasks, every
    core), each run into a fresh folder."""
    seconds = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "agents"
        folder.mkdir()
        for i in range(agents):
            shutil.copy(INSTANT, folder / f"instant_{i}.py")
        names = ",".join(f"instant-{i}" for i in range(agents))
        env = {**os.environ, "APDP_AGENTS": str(folder)}
        for run in range(runs):
            command = [sys.executable, "-c", "from apdp.cli import main; main()", "tournament", "--topology",
                       topology, "--agents", names, "--tasks", "50", "--seed", "1", "--quiet",
                       "--out", str(Path(tmp) / f"run{run}")]
            start = time.perf_counter()
            subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
            seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--topology", default="france")
    parser.add_argument("--commands", type=int, default=3, help="runs of each whole command (median shown)")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()[0]:.2f}")
    rows = [("template vs template", ["template", "template"]),
            ("referee alone (instant agents)", [INSTANT, INSTANT])]
    print(f"{args.matches} matches of 50 tasks on {args.topology}, one at a time, sandbox on/off interleaved")
    print(f"{'':34}{'sandbox':>8}{'mean s':>9}{'median s':>10}{'min s':>8}{'on/off':>8}")
    referee: dict[bool, list[float]] = {}
    for label, agents in rows:
        t, cpu = measure(agents, args.topology, args.matches)
        if agents[0] == INSTANT:
            referee = cpu
        for on in (False, True):
            ratio = statistics.median(t[True]) / statistics.median(t[False])
            print(f"{label:34}{'on' if on else 'off':>8}{statistics.mean(t[on]):9.4f}"
                  f"{statistics.median(t[on]):10.4f}{min(t[on]):8.4f}"
                  f"{(f'{ratio:8.2f}' if on else ''):>8}")
    print("goals: referee alone, sandbox off <= 0.035 s per match (Java Logist: ~0.35 s); on/off <= 1.20")
    print(f"referee's own CPU time per match (instant agents, median): sandbox on "
          f"{statistics.median(referee[True]) * 1000:.1f} ms, off {statistics.median(referee[False]) * 1000:.1f} ms"
          " (goal < 15 ms)")
    print(f"whole `apdp tournament` command, instant agents, 50 tasks, every core, median of {args.commands}:")
    for agents, matches in ((3, 6), (10, 90)):
        seconds = statistics.median(whole_command(agents, args.commands, args.topology))
        goal = " (goal: 6 matches under 1.2 s in all)" if matches == 6 else ""
        print(f"  {matches:3} matches: {seconds:6.2f} s in all, {seconds / matches:.3f} s per match{goal}")


if __name__ == "__main__":
    main()

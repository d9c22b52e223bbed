"""Platform overhead per match: wall time of a 50-task match, with the template agents and with
agents that answer at once (the referee alone: process start, confinement, calls, validation,
settlement), with the sandbox on and off, on one core as apdp plays a match (a tournament's
worker, a Ray task, `apdp match`) and on any core (`play_match` called from a script), measured
side by side (interleaved) in one run, with the referee's own CPU time per match; what one reading
of an agent's CPU time costs the referee. (Where a match's time goes, and the whole `apdp tournament`
command against the Logist platform: bench/match_time.py.)

Goals on a 2-core machine: <= 0.035 s of overhead per match unconfined (the Java platform spends
~0.35 s), confinement adding at most 20% to it; the referee's own time under 15 ms per match; a CPU
reading well under a millisecond.

    python bench/match_overhead.py [--matches 30] [--topology france]
"""

from __future__ import annotations

import argparse
import os
import resource
import select
import socket
import statistics
import time
from pathlib import Path

from apdp.referee.match import play_match
from apdp.sandbox.cpu import CpuMeter
from apdp.sandbox.zygote_link import Zygote
from apdp.scenario import Scenario, load_scenario

INSTANT = str(Path(__file__).with_name("instant_agent.py"))


def _scenario(topology: str, sandbox: bool) -> Scenario:
    return load_scenario(None, {"topology": topology, "tasks": 50, "limits.sandbox": sandbox})


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


#: The conditions a match is measured in: (label, sandbox on, pinned to one core).
CONDITIONS = (
    ("sandbox on, one core (as apdp plays)", True, True),
    ("sandbox off, one core", False, True),
    ("sandbox on, any core (play_match in a script)", True, False),
)


def _place(core: int | None) -> None:
    """Run this referee and its zygote (so the agents it starts) on ``core``, or on any core."""
    cpus = set(ALL_CORES) if core is None else {core}
    os.sched_setaffinity(0, cpus)
    os.sched_setaffinity(Zygote.get().pid, cpus)


ALL_CORES = sorted(os.sched_getaffinity(0))


def measure(agents: list[str], topology: str, matches: int) -> dict[str, tuple[list[float], list[float]]]:
    """Wall seconds per match and the referee's own CPU seconds per match in each condition,
    interleaved match by match (the order turning with the seed)."""
    scenarios = {on: _scenario(topology, on) for on in (True, False)}
    measured: dict[str, tuple[list[float], list[float]]] = {label: ([], []) for label, _, _ in CONDITIONS}
    for _label, on, pinned in CONDITIONS:  # warm-up: starts the zygote, fills caches
        _place(ALL_CORES[-1] if pinned else None)
        play_match(scenarios[on], agents, seed=0)
    for seed in range(1, matches + 1):
        turn = seed % len(CONDITIONS)
        for label, on, pinned in CONDITIONS[turn:] + CONDITIONS[:turn]:
            _place(ALL_CORES[-1] if pinned else None)
            start, used = time.perf_counter(), _cpu()
            record = play_match(scenarios[on], agents, seed=seed).to_json()
            measured[label][0].append(time.perf_counter() - start)
            measured[label][1].append(_cpu() - used)
            assert not record["result"]["faults"], record["result"]["faults"]
    _place(None)
    return measured


def round_trip_floor(core: int, trips: int = 5000) -> float:
    """CPU seconds this process spends per message round trip with another process on one core
    (write, wait, read: no Python around it but the loop): the floor under a referee's call."""
    ours, theirs = socket.socketpair()
    os.sched_setaffinity(0, {core})
    pid = os.fork()
    if pid == 0:  # the echo, on the same core
        ours.close()
        while data := os.read(theirs.fileno(), 1 << 16):
            os.write(theirs.fileno(), data[:32])
        os._exit(0)
    theirs.close()
    poller = select.poll()
    poller.register(ours.fileno(), select.POLLIN)
    used = _cpu()
    for _ in range(trips):
        os.write(ours.fileno(), b"x" * 100)
        poller.poll(1000)
        os.read(ours.fileno(), 1 << 16)
    used = _cpu() - used
    ours.close()
    os.waitpid(pid, 0)
    os.sched_setaffinity(0, set(ALL_CORES))
    return used / trips


def cpu_reading_cost(readings: int = 10000) -> tuple[float, float]:
    """(wall, CPU) seconds per reading of a process's CPU time (apdp.sandbox.cpu), the referee's
    cost for each call it reads (a call over a millisecond, and the auctions' end)."""
    pid = os.fork()
    if pid == 0:  # the metered process: asleep
        time.sleep(60)
        os._exit(0)
    meter = CpuMeter.open(pid)
    try:
        if meter is None:
            return float("nan"), float("nan")
        start, used = time.perf_counter(), _cpu()
        for _ in range(readings):
            meter.sample()
        return (time.perf_counter() - start) / readings, (_cpu() - used) / readings
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        if meter is not None:
            meter.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--topology", default="france")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()[0]:.2f}")
    rows = [("template vs template", ["template", "template"]),
            ("referee alone (instant agents)", [INSTANT, INSTANT])]
    print(f"{args.matches} matches of 50 tasks on {args.topology}, one at a time, conditions interleaved")
    print(f"{'':34}{'':44}{'wall s':>8}{'min s':>8}{'referee CPU ms':>16}")
    for label, agents in rows:
        for condition, (wall, cpu) in measure(agents, args.topology, args.matches).items():
            print(f"{label:34}{condition:44}{statistics.median(wall):8.4f}{min(wall):8.4f}"
                  f"{statistics.median(cpu) * 1000:16.1f}")
    print("medians; goals: referee alone <= 0.035 s per match (Java Logist: ~0.35 s), the sandbox adding at most 20%;")
    print("the referee's own CPU time per match under 15 ms (as apdp plays: sandbox on, one core)")
    floor = round_trip_floor(ALL_CORES[-1])
    print(f"the floor on this machine now: a bare message round trip on one core costs {floor * 1e6:.1f} us of CPU,"
          f" {floor * 104 * 1000:.1f} ms for a 50-task match's 104 requests")
    wall, cpu = cpu_reading_cost()
    print(f"one reading of an agent's CPU time (/proc/PID/stat): {wall * 1e6:.1f} us, {cpu * 1e6:.1f} us of CPU "
          "(goal: well under a millisecond)")


if __name__ == "__main__":
    main()

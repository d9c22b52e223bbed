"""Per-match time of a trivial Java-versus-Java match, with apdp's JVM options for Java agents (the
agent's class data archive mapped where it was made, G1 with the JDK's archived module graph, a
small first heap, the JIT's thresholds for short runs) and without them (the JVM options of apdp
0.2, no archive; the host is today's in both), next to a Python-versus-Python one, in one run:
agents that answer at once (bench/instant_agent.py and its Java twin bench/java/bench/Instant.java,
installed with apdp logist add into a temporary folder), 50 tasks, sandbox on, interleaved match by
match. Also the agents' setup, a Java agent's start (its JVM's, in the sandbox, until the host's
ready line: not counted in setup) and the CPU time of a match: the referee's and all of its agents'
processes', their JVMs' whole lives included (read from the sandbox's zygote once it has reaped
them: a record counts a JVM's CPU from its setup on only).

    python bench/java_match.py [--matches 20] [--topology france]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from apdp.agents.java.archive import ARCHIVE_FILE, KEY_FILE
from apdp.agents.java.install import add_agent
from apdp.agents.program import BUILD_DIR, PROGRAM_FILE
from apdp.referee.match import play_match
from apdp.sandbox.zygote_link import Zygote
from apdp.scenario import load_scenario

HERE = Path(__file__).parent
PYTHON = str(HERE / "instant_agent.py")
#: A Java agent's JVM options before the speed-ups (apdp 0.2): no class data archive, the serial
#: collector (without the JDK's archived module graph), the JVM's own JIT thresholds.
BEFORE = ("-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:+DisplayVMOutputToStderr", "-Xlog:disable",
          "-Xlog:all=warning:stderr", "-Xshare:auto", "-Djava.awt.headless=true")


def without_speed_ups(agent: Path, copy: Path) -> str:
    """A copy of an installed Java agent whose JVM runs as before the speed-ups (:data:`BEFORE`)."""
    shutil.copytree(agent, copy, symlinks=True)
    toml = copy / PROGRAM_FILE
    lines = []
    for line in toml.read_text(encoding="utf-8").splitlines():
        if line.startswith("command = "):
            command = json.loads(line.removeprefix("command = "))
            java = next(i for i, a in enumerate(command) if a.endswith("/java"))
            command[java + 1:command.index("-cp")] = BEFORE
            line = "command = " + json.dumps(command)
        lines.append(line)
    toml.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name in (ARCHIVE_FILE, KEY_FILE):
        (copy / BUILD_DIR / name).unlink(missing_ok=True)
    return str(copy)


#: How long the zygote is given to reap a match's agent processes before their CPU is read.
REAPED = 0.2


def _reaped_cpu() -> float:
    """The CPU seconds of the agent processes the sandbox's zygote has reaped so far (all their
    threads: a JVM's compilers and collector too)."""
    with open(f"/proc/{Zygote.get().pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")  # cutime, cstime


def _self_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--topology", default="france")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="apdp-bench-java-") as tmp:
        java = add_agent(HERE / "java", "bench.Instant", name="instant-java", agents_dir=Path(tmp) / "agents").folder
        before = without_speed_ups(java, Path(tmp) / "before" / "instant-java")
        scenario = load_scenario(None, {"topology": args.topology, "tasks": 50})
        rows = {"python vs python": [PYTHON, PYTHON], "java vs java, before": [before, before],
                "java vs java, now": [str(java), str(java)]}
        times: dict[str, list[float]] = {label: [] for label in rows}
        cpus: dict[str, list[float]] = {label: [] for label in rows}
        setups: dict[str, list[float]] = {label: [] for label in rows}
        starts: dict[str, list[float]] = {label: [] for label in rows}
        for agents in rows.values():
            play_match(scenario, agents, seed=0)  # warm-up: the zygote, the caches
        for seed in range(1, args.matches + 1):
            order = list(rows) if seed % 2 else list(reversed(rows))
            for label in order[seed % 3:] + order[:seed % 3]:
                time.sleep(REAPED)  # the previous match's agents are reaped
                reaped, referee = _reaped_cpu(), _self_cpu()
                start = time.perf_counter()
                record = play_match(scenario, rows[label], seed=seed).to_json()
                times[label].append(time.perf_counter() - start)
                referee = _self_cpu() - referee
                time.sleep(REAPED)
                cpus[label].append(referee + _reaped_cpu() - reaped)
                assert not record["result"]["faults"], record["result"]["faults"]
                setups[label] += [a["setup"] for a in record["timing"]["agents"]]
                starts[label] += [a.get("start", 0.0) for a in record["timing"]["agents"]]
    print(f"{args.matches} matches of 50 tasks on {args.topology}, instant agents, sandbox on, interleaved; "
          f"medians but min; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'':22}{'match s':>9}{'min s':>8}{'cpu s':>8}{'setup s':>9}{'JVM start s':>13}")
    for label in rows:
        t = times[label]
        print(f"{label:22}{statistics.median(t):9.3f}{min(t):8.3f}{statistics.median(cpus[label]):8.3f}"
              f"{statistics.median(setups[label]):9.3f}{statistics.median(starts[label]):13.3f}")
    now, was = statistics.median(times["java vs java, now"]), statistics.median(times["java vs java, before"])
    python = statistics.median(times["python vs python"])
    print(f"java vs java: {was / now:.2f}x faster than before; {now / python:.1f}x python's match "
          f"(before: {was / python:.1f}x). Before: no class data archive, the serial collector, the JVM's "
          "own JIT thresholds.")


if __name__ == "__main__":
    main()

"""Per-match time of a trivial Java-versus-Java match next to a Python-versus-Python one, in one
run: agents that answer at once (bench/instant_agent.py and its Java twin bench/java/bench/Instant.java,
installed with apdp logist add into a temporary folder), 50 tasks, sandbox on, interleaved match
by match. Also the agents' setup time and, apart, a Java agent's start (its JVM's, in the sandbox,
until the host's ready line: not counted in setup).

    python bench/java_match.py [--matches 20] [--topology france]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from apdp.agents.java.install import add_agent
from apdp.referee.match import play_match
from apdp.scenario import load_scenario

HERE = Path(__file__).parent
PYTHON = str(HERE / "instant_agent.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--topology", default="france")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="apdp-bench-java-") as tmp:
        java = str(add_agent(HERE / "java", "bench.Instant", name="instant-java", agents_dir=Path(tmp)).folder)
        scenario = load_scenario(None, {"topology": args.topology, "tasks": 50})
        rows = {"python vs python": [PYTHON, PYTHON], "java vs java": [java, java]}
        times: dict[str, list[float]] = {label: [] for label in rows}
        setups: dict[str, list[float]] = {label: [] for label in rows}
        starts: dict[str, list[float]] = {label: [] for label in rows}
        for agents in rows.values():
            play_match(scenario, agents, seed=0)  # warm-up: the zygote, the caches
        for seed in range(1, args.matches + 1):
            for label in (list(rows) if seed % 2 else list(reversed(rows))):
                start = time.perf_counter()
                record = play_match(scenario, rows[label], seed=seed)
                times[label].append(time.perf_counter() - start)
                assert not record["result"]["faults"], record["result"]["faults"]
                setups[label] += [a["setup"] for a in record["timing"]["agents"]]
                starts[label] += [a.get("start", 0.0) for a in record["timing"]["agents"]]
    print(f"{args.matches} matches of 50 tasks on {args.topology}, instant agents, sandbox on, interleaved")
    print(f"{'':18}{'mean s':>9}{'median s':>10}{'min s':>8}{'setup median s':>16}{'setup min s':>13}"
          f"{'start median s':>16}")
    for label in rows:
        t, s = times[label], setups[label]
        print(f"{label:18}{statistics.mean(t):9.3f}{statistics.median(t):10.3f}{min(t):8.3f}"
              f"{statistics.median(s):16.3f}{min(s):13.3f}{statistics.median(starts[label]):16.3f}")
    ratio = statistics.median(times["java vs java"]) / statistics.median(times["python vs python"])
    print(f"java/python per match: {ratio:.1f}x (a Java agent's start, its JVM's, is timed apart from its setup)")


if __name__ == "__main__":
    main()

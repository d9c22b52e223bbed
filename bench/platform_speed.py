"""apdp against the Logist platform, per core, side by side in one run: a tournament of trivial agents.

The platform's tournament mode (``logist.jar -run``, ``logist/Tournament.java``) plays each game as a
command of its own, ``java -Xmx1024m -classpath ... logist.LogistPlatform -o HISTORY -a AGENTS CONFIG
A B``; this bench times that very command for ``--games`` games of two agents that answer at once
(``bench/java/bench/Instant.java``, compiled against the given jar) on the course's France
configuration (50 tasks, ``tests/data/logist/config/auction_france.xml``, headless), pinned to one
core. Then, pinned to the same core, the whole ``apdp tournament --jobs 1`` command as a user times
it (quiet) for a double all-play-all of ``--agents`` agents (10: 90 matches), France, 50 tasks:
Python agents that answer at once (``bench/instant_agent.py``), then the same field of the Java
``Instant`` installed with ``apdp logist add``. The runs alternate, ``--runs`` of each, medians shown.

Prints the platform's seconds per game, apdp's per match, and the ratios: the platform's time for
the tournament's games over apdp's whole command (goal: 10x per core, issue 35), and the Java
tournament over the Python one (goal: at most 2.5x). Then the floor under that last ratio: the CPU
of a JVM that only starts and ends (``bench/java/bench/Start.java``, apdp's JVM options, the same
core). Each agent of a match plays in a process of its own, a JVM for a Java agent, so a Java
tournament costs at least the Python one plus two such starts a match, whatever apdp does: the
ratio that floor allows now, and the one it would allow were the Python tournament 10x the
platform's speed.

    python bench/platform_speed.py --platform DIR [--agents 10] [--games 10] [--runs 3] [--core N]

``DIR`` holds ``logist.jar`` and its ``lib/`` (the course's ``logist/`` folder). Needs a JDK.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
INSTANT_PY = HERE / "instant_agent.py"
INSTANT_JAVA = HERE / "java" / "bench" / "Instant.java"
START_JAVA = HERE / "java" / "bench" / "Start.java"
CONFIG = ROOT / "tests" / "data" / "logist" / "config"


def pinned(core: int) -> list[str]:
    """The prefix that runs a command on ``core`` alone."""
    return ["taskset", "-c", str(core)]


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """Wall seconds of ``command`` (which must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return seconds


def platform_project(folder: Path, platform: Path) -> list[str]:
    """A headless copy of the course's France configuration with two Instant agents in ``folder``;
    the command (less the history file) that plays one game of it, as the platform's tournament does."""
    shutil.copytree(CONFIG, folder / "config")
    settings = folder / "config" / "settings_auction.xml"
    text = settings.read_text(encoding="iso-8859-1")
    settings.write_text(text.replace("</settings>", '\t<set flag-show-ui="false"/>\n</settings>'),
                        encoding="iso-8859-1")
    subprocess.run(["javac", "-sourcepath", "", "-cp", str(platform / "logist.jar"), "-d", str(folder / "bin"),
                    str(INSTANT_JAVA)], check=True)
    (folder / "agents.xml").write_text(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n<agents>\n'
        + "".join(f'  <agent name="{n}"><set class-path="bin/"/><set class-name="bench.Instant"/></agent>\n'
                  for n in ("a", "b"))
        + "</agents>\n", encoding="iso-8859-1")
    classpath = f"{platform / 'logist.jar'}:{platform / 'lib'}/*"
    return ["java", "-Xmx1024m", "-classpath", classpath, "logist.LogistPlatform", "-a", "agents.xml",
            "config/auction_france.xml", "a", "b"]


def jvm_start_command(folder: Path) -> list[str]:
    """The command of a JVM that only starts and ends, with the options apdp gives an agent's JVM,
    its class compiled into ``folder``."""
    from apdp.agents.java.jdk import find_jdk
    from apdp.agents.java.jvm import OPTIONS

    jdk = find_jdk()
    subprocess.run([str(jdk.javac), "-d", str(folder), str(START_JAVA)], check=True)
    return [str(jdk.java), *OPTIONS, "-cp", str(folder), "bench.Start"]


def child_cpu() -> float:
    """CPU seconds of this process's ended children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def jvm_start_seconds(command: list[str], core: int, starts: int) -> float:
    """Median CPU seconds of ``starts`` runs of ``command`` pinned to ``core``."""
    seconds = []
    for _ in range(starts):
        before = child_cpu()
        subprocess.run([*pinned(core), *command], check=True, capture_output=True)
        seconds.append(child_cpu() - before)
    return statistics.median(seconds)


def apdp_command() -> list[str]:
    """The ``apdp`` command of this Python."""
    script = Path(sys.executable).parent / "apdp"
    return [str(script)] if script.exists() else [sys.executable, "-c", "from apdp.cli import console; console()"]


def java_field(folder: Path, count: int) -> list[str]:
    """``count`` copies of the Java Instant installed with ``apdp logist add`` into ``folder``; their names."""
    source = folder / "java-src" / "bench"
    source.mkdir(parents=True)
    shutil.copy(INSTANT_JAVA, source / "Instant.java")
    names = [f"java-instant-{i}" for i in range(count)]
    for name in names:
        subprocess.run([*apdp_command(), "logist", "add", str(folder / "java-src"), "bench.Instant",
                        "--name", name, "--agents-dir", str(folder)], check=True, capture_output=True)
    return names


def compile_apdp() -> str:
    """Compile apdp's modules to bytecode, as installing the package does (pip compiles them); a
    line that says so. Where ``PYTHONDONTWRITEBYTECODE`` is set and nothing compiled them, every
    command (and its zygote) would compile apdp from source, a quarter of a second of each."""
    spec = importlib.util.find_spec("apdp")
    folders = [] if spec is None or spec.submodule_search_locations is None else list(spec.submodule_search_locations)
    for folder in folders:
        subprocess.run([sys.executable, "-m", "compileall", "-q", folder], check=True, capture_output=True)
    return f"apdp's bytecode compiled first, as an installed package has it ({', '.join(folders)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--platform", type=Path, required=True, help="folder of logist.jar and its lib/")
    parser.add_argument("--agents", type=int, default=10, help="agents in apdp's field (10: 90 matches)")
    parser.add_argument("--games", type=int, default=10, help="platform games timed per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--core", type=int, default=None, help="the core (default: the last one)")
    args = parser.parse_args()
    core = args.core if args.core is not None else sorted(os.sched_getaffinity(0))[-1]
    matches = args.agents * (args.agents - 1)
    print(compile_apdp())
    print(f"one core (cpu {core}) of {os.cpu_count()}; load average before {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="apdp-platform-speed-") as tmp:
        root = Path(tmp)
        game = platform_project(root / "platform", args.platform.resolve())
        jvm_start = jvm_start_command(root / "start")
        python_agents = root / "python"
        python_agents.mkdir()
        for i in range(args.agents):
            shutil.copy(INSTANT_PY, python_agents / f"instant_{i}.py")
        java_agents = root / "java"
        java_agents.mkdir()
        java_names = java_field(java_agents, args.agents)
        fields = {
            "python": (python_agents, ",".join(f"instant-{i}" for i in range(args.agents))),
            "java": (java_agents, ",".join(java_names)),
        }
        per_game: list[float] = []
        starts: list[float] = []
        whole: dict[str, list[float]] = {name: [] for name in fields}
        for run in range(args.runs):
            start = time.perf_counter()
            for g in range(args.games):
                timed([*pinned(core), *game[:5], "-o", f"history-{run}-{g}.xml", *game[5:]], root / "platform")
            per_game.append((time.perf_counter() - start) / args.games)
            starts.append(jvm_start_seconds(jvm_start, core, args.games))
            for name, (folder, agents) in fields.items():
                env = {**os.environ, "APDP_AGENTS": str(folder)}
                command = [*pinned(core), *apdp_command(), "tournament", "--topology", "france", "--tasks", "50",
                           "--agents", agents, "--seed", "1", "--jobs", "1", "--quiet",
                           "--out", str(root / f"results-{name}-{run}")]
                whole[name].append(timed(command, root, env))
        game_s = statistics.median(per_game)
        print(f"the platform: {game_s:.3f} s a game (median of {args.runs} runs of {args.games} games), "
              f"{game_s * matches:.1f} s for {matches} games")
        for name, runs in whole.items():
            seconds = statistics.median(runs)
            print(f"apdp tournament --jobs 1, {args.agents} {name} agents, {matches} matches: {seconds:.2f} s "
                  f"({seconds / matches * 1000:.1f} ms a match, start-up included): "
                  f"{game_s * matches / seconds:.1f}x the platform's speed (goal: 10x)")
        python_s = statistics.median(whole["python"])
        ratio = statistics.median(whole["java"]) / python_s
        print(f"the Java tournament takes {ratio:.2f}x the Python one (goal: at most 2.5x)")
        start_s = statistics.median(starts)
        floor = 2 * matches * start_s
        print(f"a JVM that only starts and ends (apdp's options): {start_s * 1000:.1f} ms of CPU on this core; two a "
              f"match: a Java tournament takes at least the Python one plus {floor:.1f} s, at least "
              f"{1 + floor / python_s:.2f}x it now, and at least {1 + floor / (game_s * matches / 10):.2f}x a Python "
              f"one at 10x the platform's speed")
        print(f"load average after {os.getloadavg()[0]:.2f} (other work on the machine slows every figure)")


if __name__ == "__main__":
    main()

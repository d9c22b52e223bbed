"""Where a match's time goes, and apdp against the Logist platform, the whole command as a user
times it.

Two agents that answer at once (bench/instant_agent.py), France, 50 tasks, every protection of the
sandbox on, one core (as a tournament's worker plays). The CPU of a match is split into:

- process starts: forking an agent process from the zygote, its first reply, its end and
  reaping (the zygote's side and the agent's; measured with the sandbox off);
- confinement: what the sandbox adds to that (namespaces, private folder, Landlock, seccomp,
  memory group; the same measure with the sandbox on, less the one above);
- messages: the requests and replies of the match, both sides (writing, reading, waking and
  stopping the agent, the agent's own handling of each call);
- checks: decoding and validating what the agents sent (replies, bids, plans);
- record: building the match's record and fitting it to its cap;
- the game: task draws, auctions, settlement, the rest of the referee;
- store: writing the record to a tournament's results store (the main process's share).

The agents' side is read from a cpuacct control group around the zygote (root on cgroup v1; the
lines say so when it cannot be read); the referee's is its own CPU time, split by a profile of the
same matches (the profile's shares applied to the unprofiled time). Then the whole ``apdp
tournament`` command, timed as a user times it (quiet, and as the README runs it, its report's table
included), for 6 matches (3 agents) and 90 (10 agents), default jobs, against the platform's 0.27 s
per game in its own tournament mode (issue 22's measure): the goals are 10x at 90 matches and 3x at
6.

    python bench/match_time.py [--matches 30] [--commands 5]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from apdp.messages.calls import SandboxCall
from apdp.referee.match import play_match
from apdp.sandbox.process import AgentProcess
from apdp.sandbox.zygote_link import Zygote
from apdp.scenario import Scenario, load_scenario
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.store import ResultsStore

INSTANT = str(Path(__file__).with_name("instant_agent.py"))
#: The Logist platform's time per game of trivial agents in its own tournament mode (issue 22).
PLATFORM_SECONDS_PER_GAME = 0.27
#: The referee's functions, by where their time goes (the rest is the game's).
CATEGORIES: dict[str, tuple[str, ...]] = {
    "process starts": ("zygote_link.py", "process.py:start", "tempfile.py", "cpu.py", "process.py:stop",
                       "process.py:kill", "process.py:_read_output", "posix.mkdir", "posix.unlink", "sendmsg",
                       "select.select", "posix.pread"),
    "messages": ("process.py", "connection.py", "pickle", "'poll'", "posix.write", "posix.read",
                 "posix.killpg", "encode_request", "calls.py"),
    "checks": ("replies.py", "strict.py", "json/", "text.py", "game/plan.py", "auction.py:check_bid"),
    "record": ("record.py", "record_format.py", "match.py:_record", "dataclasses.py"),
}
ROWS = ("process starts", "confinement", "messages", "checks", "record", "the game", "store")


class AgentCpu:
    """CPU of the zygote and every agent process it starts, from a cpuacct group (None: unreadable)."""

    def __init__(self) -> None:
        self.group: Path | None = None
        base = Path("/sys/fs/cgroup/cpuacct")
        if (base / "cpuacct.usage").exists() and os.access(base, os.W_OK):
            group = base / f"apdp-bench-{os.getpid()}"
            group.mkdir()
            (group / "cgroup.procs").write_text(str(Zygote.get().pid))
            self.group = group

    def seconds(self) -> float | None:
        return None if self.group is None else int((self.group / "cpuacct.usage").read_text()) / 1e9

    def close(self) -> None:
        if self.group is not None:
            for pid in (self.group / "cgroup.procs").read_text().split():
                (self.group.parent / "cgroup.procs").write_text(pid)
            for inner in self.group.iterdir():  # the zygote's groups of its agents (gone by now), made in it
                if inner.is_dir():
                    with contextlib.suppress(OSError):
                        inner.rmdir()
            self.group.rmdir()


def _cpu() -> float:
    return time.process_time()


def per_run(runs: int, once: Callable[[], object], agents: AgentCpu) -> tuple[float, float | None]:
    """(referee CPU, agents' CPU or None) seconds per run of ``once``."""
    once()
    before, theirs = _cpu(), agents.seconds()
    for _ in range(runs):
        once()
    time.sleep(0.05)  # the zygote reaps the last one
    after = agents.seconds()
    return (_cpu() - before) / runs, None if theirs is None or after is None else (after - theirs) / runs


def lifecycle(scenario: Scenario) -> Callable[[], None]:
    """An agent process's start, one call and end: what every agent of a match costs beside its calls."""
    def once() -> None:
        process = AgentProcess(scenario.limits)
        process.start(INSTANT)
        process.call(SandboxCall("unprotected"), 5.0)
        process.close()
    return once


def referee_split(scenario: Scenario, matches: int) -> dict[str, float]:
    """The referee's CPU per category, as shares of a profile of ``matches`` matches."""
    profile = cProfile.Profile(time.process_time)  # CPU: a wait for an agent is not the referee's time
    profile.enable()
    for seed in range(matches):
        play_match(scenario, [INSTANT, INSTANT], seed=seed)
    profile.disable()
    stats = pstats.Stats(profile)
    split = dict.fromkeys([*CATEGORIES, "the game"], 0.0)
    for (file, _line, name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{'/'.join(Path(file).parts[-2:])}:{name}" if file != "~" else name
        category = next((c for c, keys in CATEGORIES.items() if any(k in where for k in keys)), "the game")
        split[category] += tottime
    total = sum(split.values())
    return {c: t / total for c, t in split.items()}


def store_seconds(scenario: Scenario, records: int) -> float:
    """The main process's CPU per record it stores."""
    record = play_match(scenario, [INSTANT, INSTANT], seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        store = ResultsStore.create_or_resume(Path(tmp) / "out", {"bench": True}, bytes(32))
        before = _cpu()
        for k in range(records):
            store.add(MatchSpec("france", k, k, ("a", "b")), record)
        used = _cpu() - before
        store.close()
    return used / records


#: The two ways of running the command: quiet (one line at the end), and as the README runs it
#: (the opening lines, progress, and the report's table at the end).
COMMANDS = {"--quiet": ["--quiet"], "as the README": []}


def whole_commands(agents: int, runs: int) -> dict[str, list[float]]:
    """Wall seconds of `apdp tournament` (default jobs) between ``agents`` instant agents, quiet and
    as the README runs it, interleaved run by run, each into a fresh folder."""
    seconds: dict[str, list[float]] = {label: [] for label in COMMANDS}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "agents"
        folder.mkdir()
        for i in range(agents):
            shutil.copy(INSTANT, folder / f"instant_{i}.py")
        names = ",".join(f"instant-{i}" for i in range(agents))
        env = {**os.environ, "APDP_AGENTS": str(folder)}
        apdp = shutil.which("apdp", path=str(Path(sys.executable).parent)) or "apdp"
        for run in range(runs):
            order = list(COMMANDS.items()) if run % 2 == 0 else list(reversed(COMMANDS.items()))
            for label, extra in order:
                command = [apdp, "tournament", "--topology", "france", "--agents", names, "--tasks", "50",
                           "--seed", "1", *extra, "--out", str(Path(tmp) / f"run{run}{len(extra)}")]
                start = time.perf_counter()
                subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                seconds[label].append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--commands", type=int, default=5, help="runs of each whole command (median shown)")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()[0]:.2f}")
    cores = os.sched_getaffinity(0)
    core = sorted(cores)[-1]
    os.sched_setaffinity(0, {core})
    Zygote.get().pin(core)
    on = load_scenario(None, {"topology": "france", "tasks": 50})
    off = load_scenario(None, {"topology": "france", "tasks": 50, "limits.sandbox": False})
    agents = AgentCpu()
    try:
        _, bare_agent = per_run(args.matches, lifecycle(off), agents)
        _, conf_agent = per_run(args.matches, lifecycle(on), agents)
        match_ref, match_agents = per_run(args.matches, lambda: play_match(on, [INSTANT, INSTANT], seed=3), agents)
    finally:
        agents.close()
    split = referee_split(on, max(5, args.matches // 3))
    stored = store_seconds(on, 200)
    referee = {c: match_ref * share for c, share in split.items()}
    agent_side: dict[str, float | None] = dict.fromkeys(ROWS)
    if bare_agent is not None and conf_agent is not None and match_agents is not None:
        agent_side["process starts"] = 2 * bare_agent
        agent_side["confinement"] = 2 * (conf_agent - bare_agent)
        agent_side["messages"] = match_agents - 2 * conf_agent
    referee["store"] = stored
    print(f"\nwhere a match's CPU goes: {args.matches} matches of 50 tasks on france between instant agents, "
          "sandbox on, one core")
    print(f"{'':16}{'referee ms':>12}{'agents ms':>12}{'total ms':>12}")
    total = 0.0
    for row in ROWS:
        theirs = agent_side.get(row)
        ours = referee.get(row, 0.0)
        both = ours + (theirs or 0.0)
        total += both
        shown = "-" if theirs is None else f"{theirs * 1000:.1f}"
        print(f"{row:16}{ours * 1000:12.1f}{shown:>12}{both * 1000:12.1f}")
    print(f"{'all':16}{(match_ref + stored) * 1000:12.1f}{'':12}{total * 1000:12.1f}")
    if bare_agent is None:
        print("(the agents' side needs root and a cgroup v1 cpuacct hierarchy: not readable here)")
    if args.commands < 1:
        return
    os.sched_setaffinity(0, cores)  # the commands start from here: every core, as a user's would
    print("\nthe whole `apdp tournament` command, instant agents, 50 tasks, default jobs, "
          f"median of {args.commands}, against the platform's {PLATFORM_SECONDS_PER_GAME} s per game:")
    for count, matches, goal in ((3, 6, 3), (10, 90, 10)):
        platform = matches * PLATFORM_SECONDS_PER_GAME
        for label, runs in whole_commands(count, args.commands).items():
            seconds = statistics.median(runs)
            print(f"  {matches:3} matches, {label:13}: {seconds:6.2f} s in all, {seconds / matches:.3f} s per match; "
                  f"the platform {platform:5.2f} s: {platform / seconds:4.1f}x faster "
                  f"(goal: {goal}x, {platform / goal:.2f} s)")

if __name__ == "__main__":
    main()

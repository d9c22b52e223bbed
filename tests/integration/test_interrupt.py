"""Ctrl-C during a tournament: one word ("interrupted") and exit status 130, whatever the moment;
no traceback or "Exception ignored" from the parent, the fork server, the workers or the zygotes;
a resume then finishes the tournament (and, off a terminal, prints plain progress lines)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from apdp.tournament.events import TournamentEvents
from apdp.tournament.executor import run_matches
from apdp.tournament.schedule import MatchSpec, double_round_robin

APDP = [sys.executable, "-c", "from apdp.cli import console; console()"]
ARGS = ["tournament", "--topology", "france", "--agents", "naive,template,risk-seeking-lns", "--tasks", "20",
        "--seed", "1", "--jobs", "2"]


def wait_for_a_match(log: Path, timeout: float = 60.0) -> None:
    """Until the run's log says a match started (the run is past its start, its workers busy)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.is_file() and " start " in log.read_text(encoding="utf-8", errors="replace"):
            return
        time.sleep(0.02)
    raise AssertionError(f"no match started within {timeout} s")


def gone(group: int, timeout: float = 10.0) -> bool:
    """Whether every process of ``group`` ended within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_ctrl_c_is_one_word_every_time_and_the_run_resumes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for delay in (0.0, 0.4, 1.2):
        if delay and stored_matches(out, tmp_path) == 6:
            break  # a run finished before its Ctrl-C: nothing is left to interrupt
        # its own session, as a terminal's foreground job: Ctrl-C goes to the whole process group
        run = subprocess.Popen([*APDP, *ARGS, "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, cwd=tmp_path)
        try:
            wait_for_a_match(out / "tournament.log")
            (out / "tournament.log").unlink()  # the next run's "start" is the one to wait for
            time.sleep(delay)
            os.killpg(run.pid, signal.SIGINT)
            _, err = run.communicate(timeout=60)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
        if run.returncode == 0:  # it finished before the signal: nothing to check this time
            continue
        assert run.returncode == 130, err
        assert err.strip().splitlines()[-1] == "interrupted", err
        for word in ("Traceback", "Exception ignored", "KeyboardInterrupt", "Error"):
            assert word not in err, f"after Ctrl-C {delay} s into a match:\n{err}"
        assert gone(run.pid), subprocess.run(["ps", "-o", "pid,args", "-g", str(run.pid)], capture_output=True,
                                             text=True).stdout
    left = 6 - stored_matches(out, tmp_path)  # none if the last Ctrl-C came after the last match
    finished = subprocess.run([*APDP, *ARGS, "--out", str(out)], capture_output=True, text=True, timeout=240,
                              cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    if left:
        assert "tournament: 6/6 matches (100%)" in finished.stderr  # the plain progress line, off a terminal
    assert stored_matches(out, tmp_path) == 6


def stored_matches(out: Path, cwd: Path) -> int:
    """How many matches the store of ``out`` holds, as ``apdp report`` counts them."""
    report = subprocess.run([*APDP, "report", str(out), "--format", "json"], capture_output=True, text=True,
                            timeout=60, cwd=cwd)
    if "no finished matches" in report.stderr:
        return 0
    assert report.returncode == 0, report.stderr
    return sum(row["matches"] for row in json.loads(report.stdout)["agents"]) // 2


class InterruptSecondMatch(TournamentEvents):
    """Ctrl-C as the second match is about to be handed out (the first one's worker is starting)."""

    def __init__(self) -> None:
        self.started = 0

    def on_match_started(self, match: MatchSpec) -> None:
        self.started += 1
        if self.started == 2:
            raise KeyboardInterrupt


def test_an_interrupted_run_leaves_no_executor_thread_behind() -> None:
    """Left running, the executor's manager thread raced Python's exit handler of concurrent.futures,
    which wrote to the thread's wake-up pipe as the thread closed it: "Exception ignored in: <module
    'threading'> ... OSError: [Errno 9] Bad file descriptor" once in a few interrupts."""
    matches = double_round_robin(["a", "b", "c"], ["france"], 0, 1)
    with pytest.raises(KeyboardInterrupt):
        run_matches(matches, str, InterruptSecondMatch(), jobs=2)  # str: any picklable play will do
    managers = [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
    assert managers == []

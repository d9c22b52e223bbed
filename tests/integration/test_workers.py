"""The tournament's worker processes: forked from a process that runs no other thread (they start
with all it loaded), from the fork server otherwise; gone with their parent, however it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from apdp.sandbox.environment import ONE_THREAD
from tests.paths import ROOT

PLAY = textwrap.dedent("""
    import os, sys, threading
    from apdp.tournament.events import TournamentEvents
    from apdp.tournament.executor import Workers
    from apdp.tournament.schedule import MatchSpec
    from tests.workers_probe import where_played

    class Seen(TournamentEvents):
        def on_match_error(self, match, record):
            print(record.result.referee_error, os.getpid())

    if sys.argv[1] == "thread":  # another thread runs when the workers start
        threading.Thread(target=threading.Event().wait, daemon=True).start()
    with Workers(1) as workers:
        workers.play([MatchSpec("france", 0, 0, ("a", "b"))], where_played, Seen())
""")


def _played(mode: str, one_thread: bool = True) -> tuple[int, bool, int]:
    """(the worker's parent, whether it had the referee loaded, the process that started it)."""
    env = {k: v for k, v in os.environ.items() if k not in ONE_THREAD}
    env.update(ONE_THREAD if one_thread else {})  # as the command sets them
    done = subprocess.run([sys.executable, "-c", PLAY, mode], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True, env=env)
    parent, loaded, pid = done.stdout.split()
    return int(parent), loaded == "True", int(pid)


def test_workers_of_a_process_with_no_other_thread_are_its_forks_with_the_referee_loaded() -> None:
    parent, loaded, pid = _played("alone")
    assert parent == pid and loaded


def test_workers_of_a_process_with_threads_come_from_the_fork_server() -> None:
    parent, loaded, pid = _played("thread")
    assert parent != pid and loaded  # the fork server loaded the referee for them


def test_a_numerical_librarys_own_threads_count_too() -> None:
    """Without OPENBLAS_NUM_THREADS=1, numpy's import starts threads Python's threading does not see."""
    parent, _, pid = _played("alone", one_thread=False)
    assert parent != pid


SLEEP = textwrap.dedent("""
    import sys
    from apdp.tournament.events import TournamentEvents
    from apdp.tournament.executor import Workers
    from apdp.tournament.schedule import MatchSpec
    from tests.workers_probe import sleep_long

    with Workers(1) as workers:
        workers.play([MatchSpec(sys.argv[1], 0, 0, ("a", "b"))], sleep_long, TournamentEvents())
""")


def test_a_forked_worker_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    marker = tmp_path / "worker.pid"
    # its resource tracker reports, to stderr, the semaphores the kill left behind
    run = subprocess.Popen([sys.executable, "-c", SLEEP, str(marker)], cwd=ROOT, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() or not marker.read_text():
            assert time.monotonic() < deadline and run.poll() is None, "the worker never started its match"
            time.sleep(0.05)
        worker = int(marker.read_text())
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    deadline = time.monotonic() + 30
    while _alive(worker):
        assert time.monotonic() < deadline, "the worker outlived its killed parent"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False

"""Fan-out of matches over worker processes, never more than ``jobs`` at a time.

Workers are the non-daemonic processes of a :class:`concurrent.futures.ProcessPoolExecutor`, so each
may start the agents' own processes: forked from the parent when it runs no other thread (a
tournament command starts them before its log listener and progress bar), from the fork server
otherwise (a study, which generates agents in threads; a pool rebuilt after a worker died). The
parent keeps at most ``jobs`` matches playing and one waiting for the first free worker (see
:data:`WAITING`); a match is therefore playing as soon as it is announced or right after another
ends, and a SIGKILL of the parent loses at most the ``jobs`` matches being played. Workers notice a
dead parent and exit.

Ctrl-C is the parent's alone: the fork server is started with SIGINT ignored, and a forked worker
starts with the parent's SIGINT deferred, so neither it nor the workers and agent processes they
beget print a KeyboardInterrupt of their own (from the middle of an import, say). On an interrupt
the parent cuts the workers' lifeline and waits for the executor's manager thread to end: left
running, it raced Python's exit handler of concurrent.futures, which wrote to the thread's wake-up
pipe as the thread closed it ("Exception ignored in: <module 'threading'> ... OSError: [Errno 9] Bad
file descriptor"). A Ctrl-C that comes while a worker is being started is acted on once it has
started: the pool would not know it, nor wait for it, and it would fail reading the semaphores of a
parent already gone.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import logging
import multiprocessing
import multiprocessing.util
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeAlias

from apdp.sandbox.environment import safe_module_path

if TYPE_CHECKING:  # not imported at run time: a command starts the fork server before loading numpy
    from apdp.referee.record_format import MatchRecord
    from apdp.tournament.events import TournamentEvents
    from apdp.tournament.schedule import MatchSpec

log = logging.getLogger("apdp.tournament")

#: A picklable function that plays one match in a worker and returns its record.
PlayFunction: TypeAlias = "Callable[[MatchSpec], MatchRecord]"
#: Modules loaded once before any worker starts (by the fork server, or by this process before it
#: forks them): each worker starts with the referee loaded instead of importing it (numpy,
#: pydantic, ...) on its first match.
WORKER_MODULES = ("apdp.referee.match", "apdp.tournament.play")
#: Matches handed out beyond one per worker: one waits in the pool's queue, so that a worker that
#: ends a match starts the next at once instead of after a round trip through the parent (which
#: shares the cores with the workers: 5 ms a match, a tenth of a short match, were lost so).
WAITING = 1


def _watch_parent(lifeline: Connection) -> None:
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv()  # nothing is ever sent: this ends (EOFError) when the parent is gone
    os._exit(1)  # the run was killed: do not finish a match nobody will store


def _worker_start(
    lifeline: Connection, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's (see the module docstring)
    threading.Thread(target=_watch_parent, args=(lifeline,), daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def run_matches(
    matches: Iterable[MatchSpec],
    play: PlayFunction,
    events: TournamentEvents,
    *,
    jobs: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> int:
    """Play every match with ``jobs`` workers, reporting through ``events``; returns the errors.

    A match whose worker raised or died is reported (and stored) as a referee error with
    ``on_match_error`` and not retried here (a rerun plays it); the pool is rebuilt after a worker
    died and the run goes on.
    """
    with Workers(jobs, initializer, initargs) as workers:
        return workers.play(matches, play, events)


def worker_context() -> BaseContext:
    """How worker processes started now begin: forked from this process when it runs no other
    thread (they start with all it has loaded, at no cost), else from the fork server (a fork with
    other threads running may leave a lock held for ever in the child)."""
    if _alone() and threading.current_thread() is threading.main_thread():
        return multiprocessing.get_context("fork")
    _start_fork_server_deaf_to_ctrl_c()
    return multiprocessing.get_context("forkserver")


def _alone() -> bool:
    """Whether this process runs a single thread, as the system counts them (a library's own
    threads too, such as a numerical library's pool, which Python's threading module does not see)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            counted = next((int(line.split()[1]) for line in status if line.startswith("Threads:")), None)
    except (OSError, ValueError):
        counted = None
    return threading.active_count() == 1 and counted in (None, 1)


class Workers:
    """A run's worker processes, started at once (see :func:`worker_context`: a caller that starts
    them before any thread of its own, such as a log listener or a progress bar, gets them forked);
    a context manager that stops them.

    Workers hold the reading end of a pipe only the parent can write to: when the parent dies,
    however it dies, they read EOF and exit. (Their own parent may be the fork server, which lives
    on while any worker holds its "alive" descriptor, so watching os.getppid() is not enough.)
    """

    def __init__(
        self, jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {jobs}")
        self.jobs = jobs
        self._initializer = initializer
        self._initargs = initargs
        self._lifeline, self._parent_end = multiprocessing.Pipe(duplex=False)
        # a forked worker must not hold the parent's end of its own lifeline
        multiprocessing.util.register_after_fork(self._parent_end, Connection.close)
        self._pool: ProcessPoolExecutor | None = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        safe_module_path()  # before the pool starts its resource tracker (and perhaps the fork server)
        context = worker_context()
        forked = context.get_start_method() == "fork"
        if forked:  # what the fork server would have loaded
            for module in WORKER_MODULES:
                importlib.import_module(module)
            # what the workers share with this process stays shared: no collection of theirs walks
            # (and so copies) the pages of the objects they were forked with
            gc.freeze()
        pool = ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=context,
            initializer=_worker_start,
            initargs=(self._lifeline, self._initializer, self._initargs),
        )
        try:
            with _ctrl_c_deferred():  # forked workers are started by the first submission: now
                pool.submit(int)
        finally:
            if forked:  # this process (a library's caller, perhaps) collects all its garbage again
                gc.unfreeze()
        return pool

    def play(self, matches: Iterable[MatchSpec], play: PlayFunction, events: TournamentEvents) -> int:
        """Play every match (see :func:`run_matches`); returns the errors."""
        pending = _Pending(iter(matches), events)
        errors = 0
        while not pending.exhausted:
            pool = self._pool or self._new_pool()
            self._pool = None
            try:
                failed, finished = _drain(pool, pending, play, events, self.jobs)
            except BaseException:
                self._parent_end.close()  # every worker exits at once, whatever it is doing
                pool.shutdown(wait=True, cancel_futures=True)
                raise
            pool.shutdown(wait=True)
            errors += failed
            if failed and not finished and not pending.exhausted:
                raise RuntimeError("worker processes die before finishing any match; see the log")
        return errors

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._parent_end.close()
        self._lifeline.close()


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that comes during the block until the block's end, then act on it as usual.

    (Blocking SIGINT in the main thread would not do: the kernel hands a signal sent to the
    process to any thread that does not block it, and Python acts on it in the main thread.)
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[FrameType | None] = []
    previous = signal.signal(signal.SIGINT, lambda _signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            previous(signal.SIGINT, caught[0])  # Python's default handler raises KeyboardInterrupt
        elif caught and previous == signal.SIG_DFL:
            raise KeyboardInterrupt


def start_fork_server() -> None:
    """Start the fork server now if it is not running, loading :data:`WORKER_MODULES`: a command
    calls this first thing, so the server loads the referee while the parent reads its options."""
    _start_fork_server_deaf_to_ctrl_c()


def _start_fork_server_deaf_to_ctrl_c() -> None:
    """Start the fork server (if not yet running) with SIGINT ignored, which its children inherit."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may change signal handlers (and only it gets SIGINT)
    from multiprocessing import forkserver

    safe_module_path()
    forkserver.set_forkserver_preload(list(WORKER_MODULES))  # read only when it starts
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


class _Pending:
    """The matches not yet handed out; announces each one as it is submitted."""

    def __init__(self, matches: Iterator[MatchSpec], events: TournamentEvents) -> None:
        self.matches = matches
        self.events = events
        self.exhausted = False

    def submit(
        self, pool: ProcessPoolExecutor, play: PlayFunction, in_flight: dict[Future[MatchRecord], MatchSpec]
    ) -> None:
        match = next(self.matches, None)
        if match is None:
            self.exhausted = True
            return
        self.events.on_match_started(match)
        with _ctrl_c_deferred():  # a worker being started when Ctrl-C came would not be waited for
            in_flight[pool.submit(play, match)] = match


def _drain(
    pool: ProcessPoolExecutor,
    pending: _Pending,
    play: PlayFunction,
    events: TournamentEvents,
    jobs: int,
) -> tuple[int, int]:
    """Run matches on ``pool`` until none is left or the pool breaks: (errors, matches played)."""
    from apdp.tournament.events import announce, failed

    in_flight: dict[Future[MatchRecord], MatchSpec] = {}
    errors = finished = 0
    broken = False
    while len(in_flight) < jobs + WAITING and not pending.exhausted:
        pending.submit(pool, play, in_flight)
    while in_flight:
        done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
        outcomes: list[tuple[MatchSpec, MatchRecord | None, str]] = []
        for future in done:
            match = in_flight.pop(future)
            try:
                outcomes.append((match, future.result(), ""))
            except BrokenProcessPool:
                broken = True
                outcomes.append((match, None, "its worker process died"))
            except Exception as exc:
                outcomes.append((match, None, f"{type(exc).__name__}: {exc}"))
        # keep the workers busy before doing the parent's share of the work (storing, drawing)
        while not broken and len(in_flight) < jobs + WAITING and not pending.exhausted:
            pending.submit(pool, play, in_flight)
        for match, record, message in outcomes:
            if record is None:
                record = failed(match, message)
            if record.referee_error is not None:
                errors += 1
            else:
                finished += 1
            announce(events, match, record)
        if broken:
            log.warning("a worker process died; starting a new pool")
            for future, match in in_flight.items():
                future.cancel()
                errors += 1
                events.on_match_error(match, failed(match, "its worker pool broke"))
            in_flight.clear()
    return errors, finished

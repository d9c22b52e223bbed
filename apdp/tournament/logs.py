"""One log file per run: the parent's events and every worker's log lines, in ``DIR/tournament.log``.

The parent owns the file; a :class:`logging.handlers.QueueListener` thread drains the run's
:class:`apdp.tournament.log_channel.LogChannel` into it. Workers may be started by "forkserver", so
they inherit no handler: :func:`worker_logging` (their initializer) sends their records to that
channel. (``multiprocessing_logging`` does the same but only under the "fork" start method: its
queue cannot be handed to forkserver workers, and forking a parent that runs threads is unsafe.)
"""

from __future__ import annotations

import errno
import logging
import logging.handlers
import os
from pathlib import Path
from typing import IO

from apdp.errors import UserError
from apdp.referee.record_format import MatchRecord
from apdp.text import clean_line
from apdp.tournament.events import TournamentEvents
from apdp.tournament.log_channel import LogChannel, LogSender
from apdp.tournament.schedule import MatchSpec

#: The log's file name inside an output folder.
LOG_FILE = "tournament.log"

_FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"


class _OneLineFormatter(logging.Formatter):
    """Each entry on one line, control characters escaped: text an agent wrote (a fault's message)
    can neither forge a line of the log nor send escape sequences to whoever reads it."""

    def format(self, record: logging.LogRecord) -> str:
        return clean_line(super().format(record))

log = logging.getLogger("apdp.tournament")


def _open_log(path: Path) -> IO[str]:
    """The log file, appended to; a symlink planted in its place is refused, never followed."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UserError(f"{path} is a symlink; remove it or choose another --out") from None
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
    return os.fdopen(fd, "a", encoding="utf-8")


class RunLog:
    """The log file of one run; a context manager that installs and removes the handler."""

    def __init__(self, folder: Path, level: int = logging.INFO) -> None:
        self.path = folder / LOG_FILE
        self.level = level
        self._stream = _open_log(self.path)
        file_handler: logging.StreamHandler[IO[str]] = logging.StreamHandler(self._stream)
        file_handler.setFormatter(_OneLineFormatter(_FORMAT))
        file_handler.setLevel(level)
        self.file_handler = file_handler
        self._channel = LogChannel()
        #: What workers send their records to (:func:`worker_logging`).
        self.queue = self._channel.sender()
        self.listener = logging.handlers.QueueListener(self._channel, file_handler)  # type: ignore[arg-type]
        self._previous_level = logging.NOTSET

    def __enter__(self) -> RunLog:
        logger = logging.getLogger("apdp")
        self._previous_level = logger.level
        logger.setLevel(self.level)
        logger.addHandler(self.file_handler)
        self.listener.start()
        return self

    def __exit__(self, *exc: object) -> None:
        logger = logging.getLogger("apdp")
        logger.removeHandler(self.file_handler)
        logger.setLevel(self._previous_level)
        self.listener.stop()
        self._channel.close()
        self.file_handler.close()
        self._stream.close()


def worker_logging(queue: LogSender, level: int) -> None:
    """Initializer of a worker process: its log records go to the run's log file."""
    root = logging.getLogger()
    root.handlers.clear()
    root.addHandler(logging.handlers.QueueHandler(queue))  # type: ignore[arg-type]
    root.setLevel(level)


class LogEvents(TournamentEvents):
    """Observer that writes the run's events to the log."""

    def on_start(self, total: int, done: int) -> None:
        log.info("tournament: %d matches, %d already stored, %d to play", total, done, total - done)

    def on_match_started(self, match: MatchSpec) -> None:
        log.info("start %s (seed %d)", match.match_id, match.seed)

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        winner = record.result.winner
        name = "nobody" if winner is None else match.agents[winner]
        log.info("done %s: profit %s, winner %s", match.match_id, record.result.profit, name)

    def on_match_faulted(self, match: MatchSpec, record: MatchRecord) -> None:
        for fault in record.result.faults:
            log.warning(
                "fault %s: %s %s in %s (task %s): %s",
                match.match_id, match.agents[fault.agent], fault.kind, fault.phase, fault.task, fault.message,
            )

    def on_match_error(self, match: MatchSpec, record: MatchRecord) -> None:
        log.error("error %s: the referee failed, stored as a referee error (a rerun plays it again): %s",
                  match.match_id, record.referee_error)

    def on_end(self, interrupted: bool) -> None:
        log.info("tournament %s", "interrupted" if interrupted else "finished")

"""How a run's worker processes send their log records to the parent: a unix socket pair whose
messages keep their bounds (``SOCK_SEQPACKET``), one pickled record a message.

A ``multiprocessing`` queue would do the same, but a queue that forkserver workers can be handed
holds named semaphores, and the first one starts ``multiprocessing``'s resource tracker: a fresh
interpreter of its own, some 40 ms of CPU for each command. A message of a socket pair is sent whole
or not at all, so writers need no lock; a socket is handed to a worker as a queue is, forked or from
the fork server. Workers are apdp's own processes: what they send is trusted as a queue's would be.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import socket
from typing import Any

#: The largest message sent: a record whose pickle is longer has its message cut to fit.
MESSAGE_BYTES = 64 * 1024
#: What a longer record's message is cut to (characters).
CUT_MESSAGE = 16 * 1024


class LogSender:
    """A worker's end of the channel: what :class:`logging.handlers.QueueHandler` calls a queue."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def put_nowait(self, record: Any) -> None:
        """Send ``record`` (a log record, or the listener's sentinel); dropped once the parent is gone."""
        data = pickle.dumps(record, pickle.HIGHEST_PROTOCOL)
        if len(data) > MESSAGE_BYTES and isinstance(record, logging.LogRecord):
            cut = logging.makeLogRecord({
                "name": record.name, "levelno": record.levelno, "levelname": record.levelname,
                "processName": record.processName, "process": record.process, "created": record.created,
                "msecs": record.msecs, "msg": f"{record.getMessage()[:CUT_MESSAGE]} [cut: {len(data)} bytes]",
            })
            data = pickle.dumps(cut, pickle.HIGHEST_PROTOCOL)
        with contextlib.suppress(OSError):  # the run ended (the parent closed its end): nobody reads the log
            self._sock.sendall(data)


class LogChannel:
    """The parent's channel: :meth:`sender` for the workers, :meth:`get` for its listener."""

    def __init__(self) -> None:
        self._reader, writer = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._sender = LogSender(writer)
        self._writer = writer

    def sender(self) -> LogSender:
        """The end the workers write to (picklable for the fork server, as a socket is)."""
        return self._sender

    def put_nowait(self, record: Any) -> None:
        """Send ``record`` from this process (the listener's sentinel, when it stops)."""
        self._sender.put_nowait(record)

    def get(self, block: bool = True) -> Any:
        """The next record; waits for it (``block`` is always true for a listener). None (the
        listener's sentinel) once every writer is closed."""
        data = self._reader.recv(MESSAGE_BYTES)
        if not data:
            return None
        try:
            return pickle.loads(data)
        except Exception as exc:  # never the listener's end: one line says what was lost
            return logging.makeLogRecord({"name": "apdp.tournament", "levelno": logging.WARNING,
                                          "levelname": "WARNING", "msg": f"a worker's log record was lost ({exc})"})

    def close(self) -> None:
        """Close both ends in this process."""
        self._reader.close()
        self._writer.close()

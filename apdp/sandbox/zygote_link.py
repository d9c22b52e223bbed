"""The referee's link to its zygote, the clean process that forks its agent processes.

Kept apart from :mod:`apdp.sandbox.process` and light to import: a tournament starts its zygote
first thing, so that the zygote loads apdp while the referee still reads its options.
"""

from __future__ import annotations

import os
import pickle
import select
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from apdp.sandbox.environment import BASE_ENVIRONMENT

if TYPE_CHECKING:
    from apdp.sandbox.worker import ProcessLimits


def zygote_environment() -> dict[str, str]:
    """The zygote's environment, inherited by every agent: none of the referee's variables."""
    env = dict(BASE_ENVIRONMENT)
    if "PYTHONPATH" in os.environ:  # where apdp itself may come from
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


class Zygote:
    """The referee's link to its zygote process (one per referee process, shared by threads).

    A zygote is either started afresh (:meth:`start`: a new interpreter with a clean environment,
    which loads apdp) or forked, already loaded, from another referee's zygote through that one's
    zygote_requests (:meth:`adopt`): a tournament starts one zygote early and its worker processes each
    adopt one of its forks, instead of each waiting for an interpreter of its own.
    """

    _instance: Zygote | None = None
    _instance_lock = threading.Lock()

    def __init__(self, control: socket.socket, pid: int, process: subprocess.Popen[bytes] | None = None,
                 zygote_requests: socket.socket | None = None) -> None:
        #: The zygote's process id.
        self.pid = pid
        self._process = process
        self._control = control
        self._zygote_requests = zygote_requests
        self._lock = threading.Lock()
        self._exits: dict[int, int] = {}
        self._owner = os.getpid()

    @classmethod
    def start(cls) -> Zygote:
        """A zygote in a fresh interpreter, with none of the referee's environment."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        zygote_requests, their_requests = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        fds = (theirs.fileno(), their_requests.fileno())
        process = subprocess.Popen(  # -P: no module of the working folder (an agent's file) in its path
            [sys.executable, "-P", "-m", "apdp.sandbox.zygote", *map(str, fds)],
            pass_fds=fds,
            stdin=subprocess.DEVNULL,
            env=zygote_environment(),
            process_group=0,  # Ctrl-C is the referee's: a terminal's SIGINT must not reach the zygote
        )
        theirs.close()
        their_requests.close()
        return cls(ours, process.pid, process, zygote_requests)

    @classmethod
    def adopt(cls, zygote_requests: socket.socket, timeout: float = 10.0) -> Zygote | None:
        """Make this process's zygote a fork of the zygote behind ``zygote_requests`` (see
        :meth:`zygote_requests`); None if that zygote does not answer (:meth:`get` then starts one)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            socket.send_fds(zygote_requests, [b"zygote"], [theirs.fileno()])
        except OSError:
            return None
        finally:
            theirs.close()
        zygote = cls(ours, 0)
        try:
            ready = zygote._read(timeout)
        except (OSError, pickle.UnpicklingError):
            ready = None
        if ready is None or ready[0] != "ready":
            ours.close()
            return None
        zygote.pid = int(ready[1])
        with cls._instance_lock:
            cls._instance = zygote
        return zygote

    def pin(self, cpu: int) -> bool:
        """Run the zygote, and so every agent process it starts from now on, on ``cpu`` alone;
        False if it cannot be (the zygote is gone: the next one starts from this pinned process)."""
        try:
            os.sched_setaffinity(self.pid, {cpu})
        except OSError:
            return False
        return True

    def zygote_requests(self) -> socket.socket | None:
        """The socket on which other processes (this referee's workers) :meth:`adopt` forks of
        this zygote; None for a zygote that was itself adopted."""
        return self._zygote_requests

    def alive(self) -> bool:
        """Whether the zygote may still answer (an adopted one: its control socket is not closed)."""
        if self._process is not None:
            return self._process.poll() is None
        try:
            return self._control.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False

    @classmethod
    def get(cls) -> Zygote:
        """This process's zygote, started on first use (and anew in a forked child)."""
        with cls._instance_lock:
            z = cls._instance
            if z is None or z._owner != os.getpid() or not z.alive():
                z = cls._instance = Zygote.start()
            return z

    def _read(self, timeout: float | None) -> tuple[Any, ...] | None:
        ready, _, _ = select.select([self._control], [], [], timeout)
        if not ready:
            return None
        data = self._control.recv(1 << 16)
        if not data:
            raise OSError("the zygote process ended")
        msg: tuple[Any, ...] = pickle.loads(data)
        if msg[0] == "exit":
            self._exits[msg[1]] = msg[2]
        return msg

    def spawn(self, limits: ProcessLimits) -> tuple[int, Connection, str | None, str | None]:
        """A new agent process, the referee's end of its conversation, its memory group (None: it has
        none, and the referee watches its memory itself) and the group that counts its CPU (None:
        none)."""
        ours, theirs = socket.socketpair()
        conn = Connection(ours.detach())
        # The agent's own limits (its file, its log) go to its process alone, read after the fork: the
        # zygote, from which every later agent is forked, is told only what it needs (no agent's name
        # lies in its memory for the next one to read).
        conn.send_bytes(pickle.dumps(limits))
        share = (None if limits.confinement is None else limits.confinement.processes, limits.memory_bytes,
                 limits.private_dir)
        with self._lock:
            socket.send_fds(self._control, [pickle.dumps(share)], [theirs.fileno()])
            theirs.close()
            while True:
                msg = self._read(30.0)
                if msg is None:
                    raise OSError("the zygote did not answer")
                if msg[0] == "spawned":
                    return int(msg[1]), conn, msg[2], msg[3]

    def exit_code(self, pid: int, timeout: float) -> int | None:
        """The exit code of an agent process (negative: killed by that signal), if it ended in time."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while pid not in self._exits:
                left = deadline - time.monotonic()
                if left <= 0 or self._read(left) is None:
                    return None
            return self._exits.pop(pid)

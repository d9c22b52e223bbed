"""The referee's handle on one agent process: start it, call it under a hard deadline, stop it.

Each agent runs in a fresh process made by a fork server (so it inherits nothing of the referee's
state: not the task sequence, not the seed). A call that does not answer within its time limit
gets the process killed, whatever it is doing. Replies are bounded JSON, validated here.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.context import ForkServerContext
from typing import Any

from apdp.fault import FaultKind
from apdp.sandbox.worker import Limits, worker_main

#: Largest reply accepted from an agent process, in bytes.
MAX_REPLY_BYTES = 16 * 1024 * 1024

_context: ForkServerContext | None = None


def _fork_server() -> ForkServerContext:
    global _context
    if _context is None:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["apdp.sandbox.worker"])
        _context = ctx
    return _context


@dataclass(frozen=True, slots=True)
class CallFault:
    """Why a call failed: the fault kind, a one-line message and, for exceptions, the traceback."""

    kind: FaultKind
    message: str
    traceback: str | None = None


@dataclass(slots=True)
class CallResult:
    """A call's reply (a JSON object) or its fault, and how long it took."""

    reply: dict[str, Any] | None
    fault: CallFault | None
    seconds: float


@dataclass
class AgentProcess:
    """One agent's sandboxed process for one match."""

    memory_mb: int
    output_kb: int
    _process: multiprocessing.process.BaseProcess | None = field(default=None, init=False)
    _conn: Any = field(default=None, init=False)
    _output_path: str = field(default="", init=False)
    _killed: bool = field(default=False, init=False)

    def start(self) -> None:
        """Start the process (it runs no agent code until ``setup``)."""
        ctx = _fork_server()
        fd, self._output_path = tempfile.mkstemp(prefix="apdp-agent-", suffix=".log")
        os.close(fd)
        parent, child = ctx.Pipe(duplex=True)
        limits = Limits(self.memory_mb * 1024 * 1024, self.output_kb * 1024, self._output_path)
        process = ctx.Process(target=worker_main, args=(child, limits), daemon=True)
        process.start()
        child.close()
        self._process, self._conn = process, parent

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive() and not self._killed

    def call(self, method: str, args: object, timeout: float) -> CallResult:
        """Send one request and wait at most ``timeout`` seconds for its reply."""
        start = time.monotonic()
        if self._process is None or self._killed:
            return CallResult(None, CallFault(FaultKind.PROCESS_DIED, "the process is gone"), 0.0)
        try:
            self._conn.send((method, args))
            if not self._conn.poll(timeout):
                self.kill()
                took = time.monotonic() - start
                return CallResult(
                    None,
                    CallFault(FaultKind.TIMEOUT, f"no answer within {timeout:g} s (stopped)"),
                    took,
                )
            raw = self._conn.recv_bytes(MAX_REPLY_BYTES)
        except (EOFError, BrokenPipeError, ConnectionResetError):
            return CallResult(None, self._death(), time.monotonic() - start)
        except OSError as exc:  # reply too long, or the pipe broke
            self.kill()
            msg = "reply larger than 16 MiB" if "too long" in str(exc).lower() else str(exc)
            return CallResult(
                None, CallFault(FaultKind.EXCEPTION, msg), time.monotonic() - start
            )
        took = time.monotonic() - start
        try:
            reply = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return CallResult(None, CallFault(FaultKind.EXCEPTION, "unreadable reply"), took)
        if not isinstance(reply, dict):
            return CallResult(None, CallFault(FaultKind.EXCEPTION, "malformed reply"), took)
        if "fault" in reply:
            kind = FaultKind.MEMORY if reply.get("fault") == "memory" else FaultKind.EXCEPTION
            tb = reply.get("traceback")
            return CallResult(
                None,
                CallFault(kind, str(reply.get("message", ""))[:2000], tb if isinstance(tb, str) else None),
                took,
            )
        return CallResult(reply, None, took)

    def _death(self) -> CallFault:
        assert self._process is not None
        self._process.join(1.0)
        code = self._process.exitcode
        self._killed = True
        if code is None:
            self.kill()
            return CallFault(FaultKind.PROCESS_DIED, "the process closed its pipe")
        if code < 0:
            name = signal.Signals(-code).name if -code in {s.value for s in signal.Signals} else str(-code)
            hint = " (out of memory?)" if -code == signal.SIGKILL else ""
            return CallFault(FaultKind.PROCESS_DIED, f"the process was killed by {name}{hint}")
        return CallFault(FaultKind.PROCESS_DIED, f"the process exited with code {code}")

    def kill(self) -> None:
        """Stop the process and everything it started, at once."""
        self._killed = True
        process = self._process
        if process is None or process.pid is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        process.join(5.0)

    def stop(self) -> str:
        """End the process and return what it printed (bounded)."""
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
        if self._process is not None:
            self._process.join(0.5)
            self.kill()
        return self._read_output()

    def _read_output(self) -> str:
        if not self._output_path:
            return ""
        try:
            with open(self._output_path, "rb") as f:
                data = f.read(self.output_kb * 1024 + 256)
            os.unlink(self._output_path)
        except OSError:
            return ""
        self._output_path = ""
        return data.decode("utf-8", "replace")

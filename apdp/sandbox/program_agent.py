"""An agent program seen as an agent: runs in the agent's sandboxed process and relays each call
to the program over the ``apdp-agent/1`` protocol (its stdin and stdout).

The program is a child of the agent process, so it is confined the same way and shares its limits;
the referee's deadlines kill both. Its standard error goes to the agent's captured output.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
from collections.abc import Sequence
from typing import IO, Literal

from apdp.agents.program import BUILD_BOOKKEEPING, AgentProgram, ProgramError
from apdp.agents.protocol import PROTOCOL, ProtocolError
from apdp.game.agent import Agent
from apdp.game.auction import check_bid
from apdp.game.company import Company, Vehicle
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.messages.calls import AuctionResultCall, BidCall, Call, PlanCall, SetupCall
from apdp.messages.exercise_calls import ExerciseCall
from apdp.messages.replies import AgentFailed, BidReply, BuildDone, PlansReply, Reply, decode_reply
from apdp.messages.sizes import PROGRAM_LINE_BYTES, SENT_BUILD_OUTPUT
from apdp.messages.strict import BadMessage, keys, parse_object
from apdp.sandbox.confine import build_output
from apdp.sandbox.syscalls import PR_SET_DUMPABLE, prctl


class ProgramFailed(Exception):
    """The program said it failed (its ``{"error": message}`` reply): the agent's fault is that
    message, of its ``kind``, as if a Python agent had raised it."""

    def __init__(self, kind: Literal["exception", "memory"], message: str) -> None:
        super().__init__(message)
        self.kind: Literal["exception", "memory"] = kind
        self.message = message


class ProgramAgent(Agent):
    """The protocol's side of one agent program."""

    def __init__(self, program: AgentProgram, seed: int) -> None:
        self._program = program
        self.seed = seed  # given to the program at setup
        self.rules = "apdp"  # the match's rules of play, given to the program at setup
        self._process: subprocess.Popen[bytes] | None = None
        self._to: IO[bytes] | None = None
        self._from: IO[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """The program's process id, once started."""
        return None if self._process is None else self._process.pid

    def _request(self, call: Call | ExerciseCall) -> Reply:
        assert self._to is not None and self._from is not None
        if self._unasked():
            raise ProtocolError(f"the program wrote a line before {call.name!r} was asked (a reply answers the "
                                "request sent just before it, and nothing comes between)")
        try:
            self._to.write((json.dumps(call.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n").encode())
            self._to.flush()
        except (BrokenPipeError, OSError):
            raise ProtocolError(f"the program ended before {call.name!r} (exit code "
                                f"{self._process.poll() if self._process else '?'})") from None
        line = self._from.readline(PROGRAM_LINE_BYTES)
        if not line:
            raise ProtocolError(f"the program closed its output instead of answering {call.name!r}")
        if not line.endswith(b"\n"):
            raise ProtocolError(f"reply to {call.name!r} longer than {PROGRAM_LINE_BYTES} bytes")
        try:
            reply = decode_reply(line, call.expects)
        except BadMessage as exc:
            raise ProtocolError(f"reply to {call.name!r}: {exc}") from None
        if isinstance(reply, AgentFailed):
            raise ProgramFailed(reply.kind, reply.message)
        return reply

    def relay(self, call: ExerciseCall) -> Reply:
        """An exercise's call (:mod:`apdp.messages.exercise_calls`) sent to the program as it is; its
        decoded reply (ProtocolError or ProgramFailed as for the auction's calls)."""
        return self._request(call)

    def _unasked(self) -> bool:
        """Whether the program has written anything since its last reply (looked at without waiting):
        a reply written ahead of its request would answer it in no time with work done earlier."""
        reader = self._from
        if not isinstance(reader, io.BufferedReader):  # Popen's, buffered: anything else is not looked at
            return False
        fd = reader.fileno()
        os.set_blocking(fd, False)
        try:
            ahead = reader.peek(1)  # what its reader holds past the last reply, or what the pipe has
        except BlockingIOError:
            ahead = b""
        finally:
            os.set_blocking(fd, True)
        return bool(ahead)

    def start(self) -> None:
        """Start the program. One with ``ready = true`` in its agent.toml is started with
        ``APDP_READY_LINE=1`` and must first write ``{"ready": "apdp-agent/1"}``: it is waited for
        here, so that the referee times the program's setup from then on."""
        env = dict(os.environ, APDP_AGENT_DIR=str(self._program.folder))
        if self._program.ready:
            env["APDP_READY_LINE"] = "1"
        try:
            self._process = subprocess.Popen(
                self._program.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=2,
                cwd=os.getcwd(), env=env,
            )
        except OSError as exc:
            raise ProgramError(f"cannot start {self._program.command[0]!r}: {exc.strerror}") from None
        self._to, self._from = self._process.stdin, self._process.stdout
        if self._program.ready:
            assert self._from is not None
            line = self._from.readline(PROGRAM_LINE_BYTES)
            if _ready_line(line) != PROTOCOL:
                raise ProtocolError(f'its agent.toml says ready = true, but its first line is not {{"ready": '
                                    f'"{PROTOCOL}"}}: {line[:80]!r}')

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        if self._process is None:
            self.start()
        self._request(SetupCall(self.agent_id, self.agents, self.seed, dict(self.params), dict(self.timeouts),
                                topology, distribution, company, rules=self.rules))

    def bid(self, task: Task) -> float | None:
        reply = self._request(BidCall(task, self.timeouts["bid"]))
        if not isinstance(reply, BidReply):  # {"bad": ...}: no bid
            raise ProtocolError(f"reply to 'bid': {getattr(reply, 'message', 'no bid')}")
        problem = check_bid(reply.value, "logist")  # the widest rule: the referee applies the match's
        if problem:
            raise ProtocolError(problem)
        return reply.value

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        self._request(AuctionResultCall(task, winner, tuple(bids), self.timeouts["bid"]))

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        reply = self._request(PlanCall(tuple(vehicles), tuple(tasks), self.timeouts["plan"]))
        if not isinstance(reply, PlansReply):
            raise ProtocolError(f"reply to 'plan': {getattr(reply, 'message', 'no plans')}")
        return [list(p) for p in reply.plans]


def _ready_line(line: bytes) -> object:
    """What a program's ready line, ``{"ready": "apdp-agent/1"}``, says it speaks; None for any other line."""
    try:
        obj = parse_object(line)
        keys(obj, {"ready"}, set(), "a ready line")
    except BadMessage:
        return None
    return obj["ready"]


def run_build(program: AgentProgram) -> BuildDone:
    """Run the program's build command here (in the sandbox); its exit code and output's tail.

    Where the build wrote a fresh folder in place of the real one (:func:`build_output`), what it
    wrote is copied into the real one once it succeeds: regular files and folders only."""
    assert program.build is not None
    target = build_output()
    if target is not None:
        # This process holds the real build folder open: a build that could read this process's
        # /proc/PID/fd would write there past the fresh folder's caps. Not dumpable, it cannot.
        prctl(PR_SET_DUMPABLE, 0)
    try:
        done = subprocess.run(program.build, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, cwd=os.getcwd(), check=False)
    except OSError as exc:
        return BuildDone(127, f"cannot start {program.build[0]!r}: {exc.strerror}")
    output = done.stdout[-SENT_BUILD_OUTPUT:].decode("utf-8", "replace")
    if done.returncode == 0 and target is not None:
        try:
            copy_tree(target[0], target[1])
        except (OSError, BuildOutputError) as exc:
            return BuildDone(1, f"{output}\napdp: the build's output cannot be kept: {exc}"[-SENT_BUILD_OUTPUT:])
    return BuildDone(done.returncode, output)


class BuildOutputError(Exception):
    """A build wrote something apdp does not keep (a link, a device, a socket)."""


def copy_tree(source: str, target: int) -> None:
    """Replace what the folder open on ``target`` holds (apdp's bookkeeping aside) by the regular
    files and folders of ``source``; links and special files are refused (BuildOutputError).

    What is copied may not exceed the size of the capped folder ``source`` is on, counted in bytes
    written, not in the blocks a file holds there: a sparse file takes no room in the build's
    folder but every one of its bytes on the real disk (BuildOutputError past the cap)."""
    for name in os.listdir(target):
        if name not in BUILD_BOOKKEEPING:
            shutil.rmtree(name, dir_fd=target) if _is_dir(name, target) else os.unlink(name, dir_fd=target)
    room = os.statvfs(source)
    _copy_into(source, target, _Budget(room.f_blocks * room.f_frsize), top=True)


class _Budget:
    """The bytes a copy may still write."""

    def __init__(self, left: int) -> None:
        self.cap = self.left = left

    def take(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            raise BuildOutputError(f"the build's files add up to more than its folder's cap of "
                                   f"{self.cap // 2**20} MiB (sparse files count every byte)")


def _copy_file(src: IO[bytes], dst: IO[bytes], budget: _Budget) -> None:
    while chunk := src.read(1 << 20):
        budget.take(len(chunk))
        dst.write(chunk)


def _is_dir(name: str, folder: int) -> bool:
    return stat.S_ISDIR(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)


def _copy_into(source: str, target: int, budget: _Budget, top: bool = False) -> None:
    for entry in os.scandir(source):
        if top and entry.name in BUILD_BOOKKEEPING:
            continue
        mode = entry.stat(follow_symlinks=False).st_mode
        if stat.S_ISDIR(mode):
            os.mkdir(entry.name, 0o755, dir_fd=target)
            inner = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=target)
            try:
                _copy_into(entry.path, inner, budget)
            finally:
                os.close(inner)
        elif stat.S_ISREG(mode):
            with open(entry.path, "rb") as src:
                fd = os.open(entry.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode & 0o755,
                             dir_fd=target)
                with open(fd, "wb") as dst:
                    _copy_file(src, dst, budget)
        else:
            raise BuildOutputError(f"{entry.path} is not a regular file or folder (builds may write only those)")

"""The zygote: a clean process that forks agent processes on the referee's request.

The referee starts it once (a fresh interpreter that imports apdp and nothing of the caller's),
then asks it for each agent process. Forking from the zygote is fast (modules are already loaded)
and gives the agent a process that holds nothing of the referee: not the seed, not the tasks to
come. The zygote reaps its children and reports each exit status to the referee.

Protocol over a SOCK_SEQPACKET pair: the referee sends a pickled ``ProcessLimits`` with one file
descriptor (the agent's end of its conversation socket); the zygote answers ``("spawned", pid,
memory, cpu)`` (``memory``: the agent's memory group, or None where the referee must watch its memory;
``cpu``: the group that counts its CPU, or None);
whenever a child ends it sends ``("exit", pid, returncode)`` (negative: killed by that signal).

A tournament's zygote also serves a socket for zygote requests (see :func:`serve`): each of the referee's
worker processes gets a zygote of its own forked from it, already loaded, rather than starting an
interpreter; such a zygote serves its worker alone, as above, and ends when its worker goes away.

Before its first fork the zygote warms up (:mod:`apdp.sandbox.warm_up`): it plays the agent's side
of a few short matches, so that agent processes start with that code ready instead of each preparing
it (and copying the pages it writes) anew.

The zygote is a child subreaper: a process that an agent started and orphaned (a double-forked
daemon, the children of a killed agent) becomes the zygote's child, and the zygote kills it at
once. So no process an agent started outlives its agent process, however it detached itself.
Once an agent process and its leftovers are gone, the zygote removes its private folder and its
pids group is reused (the referee does not wait for that), and when the referee goes away, all of them.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import pickle
import select
import shutil
import signal
import socket
import sys
from multiprocessing.connection import Connection

from apdp.sandbox import cgroup
from apdp.sandbox.syscalls import PR_SET_CHILD_SUBREAPER, prctl

#: Modules imported once in the zygote so that agent processes start with them loaded.
PRELOAD = ("apdp.sandbox.worker", "numpy.random", "apdp.baselines.planning", "apdp.baselines.greedy")


def _returncode(status: int) -> int:
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


def _run_child(closing: list[socket.socket], fd: int) -> None:
    """In the forked child: read its limits, the first message on ``fd``, and become the agent's
    worker; never return to the zygote's loop."""
    code = 1
    try:
        for sock in closing:  # the zygote's own sockets are none of the agent's business
            sock.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        from apdp.sandbox.worker import ProcessLimits, worker_main

        conn = Connection(fd)
        limits = pickle.loads(conn.recv_bytes())
        assert isinstance(limits, ProcessLimits)
        worker_main(conn, limits)
        code = 0
    except SystemExit as exc:  # the agent called sys.exit
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
        os._exit(code)


def _run_zygote(closing: list[socket.socket], fd: int) -> None:
    """In a child forked for a zygote request: serve ``fd`` as a zygote of its own; never return."""
    try:
        for sock in closing:
            sock.close()
        with contextlib.suppress(OSError):
            prctl(PR_SET_CHILD_SUBREAPER, 1)  # not inherited across fork
        control = socket.socket(fileno=fd)
        control.send(pickle.dumps(("ready", os.getpid())))
        _serve(control, None)
    finally:
        os._exit(0)


def _strays(agents: set[int]) -> list[int]:
    """The zygote's children that are not agent processes: orphans that agents left behind."""
    found: list[int] = []
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children") as f:
                found += [int(p) for p in f.read().split() if int(p) not in agents]
        except (OSError, ValueError):
            continue
    return found


def _kill_strays(agents: set[int]) -> None:
    # Pause them all first (SIGSTOP), so none can fork while the others are being killed.
    for _ in range(100):
        strays = _strays(agents)
        if not strays:
            return
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in strays:
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)
        for pid in strays:
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


def _clean_up(private_dir: str | None, group: cgroup.AgentGroup | None, pool: cgroup.Pool | None) -> None:
    """What an ended agent process leaves: its private folder is removed, its groups reused."""
    if private_dir is not None:
        shutil.rmtree(private_dir, ignore_errors=True)
    if group is not None and pool is not None:
        pool.give_back(group)


def serve(control_fd: int, requests_fd: int | None = None) -> None:
    """The zygote's loop: fork on request, report exits, end when the referee goes away.

    ``requests_fd``: a socket on which the referee's worker processes ask for zygotes of their own
    (a message carrying the worker's end of a new control socket); each is forked from this one,
    with everything already loaded, and says ``("ready", pid)`` on that socket.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the referee's to handle
    with contextlib.suppress(OSError):
        prctl(PR_SET_CHILD_SUBREAPER, 1)
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    from apdp.sandbox.confine import prepare
    from apdp.sandbox.warm_up import warm_up

    prepare()
    with contextlib.suppress(Exception):  # a cold start is slower, never wrong
        warm_up()
    # Keep the preloaded objects out of the collector's sight, so that a child's first garbage
    # collection does not touch (and copy) every page it shares with the zygote.
    gc.freeze()
    zygote_requests = None if requests_fd is None else socket.socket(fileno=requests_fd)
    _serve(socket.socket(fileno=control_fd), zygote_requests)


def _serve(control: socket.socket, zygote_requests: socket.socket | None) -> None:
    children: set[int] = set()  # agent processes
    zygotes: set[int] = set()  # zygotes forked on request: they end when their worker does
    ended: list[int] = []  # agent processes reaped in this round
    private: dict[int, str] = {}  # agent process -> its private folder
    pool = cgroup.Pool()  # where this user may make control groups (root: pids and memory)
    groups: dict[int, cgroup.AgentGroup] = {}  # agent process -> its groups
    try:
        while True:
            watched = [control] if zygote_requests is None else [control, zygote_requests]
            readable, _, _ = select.select(watched, [], [], 0.05)
            while children or zygotes:
                try:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == 0:
                    break
                zygotes.discard(pid)
                if pid in children:
                    children.discard(pid)
                    ended.append(pid)
                    control.send(pickle.dumps(("exit", pid, _returncode(status))))
            _kill_strays(children | zygotes)
            for pid in ended:
                _clean_up(private.pop(pid, None), groups.pop(pid, None), pool)
            ended.clear()
            if zygote_requests is not None and zygote_requests in readable:
                msg, fds, _, _ = socket.recv_fds(zygote_requests, 1 << 16, 1)
                if not msg and not fds:  # every worker and the referee let go of it
                    zygote_requests.close()
                    zygote_requests = None
                elif fds:
                    pid = os.fork()
                    if pid == 0:
                        _run_zygote([control, zygote_requests], fds[0])
                    os.close(fds[0])
                    zygotes.add(pid)
            if control not in readable:
                continue
            msg, fds, _, _ = socket.recv_fds(control, 1 << 16, 1)
            if not msg:
                return
            processes, memory_bytes, private_dir = pickle.loads(msg)  # its own limits go to the agent alone
            group = None
            if processes is not None:  # confined
                group = pool.take(processes, memory_bytes)
            cgroup.assigned = group  # read by the child
            pid = os.fork()
            if pid == 0:
                _run_child([control] if zygote_requests is None else [control, zygote_requests], fds[0])
            for fd in fds:
                os.close(fd)
            children.add(pid)
            if private_dir is not None:
                private[pid] = private_dir
            if group is not None:
                groups[pid] = group
            control.send(pickle.dumps(("spawned", pid, None if group is None else group.memory,
                                       None if group is None else group.cpu)))
    except (BrokenPipeError, ConnectionResetError, OSError):
        pass
    finally:
        for pid in children:  # the referee is gone: so are its agents
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
        _kill_strays(zygotes)  # each forked zygote ends, and cleans up, when its worker lets go
        for private_dir in private.values():  # agents that ended while the referee went away
            _clean_up(private_dir, None, None)
        pool.close()


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else None)

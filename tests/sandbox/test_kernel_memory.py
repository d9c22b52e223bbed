"""Memory the kernel holds for an agent, outside any page it maps, counts against its limit too:
unix socket buffers and page tables. As root a memory group counts them; as a user without one,
the referee's watch reads page tables and an agent may not make sockets at all."""

from __future__ import annotations

import textwrap
from pathlib import Path

from apdp.referee.match import play_match
from tests.matches import fast_scenario

LIMIT_MB = 128

SOCKETS = '''
import socket
from apdp import Agent


class Sockets(Agent):
    def setup(self, topology, distribution, company):
        self.held, queued = [], 0
        try:
            for _ in range(120):
                a, b = socket.socketpair()
                for s in (a, b):
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
                a.setblocking(False)
                try:
                    while True:
                        queued += a.send(b"\\0" * 65536)
                except BlockingIOError:
                    pass
                self.held.append((a, b))
        except PermissionError:
            print("refused")
        print(f"queued {queued >> 20} MiB")

    def bid(self, task):
        return None

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''

PAGE_TABLES = '''
import ctypes
import os
from apdp import Agent

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]


class PageTables(Agent):
    def setup(self, topology, distribution, company):
        fd = os.open(os.__file__, os.O_RDONLY)  # a file on disk (not tmpfs): its pages are nobody's memory
        base = libc.mmap(None, 30000 << 21, 0, 0x22 | 0x4000, -1, 0)  # a reserved stretch (PROT_NONE)
        for k in range(30000):  # one page of the same file every 2 MiB: a page-table page each
            at = libc.mmap(base + (k << 21), 4096, 1, 0x01 | 0x10, fd, 0)  # PROT_READ, MAP_SHARED|MAP_FIXED
            if at in (None, ctypes.c_void_p(-1).value):
                raise OSError(ctypes.get_errno(), f"{os.strerror(ctypes.get_errno())} at view {k}")
            ctypes.c_char.from_address(at).value
        print("mapped 30000")

    def bid(self, task):
        return None

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''


def _play(tmp_path: Path, name: str, code: str, limit_mb: int = LIMIT_MB) -> tuple[list[dict[str, object]], str]:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(code))
    record = play_match(fast_scenario(tasks=2, limits={"memory_mb": limit_mb}, timeouts={"setup": 60.0}),
                        [str(path), "naive"], seed=1).to_json()
    return [f for f in record["result"]["faults"] if f["agent"] == 0], record["output"][0]


def test_socket_buffers_count_or_cannot_be_made(tmp_path: Path) -> None:
    faults, output = _play(tmp_path, "sockets", SOCKETS)
    if faults:
        assert [f["kind"] for f in faults] == ["memory"], faults
    else:
        queued = int(output.split("queued ")[1].split()[0])
        assert queued < LIMIT_MB, output


def test_page_tables_count(tmp_path: Path) -> None:
    faults, output = _play(tmp_path, "page_tables", PAGE_TABLES, 64)  # its views cost ~117 MiB of page tables
    # killed for its memory, or refused more (the memory group's limit: ENOMEM from mmap)
    assert len(faults) == 1 and "mapped" not in output, (faults, output[-300:])
    assert faults[0]["kind"] == "memory" or "Cannot allocate memory" in str(faults[0]["message"]), faults

"""Leaves work in the kernel at its pause (issue 32, point 11). Its setup maps 16 GiB of the zero
page (read-only, so no memory: 32 MiB of page tables, four million entries); its first bid starts
16 threads that each advise the kernel over all of it (MADV_COLD: a walk of every entry, about
0.12 s each, which only SIGKILL interrupts) and answers once they are all in their walks. The
referee pauses it on its reply; a pause waits for each walk, so they run on, about 2 s of CPU, in
whatever comes next: its opponent's call.

With ``hold``, its setup also leaves a thread waiting in the kernel for good, which a pause does not
stop (``D``): the parent of a vfork (glibc's posix_spawn) whose child blocks opening a FIFO before
its exec.

Parameters: ``gib`` (16: the mapping's size), ``threads`` (16), ``bids`` (1: how many of its first
bids leave work behind), ``plan`` (false: whether its plan leaves work behind, after its last call),
``hold`` (false).
"""
from __future__ import annotations

import ctypes
import os
import tempfile
import threading
import time

import numpy as np

from apdp import Agent

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
PROT_READ = 1
MAP_PRIVATE, MAP_ANONYMOUS, MAP_NORESERVE = 0x02, 0x20, 0x4000
MADV_NOHUGEPAGE, MADV_COLD = 15, 20


class KernelLeftover(Agent):
    def setup(self, topology, distribution, company):
        self.size = int(self.param("gib", 16)) << 30
        self.base = libc.mmap(None, self.size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        if self.base in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap")
        libc.madvise(self.base, self.size, MADV_NOHUGEPAGE)  # an entry per 4 KiB page, not per 2 MiB
        pages = np.ctypeslib.as_array((ctypes.c_uint8 * self.size).from_address(self.base))
        int(pages[::4096].sum())  # read every page: each maps the zero page, with an entry of its own
        self.bids = 0
        self.walking = 0
        print(f"mapped {self.size >> 30} GiB", flush=True)
        if self.param("hold", False):
            threading.Thread(target=self.hold, daemon=True).start()

    def hold(self) -> None:
        """Wait in the kernel for good: ctypes lets the GIL go, so the agent plays on."""
        fifo = os.path.join(tempfile.gettempdir(), "held.fifo")
        os.mkfifo(fifo)
        actions = ctypes.create_string_buffer(256)  # a posix_spawn_file_actions_t, and room to spare
        libc.posix_spawn_file_actions_init(actions)
        libc.posix_spawn_file_actions_addopen(actions, 3, fifo.encode(), os.O_RDONLY, 0)
        pid = ctypes.c_int()
        argv = (ctypes.c_char_p * 2)(b"/bin/true", None)
        print("holding", flush=True)
        libc.posix_spawn(ctypes.byref(pid), b"/bin/true", actions, None, argv, (ctypes.c_char_p * 1)(None))

    def walk(self, go: threading.Event) -> None:
        go.wait()
        self.walking += 1
        libc.madvise(self.base, self.size, MADV_COLD)  # the GIL is let go: all the walks run at once

    def leave_walks(self, when: str) -> None:
        go = threading.Event()
        threads = int(self.param("threads", 16))
        self.walking = 0
        for _ in range(threads):  # all made first: making a thread maps its stack, which waits for walks
            threading.Thread(target=self.walk, args=(go,), daemon=True).start()
        go.set()
        end = time.monotonic() + 2.0
        while self.walking < threads and time.monotonic() < end:
            time.sleep(0.001)
        time.sleep(0.01)  # the last one into its walk
        print(f"left {self.walking} walks at {when}", flush=True)

    def bid(self, task):
        self.bids += 1
        if self.bids <= int(self.param("bids", 1)):
            self.leave_walks(f"bid {self.bids}")
        return None

    def plan(self, vehicles, tasks):
        if self.param("plan", False):
            self.leave_walks("plan")
        return [[] for _ in vehicles]

"""The memory of an agent's whole process tree, as the referee reads it from outside (``/proc``).

Where no memory group counts an agent's memory (:mod:`apdp.sandbox.cgroup`: a referee that is not
root), the referee reads it while it waits for the agent's reply, every
:data:`apdp.sandbox.process.MEMORY_WATCH_EVERY` seconds: the resident anonymous and shared memory
the swap and the page tables of the agent process and of every process under it, whatever kind of memory it is
(private, shared between its processes, ``/dev/zero`` mappings). An agent runs only during its
calls (it is paused between them), so nothing escapes the watch; a call shorter than the period
costs nothing. The cheap reading (``/proc/PID/status``) counts a page shared by several of its
processes once per process (a forked child shares its parent's pages); only when that sum passes
the limit is the proportional share of each page read (``/proc/PID/smaps_rollup``, slower), so that
an agent is killed for the memory it really uses, never for pages its processes share.
"""

from __future__ import annotations

import contextlib
import os

#: The fields of /proc/PID/status that count (kB): private and shared resident memory, and swap.
#: Its page tables: kernel memory its mappings cost (many small mappings cost many page tables).
_PAGE_TABLES = (b"VmPTE:",)
_COUNTED = (b"RssAnon:", b"RssShmem:", b"VmSwap:", *_PAGE_TABLES)
#: The same, each page shared by n processes counted 1/n in each (/proc/PID/smaps_rollup).
_PROPORTIONAL = (b"Pss_Anon:", b"Pss_Shmem:", b"SwapPss:")


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (children of any of their threads)."""
    found = [pid]
    k = 0
    while k < len(found):
        parent = found[k]
        k += 1
        with contextlib.suppress(OSError):
            for tid in os.listdir(f"/proc/{parent}/task"):
                with contextlib.suppress(OSError, ValueError), open(f"/proc/{parent}/task/{tid}/children", "rb") as f:
                    found += [int(c) for c in f.read().split()]
        if len(found) > 4096:  # far past any process limit: the sum is over already
            break
    return found


def _read_fields(path: str, fields: tuple[bytes, ...]) -> int:
    total = 0
    try:
        with open(path, "rb") as f:
            for line in f:
                if line.startswith(fields):
                    total += int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return 0  # the process is gone
    return total


def tree_memory(pid: int, proportional: bool = False) -> int:
    """Bytes of memory of ``pid`` and every process under it, summed; ``proportional``: each shared
    page counted once in all (slower to read)."""
    if proportional:
        return sum(_read_fields(f"/proc/{p}/smaps_rollup", _PROPORTIONAL)
                   + _read_fields(f"/proc/{p}/status", _PAGE_TABLES) for p in descendants(pid))
    return sum(_read_fields(f"/proc/{p}/status", _COUNTED) for p in descendants(pid))


def over_limit(pid: int, limit: int) -> bool:
    """Whether ``pid`` and the processes under it use more than ``limit`` bytes of memory."""
    return tree_memory(pid) > limit and tree_memory(pid, proportional=True) > limit

"""The environment an agent process starts from, and what apdp's own processes share of it.

Light on purpose: a tournament command reads it first thing, before it starts the agents' zygote.
"""

from __future__ import annotations

import os

#: Numerical libraries' thread pools held to one thread: apdp runs each agent (and each of its own
#: workers) on one core, where more threads only spin, and an agent's threads all count against its
#: CPU time. OpenBLAS's threads alone cost numpy's import 50-150 ms of CPU.
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
#: The environment every agent process starts from (the zygote's, then the agent's own folders).
BASE_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", **ONE_THREAD}
#: Every variable an agent process may see: the base, its folders, and where apdp may come from.
AGENT_VARIABLES = frozenset({*BASE_ENVIRONMENT, "HOME", "TMPDIR", "PYTHONDONTWRITEBYTECODE", "PYTHONPATH"})


def safe_module_path() -> None:
    """Keep the working folder off the module path of every Python interpreter started from now on
    (Python's ``PYTHONSAFEPATH``): a worker pool's fork server and resource tracker, started with
    ``-c``, would otherwise look there before the standard library. A user who runs apdp from their
    agents' folder has files there that could take the place of a module those processes import
    (an agent called ``glob.py``, say), and run outside the sandbox. (The zygote is started with
    ``-P`` for the same reason.)"""
    os.environ["PYTHONSAFEPATH"] = "1"

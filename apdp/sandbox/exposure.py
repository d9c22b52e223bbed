"""What no agent may read must lie where none can: checked before a run starts.

Every agent may read the folders of :func:`apdp.sandbox.confine.readable_paths` (Python's, apdp's
and the system's: ``/usr``, ``/opt``, the interpreter's prefix, a virtual environment whole). An
agents' folder there shows every agent the others and their parameters; a results folder there, the
tournament's secret (and so every task before it is auctioned); a record, a match's tasks; a
scenario, every agent's parameters. So a run refuses, in one line, before any agent starts: such a
folder or file, and a results folder, record or scenario inside an agent's own folder (which its
agent may read).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from apdp.agents.files import check_outside_agents, is_inside
from apdp.bundled import BUNDLED_SCENARIOS, PACKAGE_DIR
from apdp.errors import UserError
from apdp.sandbox.confine import readable_paths


def _holder(path: str | Path, folders: Sequence[str]) -> str | None:
    """The folder of ``folders`` that holds ``path`` (resolved), or None."""
    real = os.path.realpath(path)
    return next((folder for folder in folders if is_inside(real, folder)), None)


def check_private(agents: Sequence[str | Path], written: Sequence[tuple[str | Path | None, str]] = (),
                  read: Sequence[tuple[str | Path | None, str]] = ()) -> None:
    """UserError unless the files agents must not read are out of their reach: the folder of each of
    ``agents`` (the other agents beside it, their parameters), apdp's own aside (public), each of
    ``written`` ((path or None, what names it: ``--out``, ``--record``)) and each of ``read`` (files
    the run reads that hold what agents must not see: a scenario, with every agent's parameters; the
    bundled ones aside) lie in no folder every agent may read, nor in an agent's folder."""
    package, bundled = os.path.realpath(PACKAGE_DIR), os.path.realpath(BUNDLED_SCENARIOS)
    places = [(path, what) for path, what in written if path is not None]
    for path, what in places:
        check_outside_agents(path, agents, what)
    folders = {os.path.realpath(a if os.path.isdir(a) else os.path.dirname(os.path.abspath(a))): a for a in agents}
    kept = [(path, what) for path, what in read if path is not None and _holder(path, (package, bundled)) is None]
    for path, what in kept:
        holder = _holder(path, list(folders))
        if holder is not None:
            raise UserError(f"{what} ({path}) lies in the folder of agent {Path(folders[holder]).stem!r}, which that "
                            "agent may read: move it elsewhere")
    mine = [(folder, f"the folder of agent {Path(agent).stem!r}") for folder, agent in folders.items()
            if not is_inside(folder, package)]
    readable = readable_paths()
    for path, what in [*mine, *places, *kept]:
        root = _holder(path, readable)
        if root is not None:
            raise UserError(f"{what} ({path}) lies in {root}, which every agent may read (the sandbox lets agents "
                            "read Python's, apdp's and the system's folders): move it elsewhere, under your home "
                            "folder say")

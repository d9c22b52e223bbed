"""Where the files that ship with apdp are: the networks, the baselines and the template agent.

In a clone (or an editable install) they are the repository's ``topologies/``, ``baselines/`` and
``agents/template.py``. A wheel has no repository around it: it carries the networks and the
template inside the package, as ``apdp/_shipped/topologies/`` and ``apdp/_shipped/agents/`` (see
``[tool.hatch.build.targets.wheel.force-include]`` in pyproject.toml), and ``baselines`` is a
package of its own beside ``apdp``. Nothing here reads a file; it only says where to look.
"""

from __future__ import annotations

from pathlib import Path

#: The ``apdp`` package's folder.
PACKAGE_DIR = Path(__file__).resolve().parent
#: The folder that holds the ``apdp`` package: the repository in a clone, site-packages in a wheel.
PROJECT_ROOT = PACKAGE_DIR.parent
#: Where a wheel puts the shipped folders that live outside the package in the repository.
INSIDE_PACKAGE = PACKAGE_DIR / "_shipped"


def bundled_folder(name: str) -> Path:
    """The shipped folder ``name`` (``topologies``, ``agents``): in the package if a wheel put it
    there, else the repository's."""
    inside = INSIDE_PACKAGE / name
    return inside if inside.is_dir() else PROJECT_ROOT / name


#: The networks that ship with apdp.
BUNDLED_TOPOLOGIES = bundled_folder("topologies")
#: The folder of the course's template agent (in a clone, also where students put their agents).
BUNDLED_AGENTS = bundled_folder("agents")
#: The course's template agent.
BUNDLED_TEMPLATE = BUNDLED_AGENTS / "template.py"
#: The study's baselines (a package beside ``apdp`` in a clone and in a wheel alike).
BUNDLED_BASELINES = PROJECT_ROOT / "baselines"

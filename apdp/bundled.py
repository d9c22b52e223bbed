"""Where the files bundled with apdp are: the networks, the scenarios, the baselines and the template agent.

In a clone (or an editable install) the networks and the template are the repository's
``topologies/``, ``scenarios/`` and ``agents/template.py``. A wheel has no repository around it: it
carries them inside the package, as ``apdp/_bundled/topologies/`` (``scenarios/``, ``agents/``) (see
``[tool.hatch.build.targets.wheel]`` in pyproject.toml). The baselines are the package
``apdp.baselines`` in both. Nothing here reads a file; it only says where to look.
"""

from __future__ import annotations

from pathlib import Path

#: The ``apdp`` package's folder.
PACKAGE_DIR = Path(__file__).resolve().parent
#: The folder that holds the ``apdp`` package: the repository in a clone, site-packages in a wheel.
PROJECT_ROOT = PACKAGE_DIR.parent
#: Where a wheel puts the bundled folders that live outside the package in the repository.
INSIDE_PACKAGE = PACKAGE_DIR / "_bundled"


def bundled_folder(name: str) -> Path:
    """The bundled folder ``name`` (``topologies``, ``agents``): in the package if a wheel put it
    there, else the repository's."""
    inside = INSIDE_PACKAGE / name
    return inside if inside.is_dir() else PROJECT_ROOT / name


#: The networks that ship with apdp.
BUNDLED_TOPOLOGIES = bundled_folder("topologies")
#: The scenarios that ship with apdp (``exercises/``: the course's reactive, deliberative and
#: centralized configurations on the four networks, as Logist XML and apdp TOML).
BUNDLED_SCENARIOS = bundled_folder("scenarios")
#: The folder of the course's template agent (in a clone, also where students put their agents).
BUNDLED_AGENTS = bundled_folder("agents")
#: The course's template agent.
BUNDLED_TEMPLATE = BUNDLED_AGENTS / "template.py"
#: The study's baselines: the package ``apdp.baselines``.
BUNDLED_BASELINES = PACKAGE_DIR / "baselines"

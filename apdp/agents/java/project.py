"""Importing every agent of a Logist project (``apdp logist import PROJECT``): the agents listed in
its ``config/agents.xml``, each under its name there, with its ``<set>`` values as parameters.

::

    <agents>
      <agent name="auction-main">
        <set class-path="bin/"/>
        <set class-name="template.AuctionMain"/>
        <set margin="1.2"/>
      </agent>
    </agents>

A class is compiled from the project's sources when they are there (any source root under the
project, ``src/`` first), else taken from its ``class-path`` (a folder of classes or a jar). Agents of
the course's other exercises (reactive, deliberative, centralized) install as its auction agents do,
each recording its kind; a class that implements no behaviour is skipped, saying so.

An agent whose name is taken (by an agent installed from elsewhere, or by any other agent) is not
installed, saying whose it is: ``--prefix alice-`` names the project's agents ``alice-NAME``, and
``--replace`` replaces an agent apdp installed. Importing the same project again updates its agents.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from apdp.agents.java.install import LogistAgent, NotALogistAgent, install, resolve
from apdp.agents.java.jdk import find_jdk
from apdp.agents.java.names import agent_name
from apdp.agents.java.params import set_params
from apdp.errors import UserError
from apdp.logist.xmlfile import read_xml, settings_of

#: Where a project lists its agents.
AGENTS_XML = Path("config") / "agents.xml"
#: ``<set>`` keys that say where the class is rather than parameterise it.
LOCATION_KEYS = ("class-path", "class-name")
_PREFIX = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")


def _example(project: Path) -> str:
    """A prefix to suggest for ``project``: its folder's name, when it can be one."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", project.resolve().name).strip("-_")[:24]
    return name if _PREFIX.match(name) else "alice"


@dataclass(frozen=True, slots=True)
class ProjectAgent:
    """One ``<agent>`` of agents.xml."""

    name: str
    class_name: str
    class_path: str | None
    params: dict[str, str] = field(default_factory=dict)


def read_agents_xml(path: Path) -> list[ProjectAgent]:
    """The agents of an agents.xml file (UserError naming the file and the item when broken)."""
    root = read_xml(path, "the project's agent list")
    if root.tag != "agents":
        raise UserError(f"{path}: expected <agents> at the top, found <{root.tag}>")
    agents: list[ProjectAgent] = []
    for k, element in enumerate(root.findall("agent"), 1):
        name = element.get("name")
        if not name:
            raise UserError(f"{path}: agent {k} has no name=")
        values = settings_of(element)
        if "class-name" not in values:
            raise UserError(f"{path}: agent {name!r} has no <set class-name=.../>")
        params = {key: value for key, value in values.items() if key not in LOCATION_KEYS}
        agents.append(ProjectAgent(name, values["class-name"], values.get("class-path"), params))
    if not agents:
        raise UserError(f"{path}: lists no <agent>")
    return agents


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import installed, each agent it could not install with why, and each agent it
    skipped (no Logist agent: its class implements no behaviour) with why."""

    installed: list[LogistAgent]
    failed: list[tuple[str, str]]
    skipped: list[tuple[str, str]] = field(default_factory=list)


def check_prefix(prefix: str) -> str:
    """``prefix`` if it can begin an agent name (UserError otherwise, one line)."""
    if not _PREFIX.match(prefix):
        raise UserError(f"bad --prefix {prefix[:80]!r}: use a letter then letters, digits, '-' or '_' (max 32), "
                        "e.g. --prefix alice-")
    return prefix


def import_project(project: Path, agents_dir: Path = Path("agents"), *, prefix: str = "",
                   replace: bool = False) -> ImportResult:
    """Install every agent of ``project``'s agents.xml, each named ``prefix`` + its name there; one
    that fails does not stop the others. An installed agent of the same name is replaced only when it
    was imported from this same project, or with ``replace``."""
    find_jdk()
    if prefix:
        check_prefix(prefix)
    if not project.is_dir():
        raise UserError(f"{project}: no such project folder")
    listed = read_agents_xml(project / AGENTS_XML)
    source = str(project.resolve())
    rename = f"name this project's agents apart with --prefix (e.g. --prefix {_example(project)}-)"
    installed: list[LogistAgent] = []
    failed: list[tuple[str, str]] = []
    skipped: list[tuple[str, str]] = []
    names: dict[str, str] = {}  # the agent names this import gave, each to its entry
    for entry in listed:
        try:
            try:
                origin = resolve(project, entry.class_name)
            except UserError:
                if entry.class_path is None:
                    raise
                class_path = project / entry.class_path
                if not os.path.realpath(class_path).startswith(os.path.realpath(project) + os.sep):
                    raise UserError(f"agent {entry.name!r}: its class-path {entry.class_path!r} leads out of the "
                                    f"project folder {project}; keep the agent's classes or jar inside it") from None
                origin = resolve(class_path, entry.class_name)
            name = agent_name(prefix + entry.name)
            if name in names:
                raise UserError(f"{project / AGENTS_XML} names two agents {name!r} ({names[name]!r} and "
                                f"{entry.name!r}); rename one of them there")
            names[name] = entry.name
            agent = install(origin, name, agents_dir, note=f", agent {entry.name!r} of {source}", source=source,
                            replace=replace, rename=rename)
            set_params(agents_dir, agent.name, entry.params)
            installed.append(agent)
        except NotALogistAgent as exc:
            skipped.append((entry.name, str(exc)))
        except UserError as exc:
            failed.append((entry.name, str(exc)))
    return ImportResult(installed, failed, skipped)

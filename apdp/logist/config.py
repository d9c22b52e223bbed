"""Logist configuration files (``--scenario config/auction.xml``) read as apdp scenarios.

::

    <configuration name="auction">
      <settings import="config/settings_auction.xml"/>      <!-- timeout-setup/-bid/-plan, ms -->
      <topology import="config/topology/france.xml"/>
      <agents import="config/agents.xml"/>                   <!-- not needed: ignored -->
      <tasks number="50" rngSeed="50">
        <probability distribution="uniform" min="0.0" max="1.0"/>
        <reward distribution="constant" policy="short-distances" min="100" max="99999"/>
        <weight distribution="constant" value="3"/>
      </tasks>
      <companies>
        <company name="Company A">
          <vehicle name="Vehicle 1">
            <set home="Paris"/> <set capacity="30"/> <set cost-per-km="5"/> <set speed="220"/>
          </vehicle> ...
        </company> ...
      </companies>
    </configuration>

An import is looked up as the platform's projects lay it out: relative to the working directory,
to the configuration's folder, or to that folder's parent (a project's ``config/auction.xml``
imports ``config/topology/france.xml``). Such a scenario draws the tasks the platform draws
(:mod:`apdp.logist.tasks`), settles ties as the platform does (the company listed first wins) and
takes the platform's bids (any Java long, negative included: :func:`apdp.game.auction.check_bid`)
and plays by the platform's rules (``rules = "logist"``: the first fault ends the game, an auction's
result is told within the next call's time limit, money is Java longs).
Every mistake in the files is one line naming the file and the item.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from apdp.game.laws import Policy
from apdp.game.topology import Topology
from apdp.logist.topology import load_logist_topology
from apdp.logist.xmlfile import LogistFileError, read_xml, settings_of

#: The settings keys of the time limits, in milliseconds, and the scenario's names for them.
TIMEOUT_KEYS = {"timeout-setup": "setup", "timeout-bid": "bid", "timeout-plan": "plan"}
#: The platform's distance policies and apdp's names for them.
POLICIES: dict[str, Policy] = {"short-distances": "short", "medium-distances": "medium",
                               "long-distances": "long"}


def resolve_import(reference: str, config: Path) -> Path | None:
    """The file an ``import="..."`` of ``config`` names, or None when there is none.

    Tried in order: the working directory, the configuration's folder, and that folder's parent
    (the project folder of ``config/X.xml``). Windows separators are accepted.
    """
    relative = Path(reference.replace("\\", "/"))
    if relative.is_absolute():
        return relative if relative.is_file() else None
    folder = config.parent
    for base in (Path.cwd(), folder, folder.parent):
        candidate = base / relative
        if candidate.is_file():
            return candidate
    return None


def _import_path(element: ET.Element, reference: str, config: Path) -> Path:
    """The file ``element``'s import names; LogistFileError saying where it was looked for."""
    path = resolve_import(reference, config)
    if path is None:
        folder = config.parent
        raise LogistFileError(
            f'{config}: <{element.tag} import="{reference}">: no such file in the working directory, '
            f"{folder} or {folder.parent}"
        )
    return path


def _imported(element: ET.Element, config: Path, kind: str) -> tuple[ET.Element, str]:
    """The content of ``element``: the root of the file it imports, or the element itself."""
    reference = element.get("import")
    if reference is None:
        return element, str(config)
    path = _import_path(element, reference, config)
    return read_xml(path, kind), str(path)


def _number(value: str | None, where: str, what: str, *, whole: bool = False) -> float:
    if value is None:
        raise LogistFileError(f"{where}: {what} is missing")
    try:
        number = int(value) if whole else float(value)
    except ValueError:
        kind = "a whole number" if whole else "a number"
        raise LogistFileError(f"{where}: {what} must be {kind}, got {value!r}") from None
    if not math.isfinite(number):
        raise LogistFileError(f"{where}: {what} must be a finite number, got {value!r}")
    return number


def _positive(value: str | None, where: str, what: str) -> int | float:
    number = _number(value, where, what)
    if number <= 0:
        raise LogistFileError(f"{where}: {what} must be > 0, got {value!r}")
    return int(number) if number.is_integer() else number


def _color(value: str | None, where: str) -> dict[str, str]:
    """A vehicle's ``color`` as the scenario keeps it (``#rrggbb``); none when the file sets none."""
    if value is None:
        return {}
    try:
        rgb = int(value.strip().replace("#", "0x", 1), 0)  # as Java's Color.decode reads it
    except ValueError:
        raise LogistFileError(f"{where}: color must be #rrggbb, got {value!r}") from None
    if not 0 <= rgb <= 0xFFFFFF:
        raise LogistFileError(f"{where}: color must be #rrggbb, got {value!r}")
    return {"color": f"#{rgb:06x}"}


def read_timeouts(config: Path, root: ET.Element) -> dict[str, float]:
    """The time limits (seconds) of the configuration's ``<settings>``; only those it sets."""
    element = root.find("settings")
    if element is None:
        return {}
    content, source = _imported(element, config, "settings")
    out: dict[str, float] = {}
    for key, value in settings_of(content).items():
        if key in TIMEOUT_KEYS:
            ms = _number(value, source, key, whole=True)
            if ms <= 0:
                raise LogistFileError(f"{source}: {key} must be > 0 milliseconds, got {value!r}")
            out[TIMEOUT_KEYS[key]] = ms / 1000
    return out


def read_law(tasks: ET.Element, what: str, where: str) -> dict[str, Any]:
    """One of ``<probability>``, ``<reward>``, ``<weight>`` as a LogistLaw's fields."""
    element = tasks.find(what)
    here = f"{where}: <tasks><{what}>"
    if element is None:
        raise LogistFileError(f"{where}: <tasks> has no <{what} distribution=... />")
    distribution = element.get("distribution")
    if distribution not in ("constant", "uniform"):
        raise LogistFileError(f"{here}: distribution must be constant or uniform, got {distribution!r}")
    if element.get("value") is not None:
        low = high = _number(element.get("value"), here, "value")
    else:
        low, high = _number(element.get("min"), here, "min"), _number(element.get("max"), here, "max")
        if low > high:
            raise LogistFileError(f"{here}: min ({low:g}) must not exceed max ({high:g})")
    policy = element.get("policy")
    if policy is not None and policy not in POLICIES:
        allowed = ", ".join(POLICIES)
        raise LogistFileError(f"{here}: policy must be one of {allowed}, got {policy!r}")
    return {"distribution": distribution, "min": low, "max": high,
            "policy": "none" if policy is None else POLICIES[policy]}


def read_tasks(root: ET.Element, where: str) -> tuple[int, dict[str, Any]]:
    """The number of tasks and the LogistTasks fields of ``<tasks>``."""
    tasks = root.find("tasks")
    if tasks is None:
        raise LogistFileError(f"{where}: no <tasks number=... rngSeed=...>")
    number = int(_number(tasks.get("number"), where, "<tasks> number", whole=True))
    if number < 1:
        raise LogistFileError(f"{where}: <tasks> number must be at least 1, got {number}")
    seed = int(_number(tasks.get("rngSeed"), where, "<tasks> rngSeed", whole=True))
    if not -(2**63) <= seed < 2**63:
        raise LogistFileError(f"{where}: <tasks> rngSeed must be a Java long, got {seed}")
    laws = {what: read_law(tasks, what, where) for what in ("probability", "reward", "weight")}
    if tasks.find("no-task") is not None:  # drawn after the matrices in every mode: it shifts the tasks
        laws["no_task"] = read_law(tasks, "no-task", where)
    return number, {"rng_seed": seed, **laws}


def read_companies(root: ET.Element, where: str, topology: Topology) -> list[dict[str, Any]]:
    """The companies with their vehicles, homes checked against the network."""
    companies = []
    for c, company in enumerate(root.findall("companies/company")):
        name = company.get("name") or f"Company {c + 1}"
        vehicles = []
        for v, vehicle in enumerate(company.findall("vehicle")):
            vname = vehicle.get("name") or f"Vehicle {v + 1}"
            here = f"{where}: company {name!r} vehicle {vname!r}"
            settings = settings_of(vehicle)
            home = settings.get("home")
            if home is None:
                raise LogistFileError(f"{here}: no <set home=.../>")
            if home not in topology:
                raise LogistFileError(f"{here}: home {home!r} is not a city of {topology.name} "
                                      f"({topology.source})")
            vehicles.append({"name": vname, "home": home,
                             "capacity": _positive(settings.get("capacity"), here, "capacity"),
                             "cost_per_km": _positive(settings.get("cost-per-km"), here, "cost-per-km"),
                             "speed": _positive(settings.get("speed", "120"), here, "speed"),
                             **_color(settings.get("color"), here)})
        if not vehicles:
            raise LogistFileError(f"{where}: company {name!r} has no <vehicle>")
        companies.append({"name": name, "vehicles": vehicles})
    if not companies:
        raise LogistFileError(f"{where}: no <companies><company>...</company></companies>")
    return companies


def read_configuration_root(config: Path) -> tuple[ET.Element, Path]:
    """A Logist configuration's root element and the topology file it imports (any mode's: the
    auction's and the exercises'); LogistFileError in one line if it has neither."""
    root = read_xml(config, "configuration")
    if root.tag != "configuration":
        raise LogistFileError(f"{config}: a Logist configuration's root is <configuration>, got <{root.tag}>")
    element = root.find("topology")
    if element is None or element.get("import") is None:
        raise LogistFileError(f'{config}: no <topology import="config/topology/....xml"/>')
    return root, _import_path(element, element.get("import", ""), config)


def read_configuration(path: str | Path) -> dict[str, Any]:
    """The scenario data (the fields of :class:`apdp.scenario.Scenario`) of a Logist configuration.

    The network is the imported topology file (as an absolute path); the tasks are the platform's
    draw (``logist_tasks``), ties go to the company listed first and bids follow the platform (any
    Java long, negative included). A missing import, an unknown city or a bad number raises
    :class:`LogistFileError` in one line.
    """
    config = Path(path)
    root, topology_file = read_configuration_root(config)
    where = str(config)
    topology = load_logist_topology(topology_file)
    number, tasks = read_tasks(root, where)
    return {
        "topology": str(topology_file.resolve()),
        "tasks": number,
        "timeouts": read_timeouts(config, root),
        "companies": read_companies(root, where, topology),
        "logist_tasks": tasks,
        "ties": "first",
        "bids": "logist",
        "rules": "logist",
    }

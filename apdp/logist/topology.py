"""Logist topology files: ``<topology>`` with ``<cities>`` and ``<routes>``, loaded as a network.

::

    <topology name="France">
      <cities><city name="Paris" x="324" y="87"/> ...</cities>
      <routes><route from="Paris" to="Brest" distance="591"/> ...</routes>
    </topology>

Cities keep the file's order (a city's Logist id is its position); route lengths are km. The
network is apdp's own :class:`apdp.game.topology.Topology`; a broken file raises one line naming the
file and the item.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from apdp.game.topology import Topology, TopologyError, parse_topology
from apdp.logist.xmlfile import LogistFileError, read_xml


def _number(value: str | None, source: str, what: str) -> float:
    if value is None:
        raise LogistFileError(f"{source}: {what} is missing")
    try:
        number = float(value)
    except ValueError:
        raise LogistFileError(f"{source}: {what} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise LogistFileError(f"{source}: {what} must be a finite number, got {value!r}")
    return number


def topology_data(root: ET.Element, source: str) -> dict[str, Any]:
    """The content of a ``<topology>`` element in the form of apdp's topology files."""
    if root.tag != "topology":
        raise LogistFileError(f"{source}: a topology file's root is <topology>, got <{root.tag}>")
    name = (root.get("name") or Path(source).stem).strip()
    if not root.findall("cities/city"):
        raise LogistFileError(f"{source}: no cities (<cities><city name= x= y=/>...</cities>)")
    cities = []
    for k, city in enumerate(root.findall("cities/city")):
        cname = city.get("name")
        label = f"city #{k + 1} ({cname})" if cname else f"city #{k + 1}"
        if not cname or not cname.strip():
            raise LogistFileError(f"{source}: {label} has no name")
        cities.append({"name": cname, "x": _number(city.get("x", "0"), source, f"{label}: x"),
                       "y": _number(city.get("y", "0"), source, f"{label}: y")})
    routes = []
    for k, route in enumerate(root.findall("routes/route")):
        label = f"route #{k + 1} ({route.get('from')} - {route.get('to')})"
        routes.append({"from": route.get("from"), "to": route.get("to"),
                       "distance": _number(route.get("distance"), source, f"{label}: distance")})
    return {"name": name, "title": name, "cities": cities, "routes": routes}


def load_logist_topology(path: str | Path) -> Topology:
    """Load a Logist topology file (``.xml``) as a network; a broken one raises TopologyError."""
    path = Path(path)
    try:
        data = topology_data(read_xml(path, "topology"), str(path))
    except LogistFileError as exc:
        raise TopologyError(str(exc)) from None
    return parse_topology(data, str(path))

"""Road networks: cities, roads, and all-pairs shortest distances and paths.

A network is a TOML file in ``topologies/`` (or any folder on the topology search path)::

    name = "france"            # the name used in records
    code = "FR"
    aliases = ["fr", "france"]
    [[cities]]
    name = "Paris"
    x = 324                    # drawing coordinates only
    y = 87
    [[routes]]
    from = "Paris"
    to = "Brest"
    distance = 591             # road distance, > 0; roads are undirected
    [[companies]]              # the network's default companies (see apdp.scenario)
    ...

Cities are plain strings (their names, accents included). Travel between two cities follows a
shortest path; ``Topology.distance`` and ``Topology.path`` are precomputed for every pair.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush
from itertools import count
from pathlib import Path
from typing import Any

from apdp.errors import UserError
from apdp.reading import ReadRefused, read_regular

#: Folder of the networks that ship with apdp.


def _dijkstra(
    neighbours: Mapping[str, Mapping[str, float]], source: str
) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Shortest distances and paths from ``source``: networkx's ``single_source_dijkstra`` step for
    step (neighbours in road order, ties to the path found first), so the paths are the ones apdp
    always chose, without loading networkx (a fifth of a second) in every process that plays."""
    dist: dict[str, float] = {}
    seen: dict[str, float] = {source: 0}
    paths: dict[str, list[str]] = {source: [source]}
    tie = count()
    fringe: list[tuple[float, int, str]] = [(0, next(tie), source)]
    while fringe:
        d, _, v = heappop(fringe)
        if v in dist:
            continue
        dist[v] = d
        for u, cost in neighbours[v].items():
            vu_dist = dist[v] + cost
            if u in dist:
                continue
            if u not in seen or vu_dist < seen[u]:
                seen[u] = vu_dist
                heappush(fringe, (vu_dist, next(tie), u))
                paths[u] = [*paths[v], u]
    return dist, paths


def _components(cities: Sequence[str], roads: Sequence[Road]) -> list[list[str]]:
    """The network's connected parts, in the order of their first city."""
    near: dict[str, list[str]] = {c: [] for c in cities}
    for r in roads:
        near[r.a].append(r.b)
        near[r.b].append(r.a)
    parts: list[list[str]] = []
    placed: set[str] = set()
    for city in cities:
        if city in placed:
            continue
        part, todo = [], [city]
        placed.add(city)
        while todo:
            here = todo.pop()
            part.append(here)
            for there in near[here]:
                if there not in placed:
                    placed.add(there)
                    todo.append(there)
        parts.append(part)
    return parts


class TopologyError(UserError):
    """A topology file is broken or a network name is unknown."""


@dataclass(frozen=True, slots=True)
class Road:
    """An undirected road between two neighbouring cities."""

    a: str
    b: str
    distance: float


@dataclass(frozen=True, slots=True)
class CityInfo:
    """A city with its drawing coordinates."""

    name: str
    x: float
    y: float


@dataclass(frozen=True, eq=False)
class Topology:
    """A road network with precomputed shortest distances and paths between all cities.

    ``distances[i][j]`` is the shortest road distance between ``cities[i]`` and ``cities[j]``;
    use ``index`` to go from a name to its position. Prefer ``distance(a, b)`` in ordinary code.
    """

    name: str
    code: str
    title: str
    aliases: tuple[str, ...]
    cities: tuple[str, ...]
    coordinates: Mapping[str, tuple[float, float]]
    roads: tuple[Road, ...]
    default_companies: tuple[Mapping[str, Any], ...]
    source: str
    index: Mapping[str, int] = field(init=False)
    distances: tuple[tuple[float, ...], ...] = field(init=False)
    _neighbours: Mapping[str, Mapping[str, float]] = field(init=False, repr=False)
    _next_hop: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        index = {c: i for i, c in enumerate(self.cities)}
        neighbours: dict[str, dict[str, float]] = {c: {} for c in self.cities}
        for road in self.roads:
            neighbours[road.a][road.b] = road.distance
            neighbours[road.b][road.a] = road.distance
        n = len(self.cities)
        dist = [[0.0] * n for _ in range(n)]
        next_hop = [[j for j in range(n)] for _ in range(n)]
        for source in self.cities:
            i = index[source]
            lengths, paths = _dijkstra(neighbours, source)
            for target, length in lengths.items():
                j = index[target]
                dist[i][j] = float(length)
                path = paths[target]
                next_hop[i][j] = index[path[1]] if len(path) > 1 else i
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "distances", tuple(tuple(row) for row in dist))
        object.__setattr__(self, "_neighbours", neighbours)
        object.__setattr__(self, "_next_hop", tuple(tuple(row) for row in next_hop))

    def __repr__(self) -> str:
        return f"Topology({self.name!r}, {len(self.cities)} cities, {len(self.roads)} roads)"

    def __contains__(self, city: object) -> bool:
        return city in self.index

    def __iter__(self) -> Iterator[str]:
        return iter(self.cities)

    def __len__(self) -> int:
        return len(self.cities)

    def distance(self, a: str, b: str) -> float:
        """Shortest road distance between two cities."""
        return self.distances[self.index[a]][self.index[b]]

    def path(self, a: str, b: str) -> list[str]:
        """Cities on a shortest path from ``a`` to ``b``, both included (``[a]`` when equal)."""
        i, j = self.index[a], self.index[b]
        out = [a]
        while i != j:
            i = self._next_hop[i][j]
            out.append(self.cities[i])
        return out

    def neighbours(self, city: str) -> Mapping[str, float]:
        """Cities one road away from ``city``, with the road's length."""
        return self._neighbours[city]

    def road_length(self, a: str, b: str) -> float | None:
        """Length of the road between ``a`` and ``b``, or None when there is no such road."""
        return self._neighbours.get(a, {}).get(b)

    @property
    def diameter(self) -> float:
        """The longest shortest distance between two cities."""
        return max(max(row) for row in self.distances)

    def to_json(self) -> dict[str, Any]:
        """The network as JSON: ``{"name", "cities": [{"name", "x", "y"}], "roads": [{"from", "to",
        "km"}]}``, as an agent program's setup request and a record carry it
        (:func:`network_from_json` reads it back)."""
        return {
            "name": self.name,
            "cities": [{"name": c, "x": self.coordinates[c][0], "y": self.coordinates[c][1]} for c in self.cities],
            "roads": [{"from": r.a, "to": r.b, "km": r.distance} for r in self.roads],
        }


def _require(cond: bool, source: str, what: str) -> None:
    if not cond:
        raise TopologyError(f"{source}: {what}")


def _number(value: object, source: str, what: str) -> float:
    _require(
        isinstance(value, int | float) and not isinstance(value, bool), source, f"{what} must be a number"
    )
    return float(value)  # type: ignore[arg-type]


def parse_topology(data: Mapping[str, Any], source: str) -> Topology:
    """Build a topology from the parsed content of a topology file; ``source`` names it in errors."""
    name = data.get("name")
    _require(isinstance(name, str) and bool(name), source, 'missing `name = "..."`')
    assert isinstance(name, str)
    raw_cities = data.get("cities")
    _require(isinstance(raw_cities, list) and bool(raw_cities), source, "no [[cities]] table")
    cities: list[str] = []
    coords: dict[str, tuple[float, float]] = {}
    for k, city in enumerate(raw_cities):  # type: ignore[arg-type]
        _require(isinstance(city, dict), source, f"city #{k + 1} is not a table")
        cname = city.get("name")
        _require(isinstance(cname, str) and bool(cname.strip()), source, f"city #{k + 1} has no name")
        _require(cname not in coords, source, f"duplicate city {cname!r}")
        x = _number(city.get("x", 0), source, f"city {cname!r}: x")
        y = _number(city.get("y", 0), source, f"city {cname!r}: y")
        cities.append(cname)
        coords[cname] = (x, y)
    roads: list[Road] = []
    seen: set[frozenset[str]] = set()
    for k, route in enumerate(data.get("routes") or []):
        _require(isinstance(route, dict), source, f"route #{k + 1} is not a table")
        a, b = route.get("from"), route.get("to")
        label = f"route #{k + 1} ({a} - {b})"
        for end in (a, b):
            _require(end in coords, source, f"{label}: unknown city {end!r}")
        _require(a != b, source, f"{label}: a route must join two different cities")
        d = _number(route.get("distance"), source, f"{label}: distance")
        _require(d > 0 and d < float("inf"), source, f"{label}: distance must be > 0, got {d:g}")
        key = frozenset((a, b))
        _require(key not in seen, source, f"{label}: duplicate route")
        seen.add(key)
        roads.append(Road(a, b, d))
    parts = sorted(_components(cities, roads), key=len)
    if len(parts) > 1:
        _require(False, source, f"the network is disconnected: {sorted(parts[0])} reach no other city")
    aliases = data.get("aliases", [])
    _require(
        isinstance(aliases, list) and all(isinstance(a, str) for a in aliases),
        source,
        "aliases must be a list of strings",
    )
    companies = data.get("companies", [])
    _require(isinstance(companies, list), source, "[[companies]] must be an array of tables")
    return Topology(
        name=name,
        code=str(data.get("code", name)).upper(),
        title=str(data.get("title", name)),
        aliases=tuple(aliases),
        cities=tuple(cities),
        coordinates=coords,
        roads=tuple(roads),
        default_companies=tuple(companies),
        source=source,
    )


def network_from_json(data: object, source: str) -> Topology:
    """The network of :meth:`Topology.to_json`'s form, checked as a topology file is; TopologyError
    naming ``source`` otherwise."""
    _require(isinstance(data, dict), source, "a network must be an object")
    assert isinstance(data, dict)
    roads = data.get("roads")
    _require(isinstance(roads, list), source, "a network needs a list of roads")
    assert isinstance(roads, list)
    for k, road in enumerate(roads):
        _require(isinstance(road, dict) and road.keys() <= {"from", "to", "km"}, source,
                 f"road #{k + 1} must be {{from, to, km}}")
    as_file = {"name": data.get("name"), "cities": data.get("cities"),
               "routes": [{"from": r.get("from"), "to": r.get("to"), "distance": r.get("km")} for r in roads]}
    return parse_topology(as_file, source)


#: The largest network file read (the shipped ones take a few KiB).
MAX_TOPOLOGY_BYTES = 16 << 20


def load_topology_file(path: str | os.PathLike[str]) -> Topology:
    """Load one topology file; a broken file raises TopologyError naming the file and the item."""
    path = Path(path)
    try:
        data = tomllib.loads(read_regular(path, MAX_TOPOLOGY_BYTES).decode("utf-8"))
    except ReadRefused as exc:
        raise TopologyError(f"{path}: cannot read it: {exc} (a network is a .toml file of "
                            f"{MAX_TOPOLOGY_BYTES >> 20} MiB at most)") from None
    except UnicodeDecodeError:
        raise TopologyError(f"{path}: not UTF-8 text (a network is a TOML file)") from None
    except tomllib.TOMLDecodeError as exc:
        raise TopologyError(f"{path}: not valid TOML ({exc})") from None
    return parse_topology(data, str(path))

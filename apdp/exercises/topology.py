"""The platform's topology facts the exercises need: distances in whole units (km x 1000), paths
rebuilt from Floyd–Warshall's parent matrix, and the order of a city's neighbours.

``City.neighbors()`` (what ``randomNeighbor(rnd)`` indexes with ``rnd.nextInt(size)``) is filled by
iterating the routes' ``HashSet``: its buckets in ascending order of ``(from ^ to) & (capacity - 1)``,
file order inside a bucket, the capacity 16 doubled while there are more routes than 3/4 of it
(and, as ``HashMap`` does, doubled instead of making a tree when a bucket would pass 8 routes in a
table under 64). Each route appends ``to`` to ``from``'s list and ``from`` to ``to``'s list.
Shortest distances are those of :func:`apdp.logist.distances.platform_distances`; the paths are
Floyd–Warshall's (``k`` outer, strict ``>``), which may differ from Dijkstra's on ties.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from apdp.game.topology import Topology
from apdp.logist.distances import road_units
from apdp.logist.javarandom import JavaRandom

#: Floyd–Warshall's "no route yet" (``Long.MAX_VALUE / 2``).
NO_ROUTE = (2**63 - 1) // 2


def route_set_order(routes: Sequence[tuple[int, int]]) -> list[int]:
    """The positions of ``routes`` (city ids ``(from, to)``, file order) in the iteration order of
    the platform's ``HashSet<Route>`` (hash ``from ^ to``).

    A bucket of more than 8 routes in a table of 64 or more becomes a tree on the platform, whose
    order breaks ties by identity hash codes: arbitrary, run to run. apdp keeps such a bucket in
    file order (a network where it happens, a chain of 22 cities say, plays the same every time)."""
    capacity = 16
    buckets: dict[int, list[int]] = {}

    def rehash(size: int) -> None:
        order = [k for b in sorted(buckets) for k in buckets[b]]
        buckets.clear()
        for k in order:
            buckets.setdefault(_hash(routes[k]) & (size - 1), []).append(k)

    for k, route in enumerate(routes):
        bucket = buckets.setdefault(_hash(route) & (capacity - 1), [])
        bucket.append(k)
        if len(bucket) > 8 and capacity < 64:  # HashMap.treeifyBin: a small table grows instead
            capacity *= 2
            rehash(capacity)
        if k + 1 > capacity * 3 // 4:
            capacity *= 2
            rehash(capacity)
    return [k for b in sorted(buckets) for k in buckets[b]]


def _hash(route: tuple[int, int]) -> int:
    h = route[0] ^ route[1]
    return h ^ (h >> 16)  # HashMap.hash; Integer.hashCode is the value


@dataclass(frozen=True, eq=False)
class LogistTopology:
    """A network as the platform holds it: cities by id (file order), roads in whole units.

    ``units[i][j]`` is the shortest distance in units between city ids ``i`` and ``j``.
    """

    network: Topology
    cities: tuple[str, ...]
    index: dict[str, int]
    units: tuple[tuple[int, ...], ...]
    parent: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, network: Topology) -> LogistTopology:
        """The platform's view of ``network`` (its roads in file order, lengths truncated to units)."""
        cities = network.cities
        index = {c: i for i, c in enumerate(cities)}
        n = len(cities)
        routes = [(index[r.a], index[r.b]) for r in network.roads]
        dist = [[NO_ROUTE] * n for _ in range(n)]
        for i in range(n):
            dist[i][i] = 0
        near: list[list[str]] = [[] for _ in range(n)]
        for k in route_set_order(routes):
            a, b = routes[k]
            dist[a][b] = dist[b][a] = road_units(network.roads[k].distance)
            near[a].append(cities[b])
            near[b].append(cities[a])
        parent = [[-1] * n for _ in range(n)]
        for k in range(n):
            dk = dist[k]
            for i in range(n):
                di, dik, pi = dist[i], dist[i][k], parent[i]
                for j in range(n):
                    total = dik + dk[j]
                    if di[j] > total:
                        di[j] = total
                        pi[j] = k
        return cls(network, cities, index, tuple(map(tuple, dist)), tuple(map(tuple, parent)),
                   tuple(map(tuple, near)))

    def distance_units(self, a: str, b: str) -> int:
        """``a.distanceUnitsTo(b)``: the shortest distance in units."""
        return self.units[self.index[a]][self.index[b]]

    def distance_km(self, a: str, b: str) -> float:
        """``a.distanceTo(b)``: the shortest distance in km (units / 1000.0)."""
        return self.distance_units(a, b) / 1000.0

    def path(self, a: str, b: str) -> list[str]:
        """``a.pathTo(b)``: the cities of the shortest path after ``a``, ``b`` included ([] if a == b)."""
        i, j = self.index[a], self.index[b]
        if i == j:
            return []
        out: list[str] = []
        self._build(i, j, out)
        out.append(b)
        return out

    def _build(self, i: int, j: int, out: list[str]) -> None:
        k = self.parent[i][j]
        if k >= 0:
            self._build(i, k, out)
            out.append(self.cities[k])
            self._build(k, j, out)

    def neighbors(self, city: str) -> tuple[str, ...]:
        """``city.neighbors()`` in the platform's order."""
        return self.neighbours[self.index[city]]

    def has_neighbor(self, city: str, other: str) -> bool:
        """``city.hasNeighbor(other)``: whether a road joins them."""
        return other in self.neighbours[self.index[city]]

    def random_neighbor(self, city: str, rng: JavaRandom) -> str:
        """``city.randomNeighbor(rnd)``: ``neighbors().get(rnd.nextInt(size))``."""
        near = self.neighbors(city)
        return near[rng.next_int(len(near))]

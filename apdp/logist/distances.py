"""Shortest distances as the Logist platform computes them: on whole units of km x 1000.

Apart from the platform's task draw (:mod:`apdp.logist.tasks`) on purpose: a baseline agent sums
distances this way too, and its process should not load the draw's configuration schema.
"""

from __future__ import annotations

import heapq

from apdp.game.topology import Topology


def road_units(km: float) -> int:
    """A road's length in the platform's units: km x 1000, truncated (as its topology reader does)."""
    return int(km * 1000)


def platform_distances(topology: Topology) -> list[list[float]]:
    """Shortest distances in km as the platform computes them: on integer units of km x 1000 (each
    road's length truncated to whole units)."""
    n = len(topology.cities)
    index = topology.index
    edges: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for road in topology.roads:
        units = road_units(road.distance)
        edges[index[road.a]].append((index[road.b], units))
        edges[index[road.b]].append((index[road.a], units))
    out = []
    for source in range(n):
        best = [-1] * n
        heap = [(0, source)]
        while heap:
            units, city = heapq.heappop(heap)
            if best[city] >= 0:
                continue
            best[city] = units
            for other, length in edges[city]:
                if best[other] < 0:
                    heapq.heappush(heap, (units + length, other))
        out.append([u / 1000 for u in best])
    return out

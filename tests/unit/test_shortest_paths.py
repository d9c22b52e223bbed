"""apdp's own shortest paths are networkx's, path for path (ties included), without networkx."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from apdp.game.topology import Road, Topology
from apdp.scenario.networks import available_topologies, load_topology


def networkx_tables(topology: Topology) -> tuple[list[list[float]], list[list[int]]]:
    """Distances and next hops as apdp computed them with networkx before."""
    index = topology.index
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(topology.cities)
    for road in topology.roads:
        graph.add_edge(road.a, road.b, weight=road.distance)
    n = len(topology.cities)
    dist = [[0.0] * n for _ in range(n)]
    hop = [list(range(n)) for _ in range(n)]
    for source, (lengths, paths) in nx.all_pairs_dijkstra(graph, weight="weight"):
        for target, length in lengths.items():
            dist[index[source]][index[target]] = float(length)
            path = paths[target]
            hop[index[source]][index[target]] = index[path[1]] if len(path) > 1 else index[source]
    return dist, hop


def _same(topology: Topology) -> None:
    dist, hop = networkx_tables(topology)
    assert [list(row) for row in topology.distances] == dist
    assert [list(row) for row in topology._next_hop] == hop


@pytest.mark.parametrize("name", available_topologies())
def test_the_shipped_networks_have_networkx_paths(name: str) -> None:
    _same(load_topology(name))


@pytest.mark.parametrize("seed", range(40))
def test_random_networks_with_many_ties_have_networkx_paths(seed: int) -> None:
    rng = random.Random(seed)
    cities = [f"c{i}" for i in range(rng.randint(2, 14))]
    rng.shuffle(cities)
    pairs = [(a, b) for i, a in enumerate(cities) for b in cities[i + 1:]]
    rng.shuffle(pairs)
    chosen = pairs[: rng.randint(1, len(pairs))]
    roads = tuple(Road(a, b, float(rng.randint(1, 3))) for a, b in chosen)  # small weights: many ties
    coordinates = {c: (0.0, 0.0) for c in cities}
    _same(Topology("t", "T", "t", (), tuple(cities), coordinates, roads, (), "test"))

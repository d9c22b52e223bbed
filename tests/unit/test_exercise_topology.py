"""The platform's topology facts (B6): distances in units, Floyd–Warshall paths and the order of
City.neighbors(), against what the platform's own jar printed for the course's four topologies."""

from __future__ import annotations

import pytest

from apdp.exercises.topology import LogistTopology, route_set_order
from apdp.logist.distances import platform_distances
from apdp.logist.javarandom import JavaRandom
from apdp.logist.topology import load_logist_topology
from tests.exercise_runs import CONFIG, EXERCISES


def _dump() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    lines = (EXERCISES / "platform_topologies.txt").read_text(encoding="utf-8").splitlines()[1:]
    for line in lines:
        if line.startswith("topology "):
            current = out.setdefault(line.split()[1], [])
        else:
            current.append(line)
    return out


@pytest.mark.parametrize("name", ["england", "france", "switzerland", "the_netherlands"])
def test_neighbours_paths_and_units_are_the_platforms(name: str) -> None:
    network = load_logist_topology(CONFIG / "topology" / f"{name}.xml")
    topology = LogistTopology.of(network)
    expected = _dump()[name]
    got = []
    for i, city in enumerate(topology.cities):
        got.append(f"neighbors {i}: " + " ".join(str(topology.index[c]) for c in topology.neighbors(city)))
    for i, a in enumerate(topology.cities):
        for j, b in enumerate(topology.cities):
            path = " ".join(str(topology.index[c]) for c in topology.path(a, b))
            got.append(f"path {i} {j} {topology.units[i][j]}: {path}".rstrip())
    assert got == [line.rstrip() for line in expected]
    assert [[u / 1000 for u in row] for row in topology.units] == platform_distances(network)


def test_route_set_order_is_a_hash_sets() -> None:
    # 13 routes fill a table of 16 past 3/4: it doubles to 32; hash = from ^ to, file order inside a bucket
    routes = [(0, k) for k in range(1, 14)]
    assert route_set_order(routes) == list(range(13))
    assert route_set_order([(3, 1), (0, 2), (1, 0)]) == [2, 0, 1]  # hashes 2, 2, 1
    assert route_set_order([(0, 17), (0, 1)]) == [0, 1]  # 17 & 15 == 1: one bucket, file order


def test_random_neighbor_indexes_the_list() -> None:
    topology = LogistTopology.of(load_logist_topology(CONFIG / "topology" / "france.xml"))
    near = topology.neighbors("Paris")
    rng, copy = JavaRandom(7), JavaRandom(7)
    assert [topology.random_neighbor("Paris", rng) for _ in range(20)] == [near[copy.next_int(len(near))]
                                                                            for _ in range(20)]
    assert topology.has_neighbor("Paris", "Brest") and not topology.has_neighbor("Paris", "Monaco")

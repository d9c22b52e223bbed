"""The Logist platform's task draw: Java's generator, the networks, and the four reference histories.

``tests/data/logist/`` is a small Logist project: ``config/auction_*.xml`` are the course's four
configurations, ``config/topology/*.xml`` are written from apdp's own ``topologies/*.toml``, and
``histories/`` holds what the platform drew and played for those configurations with 50 tasks
(``shared/reference/logist-histories``).
"""

from __future__ import annotations

import math
import shutil
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from apdp.logist.distances import platform_distances
from apdp.logist.javarandom import JavaRandom
from apdp.logist.tasks import LogistDistribution, LogistTasks, draw_batch, draw_logist_tasks, draw_matrices
from apdp.logist.topology import load_logist_topology
from apdp.scenario import load_scenario, make_scenario
from apdp.scenario.networks import load_topology
from tests.paths import LOGIST, ROOT

PROJECT = LOGIST
CONFIG = PROJECT / "config"
SHIPPED = ROOT / "topologies"
#: history file -> (configuration, topology file, its tasks in the course, its seed)
HISTORIES = {
    "nn_switzerland.xml": ("auction_switzerland.xml", "switzerland", 15, 15),
    "nn_the_netherlands.xml": ("auction_the_netherlands.xml", "netherlands", 20, 20),
    "nn_england.xml": ("auction_england.xml", "england", 30, 30),
    "nn_france.xml": ("auction_france.xml", "france", 50, 50),
}


def test_java_random_matches_java() -> None:
    r = JavaRandom(0)
    assert (r.next_int(), r.next_int()) == (-1155484576, -723955400)
    assert JavaRandom(0).next_double() == 0.730967787376657
    assert JavaRandom(42).next_int() == -1170105035
    assert JavaRandom(42).next_int(10) == 0
    assert all(0 <= JavaRandom(s).next_int(7) < 7 for s in range(50))
    assert JavaRandom(-(2**63)).next_double() == JavaRandom(2**63).next_double()  # 48 bits of it


@pytest.mark.parametrize("name", ["switzerland", "france", "england", "netherlands"])
def test_topology_files_agree_with_apdp_networks(name: str) -> None:
    """The XML files say what topologies/*.toml says: names, city order, coordinates, roads."""
    xml = load_logist_topology(CONFIG / "topology" / f"{name}.xml")
    data = tomllib.loads((SHIPPED / f"{name}.toml").read_text(encoding="utf-8"))
    assert list(xml.cities) == [c["name"] for c in data["cities"]]
    assert [xml.coordinates[c["name"]] for c in data["cities"]] == [(c["x"], c["y"]) for c in data["cities"]]
    assert [(r.a, r.b, r.distance) for r in xml.roads] == [
        (r["from"], r["to"], r["distance"]) for r in data["routes"]
    ]
    shipped = load_topology(name)
    assert xml.name == shipped.name
    assert np.allclose(platform_distances(xml), shipped.distances, rtol=0, atol=1e-9)
    assert np.allclose(xml.distances, shipped.distances, rtol=0, atol=1e-9)


def _repaired(name: str) -> str:
    """A city name as the platform meant it: its history files hold UTF-8 bytes under an
    ISO-8859-1 declaration, so ``Genève`` reads as ``GenÃ¨ve``."""
    try:
        return name.encode("iso-8859-1").decode("utf-8")
    except UnicodeError:
        return name


@pytest.mark.parametrize("history", sorted(HISTORIES))
def test_reference_histories_are_drawn_task_for_task(history: str) -> None:
    config, _, course_tasks, seed = HISTORIES[history]
    scenario = load_scenario(CONFIG / config, {"tasks": 50, "task_draw": "platform"})
    assert scenario.logist_tasks is not None and scenario.logist_tasks.rng_seed == seed
    assert load_scenario(CONFIG / config).tasks == course_tasks
    topology = scenario.load_topology()
    drawn = scenario.draw_tasks(topology, scenario.distribution_for(topology), np.random.default_rng(1))
    root = ET.parse(PROJECT / "histories" / history).getroot()
    played = [
        (int(t.get("id", "")), _repaired(t.get("pickup", "")), _repaired(t.get("delivery", "")),
         int(t.get("weight", "")), int(t.get("reward", "")))
        for t in root.iter("task")
    ]
    assert len(played) == 50
    assert [(t.id, t.pickup, t.delivery, t.weight, t.reward) for t in drawn] == played
    vehicles = [[v.get("name") for v in agent.iter("vehicle")] for agent in root.iter("agent")]
    assert vehicles == [[v.name for v in c.vehicles] for c in scenario.companies or []]


def test_the_platform_draw_depends_on_the_configuration_alone() -> None:
    scenario = load_scenario(CONFIG / "auction_france.xml", {"task_draw": "platform"})
    topology = scenario.load_topology()
    distribution = scenario.distribution_for(topology)
    a = scenario.draw_tasks(topology, distribution, np.random.default_rng(1))
    b = scenario.draw_tasks(topology, distribution, np.random.default_rng(2))
    assert a == b and len(a) == 50
    # the same <tasks> in a TOML scenario, on the shipped network, draw the same tasks
    assert scenario.logist_tasks is not None
    toml = make_scenario({"topology": "france", "logist_tasks": scenario.logist_tasks.model_dump(),
                          "task_draw": "platform"})
    shipped = toml.load_topology()
    assert toml.draw_tasks(shipped, toml.distribution_for(shipped), np.random.default_rng(3)) == a
    # fewer tasks are the first ones of the same draw
    assert draw_logist_tasks(topology, scenario.logist_tasks, 7) == a[:7]


def test_policies_shape_the_values() -> None:
    topology = load_topology("france")
    law = {"distribution": "constant", "min": 0, "max": 100}
    spec = {"rng_seed": 1, "probability": law, "weight": {"min": 1, "max": 1}}

    def rewards(policy: str) -> LogistDistribution:
        return LogistDistribution(topology, LogistTasks.model_validate(
            {**spec, "reward": {**law, "policy": policy}}))

    near, far, middle = ("Lyon", "Genève"), ("Brest", "Monaco"), ("Paris", "Marseille")  # 149, 1598, 782 km
    assert (rewards("none").reward(*near), rewards("none").reward(*far)) == (50, 50)
    assert rewards("short").reward(*near) == 100 and rewards("short").reward(*far) == 0
    assert rewards("long").reward(*far) == 100 and rewards("long").reward(*near) == 0
    assert rewards("medium").reward(*far) == 0 == rewards("medium").reward(*near)
    assert rewards("medium").reward(*middle) > 80


def test_agents_get_a_distribution_without_the_draw() -> None:
    scenario = load_scenario(CONFIG / "auction_switzerland.xml")
    topology = scenario.load_topology()
    d = scenario.distribution_for(topology)
    assert isinstance(d, LogistDistribution)
    assert math.isclose(sum(d.probabilities), 1.0)
    assert d.probability("Bern", "Bern") == 0.0 and d.weight("Bern", "Thun") == 3
    assert math.isclose(d.probability("Bern", "Thun") / d.probability("Basel", "Sion"),
                        d.platform_probability("Bern", "Thun") / d.platform_probability("Basel", "Sion"))
    assert d.expected_weight() == 3.0
    task = d.sample(np.random.default_rng(0), 4)
    assert task.id == 4 and task.reward == d.reward(task.pickup, task.delivery) > 0
    assert not any(isinstance(v, JavaRandom) for v in vars(d).values())
    assert 15 not in (getattr(d, "rng_seed", None), getattr(d, "seed", None))


def test_a_no_task_law_in_an_auction_configuration_shifts_its_tasks_as_on_the_platform(tmp_path: Path) -> None:
    # the platform draws <no-task> (one value per city when uniform) after the matrices in every mode,
    # so the batch after it moves on by as many draws; a constant law draws nothing
    text = (CONFIG / "auction_france.xml").read_text(encoding="iso-8859-1")
    plain = load_scenario(CONFIG / "auction_france.xml", {"task_draw": "platform"})
    topology = plain.load_topology()
    assert plain.logist_tasks is not None and plain.logist_tasks.no_task is None
    unshifted = draw_logist_tasks(topology, plain.logist_tasks, 50)
    for name, law, draws in (("uniform", '<no-task distribution="uniform" min="0.0" max="0.5"/>', 1),
                             ("constant", '<no-task distribution="constant" value="0.2"/>', 0)):
        project = tmp_path / name  # a Logist project: its imports are config/...
        shutil.copytree(CONFIG, project / "config")
        path = project / "config" / "auction_france.xml"
        path.write_text(text.replace("</tasks>", f"{law}</tasks>"), encoding="iso-8859-1")
        spec = load_scenario(path, {"task_draw": "platform"}).logist_tasks
        assert spec is not None and spec.no_task is not None
        rng = JavaRandom(spec.rng_seed)
        matrices = draw_matrices(topology, spec, rng)
        for _ in range(draws * len(topology.cities)):
            rng.next_double()
        drawn = draw_logist_tasks(topology, spec, 50)
        assert drawn == draw_batch(matrices, 50, rng)
        assert (drawn == unshifted) is (draws == 0)

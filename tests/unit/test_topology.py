"""The road networks: transcription, check figures, selection by name, and broken files."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from apdp.game.topology import TopologyError, load_topology_file
from apdp.scenario.networks import available_topologies, load_topology

# From shared/reference/distance-checks.md
CHECKS = {
    "ch": (12, 15, 530, 28780, [("Lausanne", "Thun", 190, "Lausanne > Fribourg > Bern > Thun"),
                                ("Genève", "Sion", 240, "Genève > Lausanne > Sion"),
                                ("St-Gallen", "Neuchâtel", 350, "St-Gallen > Zürich > Aarau > Bern > Neuchâtel")]),
    "fr": (9, 12, 1598, 53880, [("Brest", "Strasbourg", 1078, "Brest > Paris > Strasbourg"),
                                ("Le Havre", "Paris", 196, "Le Havre > Paris"),
                                ("Monaco", "Bordeaux", 871, "Monaco > Marseille > Bordeaux")]),
    "gb": (11, 11, 592.8, 27681.2, [("London", "Portsmouth", 74.8, "London > Portsmouth"),
                                    ("Newcastle", "Leeds", 98.5, "Newcastle > Leeds"),
                                    ("Manchester", "Sheffield", 148.5, "Manchester > Liverpool > Leeds > Sheffield")]),
    "nl": (10, 20, 270.8, 10593.4, [("Amsterdam", "Apeldoorn", 90.2, "Amsterdam > Apeldoorn"),
                                    ("Rotterdam", "Den Haag", 25.4, "Rotterdam > Den Haag"),
                                    ("Breda", "Utrecht", 73.5, "Breda > Utrecht")]),
}


@pytest.mark.parametrize("code", sorted(CHECKS))
def test_check_figures(code: str) -> None:
    cities, routes, diameter, total, pairs = CHECKS[code]
    t = load_topology(code)
    assert len(t.cities) == cities
    assert len(t.roads) == routes
    assert math.isclose(t.diameter, diameter, abs_tol=1e-9)
    assert math.isclose(sum(sum(row) for row in t.distances), total, abs_tol=1e-9)
    for a, b, d, path in pairs:
        assert math.isclose(t.distance(a, b), d, abs_tol=1e-9)
        assert t.path(a, b) == path.split(" > ")
        assert t.path(b, a) == list(reversed(path.split(" > ")))


@pytest.mark.parametrize(
    ("name", "expected"),
    [("ch", "switzerland"), ("Switzerland", "switzerland"), ("FR", "france"), ("france", "france"),
     ("gb", "england"), ("England", "england"), ("great-britain", "england"), ("nl", "netherlands"),
     ("netherlands", "netherlands"), ("The-Netherlands", "netherlands"), ("the_netherlands", "netherlands")],
)
def test_selection_by_code_or_name(name: str, expected: str) -> None:
    assert load_topology(name).name == expected


def test_city_names_keep_accents() -> None:
    assert "Genève" in load_topology("france")
    assert "Zürich" in load_topology("ch")


def test_unknown_network_lists_choices() -> None:
    with pytest.raises(TopologyError, match=r"unknown topology 'mars'.*france"):
        load_topology("mars")


GOOD = """
name = "tiny"
[[cities]]
name = "A"
[[cities]]
name = "B"
[[cities]]
name = "C"
[[routes]]
from = "A"
to = "B"
distance = 3
[[routes]]
from = "B"
to = "C"
distance = 4
"""


def test_user_network_by_adding_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tiny.toml").write_text(GOOD)
    monkeypatch.setenv("APDP_TOPOLOGIES", str(tmp_path))
    assert "tiny" in available_topologies()
    t = load_topology("Tiny")
    assert t.distance("A", "C") == 7
    assert t.path("C", "A") == ["C", "B", "A"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.replace('to = "C"', 'to = "Z"'), r"route #2 \(B - Z\): unknown city 'Z'"),
        (lambda s: s.replace("distance = 4", "distance = -4"), r"route #2 \(B - C\): distance must be > 0"),
        (lambda s: s.replace("distance = 4", "distance = 0"), r"route #2 \(B - C\): distance must be > 0"),
        (lambda s: s.replace('name = "C"', 'name = "B"'), "duplicate city 'B'"),
        (lambda s: s + '[[cities]]\nname = "D"\n', r"disconnected: \['D'\]"),
        (lambda s: s.replace("distance = 4", 'distance = "far"'), "distance must be a number"),
        (lambda s: s + "[[routes", "not valid TOML"),
    ],
)
def test_broken_file_names_file_and_item(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "broken.toml"
    path.write_text(change(GOOD))
    with pytest.raises(TopologyError, match=message) as info:
        load_topology_file(path)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)

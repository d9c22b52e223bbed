"""The Logist platform's money (apdp/logist/money.py): Java long arithmetic, Math.round, its cost rule."""

from __future__ import annotations

import pytest

from apdp.game.company import Vehicle
from apdp.game.plan import Deliver, Move, Pickup
from apdp.game.topology import parse_topology
from apdp.logist import money

pytestmark = pytest.mark.unit


def test_a_long_wraps_around_past_its_ends() -> None:
    assert money.wrap(money.LONG_MAX) == money.LONG_MAX and money.wrap(money.LONG_MAX + 1) == money.LONG_MIN
    assert money.wrap(4 * money.LONG_MAX) == -4 and money.wrap(4 * (2**62 + 1)) == 4
    assert money.wrap(money.LONG_MIN - 1) == money.LONG_MAX
    assert money.revenue([money.LONG_MAX, 1]) == (money.LONG_MIN, True)
    assert money.revenue([1000, 2000]) == (3000, False)
    assert money.profit(money.LONG_MIN, 1) == (money.LONG_MAX, True)


def test_java_round_is_halves_up_and_held_within_a_long() -> None:
    assert [money.java_round(x) for x in (2.5, -2.5, 2.4999, -0.5, 0.49999999999999994)] == [3, -2, 2, 0, 0]
    assert money.java_round(1e30) == money.LONG_MAX and money.java_round(-1e30) == money.LONG_MIN
    assert money.java_round(float("nan")) == 0


def test_the_cost_is_units_truncated_per_road_times_cost_per_km_then_rounded() -> None:
    # roads of 1.0005 km (1000 units, truncated) and 2.2 km (2200 units); cost per km 3 and 7
    topology = parse_topology({"name": "t", "cities": [{"name": c, "x": x, "y": 0} for x, c in enumerate("ABC")],
                               "routes": [{"from": "A", "to": "B", "distance": 1.0005},
                                          {"from": "B", "to": "C", "distance": 2.2}]}, "test")
    vehicles = (Vehicle("v1", "A", 10, 3), Vehicle("v2", "C", 10, 7))
    plans = [[Move("B"), Pickup(0), Move("C"), Deliver(0)], [Move("A")]]  # C -> A along no road: B on the way
    units = [1000 + 2200, 2200 + 1000]
    assert [money.plan_units(topology, v, p) for v, p in zip(vehicles, plans, strict=True)] == units
    assert money.company_cost(topology, vehicles, plans) == (money.java_round((3200 * 3 + 3200 * 7) / 1000.0), False)
    assert money.company_cost(topology, vehicles, plans)[0] == 32

"""The Logist platform's money: bids, revenues and costs are Java ``long`` values.

A company's revenue is the sum of the rewards its vehicles deliver (a sold task's reward is its
winning bid); its cost is, over its vehicles, the distance units each drove (km x 1000, each road
truncated to whole units as the platform reads a topology file) times the vehicle's cost per km,
summed, then turned into km and rounded to a whole number as Java's ``Math.round`` does. Every sum
and product is a ``long``'s: past 2**63 - 1 it wraps around to the negative side (and back), as it
did on the platform. Each figure here says whether it wrapped.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

from apdp.game.company import Vehicle
from apdp.game.plan import Action, Move
from apdp.game.topology import Topology
from apdp.logist.distances import road_units

LONG_MIN = -(2**63)
LONG_MAX = 2**63 - 1


def wrap(value: int) -> int:
    """``value`` as a Java ``long`` holds it: reduced modulo 2**64 into [-2**63, 2**63 - 1]."""
    return (value - LONG_MIN) % 2**64 + LONG_MIN


def java_round(value: float) -> int:
    """Java's ``Math.round(double)``: the nearest whole number, halves up (exactly: the double
    0.49999999999999994 rounds to 0), held within a long."""
    if math.isnan(value):
        return 0
    if value >= 2.0**63:
        return LONG_MAX
    if value <= -(2.0**63):
        return LONG_MIN
    return math.floor(Fraction(value) + Fraction(1, 2))


def plan_units(topology: Topology, vehicle: Vehicle, plan: Sequence[Action]) -> int:
    """The distance units a vehicle's plan drives: each move's road; a move along no road its
    shortest distance (the units of its roads)."""
    units = 0
    here = vehicle.home
    for action in plan:
        if isinstance(action, Move) and action.city in topology:
            if here in topology and here != action.city:
                road = topology.road_length(here, action.city)
                if road is not None:
                    units += road_units(road)
                else:
                    path = [here, *topology.path(here, action.city)]
                    units += sum(road_units(topology.road_length(a, b) or 0.0) for a, b in itertools.pairwise(path))
            here = action.city
    return units


def revenue(bids: Iterable[int]) -> tuple[int, bool]:
    """The sum of a company's winning bids as a long, and whether it wrapped."""
    exact = sum(bids)
    return wrap(exact), wrap(exact) != exact


def company_cost(topology: Topology, vehicles: Sequence[Vehicle],
                 plans: Sequence[Sequence[Action]]) -> tuple[int, bool]:
    """A company's cost as the platform computes it, and whether a long wrapped on the way."""
    exact = sum(plan_units(topology, v, p) * int(v.cost_per_km) for v, p in zip(vehicles, plans, strict=False))
    units = wrap(exact)
    cost = java_round(units / 1000.0)
    return cost, units != exact


def profit(revenue: int, cost: int) -> tuple[int, bool]:
    """Revenue less cost as a long, and whether it wrapped."""
    exact = revenue - cost
    return wrap(exact), wrap(exact) != exact

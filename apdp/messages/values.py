"""The game's values in the calls to an agent: tasks, vehicles, companies and the task distribution.

Each value is written by its own ``to_json`` (a task, a vehicle, a company, a network) or here (a
distribution), and read back here, strictly: a field of the wrong type is a :class:`BadMessage`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from apdp.game.company import Company, Vehicle
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.messages.strict import BadMessage, integer, keys, listing, mapping, number, text

#: Longest name (of a city, a vehicle, a company) in a call.
MAX_NAME = 200


def task_from_json(value: object) -> Task:
    """A task of :meth:`Task.to_json`'s form."""
    obj = mapping(value, "a task")
    keys(obj, {"id", "pickup", "delivery", "weight"}, {"reward"}, "a task")
    reward = obj.get("reward")
    return Task(integer(obj["id"], "a task id"), text(obj["pickup"], MAX_NAME, "a pickup city"),
                text(obj["delivery"], MAX_NAME, "a delivery city"), number(obj["weight"], "a task's weight"),
                None if reward is None else integer(reward, "a task's reward"))


def vehicle_from_json(value: object) -> Vehicle:
    """A vehicle of :meth:`Vehicle.to_json`'s form."""
    obj = mapping(value, "a vehicle")
    keys(obj, {"name", "home", "capacity", "cost_per_km"}, {"speed", "color"}, "a vehicle")
    speed, color = obj.get("speed"), obj.get("color")
    return Vehicle(text(obj["name"], MAX_NAME, "a vehicle's name"), text(obj["home"], MAX_NAME, "a home city"),
                   number(obj["capacity"], "a capacity"), number(obj["cost_per_km"], "a cost per km"),
                   None if speed is None else number(speed, "a speed"),
                   None if color is None else text(color, 16, "a colour"))


def company_from_json(value: object) -> Company:
    """A company of :meth:`Company.to_json`'s form."""
    obj = mapping(value, "a company")
    keys(obj, {"name", "vehicles"}, set(), "a company")
    return Company(text(obj["name"], MAX_NAME, "a company's name"),
                   tuple(vehicle_from_json(v) for v in listing(obj["vehicles"], "a company's vehicles")))


def distribution_to_json(distribution: TaskDistribution) -> dict[str, Any]:
    """The task distribution as an agent program's setup request carries it.

    A Logist configuration's distribution also gives each pair's weight and reward, the platform's
    own (unnormalised) probability as ``platform_probability``, and the state of the platform's
    generator an agent finds (``generator``: its seed, and the draws made before and after setup).
    """
    expected = distribution.expected_weight()
    rewards = getattr(distribution, "expected_reward", None)
    weights = getattr(distribution, "weight", None)
    platform = getattr(distribution, "platform_probability", None)
    pairs = []
    for (pickup, delivery), p in zip(distribution.pairs, distribution.probabilities, strict=True):
        pair: dict[str, Any] = {
            "pickup": pickup, "delivery": delivery, "probability": p,
            "weight": weights(pickup, delivery) if callable(weights) else expected,
            "reward": rewards(pickup, delivery) if callable(rewards) else None,
        }
        if callable(platform):
            pair["platform_probability"] = platform(pickup, delivery)
        pairs.append(pair)
    out: dict[str, Any] = {"pairs": pairs, "weight": dict(distribution.weight_law)}
    generator = getattr(distribution, "generator", None)
    if isinstance(generator, dict):
        out["generator"] = generator
    return out


class StatedDistribution(TaskDistribution):
    """A task distribution exactly as a setup request states it (:func:`distribution_to_json`)."""

    def __init__(self, topology: Topology, data: object) -> None:
        obj = mapping(data, "a distribution")
        self.topology = topology
        weight = obj.get("weight") or {}
        from apdp.game.laws import DistributionSpec, WeightLaw  # an agent program's host checks it; a worker never

        try:
            spec = DistributionSpec(weight=WeightLaw(**mapping(weight, "a weight law"))) if weight \
                else DistributionSpec()
        except (TypeError, ValueError) as exc:
            raise BadMessage(f"a weight law: {str(exc).splitlines()[0][:120]}") from None
        self._keep_laws(spec.model_dump())
        pairs = [mapping(p, "a pair") for p in listing(obj.get("pairs"), "a distribution's pairs")]
        self.pairs = tuple((text(p.get("pickup"), MAX_NAME, "a pickup city"),
                            text(p.get("delivery"), MAX_NAME, "a delivery city")) for p in pairs)
        self._probabilities = np.array([number(p.get("probability"), "a probability") for p in pairs])
        self._pair_index = {pair: k for k, pair in enumerate(self.pairs)}
        cdf = self._probabilities.cumsum()
        self._cdf = cdf / cdf[-1] if len(cdf) and cdf[-1] > 0 else cdf

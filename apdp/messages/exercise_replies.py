"""The replies of an exercise agent (``act``, a deliberative ``plan``), and the values of its calls.

Decoded as strictly as the auction's (:mod:`apdp.messages.replies`, which dispatches to
:func:`decode_exercise_reply` for the two kinds of reply only exercises expect): ``{"action":
action}`` for ``act``, ``{"plan": [action, ...]}`` for a deliberative agent's ``plan``. A centralized
agent answers ``{"plans": ...}`` as an auction agent does. :func:`action_reply` and
:func:`route_reply` turn what an agent's method returned into a reply, or say what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from apdp.game.exercise import ExerciseDistribution, ExerciseVehicle, PairLaw
from apdp.game.plan import Action, action_from_json, checked_action
from apdp.messages.strict import BadMessage, integer, keys, listing, mapping, number, text
from apdp.messages.values import MAX_NAME, task_from_json

#: What an exercise's own calls expect back: one action (``act``), one vehicle's plan (a
#: deliberative ``plan``).
ExerciseExpected = Literal["action", "route"]
#: Most actions in one vehicle's plan (a reply is also capped in bytes).
MAX_ROUTE = 200_000


@dataclass(frozen=True, slots=True)
class ActionReply:
    """A reactive agent's action, not yet checked against the vehicle's city and the offer."""

    action: Action

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json()}


@dataclass(frozen=True, slots=True)
class RouteReply:
    """A deliberative agent's plan for its vehicle, not yet checked."""

    actions: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {"plan": [a.to_json() for a in self.actions]}


def _action(value: object, what: str) -> Action:
    try:
        return action_from_json(value)
    except ValueError as exc:
        raise BadMessage(f"{what}: {exc}") from None


def decode_exercise_reply(obj: Mapping[str, Any], expected: ExerciseExpected) -> ActionReply | RouteReply:
    """The reply ``obj`` to a call that expects ``expected``; BadMessage in one line otherwise."""
    if expected == "action":
        keys(obj, {"action"}, set(), "an act reply", '{"action": ["move", city] or ["pickup", task_id]}')
        return ActionReply(_action(obj["action"], "an act reply's action"))
    keys(obj, {"plan"}, set(), "a plan reply", '{"plan": [action, ...]}')
    actions = listing(obj["plan"], "a plan")
    if len(actions) > MAX_ROUTE:
        raise BadMessage(f"a plan of {len(actions)} actions (at most {MAX_ROUTE})")
    return RouteReply(tuple(_action(a, f"action {k} of the plan") for k, a in enumerate(actions)))


def action_reply(value: object) -> ActionReply | str:
    """What a reactive agent's ``act`` returned, as a reply, or what is wrong with it."""
    checked = checked_action(value, "act()")
    return checked if isinstance(checked, str) else ActionReply(checked)


def route_reply(value: object) -> RouteReply | str:
    """What a deliberative agent's ``plan`` returned, as a reply, or what is wrong with it."""
    if not isinstance(value, list | tuple):
        return f"plan() must return a list of actions, got {type(value).__name__}"
    actions = []
    for k, action in enumerate(value):
        checked = checked_action(action, f"plan(), action {k}")
        if isinstance(checked, str):
            return checked
        actions.append(checked)
    return RouteReply(tuple(actions))


def exercise_vehicle_from_json(value: object) -> ExerciseVehicle:
    """A vehicle of :meth:`ExerciseVehicle.to_json`'s form."""
    obj = mapping(value, "a vehicle")
    keys(obj, {"id", "name", "home", "city", "capacity", "cost_per_km", "speed", "carried", "delivered", "reward",
               "distance_units"}, set(), "an exercise's vehicle")
    return ExerciseVehicle(
        integer(obj["id"], "a vehicle id"), text(obj["name"], MAX_NAME, "a vehicle's name"),
        text(obj["home"], MAX_NAME, "a home city"), text(obj["city"], MAX_NAME, "a vehicle's city"),
        integer(obj["capacity"], "a capacity"), integer(obj["cost_per_km"], "a cost per km"),
        number(obj["speed"], "a speed"), tuple(task_from_json(t) for t in listing(obj["carried"], "carried tasks")),
        integer(obj["delivered"], "tasks delivered"), integer(obj["reward"], "a reward"),
        integer(obj["distance_units"], "a distance"),
    )


def exercise_distribution_from_json(value: object, cities: tuple[str, ...]) -> ExerciseDistribution:
    """A distribution of :meth:`ExerciseDistribution.to_json`'s form, on a network of ``cities``."""
    obj = mapping(value, "a distribution")
    keys(obj, {"pairs", "no_task"}, set(), "an exercise's distribution")
    pairs = []
    for item in listing(obj["pairs"], "a distribution's pairs"):
        p = mapping(item, "a pair")
        keys(p, {"pickup", "delivery", "probability", "platform_probability", "reward", "weight"}, set(), "a pair")
        pairs.append(PairLaw(text(p["pickup"], MAX_NAME, "a pickup city"), text(p["delivery"], MAX_NAME, "a city"),
                             number(p["probability"], "a probability"),
                             number(p["platform_probability"], "a probability"),
                             integer(p["reward"], "a reward"), integer(p["weight"], "a weight")))
    no_task = {str(c): number(v, "a no-task probability") for c, v in mapping(obj["no_task"], "no_task").items()}
    return ExerciseDistribution(cities, pairs, no_task)

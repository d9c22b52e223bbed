"""The agent protocol ``apdp-agent/1``: JSON lines between the referee's side and an agent program.

:func:`setup_message` and friends build the requests; :func:`read_bid`, :func:`read_ok` and
:func:`read_plans` check the replies and turn them into what a Python agent would have returned,
raising :class:`ProtocolError` (the agent's fault) with what was expected. The format is documented
in ``docs/protocol.md``; its JSON Schema is :data:`SCHEMA_PATH`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apdp.game.auction import check_bid
from apdp.game.company import Company
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Deliver, Move, Pickup
from apdp.game.topology import Topology

PROTOCOL = "apdp-agent/1"
#: The JSON Schema of every request and reply.
SCHEMA_PATH = Path(__file__).with_name("apdp-agent-1.schema.json")


class ProtocolError(Exception):
    """An agent program's reply broke the protocol."""


def topology_json(topology: Topology) -> dict[str, Any]:
    """The network as the setup request carries it."""
    return {
        "name": topology.name,
        "cities": [{"name": c, "x": topology.coordinates[c][0], "y": topology.coordinates[c][1]}
                   for c in topology.cities],
        "roads": [{"from": r.a, "to": r.b, "km": r.distance} for r in topology.roads],
    }


def distribution_json(distribution: TaskDistribution) -> dict[str, Any]:
    """The task distribution as the setup request carries it.

    A Logist configuration's distribution also gives each pair's weight and reward, and the
    platform's own (unnormalised) probability as ``platform_probability``.
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
    weight_law = distribution.spec.weight.model_dump() if hasattr(distribution.spec, "weight") else {}
    return {"pairs": pairs, "weight": weight_law}


def setup_message(*, agent_id: int, agents: int, seed: int, params: dict[str, Any],
                  timeouts: dict[str, float], topology: Topology, distribution: TaskDistribution,
                  company: Company) -> dict[str, Any]:
    """The ``setup`` request."""
    return {
        "type": "setup", "protocol": PROTOCOL, "agent_id": agent_id, "agents": agents, "seed": seed,
        "params": params, "timeouts": timeouts, "topology": topology_json(topology),
        "distribution": distribution_json(distribution), "company": company.to_json(),
    }


def encode(message: dict[str, Any]) -> bytes:
    """One request as one line."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def decode(line: bytes, request: str) -> dict[str, Any]:
    """One reply line as a JSON object; ProtocolError if it is none, or an ``error`` reply."""
    if not line:
        raise ProtocolError(f"the program closed its output instead of answering {request!r}")
    try:
        reply = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"reply to {request!r} is not JSON: {line[:80]!r}") from None
    if not isinstance(reply, dict):
        raise ProtocolError(f"reply to {request!r} must be a JSON object, got {type(reply).__name__}")
    if "error" in reply:
        raise ProtocolError(f"the program reported an error in {request!r}: {str(reply['error'])[:500]}")
    return reply


def read_ok(reply: dict[str, Any], request: str) -> None:
    """Check a ``{"ok": true}`` reply."""
    if reply.get("ok") is not True:
        raise ProtocolError(f'expected {{"ok": true}} in reply to {request!r}, got {json.dumps(reply)[:80]}')


def read_bid(reply: dict[str, Any]) -> float | None:
    """The bid of a ``bid`` reply (None: abstain)."""
    if "bid" not in reply:
        raise ProtocolError(f'expected {{"bid": number or null}} in reply to \'bid\', got {json.dumps(reply)[:80]}')
    bid = reply["bid"]
    if bid is None:
        return None
    if isinstance(bid, bool) or not isinstance(bid, int | float):
        raise ProtocolError(f"a bid must be a number or null, got {json.dumps(bid)[:40]}")
    problem = check_bid(bid, "logist")  # the widest rule: the referee applies the match's
    if problem:
        raise ProtocolError(problem)
    return float(bid)


def read_plans(reply: dict[str, Any]) -> list[list[Move | Pickup | Deliver]]:
    """The vehicle plans of a ``plan`` reply."""
    plans = reply.get("plans")
    if not isinstance(plans, list):
        raise ProtocolError(f'expected {{"plans": [[action, ...] per vehicle]}}, got {json.dumps(reply)[:80]}')
    out: list[list[Move | Pickup | Deliver]] = []
    for v, plan in enumerate(plans):
        if not isinstance(plan, list):
            raise ProtocolError(f"vehicle {v}: a plan is a list of actions, got {json.dumps(plan)[:40]}")
        actions: list[Move | Pickup | Deliver] = []
        for a, action in enumerate(plan):
            if not (isinstance(action, list) and len(action) == 2 and action[0] in ("move", "pickup", "deliver")):
                raise ProtocolError(
                    f'vehicle {v}, action {a}: expected ["move", city], ["pickup", id] or ["deliver", id], '
                    f"got {json.dumps(action)[:60]}"
                )
            kind, arg = action
            if kind == "move":
                if not isinstance(arg, str):
                    raise ProtocolError(f"vehicle {v}, action {a}: a move names a city, got {json.dumps(arg)}")
                actions.append(Move(arg))
            else:
                if isinstance(arg, bool) or not isinstance(arg, int):
                    raise ProtocolError(f"vehicle {v}, action {a}: a {kind} takes a task id, got {json.dumps(arg)}")
                actions.append(Pickup(arg) if kind == "pickup" else Deliver(arg))
        out.append(actions)
    return out

"""Run a Python agent file as an agent program: ``python -m apdp.agents.protocol.host AGENT.py``.

A reference implementation of the other side of ``apdp-agent/1``: it reads the requests on stdin,
rebuilds the world from the setup request alone (network, distribution, company), calls the agent,
and writes the replies on stdout. What the agent prints goes to stderr. It shows the protocol
carries all an agent needs, and lets the tests run a Python agent as a program, through the same
sandbox as a program in any other language.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import IO, Any

import numpy as np

from apdp.agents.discovery import load_agent_class
from apdp.game.agent import Agent
from apdp.game.company import Company, Vehicle
from apdp.game.deadline import Deadline
from apdp.game.distribution import DistributionSpec, TaskDistribution, WeightLaw
from apdp.game.task import Task
from apdp.game.topology import Road, Topology


class ProtocolDistribution(TaskDistribution):
    """The distribution exactly as the setup request states it."""

    def __init__(self, topology: Topology, data: dict[str, Any]) -> None:
        self.topology = topology
        weight = data.get("weight") or {}
        self.spec = DistributionSpec(weight=WeightLaw(**weight)) if weight else DistributionSpec()
        pairs = data["pairs"]
        self.pairs = tuple((p["pickup"], p["delivery"]) for p in pairs)
        self._probabilities = np.array([float(p["probability"]) for p in pairs])
        self._pair_index = {pair: k for k, pair in enumerate(self.pairs)}


def topology_from(data: dict[str, Any]) -> Topology:
    """The network of a setup request."""
    cities = tuple(str(c["name"]) for c in data["cities"])
    return Topology(
        name=str(data["name"]), code=str(data["name"]).upper(), title=str(data["name"]), aliases=(),
        cities=cities, coordinates={str(c["name"]): (float(c["x"]), float(c["y"])) for c in data["cities"]},
        roads=tuple(Road(str(r["from"]), str(r["to"]), float(r["km"])) for r in data["roads"]),
        default_companies=(), source="apdp-agent/1 setup",
    )


def company_from(data: dict[str, Any]) -> Company:
    """The company of a setup request."""
    return Company(str(data["name"]), tuple(vehicle_from(v) for v in data["vehicles"]))


def vehicle_from(data: dict[str, Any]) -> Vehicle:
    """A vehicle of a request."""
    return Vehicle(str(data["name"]), str(data["home"]), data["capacity"], data["cost_per_km"])


def task_from(data: dict[str, Any]) -> Task:
    """A task of a request."""
    return Task(int(data["id"]), str(data["pickup"]), str(data["delivery"]), data["weight"], data.get("reward"))


def _deadline(seconds: float) -> Deadline:
    return Deadline.after(seconds - min(0.25, 0.1 * seconds))


def _answer(agent: Agent | None, request: dict[str, Any], path: Path) -> tuple[Agent | None, dict[str, Any]]:
    kind = request.get("type")
    if kind == "setup":
        agent = load_agent_class(path)()
        topology = topology_from(request["topology"])
        agent.topology = topology
        agent.distribution = ProtocolDistribution(topology, request["distribution"])
        agent.company = company_from(request["company"])
        agent.agent_id, agent.agents = int(request["agent_id"]), int(request["agents"])
        agent.params, agent.timeouts = dict(request["params"]), dict(request["timeouts"])
        agent.rng = np.random.default_rng(int(request["seed"]))
        agent.deadline = _deadline(agent.timeouts["setup"])
        agent.setup(agent.topology, agent.distribution, agent.company)
        return agent, {"ok": True}
    if agent is None:
        return None, {"error": f"{kind!r} before setup"}
    agent.deadline = _deadline(float(request.get("timeout", 1.0)))
    if kind == "bid":
        bid = agent.bid(task_from(request["task"]))
        return agent, {"bid": None if bid is None else float(bid)}
    if kind == "auction_result":
        agent.auction_result(task_from(request["task"]), request["winner"], request["bids"])
        return agent, {"ok": True}
    if kind == "plan":
        plans = agent.plan([vehicle_from(v) for v in request["vehicles"]], [task_from(t) for t in request["tasks"]])
        return agent, {"plans": [[a.to_json() for a in plan] for plan in plans]}
    return agent, {"error": f"unknown request {kind!r}"}


def serve(path: Path, requests: IO[str], replies: IO[str]) -> None:
    """Answer requests until the input ends; an agent's exception is an ``error`` reply."""
    agent: Agent | None = None
    for line in requests:
        try:
            agent, reply = _answer(agent, json.loads(line), path)
        except Exception as exc:  # the agent's own error: report it, keep serving
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


def main() -> None:
    """Entry point: the protocol on the original stdout, the agent's prints on stderr."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    serve(Path(sys.argv[1]), sys.stdin, protocol)


if __name__ == "__main__":
    main()

"""The calls the referee makes on an agent, one frozen type each.

The referee builds them; the Python worker receives them as they are (the referee's pipe is pickled:
it is trusted in that direction) and calls the agent; an agent program receives their
:meth:`to_json` form on its stdin (the ``apdp-agent/1`` protocol, ``docs/protocol.md``), which its
reference host reads back with :func:`call_from_json`. Each call names the reply it expects
(:data:`apdp.messages.replies.Expected`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from apdp.game.company import Company, Vehicle
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology, TopologyError, network_from_json
from apdp.messages.replies import Expected
from apdp.messages.strict import BadMessage, integer, keys, listing, mapping, number
from apdp.messages.values import (
    StatedDistribution,
    company_from_json,
    distribution_to_json,
    task_from_json,
    vehicle_from_json,
)
from apdp.messages.version import PROTOCOL as PROTOCOL  # its home: the exercises' calls share it

if TYPE_CHECKING:  # an exercise agent's setup also travels with the question of the protections
    from apdp.messages.exercise_calls import ExerciseSetupCall



@dataclass(frozen=True, slots=True)
class SetupCall:
    """Everything an agent is told before the first auction. ``path`` is the agent's file (for the
    worker: an agent program is never told it)."""

    name: ClassVar[str] = "setup"
    expects: ClassVar[Expected] = "setup"

    agent_id: int
    agents: int
    seed: int
    params: Mapping[str, Any]
    timeouts: Mapping[str, float]
    topology: Topology
    distribution: TaskDistribution
    company: Company
    path: str = field(default="", compare=False)
    #: The rules of play (:mod:`apdp.referee.match`): "apdp", or "logist" (the Logist platform's).
    rules: str = "apdp"

    def to_json(self) -> dict[str, Any]:
        out = {
            "type": "setup", "protocol": PROTOCOL, "agent_id": self.agent_id, "agents": self.agents,
            "seed": self.seed, "params": dict(self.params), "timeouts": dict(self.timeouts),
            "topology": self.topology.to_json(), "distribution": distribution_to_json(self.distribution),
            "company": self.company.to_json(),
        }
        if self.rules != "apdp":
            out["rules"] = self.rules
        return out


@dataclass(frozen=True, slots=True)
class BidCall:
    """Bid for ``task`` within ``timeout`` seconds."""

    name: ClassVar[str] = "bid"
    expects: ClassVar[Expected] = "bid"

    task: Task
    timeout: float

    def __reduce__(self) -> tuple[type[BidCall], tuple[Any, ...]]:
        return BidCall, (self.task, self.timeout)

    def to_json(self) -> dict[str, Any]:
        return {"type": "bid", "task": self.task.to_json(), "timeout": self.timeout}


@dataclass(frozen=True, slots=True)
class AuctionResultCall:
    """The auction of ``task`` is over: who won it (None: nobody) and every bid, by agent id."""

    name: ClassVar[str] = "auction_result"
    expects: ClassVar[Expected] = "ack"

    task: Task
    winner: int | None
    bids: tuple[float | None, ...]
    timeout: float

    def __reduce__(self) -> tuple[type[AuctionResultCall], tuple[Any, ...]]:
        return AuctionResultCall, (self.task, self.winner, self.bids, self.timeout)

    def to_json(self) -> dict[str, Any]:
        return {"type": "auction_result", "task": self.task.to_json(), "winner": self.winner,
                "bids": list(self.bids), "timeout": self.timeout}


@dataclass(frozen=True, slots=True)
class PlanCall:
    """Plan the company's ``vehicles`` (in order) for the ``tasks`` it won (in auction order)."""

    name: ClassVar[str] = "plan"
    expects: ClassVar[Expected] = "plan"

    vehicles: tuple[Vehicle, ...]
    tasks: tuple[Task, ...]
    timeout: float

    def __reduce__(self) -> tuple[type[PlanCall], tuple[Any, ...]]:
        return PlanCall, (self.vehicles, self.tasks, self.timeout)

    def to_json(self) -> dict[str, Any]:
        return {"type": "plan", "vehicles": [v.to_json() for v in self.vehicles],
                "tasks": [t.to_json() for t in self.tasks], "timeout": self.timeout}


Call = SetupCall | BidCall | AuctionResultCall | PlanCall


def _bids(value: object) -> tuple[float | None, ...]:
    return tuple(None if b is None else number(b, "a bid") for b in listing(value, "bids"))


def _setup_from_json(obj: Mapping[str, Any]) -> SetupCall:
    keys(obj, {"type", "protocol", "agent_id", "agents", "seed", "params", "timeouts", "topology",
               "distribution", "company"}, {"rules"}, "a setup call")
    rules = obj.get("rules", "apdp")
    if rules not in ("apdp", "logist"):
        raise BadMessage(f"rules must be apdp or logist, got {str(rules)[:40]!r}")
    if obj["protocol"] != PROTOCOL:
        raise BadMessage(f"protocol {str(obj['protocol'])[:40]!r}, expected {PROTOCOL!r}")
    try:
        topology = network_from_json(obj["topology"], "the setup call's topology")
    except TopologyError as exc:
        raise BadMessage(str(exc)) from None
    timeouts = {str(k): number(v, f"timeout {k}") for k, v in mapping(obj["timeouts"], "timeouts").items()}
    return SetupCall(
        integer(obj["agent_id"], "agent_id"), integer(obj["agents"], "agents"), integer(obj["seed"], "seed"),
        dict(mapping(obj["params"], "params")), timeouts, topology,
        StatedDistribution(topology, obj["distribution"]), company_from_json(obj["company"]), rules=rules,
    )


def call_from_json(value: object) -> Call:
    """The call of a request's :meth:`to_json` form; BadMessage says how it breaks the protocol."""
    obj = mapping(value, "a call")
    kind = obj.get("type")
    timeout = number(obj.get("timeout"), "timeout") if kind != "setup" else 0.0
    if kind == "setup":
        return _setup_from_json(obj)
    if kind == "bid":
        keys(obj, {"type", "task", "timeout"}, set(), "a bid call")
        return BidCall(task_from_json(obj["task"]), timeout)
    if kind == "auction_result":
        keys(obj, {"type", "task", "winner", "bids", "timeout"}, set(), "an auction_result call")
        winner = obj["winner"]
        return AuctionResultCall(task_from_json(obj["task"]), None if winner is None else integer(winner, "winner"),
                                 _bids(obj["bids"]), timeout)
    if kind == "plan":
        keys(obj, {"type", "vehicles", "tasks", "timeout"}, set(), "a plan call")
        return PlanCall(tuple(vehicle_from_json(v) for v in listing(obj["vehicles"], "vehicles")),
                        tuple(task_from_json(t) for t in listing(obj["tasks"], "tasks")), timeout)
    raise BadMessage(f"unknown call {str(kind)[:40]!r}")


#: The sandbox's own calls, besides the game's: an agent program's start (before its setup, see
#: :data:`apdp.agents.program.START_TIMEOUT`), the protections that are off, an agent program's build,
#: and the checks of ``apdp sandbox``.
SandboxCallName = Literal["start", "unprotected", "build", "probe", "probe_memory", "probe_idle", "probe_ran_on"]
_EXPECTS: dict[str, Expected] = {"start": "ack", "unprotected": "setup", "build": "build", "probe": "report",
                                 "probe_memory": "report", "probe_idle": "report", "probe_ran_on": "report"}


@dataclass(frozen=True, slots=True)
class SandboxCall:
    """One of the sandbox's own calls (never an agent's method): ``name`` with its ``args``."""

    name: SandboxCallName
    args: Any = None

    @property
    def expects(self) -> Expected:
        return _EXPECTS[self.name]


@dataclass(frozen=True, slots=True)
class TwoCalls:
    """Two calls in one request: the agent answers the first and, unless that answer is a fault,
    the second, each with its own reply. The referee sends an auction's result together with the
    next bid (or the plan) this way, so a 50-task match costs about half the round trips, and the
    question of the protections that are off together with an agent's setup (or start)."""

    first: Call | SandboxCall | ExerciseSetupCall
    second: Call | SandboxCall | ExerciseSetupCall

    def __reduce__(self) -> tuple[type[TwoCalls], tuple[Any, ...]]:
        return TwoCalls, (self.first, self.second)

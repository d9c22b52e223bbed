"""An agent's replies, decoded against one strict schema.

An agent owns its process: it can replace apdp's worker or write to the referee's socket itself, and
an agent program writes its replies itself, so every byte that comes back is hostile until it is
decoded here. :func:`decode_reply` accepts exactly the replies of the call that was made, with their
types, sizes, depth and number ranges, and returns a typed value; anything else raises
:class:`BadMessage` (the referee's ``bad_reply`` fault; an agent program's protocol error). Each reply
type has one encoding, its ``to_json``, which apdp's worker and the protocol's reference host send.
:func:`bid_reply` and :func:`plans_reply` turn what an agent's method returned into a reply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from apdp.game.auction import MAX_BID_TEXT, check_bid
from apdp.game.plan import Action, checked_action, plans_from_json, plans_to_json
from apdp.messages.exercise_replies import ActionReply, RouteReply, decode_exercise_reply
from apdp.messages.sizes import READ_BUILD_OUTPUT, READ_MESSAGE, READ_TRACEBACK
from apdp.messages.strict import BadMessage, integer, keys, parse_object, text

#: Most entries in a setup reply's list of protections that are off.
MAX_UNPROTECTED = 16
#: What a worker may say is off where it runs (:mod:`apdp.sandbox.confine`): these phrases and no other,
#: so that no agent can put words of its own in the notice a user reads.
UNPROTECTED_NOTES = frozenset({
    "private folder size cap (the user namespace may not mount)",
    "process count limit (root is exempt from RLIMIT_NPROC and no pids cgroup is writable)",
    "file, network and signal rules (Landlock missing)",
    "TCP rules (Landlock ABI < 4)",
    "signal and abstract socket scoping (Landlock ABI < 6)",
    "system call filter (no seccomp table for this machine's architecture)",
})

#: What a call expects back: the reply to ``setup``, ``bid``, ``auction_result`` (an acknowledgement),
#: ``plan``, an agent program's ``build``, or a report of ``apdp sandbox``'s checks; an exercise
#: agent's ``action`` (to ``act``) or ``route`` (to a deliberative ``plan``): see
#: :mod:`apdp.messages.exercise_replies`.
Expected = Literal["setup", "bid", "ack", "plan", "build", "report", "action", "route"]


@dataclass(frozen=True, slots=True)
class SetupDone:
    """The agent is set up; the protections its process could not put in force; the pid of an agent
    program's own process (its CPU is counted too)."""

    unprotected: tuple[str, ...] = ()
    program_pid: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": True}
        if self.unprotected:
            out["unprotected"] = list(self.unprotected)
        if self.program_pid is not None:
            out["program_pid"] = self.program_pid
        return out


@dataclass(frozen=True, slots=True)
class Ack:
    """A call that returns nothing went well (``auction_result``)."""

    def to_json(self) -> dict[str, Any]:
        return {"ok": True}


@dataclass(frozen=True, slots=True)
class BidReply:
    """The agent's bid as a number, or None to abstain; not yet checked against the bid rule."""

    value: float | None  # an int where the agent bid a whole number as an integer

    def to_json(self) -> dict[str, Any]:
        return {"bid": self.value}


@dataclass(frozen=True, slots=True)
class PlansReply:
    """One plan per vehicle, not yet checked against the rules of the game."""

    plans: tuple[tuple[Action, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"plans": plans_to_json(self.plans)}


@dataclass(frozen=True, slots=True)
class NotAValue:
    """The agent returned something that is not a bid (or not plans): what is wrong with it."""

    message: str

    def to_json(self) -> dict[str, Any]:
        return {"bad": self.message}


@dataclass(frozen=True, slots=True)
class AgentFailed:
    """The agent raised (``exception``) or ran out of memory (``memory``) in the call. An agent
    program's ``{"error": message}`` is an ``exception``, or its ``kind`` (``"memory"``)."""

    kind: Literal["exception", "memory"]
    message: str
    traceback: str | None = None
    #: The agent's file could not be imported (or defines no agent).
    load: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"fault": self.kind, "message": self.message}
        if self.traceback is not None:
            out["traceback"] = self.traceback
        if self.load:
            out["load"] = True
        return out


@dataclass(frozen=True, slots=True)
class BuildDone:
    """An agent program's build ended: its exit code and the tail of its output."""

    code: int
    output: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "output": self.output}


@dataclass(frozen=True, slots=True)
class Report:
    """What ``apdp sandbox``'s checks found inside a confined process (JSON, bounded)."""

    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


Reply = (SetupDone | Ack | BidReply | PlansReply | NotAValue | AgentFailed | BuildDone | Report | ActionReply
         | RouteReply)


def _failure(obj: Mapping[str, Any]) -> AgentFailed:
    keys(obj, {"fault", "message"}, {"traceback", "load"}, "a fault reply")
    kind = obj["fault"]
    if kind not in ("exception", "memory"):
        raise BadMessage(f"a fault reply of unknown kind {str(kind)[:40]!r}")
    tb = obj.get("traceback")
    load = obj.get("load", False)
    if not isinstance(load, bool):
        raise BadMessage("a fault reply's load must be true or false")
    return AgentFailed(
        kind, text(obj["message"], READ_MESSAGE, "a fault message"),
        None if tb is None else text(tb, READ_TRACEBACK, "a traceback"), load,
    )


def _ok(obj: Mapping[str, Any], what: str) -> None:
    if obj["ok"] is not True:
        raise BadMessage(f"{what}'s ok must be true (expected {{\"ok\": true}})")


def _setup(obj: Mapping[str, Any]) -> SetupDone:
    keys(obj, {"ok"}, {"unprotected", "program_pid"}, "a setup reply", '{"ok": true}')
    _ok(obj, "a setup reply")
    off = obj.get("unprotected", [])
    if not isinstance(off, list) or len(off) > MAX_UNPROTECTED:
        raise BadMessage(f"a setup reply's unprotected must be a list of at most {MAX_UNPROTECTED} strings")
    for o in off:  # printed on the user's terminal and kept in records: apdp's own words only
        if not isinstance(o, str) or o not in UNPROTECTED_NOTES:
            raise BadMessage("a setup reply's unprotected must name protections as apdp's worker does")
    pid = obj.get("program_pid")
    return SetupDone(tuple(off), None if pid is None else integer(pid, "a program pid"))


def _decode(obj: Mapping[str, Any], expected: Expected) -> Reply:
    if expected == "setup":
        return _setup(obj)
    if expected == "ack":
        keys(obj, {"ok"}, set(), "an acknowledgement", '{"ok": true}')
        _ok(obj, "an acknowledgement")
        return Ack()
    if expected in ("bid", "plan", "action", "route") and "bad" in obj:
        keys(obj, {"bad"}, set(), "a bad value reply")
        return NotAValue(text(obj["bad"], READ_MESSAGE, "a bad value message"))
    if expected == "bid":
        keys(obj, {"bid"}, set(), "a bid reply", '{"bid": number or null}')
        value = obj["bid"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise BadMessage(f"a bid must be a number or null, got {type(value).__name__}")
        return BidReply(value if value is None or isinstance(value, int) else float(value))
    if expected == "plan":
        keys(obj, {"plans"}, set(), "a plan reply", '{"plans": [[action, ...] per vehicle]}')
        return PlansReply(tuple(tuple(p) for p in plans_from_json(obj["plans"])))
    if expected == "action" or expected == "route":
        return decode_exercise_reply(obj, expected)
    if expected == "build":
        keys(obj, {"code", "output"}, set(), "a build reply")
        output = text(obj["output"], READ_BUILD_OUTPUT, "a build's output")
        return BuildDone(integer(obj["code"], "a build's exit code"), output)
    return Report(obj)


def decode_reply(raw: bytes, expected: Expected) -> Reply:
    """The reply ``raw`` to a call that expects ``expected`` (a fault, or an agent program's
    ``{"error": message}``, is accepted for every call); BadMessage says in one line how it breaks
    the schema."""
    obj = parse_object(raw)
    if "fault" in obj:
        return _failure(obj)
    if "error" in obj:
        keys(obj, {"error"}, {"kind"}, "an error reply")
        kind = obj.get("kind", "exception")
        if kind not in ("exception", "memory"):
            raise BadMessage(f"an error reply's kind must be exception or memory, got {str(kind)[:40]!r}")
        return AgentFailed(kind, text(obj["error"], READ_MESSAGE, "an error message"))
    try:
        return _decode(obj, expected)
    except BadMessage:
        raise
    except ValueError as exc:  # the plan's decoder names the bad action
        raise BadMessage(str(exc)) from None


def bid_reply(value: object) -> BidReply | NotAValue:
    """What an agent's ``bid`` returned, as a reply: a bid within the bid rule, or what is wrong."""
    if value is None:
        return BidReply(None)
    if isinstance(value, bool):
        return NotAValue(f"a bid must be a number or None (abstain), got bool {value!r}")
    if isinstance(value, int | np.integer):  # kept whole: a bid the platform's rule takes as the long it is
        whole = int(value)
        problem = check_bid(whole, "logist")
        return NotAValue(problem) if problem else BidReply(whole)
    if isinstance(value, float | np.floating | Decimal | Fraction):
        try:
            number = float(value)  # the nearest float
        except (OverflowError, ValueError):  # a huge int or Fraction; Decimal("sNaN")
            shown = str(value)
            return NotAValue(f"a bid must be a finite number up to {MAX_BID_TEXT}, got {type(value).__name__} "
                             f"{shown[:40]}{'...' if len(shown) > 40 else ''}")
        problem = check_bid(number, "logist")  # the widest rule: the referee applies the match's
        return NotAValue(problem) if problem else BidReply(number)
    return NotAValue(f"a bid must be a number or None (abstain), got {type(value).__name__} {value!r:.60}")


def plans_reply(value: object) -> PlansReply | NotAValue:
    """What an agent's ``plan`` returned, as a reply: one list of actions per vehicle, or what is
    wrong with it."""
    if not isinstance(value, list | tuple):
        return NotAValue(f"plan() must return a list of vehicle plans, got {type(value).__name__}")
    plans = []
    for v, plan in enumerate(value):
        if not isinstance(plan, list | tuple):
            return NotAValue(f"vehicle {v}: a plan must be a list of actions, got {type(plan).__name__}")
        actions = []
        for a, action in enumerate(plan):
            checked = checked_action(action, f"vehicle {v}, action {a}")
            if isinstance(checked, str):
                return NotAValue(checked)
            actions.append(checked)
        plans.append(tuple(actions))
    return PlansReply(tuple(plans))

"""The replies of an agent process, decoded against one strict schema.

An agent owns its process: it can replace apdp's worker or write to the referee's socket itself, so
every byte that comes back is hostile until it is decoded here. :func:`decode_reply` accepts exactly
the replies apdp's worker sends (:mod:`apdp.sandbox.worker`) for the call that was made, with their
types, sizes, depth and number ranges, and returns a typed value; anything else raises
:class:`BadReply`, which the referee turns into the agent's ``bad_reply`` fault. Nothing here raises
anything else, whatever the bytes (deep nesting, huge numbers, ``NaN``, invalid UTF-8).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.text import is_clean_line, valid_unicode

#: Largest reply read from an agent process, in bytes: a plan of 50 tasks takes about 20 KiB.
MAX_REPLY_BYTES = 1 << 20
#: Longest fault message and traceback accepted (the worker sends at most 2,000 and 8,000).
MAX_MESSAGE = 4_000
MAX_TRACEBACK = 16_000
#: Longest city name in a move, and most digits of an integer.
MAX_NAME = 200
MAX_DIGITS = 19
#: Most entries in a setup reply's list of protections that are off.
MAX_UNPROTECTED = 16
#: The longest name of a protection (with why it is off) a setup reply may give.
MAX_PROTECTION = 160

#: What a call expects back: the worker's reply to ``setup``, ``bid``, ``auction_result`` (an
#: acknowledgement), ``plan`` and ``build``, or a report of ``apdp sandbox``'s checks.
Expected = Literal["setup", "bid", "ack", "plan", "build", "report"]


class BadReply(Exception):
    """A reply outside the schema; the message says what was wrong, in one line."""


@dataclass(frozen=True, slots=True)
class SetupDone:
    """The agent is set up; the protections its process could not put in force; the pid of an agent
    program's own process (its CPU is counted too)."""

    unprotected: tuple[str, ...] = ()
    program_pid: int | None = None


@dataclass(frozen=True, slots=True)
class Ack:
    """A call that returns nothing went well (``auction_result``)."""


@dataclass(frozen=True, slots=True)
class BidReply:
    """The agent's bid as a number, or None to abstain; not yet checked against the bid rule."""

    value: float | None


@dataclass(frozen=True, slots=True)
class PlansReply:
    """One plan per vehicle, not yet checked against the rules of the game."""

    plans: tuple[tuple[Action, ...], ...]


@dataclass(frozen=True, slots=True)
class NotAValue:
    """The agent returned something that is not a bid (or not plans): the worker says what."""

    message: str


@dataclass(frozen=True, slots=True)
class AgentFailed:
    """The agent raised (``exception``) or ran out of memory (``memory``) in the call."""

    kind: Literal["exception", "memory"]
    message: str
    traceback: str | None = None
    #: The agent's file could not be imported (or defines no agent).
    load: bool = False


@dataclass(frozen=True, slots=True)
class BuildDone:
    """An agent program's build ended: its exit code and the tail of its output."""

    code: int
    output: str


@dataclass(frozen=True, slots=True)
class Report:
    """What ``apdp sandbox``'s checks found inside a confined process (JSON, bounded)."""

    data: Mapping[str, Any]


Reply = SetupDone | Ack | BidReply | PlansReply | NotAValue | AgentFailed | BuildDone | Report


def _number_too_long(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadReply(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadReply(f"a number out of range ({text[:40]})")
    return value


def _no_constant(text: str) -> object:
    raise BadReply(f"{text} is not a number")


def parse_json(raw: bytes) -> object:
    """Decode ``raw`` as strict JSON: UTF-8, no NaN or infinities, integers of at most
    :data:`MAX_DIGITS` digits, nesting within the interpreter's recursion limit; BadReply otherwise."""
    if len(raw) > MAX_REPLY_BYTES:
        raise BadReply(f"a reply of {len(raw)} bytes (at most {MAX_REPLY_BYTES})")
    try:
        text = raw.decode("utf-8")
        return json.loads(text, parse_int=_number_too_long, parse_float=_finite, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise BadReply("a reply that is not UTF-8") from None
    except RecursionError:
        raise BadReply("a reply nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or a number int() or float() refused
        raise BadReply(f"a reply that is not JSON ({str(exc)[:80]})") from None


def _keys(obj: Mapping[str, Any], required: set[str], optional: set[str], what: str) -> None:
    missing = required - obj.keys()
    extra = obj.keys() - required - optional
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"no {', '.join(sorted(missing))}")
        if extra:
            parts.append(f"unexpected {', '.join(sorted(repr(k)[:40] for k in extra)[:5])}")
        raise BadReply(f"{what}: {'; '.join(parts)}")


def _text(value: object, limit: int, what: str) -> str:
    if not isinstance(value, str):
        raise BadReply(f"{what} must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise BadReply(f"{what} of {len(value)} characters (at most {limit})")
    return valid_unicode(value)


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadReply(f"{what} must be an integer, got {type(value).__name__}")
    return value


def _failure(obj: Mapping[str, Any]) -> AgentFailed:
    _keys(obj, {"fault", "message"}, {"traceback", "load"}, "a fault reply")
    kind = obj["fault"]
    if kind not in ("exception", "memory"):
        raise BadReply(f"a fault reply of unknown kind {str(kind)[:40]!r}")
    tb = obj.get("traceback")
    load = obj.get("load", False)
    if not isinstance(load, bool):
        raise BadReply("a fault reply's load must be true or false")
    return AgentFailed(
        kind, _text(obj["message"], MAX_MESSAGE, "a fault message"),
        None if tb is None else _text(tb, MAX_TRACEBACK, "a traceback"), load,
    )


def _action(item: object, where: str) -> Action:
    if not (isinstance(item, list) and len(item) == 2):
        raise BadReply(f"{where}: an action must be [kind, argument]")
    kind, arg = item
    if kind == "move":
        return Move(_text(arg, MAX_NAME, f"{where}: a city"))
    if kind == "pickup":
        return Pickup(_int(arg, f"{where}: a task id"))
    if kind == "deliver":
        return Deliver(_int(arg, f"{where}: a task id"))
    raise BadReply(f"{where}: unknown action kind {str(kind)[:40]!r}")


def _plans(value: object) -> PlansReply:
    if not isinstance(value, list):
        raise BadReply("plans must be a list of vehicle plans")
    plans = []
    for v, plan in enumerate(value):
        if not isinstance(plan, list):
            raise BadReply(f"vehicle {v}: a plan must be a list of actions")
        plans.append(tuple(_action(item, f"vehicle {v}, action {a}") for a, item in enumerate(plan)))
    return PlansReply(tuple(plans))


def _setup(obj: Mapping[str, Any]) -> SetupDone:
    _keys(obj, {"ok", "unprotected"}, {"program_pid"}, "a setup reply")
    if obj["ok"] is not None:
        raise BadReply("a setup reply's ok must be null")
    off = obj["unprotected"]
    if not isinstance(off, list) or len(off) > MAX_UNPROTECTED:
        raise BadReply(f"a setup reply's unprotected must be a list of at most {MAX_UNPROTECTED} strings")
    pid = obj.get("program_pid")
    for o in off:  # printed as they are on the user's terminal: one plain line each
        if not isinstance(o, str) or len(o) > MAX_PROTECTION or not is_clean_line(o):
            raise BadReply(f"a setup reply's unprotected must hold plain lines of at most {MAX_PROTECTION} characters")
    return SetupDone(tuple(off),
                     None if pid is None else _int(pid, "a program pid"))


def _decode(obj: Mapping[str, Any], expected: Expected) -> Reply:
    if expected == "setup":
        return _setup(obj)
    if expected == "ack":
        _keys(obj, {"ok"}, set(), "an acknowledgement")
        if obj["ok"] is not None:
            raise BadReply("an acknowledgement's ok must be null")
        return Ack()
    if expected in ("bid", "plan") and "bad" in obj:
        _keys(obj, {"bad"}, set(), "a bad value reply")
        return NotAValue(_text(obj["bad"], MAX_MESSAGE, "a bad value message"))
    if expected == "bid":
        _keys(obj, {"bid"}, set(), "a bid reply")
        value = obj["bid"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise BadReply(f"a bid must be a number or null, got {type(value).__name__}")
        return BidReply(None if value is None else float(value))
    if expected == "plan":
        _keys(obj, {"plans"}, set(), "a plan reply")
        return _plans(obj["plans"])
    if expected == "build":
        _keys(obj, {"code", "output"}, set(), "a build reply")
        output = _text(obj["output"], MAX_TRACEBACK, "a build's output")
        return BuildDone(_int(obj["code"], "a build's exit code"), output)
    return Report(obj)


def decode_reply(raw: bytes, expected: Expected) -> Reply:
    """The reply ``raw`` to a call that expects ``expected`` (a fault reply is accepted for every
    call); BadReply says in one line how it breaks the schema."""
    obj = parse_json(raw)
    if not isinstance(obj, dict):
        raise BadReply(f"a reply must be a JSON object, got {type(obj).__name__}")
    if "fault" in obj:
        return _failure(obj)
    return _decode(obj, expected)

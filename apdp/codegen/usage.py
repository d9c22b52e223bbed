"""What a generation run spent: each model call's tokens (the API's ``usage``) and wall time.

Every agent that ``apdp codegen run`` writes carries, in its provenance, ``model_calls`` (one entry
per call so far: role, model, prompt/completion/total tokens, seconds) and ``usage`` (their totals),
so a report can put the cost of an agent next to its results. A server that sends no ``usage``
leaves the tokens of that call None (and the totals count what was reported).

A token figure is believed only when it is a whole number from 0 to a bound (:func:`token_count`):
:data:`MAX_CALL_TOKENS` for one call as the endpoint reports it, :data:`MAX_TOTAL_TOKENS` for a total
read back from stored provenance (a file anyone could have edited). Anything else (a fraction, a
negative, NaN, infinity, 1.7e308, a string) is unknown: None, never a crash and never summed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

TOKEN_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")
#: The most tokens one model call may claim (a million times a long reply); more is not believed.
MAX_CALL_TOKENS = 10**9
#: The most tokens a stored total (an agent's, a lineage's) may hold; more is not believed. Below
#: 2**53: exact as a float, and no sum, product or quotient of a report's can overflow.
MAX_TOTAL_TOKENS = 10**15


def token_count(value: Any, limit: int = MAX_CALL_TOKENS) -> int | None:
    """``value`` as a token count: a whole number from 0 to ``limit`` (an int, or a float with no
    fraction), else None (unknown)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            return None
        value = int(value)
    if not isinstance(value, int) or not 0 <= value <= limit:
        return None
    return value


def seconds_figure(value: Any) -> float | None:
    """``value`` as a duration in seconds: a finite number >= 0, else None (unknown)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        seconds = float(value)
    except OverflowError:  # an int past the largest float
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def clean_usage(usage: Any) -> dict[str, int | None] | None:
    """The token figures of a response's ``usage`` object, each checked by :func:`token_count` (None
    when there is no such object)."""
    if not isinstance(usage, Mapping):
        return None
    return {key: usage_tokens(usage, key) for key in TOKEN_FIELDS}


def usage_tokens(usage: Any, key: str) -> int | None:
    """The token figure ``key`` of a ``usage`` object (:func:`token_count`; None without one)."""
    return token_count(usage.get(key)) if isinstance(usage, Mapping) else None


@dataclass(frozen=True, slots=True)
class ModelCall:
    """One chat completion: who asked (generator, critic...), which model, tokens and seconds."""

    role: str
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    total_tokens: int | None
    seconds: float

    @classmethod
    def of(cls, role: str, model: str, usage: Any, seconds: float) -> ModelCall:
        """A call from the response's ``usage`` object (anything malformed counts as not reported)."""
        prompt, completion, total = (usage_tokens(usage, k) for k in TOKEN_FIELDS)
        if total is None and prompt is not None and completion is not None:
            total = prompt + completion
        return cls(role, model, prompt, completion, total, round(seconds, 3))


@dataclass
class UsageLog:
    """Every model call of one run, in order."""

    calls: list[ModelCall] = field(default_factory=list)

    def add(self, call: ModelCall) -> None:
        """Record one call."""
        self.calls.append(call)

    def totals(self) -> dict[str, Any]:
        """Calls, tokens of each kind and seconds summed over the run."""
        out: dict[str, Any] = {"calls": len(self.calls)}
        for key in TOKEN_FIELDS:
            out[key] = sum(getattr(c, key) or 0 for c in self.calls)
        out["seconds"] = round(sum(c.seconds for c in self.calls), 3)
        return out

    def provenance(self) -> dict[str, Any]:
        """The provenance fields: ``usage`` (totals) and ``model_calls`` (each call)."""
        return {"usage": self.totals(), "model_calls": [asdict(c) for c in self.calls]}

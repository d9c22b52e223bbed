"""What a generation run spent: each model call's tokens (the API's ``usage``) and wall time.

Every agent that ``apdp codegen run`` writes carries, in its provenance, ``model_calls`` (one entry
per call so far: role, model, prompt/completion/total tokens, seconds) and ``usage`` (their totals),
so a report can put the cost of an agent next to its results. A server that sends no ``usage``
leaves the tokens of that call None (and the totals count what was reported).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

TOKEN_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")


def _tokens(usage: Any, key: str) -> int | None:
    if not isinstance(usage, Mapping):
        return None
    value = usage.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return int(value)


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
        prompt, completion, total = (_tokens(usage, k) for k in TOKEN_FIELDS)
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

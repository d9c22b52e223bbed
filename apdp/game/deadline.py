"""A time budget handed to agents and planners instead of raw seconds."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point in time (``time.monotonic()`` clock) by which work must be done."""

    at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds)

    @classmethod
    def never(cls) -> Deadline:
        """A deadline that never expires."""
        return cls(float("inf"))

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return time.monotonic() >= self.at

    def sooner(self, seconds: float) -> Deadline:
        """The earlier of this deadline and ``seconds`` from now."""
        return Deadline(min(self.at, time.monotonic() + seconds))

    def minus(self, seconds: float) -> Deadline:
        """This deadline moved ``seconds`` earlier (a safety margin)."""
        return Deadline(self.at - seconds)

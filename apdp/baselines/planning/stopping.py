"""When a search stops, and how far along its schedule it is: small rules the search asks.

As PyVRP's ``stop/`` criteria: a search asks each of its :class:`StoppingRule` before every
iteration, and stops at the first that says so. The agents' searches are bounded by work, an
:class:`IterationBudget`, so that their plans depend on the seed only; :class:`AtDeadline` is then
only a safety cap, and a run it ended depends on the machine's speed (``SearchLog.clock_stops``).
A :class:`Schedule` tells how far along the run is (its cooling follows it): the budget's share
spent, or, for a search given no budget (``apdp plan`` without ``--iterations``), the share of
the time to its deadline gone (:class:`ElapsedTime`). :class:`NoImprovement` says when a run has
gone long enough without a new best solution (the LNS then goes back to the best one).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from apdp.game.deadline import Deadline


class StoppingRule(Protocol):
    """Asked before each iteration: True when the search stops, ``iteration`` iterations done."""

    def __call__(self, iteration: int) -> bool: ...


class Schedule(Protocol):
    """How far along a run is, from 0 (its start) to 1 (its end), ``iteration`` iterations done."""

    def progress(self, iteration: int) -> float: ...


@dataclass(frozen=True, slots=True)
class IterationBudget:
    """Stop after ``iterations`` iterations; the schedule is the share of them done."""

    iterations: int

    def __call__(self, iteration: int) -> bool:
        return iteration >= self.iterations

    def progress(self, iteration: int) -> float:
        return iteration / self.iterations


@dataclass(frozen=True, slots=True)
class AtDeadline:
    """Stop at ``deadline``: the safety cap of a search bounded by work (or the only end of one
    given no budget)."""

    deadline: Deadline

    def __call__(self, iteration: int) -> bool:
        return self.deadline.expired()


@dataclass(frozen=True, slots=True)
class ElapsedTime:
    """The schedule of a search given no budget: the share of the time from its start (when this
    is made) to ``deadline`` gone by (1 when there was none to go)."""

    deadline: Deadline
    start: float = field(default_factory=time.monotonic)

    def progress(self, iteration: int) -> float:
        span = self.deadline.at - self.start
        return (time.monotonic() - self.start) / span if span > 0 else 1.0


@dataclass(frozen=True, slots=True)
class NoImprovement:
    """``iterations`` iterations in a row without a new best solution (0: never)."""

    iterations: int

    def __call__(self, iteration: int, last_best: int) -> bool:
        """Whether the run has gone that long since its last best (found at ``last_best``)."""
        return bool(self.iterations) and iteration - last_best >= self.iterations

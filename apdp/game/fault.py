"""Faults: the closed set of ways an agent can lose a match by misbehaving."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

Phase = Literal["setup", "bid", "auction_result", "plan", "act", "plan_cancelled"]
#: The auction's phases.
PHASES: tuple[Phase, ...] = ("setup", "bid", "auction_result", "plan")
#: The phases of the course's other exercises: the call that faulted (reactive ``act``, a deliberative
#: or centralized ``plan``, a deliberative ``plan_cancelled``), or the agent's ``setup``.
EXERCISE_PHASES: tuple[Phase, ...] = ("setup", "act", "plan", "plan_cancelled")


class FaultKind(StrEnum):
    """What went wrong. The faulty agent loses its match; if all agents fault, nobody wins."""

    TIMEOUT = "timeout"
    EXCEPTION = "exception"
    BAD_BID = "bad_bid"
    INVALID_PLAN = "invalid_plan"
    PROCESS_DIED = "process_died"
    MEMORY = "memory"
    #: A message from the agent's process that breaks the referee's schema (its types, sizes,
    #: depth or number ranges): only a process that bypasses apdp's worker sends one.
    BAD_REPLY = "bad_reply"


@dataclass(frozen=True, slots=True)
class Fault:
    """A fault of one agent, kept in the match record."""

    agent: int
    kind: FaultKind
    phase: Phase
    task: int | None
    message: str

    def to_json(self) -> dict[str, object]:
        return {
            "agent": self.agent,
            "kind": str(self.kind),
            "phase": self.phase,
            "task": self.task,
            "message": self.message,
        }

    def __str__(self) -> str:
        on = f" on task {self.task}" if self.task is not None else ""
        return f"{self.kind} in {self.phase}{on}: {self.message}"

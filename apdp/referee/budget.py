"""A record's byte budget: a match record never takes more than ``limits.record_kb``.

The game itself (tasks, auctions, plans) is never cut: each company's plans may take an equal share
of what the game before them leaves (:meth:`RecordBudget.plan_share`), and a scenario that leaves
them too little is refused before any agent starts (:meth:`RecordBudget.check`). What agents wrote
(outputs, tracebacks, violations, messages) is cut to fit at the end (:meth:`RecordBudget.fit`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from apdp.game.plan import VehiclePlan, plans_to_json
from apdp.referee.record import fit_record
from apdp.scenario import Limits, ScenarioError

#: Room a record keeps for what is not the game (identities, faults, timing, outputs cut short).
RECORD_RESERVE = 24 * 1024
#: The least a company's plans may take in a record: below it, ``limits.record_kb`` is too small.
LEAST_PLAN_SHARE = 8 * 1024


@dataclass(frozen=True)
class RecordBudget:
    """The bytes a record of a match between ``agents`` agents may take (``limit``)."""

    limit: int
    agents: int

    @classmethod
    def of(cls, limits: Limits, agents: int) -> RecordBudget:
        return cls(limits.record_kb * 1024, agents)

    def output_kb(self, limits: Limits) -> int:
        """The most of an agent's output read: never more than a record can keep."""
        return min(limits.output_kb, self.limit // 1024)

    def check(self, tasks: int, cities: Sequence[str], identities: Sequence[dict[str, Any]]) -> None:
        """ScenarioError when a match of ``tasks`` tasks between cities named ``cities`` leaves a
        company's plans too little room."""
        longest = max((len(c.encode()) for c in cities), default=8)
        task_bytes = 64 + 2 * longest + 24 * self.agents  # a task and its auction, at most
        share = self.plan_share(tasks * task_bytes + len(json.dumps(identities)))
        if share < LEAST_PLAN_SHARE:
            least = (self.limit + (LEAST_PLAN_SHARE - share) * self.agents) // 1024 + 1
            raise ScenarioError(
                f"limits.record_kb = {self.limit // 1024} leaves too little room for the plans of "
                f"{tasks} tasks; set limits.record_kb to at least {least}"
            )

    def plan_share(self, game_bytes: int) -> int:
        """The bytes each company's plans may take in the record, beside ``game_bytes`` of game."""
        return (self.limit - RECORD_RESERVE - game_bytes) // self.agents

    @staticmethod
    def over_share(plans: Sequence[VehiclePlan], share: int) -> str | None:
        """Why ``plans`` do not fit a company's ``share`` of the record, or None when they do."""
        size = len(json.dumps(plans_to_json(plans), separators=(",", ":"), ensure_ascii=False).encode())
        if size <= share:
            return None
        actions = sum(len(p) for p in plans)
        return (f"plans of {actions} actions take {size} bytes, more than a company's share of the "
                f"record ({share} bytes, limits.record_kb): a plan never needs that many moves")

    def fit(self, record: dict[str, Any]) -> dict[str, Any]:
        """``record``, what agents wrote in it cut until it fits (:func:`apdp.referee.record.fit_record`)."""
        return fit_record(record, self.limit)

"""What the check of an agent plays: opponents, networks, tasks, seed and time limits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apdp.errors import UserError
from apdp.scenario import Scenario, load_scenario

DEFAULT_OPPONENTS = ("naive", "honest")
DEFAULT_TOPOLOGIES = ("france", "switzerland")
#: Played instead of a missing baseline.
FALLBACK_OPPONENT = "template"


@dataclass(frozen=True, slots=True)
class CheckConfig:
    """What the check plays: opponents, networks, tasks per match, seed and time limits.

    ``timeouts`` overrides the scenario's (keys ``setup``, ``bid``, ``plan``, in seconds);
    ``scenario`` is a base scenario file (None: the defaults).
    """

    opponents: tuple[str, ...] = DEFAULT_OPPONENTS
    topologies: tuple[str, ...] = DEFAULT_TOPOLOGIES
    tasks: int = 20
    seed: int = 1
    timeouts: Mapping[str, float] = field(default_factory=dict)
    scenario: str | Path | None = None

    def scenario_for(self, topology: str) -> Scenario:
        """The scenario of the check's matches on ``topology``."""
        overrides: dict[str, Any] = {"topology": topology, "tasks": self.tasks, "seed": self.seed}
        for key, value in self.timeouts.items():
            if key not in ("setup", "bid", "plan"):
                raise UserError(f"unknown time limit {key!r}; use setup, bid or plan")
            overrides[f"timeouts.{key}"] = value
        return load_scenario(self.scenario, overrides)

"""What a finished round says of one agent, the agent's side of every score, and the base of the
scores' types (frozen, with ``to_json`` and ``from_json``)."""

from __future__ import annotations

from typing import Any, Self

from pydantic import BaseModel, ConfigDict

from apdp.exercises.history import History
from apdp.exercises.round import Round


class ScoreModel(BaseModel):
    """A frozen result that reads back from its JSON exactly as it was."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data (a dict of plain values)."""
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """A result from :meth:`to_json`'s data; pydantic's ValidationError names a bad field."""
        return cls.model_validate(data)


class AgentOutcome(ScoreModel):
    """One agent's totals at the end of a round (S): agent ``index`` runs company ``index``."""

    index: int
    name: str
    reward: int
    distance_units: int
    cost: int
    profit: int
    #: How many of its company's vehicles drove or carried anything.
    vehicles_used: int
    vehicles: int

    @property
    def distance_km(self) -> float:
        """``total-distance``: km (units / 1000.0)."""
        return self.distance_units / 1000.0

    @classmethod
    def of_round(cls, round_: Round, index: int) -> AgentOutcome:
        """Agent ``index`` of a round that was run."""
        agent = round_.agents[index]
        totals = agent.totals()
        used = {e.vehicle for e in round_.events}
        return cls(index=index, name=agent.name, reward=totals.reward, distance_units=totals.distance_units,
                   cost=totals.cost, profit=totals.profit, vehicles=len(agent.vehicles),
                   vehicles_used=sum(v.name in used for v in agent.vehicles))

    @classmethod
    def of_history(cls, history: History, index: int) -> AgentOutcome:
        """Agent ``index`` of a finished history (its statistics are found by the agent's name: two
        agents of one name are told apart only by :meth:`of_round`)."""
        name, vehicles = history.agents[index]
        if sum(a == name for a, _ in history.agents) > 1:
            raise ValueError(f"two agents are named {name!r}: score them from the round (AgentOutcome.of_round)")
        stats = next((s for s in history.statistics if s.agent == name), None)
        if stats is None:
            raise ValueError(f"the history has no statistics of agent {name!r} (an unfinished round?)")
        used = {e.vehicle for e in history.events}
        return cls(index=index, name=name, reward=stats.total_reward, distance_units=stats.total_distance_units,
                   cost=stats.total_cost, profit=stats.total_profit, vehicles=len(vehicles),
                   vehicles_used=sum(v in used for v in vehicles))

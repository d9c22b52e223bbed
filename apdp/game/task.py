"""Tasks: the parcels that are auctioned."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Task:
    """A parcel of ``weight`` to carry from ``pickup`` to ``delivery`` (city names).

    ``reward`` is what the Logist platform would pay for it (its configurations draw one per task);
    None in apdp's own scenarios, where an agent earns its winning bid only.
    """

    id: int
    pickup: str
    delivery: str
    weight: float
    reward: int | None = None

    def __reduce__(self) -> tuple[type[Task], tuple[int, str, str, float, int | None]]:
        # pickled as its fields: several times faster than a slotted dataclass's own state
        return Task, (self.id, self.pickup, self.delivery, self.weight, self.reward)

    def to_json(self) -> dict[str, object]:
        """The task as in the record format (``reward`` only when the task has one)."""
        out: dict[str, object] = {"id": self.id, "pickup": self.pickup, "delivery": self.delivery,
                                  "weight": self.weight}
        if self.reward is not None:
            out["reward"] = self.reward
        return out

"""Tasks: the parcels that are auctioned."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Task:
    """A parcel of ``weight`` to carry from ``pickup`` to ``delivery`` (city names)."""

    id: int
    pickup: str
    delivery: str
    weight: float

    def to_json(self) -> dict[str, object]:
        """The task as in the record format."""
        return {"id": self.id, "pickup": self.pickup, "delivery": self.delivery, "weight": self.weight}

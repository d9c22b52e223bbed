"""Companies and their vehicles."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class Vehicle:
    """A vehicle: starts at ``home``, carries at most ``capacity``, costs ``cost_per_km`` to drive.
    ``speed`` (km/h) and ``color`` (``#rrggbb``) are a Logist configuration's, which its agents may
    read; they change nothing in the game (None: not given)."""

    name: str
    home: str
    capacity: float
    cost_per_km: float
    speed: float | None = None
    color: str | None = None

    def __reduce__(self) -> tuple[type[Vehicle], tuple[str, str, float, float, float | None, str | None]]:
        # pickled as its fields: several times faster than a slotted dataclass's own state
        return Vehicle, (self.name, self.home, self.capacity, self.cost_per_km, self.speed, self.color)

    def to_json(self) -> dict[str, object]:
        """The vehicle as in the record format: its fields (``speed`` and ``color`` where given)."""
        fields = asdict(self)
        for extra in ("speed", "color"):
            if fields[extra] is None:
                del fields[extra]
        return fields


@dataclass(frozen=True, slots=True)
class Company:
    """A logistics company: the fleet one agent runs."""

    name: str
    vehicles: tuple[Vehicle, ...]

    def to_json(self) -> dict[str, object]:
        """The company as in the record format."""
        return {"name": self.name, "vehicles": [v.to_json() for v in self.vehicles]}

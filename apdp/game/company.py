"""Companies and their vehicles."""

from __future__ import annotations

from dataclasses import dataclass


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
        """The vehicle as in the record format: its fields, in their order (``speed`` and ``color``
        where given). Built field by field: ``dataclasses.asdict`` deep-copies each value, and a
        match writes its companies twice (its record's size is measured before its plans)."""
        fields: dict[str, object] = {"name": self.name, "home": self.home, "capacity": self.capacity,
                                     "cost_per_km": self.cost_per_km}
        if self.speed is not None:
            fields["speed"] = self.speed
        if self.color is not None:
            fields["color"] = self.color
        return fields


@dataclass(frozen=True, slots=True)
class Company:
    """A logistics company: the fleet one agent runs."""

    name: str
    vehicles: tuple[Vehicle, ...]

    def to_json(self) -> dict[str, object]:
        """The company as in the record format."""
        return {"name": self.name, "vehicles": [v.to_json() for v in self.vehicles]}

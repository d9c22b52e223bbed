"""The record format ``apdp-record/1`` as types: what :func:`apdp.check.verify.verify_record` checks a
record's shape against (the layout is in :mod:`apdp.referee.record`). Every number of a record is
finite and at most :data:`MAX_FIGURE` in size; fields beyond these are kept as they are (the format
grows by adding fields, never renaming them).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from apdp.game.auction import BidRule
from apdp.game.company import Vehicle
from apdp.game.task import Task

#: The largest size of any figure of a record (revenues of a long match of Logist bids up to 2**63).
MAX_FIGURE = 1e24


def _in_range(value: int | float) -> int | float:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"must be a finite number, got {value}")
    if abs(value) > MAX_FIGURE:
        raise ValueError(f"must be at most {MAX_FIGURE:.0e} in size, got {value:.6g}")
    return value


#: A number of a record: finite, and at most MAX_FIGURE in size.
Number = Annotated[int | float, AfterValidator(_in_range)]


class RecordVehicle(BaseModel):
    """A vehicle of a company (:meth:`apdp.game.company.Vehicle.to_json`)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    name: str
    home: str
    capacity: Number
    cost_per_km: Number

    def vehicle(self) -> Vehicle:
        """The vehicle as the game knows it."""
        return Vehicle(self.name, self.home, self.capacity, self.cost_per_km)


class RecordCompany(BaseModel):
    """An agent's company and its vehicles."""

    model_config = ConfigDict(extra="allow", frozen=True)
    name: str
    vehicles: list[RecordVehicle]


class RecordTask(BaseModel):
    """An auctioned task (:meth:`apdp.game.task.Task.to_json`), in auction order."""

    model_config = ConfigDict(extra="allow", frozen=True)
    id: int = Field(ge=0, lt=2**63)
    pickup: str
    delivery: str
    weight: Number
    reward: int | None = None

    def task(self) -> Task:
        """The task as the game knows it."""
        return Task(self.id, self.pickup, self.delivery, self.weight, self.reward)


class RecordAuction(BaseModel):
    """One auction: the task's id, one bid per agent (None: abstained or faulted), the winner."""

    model_config = ConfigDict(extra="allow", frozen=True)
    task: int
    bids: list[Number | None]
    winner: int | None


class RecordViolation(BaseModel):
    """A broken rule of an invalid plan: where (vehicle, action, task; None where it has no place)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    vehicle: int | None
    action: int | None
    task: int | None
    message: str


class RecordFault(BaseModel):
    """An agent's fault (:meth:`apdp.game.fault.Fault.to_json`) and its details (``traceback``,
    ``import_error``, ``violations``)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    agent: int
    kind: str
    phase: Literal["setup", "bid", "auction_result", "plan"]
    task: int | None
    message: str
    traceback: str | None = None
    import_error: bool | None = None
    violations: list[RecordViolation] | None = None


class RecordResult(BaseModel):
    """The figures of each agent, the winner and the faults; ``referee_error`` where the referee
    itself failed (no figures then)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    revenue: list[Number]
    cost: list[Number]
    profit: list[Number]
    winner: int | None
    faults: list[RecordFault]
    referee_error: str | None = None
    #: Under the Logist platform's rules: the agents one of whose figures wrapped past 2**63 - 1.
    wrapped: list[int] | None = None


class MatchRecord(BaseModel):
    """A whole match record, as the referee returns it and every reader takes it. ``identities``,
    ``timing``, ``output`` and ``sandbox`` are what the referee adds beside the game; the fields
    :data:`apdp.referee.record.TIMING_FIELDS` name differ from run to run.

    The fields stand in the order a record is written; a field the referee leaves out (a default,
    or a field of later records) stays out of :meth:`to_json`, so that a record reads back, and
    is written again, as it was. It becomes JSON only where it is stored or written."""

    model_config = ConfigDict(extra="allow", frozen=True, serialize_by_alias=True)
    format: str
    #: The version of what the record holds (:data:`apdp.referee.record.RECORD_SCHEMA`); absent, 1.
    schema_version: int = Field(default=1, ge=1, alias="schema")  # ``schema`` is a method of BaseModel
    topology: str
    seed: int = Field(ge=0, lt=2**63)
    agents: list[str]
    identities: list[dict[str, Any]] | None = None
    companies: list[RecordCompany]
    tasks: list[RecordTask]
    auctions: list[RecordAuction]
    #: The settlement rule (:mod:`apdp.referee.record`): "delivered", or "won" for older records.
    settlement: Literal["won", "delivered", "logist"] = "won"
    #: The rules of play (:mod:`apdp.referee.match`): apdp's (absent), or the Logist platform's.
    rules: Literal["apdp", "logist"] = "apdp"
    network: dict[str, Any] | None = None
    ties: Literal["random", "first"] = "random"
    #: The bid rule (:func:`apdp.game.auction.check_bid`): apdp's, or the Logist platform's.
    bids: BidRule = "apdp"
    #: How a Logist configuration's tasks were drawn (:mod:`apdp.logist.tasks`); None on apdp's own game.
    task_draw: Literal["secret", "platform"] | None = None
    plans: list[list[list[Any]] | None]
    result: RecordResult
    timing: dict[str, Any] | None = None
    output: list[str] | None = None
    sandbox: dict[str, Any] | None = None

    @classmethod
    def read(cls, data: object) -> MatchRecord:
        """The record of ``data`` (a record's JSON, parsed); pydantic's ValidationError when it is
        not one."""
        return cls.model_validate(data)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON: the fields it was made with, in the order they are written."""
        return self.model_dump(exclude_unset=True)

    @property
    def referee_error(self) -> str | None:
        """Why the referee failed in this match, or None for a finished match."""
        return self.result.referee_error

    @property
    def faulty(self) -> set[int]:
        """The agents that faulted."""
        return {f.agent for f in self.result.faults}

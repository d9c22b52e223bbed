"""The laws a task distribution is written in: the ``[distribution]`` table of a scenario, checked.

A scenario's file (or a Logist configuration) states its distribution with these; the referee builds
the :class:`apdp.game.distribution.TaskDistribution` agents are given from them. Kept apart from that
class on purpose: an agent's process receives the distribution, never this schema, and so never loads
the library that checks it (pydantic: 8 MB more in every agent process, and its start).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: Which trips a pair law favours (see the module's docstring).
Policy = Literal["none", "short", "medium", "long"]


class Law(BaseModel):
    """Values ``constant`` or ``uniform`` in ``[min, max]``; each law sets the bounds' defaults and
    constraints, and may add fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    distribution: Literal["constant", "uniform"] = "constant"
    min: float
    max: float

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) must not exceed max ({self.max})")
        return self


class PairLaw(Law):
    """How likely each ordered pair of distinct cities is."""

    min: float = Field(0.0, ge=0.0)
    max: float = Field(1.0, gt=0.0)
    policy: Policy = "none"
    seed: int = 0


class WeightLaw(BaseModel):
    """How heavy a task is."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    distribution: Literal["constant", "uniform"] = "uniform"
    value: float = Field(3.0, gt=0.0)
    min: float = Field(1.0, gt=0.0)
    max: float = Field(10.0, gt=0.0)
    integer: bool = True

    @model_validator(mode="after")
    def _ordered(self) -> WeightLaw:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) must not exceed max ({self.max})")
        if self.integer and self.distribution == "uniform" and int(self.min) != self.min:
            raise ValueError("with integer weights, min and max must be whole numbers")
        return self


class DistributionSpec(BaseModel):
    """The task distribution as written in a scenario file (``[distribution]``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pairs: PairLaw = PairLaw()
    weight: WeightLaw = WeightLaw()

"""Scenarios: the network, companies, number of tasks, time limits and seed of a match.

A scenario is a TOML file (``--scenario file.toml``) whose every field is optional::

    topology = "france"
    tasks = 50                 # never told to agents
    seed = 7
    [timeouts]                 # seconds
    setup = 10
    bid = 2.5
    plan = 5
    [limits]
    memory_mb = 1024           # per agent, all its processes together
    output_kb = 64             # of stdout+stderr kept per agent
    record_kb = 256            # the most a match's record may take
    [distribution.weight]      # see apdp.game.distribution
    distribution = "uniform"
    min = 1
    max = 10
    [[companies]]              # default: the network's own two companies
    name = "Company A"
    [[companies.vehicles]]
    name = "A1"
    home = "Paris"
    capacity = 30
    cost_per_km = 5
    [agents.my-agent]          # parameters, read with Agent.param
    margin = 1.2

A Logist configuration (``--scenario config/auction.xml``, :mod:`apdp.logist.config`) is read as a
scenario too: its network, time limits, companies and tasks under the configuration's laws
(``logist_tasks``, :mod:`apdp.logist.tasks`), with the platform's tie rule (``ties = "first"``),
bids (``bids = "logist"``) and rules of play (``rules = "logist"``). Its tasks are drawn from the
match's secret stream (``task_draw = "secret"``), or as the platform draws them from the file's
``rngSeed`` (``task_draw = "platform"``, ``--platform-tasks``), which anyone with the file foresees.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from apdp.errors import UserError
from apdp.game.auction import BidRule
from apdp.game.company import Company, Vehicle
from apdp.game.distribution import TaskDistribution
from apdp.game.laws import DistributionSpec
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.logist.tasks import LogistDistribution, LogistTasks, draw_logist_tasks
from apdp.lookup import normalise_name
from apdp.scenario.networks import load_topology


class ScenarioError(UserError):
    """A scenario file or value is invalid."""


class VehicleSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    home: str
    capacity: float = Field(gt=0)
    cost_per_km: float = Field(gt=0)
    #: km/h, as a Logist configuration gives it (its agents may read it; the game does not use it).
    speed: float | None = Field(None, gt=0)
    #: ``#rrggbb``, as a Logist configuration gives it (its agents may read it).
    color: str | None = Field(None, pattern=r"^#[0-9a-fA-F]{6}$")


class CompanySpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    vehicles: list[VehicleSpec] = Field(min_length=1)


class Timeouts(BaseModel):
    """Hard time limits in seconds, enforced from outside the agent's process."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    setup: float = Field(10.0, gt=0, le=3600)
    bid: float = Field(2.5, gt=0, le=3600)
    plan: float = Field(5.0, gt=0, le=3600)


class Limits(BaseModel):
    """Resource limits of each agent process."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_mb: int = Field(1024, ge=64)
    output_kb: int = Field(64, ge=0, le=65536)
    #: Size cap of the agent's private folder (its working directory, $HOME and $TMPDIR), and of
    #: what an agent program's build writes.
    disk_mb: int = Field(256, ge=1)
    #: Files and folders the private folder (and a build's output) may hold.
    disk_files: int = Field(4096, ge=16)
    #: Processes and threads the agent may run at once.
    processes: int = Field(64, ge=1)
    #: Files the agent may hold open at once.
    open_files: int = Field(256, ge=16)
    #: The longest an agent program's build may take, in seconds (its agent.toml may ask for less).
    build_timeout: float = Field(300.0, gt=0, le=3600)
    #: The most a match's record may take, in KiB: what agents wrote (output, tracebacks) is cut to
    #: fit, and a company's plans may not take more than their share.
    record_kb: int = Field(256, ge=32, le=1024 * 1024)
    #: Confine agent processes (see ``apdp sandbox``); off only to measure what confinement costs.
    sandbox: bool = True


class Scenario(BaseModel):
    """Everything that defines a match but the agents."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    topology: str = "france"
    companies: list[CompanySpec] | None = None
    tasks: int = Field(50, ge=1, le=100_000)
    seed: int = Field(0, ge=0, lt=2**63)
    timeouts: Timeouts = Timeouts()
    limits: Limits = Limits()
    distribution: DistributionSpec = DistributionSpec()
    agents: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: Equal lowest bids: ``random`` by the match's seeded generator, ``first`` to the company listed
    #: first (the Logist platform's rule).
    ties: Literal["random", "first"] = "random"
    #: Which bids are valid (:func:`apdp.game.auction.check_bid`): ``apdp`` (0 to 1e12) or ``logist``
    #: (the Logist platform's: any Java long, negative included).
    bids: BidRule = "apdp"
    #: The rules of play: ``apdp``'s own (a faulty agent abstains from then on and the match goes on;
    #: each call has its own time limit; money in floats) or the Logist platform's (``logist``: the
    #: first fault ends the game, which goes to the others; an auction's result is told inside the
    #: time limit of the agent's next call; bids, revenues and costs are Java longs). See
    #: :mod:`apdp.referee.record`.
    rules: Literal["apdp", "logist"] = "apdp"
    #: Draw the tasks as the Logist platform does (a Logist configuration's ``<tasks>``); None: apdp's
    #: own draw from ``distribution`` and the match's seed.
    logist_tasks: LogistTasks | None = None
    #: How the tasks of a Logist configuration (``logist_tasks``) are drawn: ``secret``, from the match's
    #: secret stream under the configuration's laws (no agent can foresee them), or ``platform``, the
    #: platform's own draw from the file's ``rngSeed`` (the same in every match, foreseeable by anyone with
    #: the file: for comparing with the platform).
    task_draw: Literal["secret", "platform"] = "secret"

    @model_validator(mode="after")
    def _draw_of_a_configuration(self) -> Scenario:
        if self.task_draw == "platform" and self.logist_tasks is None:
            raise ValueError("the platform's task draw (--platform-tasks) needs a Logist configuration: "
                             "give --scenario FILE.xml")
        return self

    @property
    def platform_draw(self) -> bool:
        """Whether the tasks are the Logist platform's own draw (``task_draw = "platform"``)."""
        return self.logist_tasks is not None and self.task_draw == "platform"

    def load_topology(self) -> Topology:
        """The scenario's network."""
        return load_topology(self.topology)

    def build_companies(self, topology: Topology, count: int) -> list[Company]:
        """The ``count`` companies of a match, checked against the network."""
        specs = self.companies
        where = "scenario companies"
        if specs is None:
            where = f"default companies of {topology.source}"
            try:
                specs = [CompanySpec.model_validate(c) for c in topology.default_companies]
            except ValidationError as exc:
                raise ScenarioError(f"{where}: {_first_error(exc)}") from None
        if len(specs) < count:
            raise ScenarioError(
                f"{count} agents need {count} companies but the {where} define {len(specs)}; "
                "add [[companies]] to a scenario file"
            )
        companies = []
        for c, spec in enumerate(specs[:count]):
            vehicles = []
            for v, vs in enumerate(spec.vehicles):
                if vs.home not in topology:
                    raise ScenarioError(
                        f"{where}: company {c} vehicle {v} ({vs.name}): home {vs.home!r} is not a "
                        f"city of {topology.name}"
                    )
                vehicles.append(Vehicle(vs.name, vs.home, vs.capacity, vs.cost_per_km, vs.speed, vs.color))
            companies.append(Company(spec.name, tuple(vehicles)))
        return companies

    def distribution_for(self, topology: Topology) -> TaskDistribution:
        """The scenario's task distribution on ``topology``."""
        if self.logist_tasks is not None:
            return LogistDistribution(topology, self.logist_tasks, self.tasks, platform_draw=self.platform_draw)
        return TaskDistribution(topology, self.distribution)

    def draw_tasks(self, topology: Topology, distribution: TaskDistribution,
                   rng: np.random.Generator) -> list[Task]:
        """The match's tasks in auction order: from ``rng``, or the Logist platform's draw."""
        if self.logist_tasks is not None and self.task_draw == "platform":
            return draw_logist_tasks(topology, self.logist_tasks, self.tasks)
        return distribution.sample_tasks(rng, self.tasks)

    def params_for(self, agent: str, registry: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        """Parameters of ``agent``: the registry file's, overridden by the scenario's."""
        out: dict[str, Any] = {}
        for source in (registry, self.agents):
            for name, params in source.items():
                if normalise_name(name) == normalise_name(agent):
                    out.update(params)
        return out


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"]) or "scenario"
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown field"
    value = err.get("input")
    shown = "" if isinstance(value, dict | list) or value is None else f" (got {value!r})"
    return f"{loc}: {msg}{shown}"


def make_scenario(data: Mapping[str, Any], source: str = "scenario") -> Scenario:
    """Validate scenario data; a bad value raises ScenarioError naming the field and what is allowed."""
    try:
        return Scenario.model_validate(dict(data))
    except ValidationError as exc:
        raise ScenarioError(f"{source}: {_first_error(exc)}") from None


def _read_scenario_file(path: Path) -> dict[str, Any]:
    """The data of a scenario file: TOML, or a Logist configuration when it ends in ``.xml``."""
    if path.suffix.lower() == ".xml":
        from apdp.logist.config import read_configuration

        return read_configuration(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read scenario ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML ({exc})") from None


def load_scenario(path: str | Path | None, overrides: Mapping[str, Any] | None = None) -> Scenario:
    """Read a scenario TOML file, or a Logist configuration (``.xml``), or defaults when None, and
    apply command-line overrides.

    Overrides are dotted keys (``{"timeouts.bid": 1.0, "seed": 3}``); None values are ignored.
    """
    data: dict[str, Any] = {}
    source = "scenario"
    if path is not None:
        source = str(path)
        data = _read_scenario_file(Path(path))
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        node = data
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return make_scenario(data, source)


def validate_agent_count(names: Sequence[str]) -> None:
    """A match needs at least two agents."""
    if len(names) < 2:
        raise ScenarioError(f"a match needs at least 2 agents, got {len(names)}: give --agents A B")

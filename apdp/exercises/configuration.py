"""A course configuration of the reactive, deliberative or centralized exercise, read as the
platform reads it (``<settings>``, ``<topology>``, ``<tasks>``, ``<companies>``; ``mode=`` and
``<agents>`` are not read: an agent's kind is its own).

::

    <tasks number="10" rngSeed="3590420242192152424">
      <probability distribution="uniform" min="0.0" max="1.0"/>
      <reward distribution="constant" policy="short-distances" min="1000" max="99999"/>
      <weight distribution="constant" value="3"/>
      <no-task distribution="uniform" min="0.2" max="0.4"/>   <!-- optional -->
    </tasks>

Imports are found as :func:`apdp.logist.config.resolve_import` finds them. Vehicles keep the
platform's units: ``speed`` km/h becomes ``(long)(speed * 1000)`` units per simulated hour.

The same configuration in apdp's TOML form (:func:`read_exercise` reads either, by the file's
suffix; ``scenarios/exercises/`` ships the course's on the four networks)::

    exercise = "reactive"          # the XML's mode=
    topology = "france"            # a network's name (or a file, relative to this one)
    tasks = 10                     # <tasks number>
    seed = 3590420242192152424     # <tasks rngSeed>
    [timeouts]                     # seconds (timeout-setup, timeout-plan); 30 when absent
    setup = 300
    plan = 300
    [laws.probability]             # <probability>, <reward>, <weight>, <no-task> (optional)
    distribution = "uniform"
    min = 0.0
    max = 1.0
    [laws.reward]
    distribution = "constant"
    policy = "short"               # short-, medium-, long-distances; none when absent
    min = 1000
    max = 99999
    [laws.weight]
    distribution = "constant"
    value = 3                      # min = max = value
    [[companies]]
    name = "Company A"
    [[companies.vehicles]]
    name = "Vehicle 1"
    home = "Paris"
    capacity = 30                  # whole numbers, as the platform reads them
    cost_per_km = 5
    speed = 220                    # km/h; 120 when absent
    [agents.my-agent]              # parameters of agent my-agent (over its params.toml's)
    discount = 0.9
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from apdp.exercises.topology import LogistTopology
from apdp.game.topology import Topology, TopologyError
from apdp.logist.config import read_companies, read_configuration_root, read_tasks, read_timeouts
from apdp.logist.distances import road_units
from apdp.logist.tasks import LogistTasks
from apdp.logist.topology import load_logist_topology
from apdp.logist.xmlfile import MAX_XML_BYTES, LogistFileError
from apdp.reading import ReadRefused, read_regular
from apdp.scenario.networks import load_topology
from apdp.scenario.settings import ScenarioError

#: The exercises a configuration may name (its ``mode=``, a TOML file's ``exercise``).
Exercise = Literal["reactive", "deliberative", "centralized"]
EXERCISES: tuple[Exercise, ...] = ("reactive", "deliberative", "centralized")

#: The slowest and fastest vehicle apdp plays (km/h): the round's clock steps by the simulated hour,
#: so a vehicle at 0.001 km/h took the referee minutes over one road.
MIN_SPEED, MAX_SPEED = 10.0, 1e6
#: The largest network an exercise plays (the course's have at most 30 cities; the platform's
#: shortest paths are worked out for every pair, in cubic time) and its longest road (km).
MAX_CITIES, MAX_ROAD_KM = 300, 50_000.0

#: The platform's time limits when the settings name none (ms).
DEFAULT_TIMEOUT_MS = 30_000


def platform_timeout_ms(configured_ms: int) -> int:
    """What ``LogistSettings.get(TimeoutKey)`` returns for a configured limit: the value + value/100."""
    return configured_ms + configured_ms // 100


@dataclass(frozen=True)
class VehicleSpec:
    """A ``<vehicle>`` of a company: ``speed`` in units (km x 1000) per simulated hour."""

    name: str
    home: str
    capacity: int
    cost_per_km: int
    speed: int


@dataclass(frozen=True)
class CompanySpec:
    """A ``<company>`` and its vehicles, in file order."""

    name: str
    vehicles: tuple[VehicleSpec, ...]


@dataclass(frozen=True)
class ExerciseConfiguration:
    """A course configuration: its network, task laws and number, companies and time limits."""

    source: str
    network: Topology
    topology: LogistTopology
    tasks: int
    laws: LogistTasks
    companies: tuple[CompanySpec, ...]
    #: ``timeout-setup`` and ``timeout-plan`` as configured (ms; 30000 when absent). The platform
    #: allows each call :func:`platform_timeout_ms` of it.
    timeouts_ms: dict[str, int]
    #: The exercise the file names (the XML's ``mode=``, which the platform never reads; a TOML
    #: file's ``exercise``); None when it names none of the three.
    exercise: Exercise | None = None
    #: Agents' parameters by agent name (a TOML file's ``[agents.NAME]``, as an auction scenario's;
    #: a Logist XML's ``<agents>`` is not read, as the auction does not read it).
    agent_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The seed of the stream a round's batch and offers are drawn from (apdp's secret draw: a keyed
    #: derivation of the round's secret, :func:`apdp.referee.seeding.task_seed`); None: the
    #: platform's own stream from ``rngSeed``, which anyone with the file foresees. Never read from
    #: a file: the referee sets it for a round (:mod:`apdp.exercises.distribution`).
    draws: int | None = None

    def tasks_key(self) -> tuple[object, ...]:
        """What decides its rounds' tasks and offers, and so their references: the file and network,
        the laws, the number of tasks, the companies and the draws."""
        return (self.source, self.network.name, self.laws.model_dump_json(), self.tasks, self.companies, self.draws)


class SameTasks:
    """A configuration hashed and compared by :meth:`ExerciseConfiguration.tasks_key`: references
    worked out for one serve every configuration that draws the same rounds (a cache's key)."""

    def __init__(self, configuration: ExerciseConfiguration) -> None:
        self.configuration = configuration
        self.key = configuration.tasks_key()

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SameTasks) and self.key == other.key


def playable(network: Topology, where: str) -> LogistTopology:
    """``network`` as the platform holds it, when an exercise can be played on it in reasonable time
    (:data:`MAX_CITIES`, :data:`MAX_ROAD_KM`); ScenarioError naming the file otherwise."""
    if len(network.cities) > MAX_CITIES:
        raise ScenarioError(f"{where}: {network.name} has {len(network.cities)} cities; an exercise plays "
                            f"networks of at most {MAX_CITIES}")
    longest = max((r.distance for r in network.roads), default=0.0)
    if longest > MAX_ROAD_KM:
        raise ScenarioError(f"{where}: {network.name} has a road of {longest:g} km; an exercise plays roads of at "
                            f"most {MAX_ROAD_KM:g} km (its clock steps by the simulated hour)")
    return LogistTopology.of(network)


def read_exercise(path: str | Path) -> ExerciseConfiguration:
    """Read a course configuration (``config/reactive.xml``, ...) or its TOML form (``.toml``); a
    broken one raises LogistFileError (XML) or ScenarioError (TOML), in one line."""
    config = Path(path)
    if config.suffix.lower() == ".toml":
        return read_exercise_toml(config)
    root, topology_file = read_configuration_root(config)
    where = str(config)
    network = load_logist_topology(topology_file)
    number, fields = read_tasks(root, where)  # <no-task> included
    laws = LogistTasks.model_validate(fields)
    read = read_companies(root, where, network)
    for c in read:
        for v in c["vehicles"]:
            if not MIN_SPEED <= float(v["speed"]) <= MAX_SPEED:
                raise LogistFileError(f"{where}: vehicle {v['name']!r}: speed {float(v['speed']):g} km/h; apdp plays "
                                      f"{MIN_SPEED:g} to {MAX_SPEED:g} km/h")
    companies = tuple(
        CompanySpec(c["name"], tuple(
            VehicleSpec(v["name"], v["home"], int(v["capacity"]), int(v["cost_per_km"]), road_units(float(v["speed"])))
            for v in c["vehicles"]))
        for c in read
    )
    seconds = read_timeouts(config, root)
    timeouts = {key: round(seconds[key] * 1000) if key in seconds else DEFAULT_TIMEOUT_MS for key in ("setup", "plan")}
    mode = root.get("mode")
    exercise = next((e for e in EXERCISES if e == mode), None)
    return ExerciseConfiguration(where, network, playable(network, where), number, laws, companies, timeouts,
                                 exercise)


class _Vehicle(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    home: str
    capacity: int = Field(gt=0)
    cost_per_km: int = Field(gt=0)
    speed: float = Field(120.0, ge=MIN_SPEED, le=MAX_SPEED, allow_inf_nan=False)
    color: str | None = Field(None, pattern=r"^#[0-9a-fA-F]{6}$")


class _Company(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    vehicles: list[_Vehicle] = Field(min_length=1)


class _Timeouts(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    setup: float = Field(DEFAULT_TIMEOUT_MS / 1000, gt=0, le=3600)
    plan: float = Field(DEFAULT_TIMEOUT_MS / 1000, gt=0, le=3600)


class _ExerciseFile(BaseModel):
    """A course configuration in apdp's TOML form (see the module's docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    exercise: Exercise
    topology: str = Field(min_length=1)
    tasks: int = Field(ge=1, le=100_000)
    seed: int = Field(ge=-(2**63), lt=2**63)
    timeouts: _Timeouts = _Timeouts()
    laws: dict[str, dict[str, Any]]
    companies: list[_Company] = Field(min_length=1)
    agents: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @field_validator("laws")
    @classmethod
    def _laws(cls, laws: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        out = {}
        for name, law in laws.items():
            if "value" in law:  # the platform's value="v": min = max = v
                law = {k: v for k, v in law.items() if k != "value"} | {"min": law["value"], "max": law["value"]}
            out[name] = law
        return out


def _toml_error(path: Path, exc: ValidationError, within: str = "") -> ScenarioError:
    err = exc.errors()[0]
    where = within + ".".join(str(p) for p in err["loc"]) or "file"
    message = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
    value = err.get("input")
    shown = "" if isinstance(value, dict | list) or value is None else f" (got {value!r:.60})"
    return ScenarioError(f"{path}: {where}: {message}{shown}")


def _network(path: Path, name: str) -> Topology:
    """A network by name, or a file named relative to the scenario's folder (or the working directory)."""
    candidate = path.parent / name
    try:
        return load_topology(str(candidate) if name.endswith((".toml", ".xml")) and candidate.is_file() else name)
    except (TopologyError, OSError) as exc:
        raise ScenarioError(f"{path}: topology: {exc}") from None


def read_exercise_toml(path: Path) -> ExerciseConfiguration:
    """A course configuration in apdp's TOML form; a broken file raises ScenarioError in one line."""
    try:
        data = tomllib.loads(read_regular(path, MAX_XML_BYTES).decode("utf-8"))
    except ReadRefused as exc:
        raise ScenarioError(f"{path}: cannot read the exercise's scenario: {exc}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not UTF-8 text (an exercise's scenario is a TOML file)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML ({exc})") from None
    try:
        spec = _ExerciseFile.model_validate(data)
    except ValidationError as exc:
        raise _toml_error(path, exc) from None
    try:
        laws = LogistTasks.model_validate({"rng_seed": spec.seed, **spec.laws})
    except ValidationError as exc:
        raise _toml_error(path, exc, "laws.") from None
    network = _network(path, spec.topology)
    companies = []
    for c in spec.companies:
        for v in c.vehicles:
            if v.home not in network:
                raise ScenarioError(f"{path}: company {c.name!r} vehicle {v.name!r}: home {v.home!r} is not a city "
                                    f"of {network.name}")
        companies.append(CompanySpec(c.name, tuple(VehicleSpec(v.name, v.home, v.capacity, v.cost_per_km,
                                                               road_units(v.speed)) for v in c.vehicles)))
    timeouts = {"setup": round(spec.timeouts.setup * 1000), "plan": round(spec.timeouts.plan * 1000)}
    return ExerciseConfiguration(str(path), network, playable(network, str(path)), spec.tasks, laws, tuple(companies),
                                 timeouts, spec.exercise, spec.agents)

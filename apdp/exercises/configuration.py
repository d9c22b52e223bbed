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
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from apdp.exercises.topology import LogistTopology
from apdp.game.topology import Topology
from apdp.logist.config import read_companies, read_configuration_root, read_tasks, read_timeouts
from apdp.logist.distances import road_units
from apdp.logist.tasks import LogistTasks
from apdp.logist.topology import load_logist_topology

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


def read_exercise(path: str | Path) -> ExerciseConfiguration:
    """Read a course configuration (``config/reactive.xml``, ...); a broken one raises LogistFileError."""
    config = Path(path)
    root, topology_file = read_configuration_root(config)
    where = str(config)
    network = load_logist_topology(topology_file)
    number, fields = read_tasks(root, where)  # <no-task> included
    laws = LogistTasks.model_validate(fields)
    companies = tuple(
        CompanySpec(c["name"], tuple(
            VehicleSpec(v["name"], v["home"], int(v["capacity"]), int(v["cost_per_km"]), road_units(float(v["speed"])))
            for v in c["vehicles"]))
        for c in read_companies(root, where, network)
    )
    seconds = read_timeouts(config, root)
    timeouts = {key: round(seconds[key] * 1000) if key in seconds else DEFAULT_TIMEOUT_MS for key in ("setup", "plan")}
    return ExerciseConfiguration(where, network, LogistTopology.of(network), number, laws, companies, timeouts)

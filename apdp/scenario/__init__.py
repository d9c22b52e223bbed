"""A scenario: everything about a match but its agents (network, task distribution, number of tasks,
time and resource limits), from a TOML file, a Logist configuration or the command line."""

from apdp.scenario.networks import available_topologies, load_topology, remember_topology, topology_dirs
from apdp.scenario.settings import (
    CompanySpec,
    Limits,
    Scenario,
    ScenarioError,
    Timeouts,
    VehicleSpec,
    load_scenario,
    make_scenario,
    validate_agent_count,
)

__all__ = [
    "CompanySpec",
    "Limits",
    "Scenario",
    "ScenarioError",
    "Timeouts",
    "VehicleSpec",
    "available_topologies",
    "load_scenario",
    "load_topology",
    "make_scenario",
    "remember_topology",
    "topology_dirs",
    "validate_agent_count",
]

"""A tournament's configuration: the field, the networks, the seeds and the base scenario.

The configuration is stored with the results; a resume must present the same one. The job count and
the output folder are not part of it: they do not change any outcome.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apdp.agents.discovery import available_agents, check_names_apart, find_agent
from apdp.agents.exercise_kind import agent_kind
from apdp.agents.files import agent_hash
from apdp.errors import UserError
from apdp.scenario import Scenario, load_scenario
from apdp.scenario.networks import available_topologies, load_topology

#: Version tag of the stored configuration.
CONFIG_FORMAT = "apdp-tournament/1"


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's outcomes.

    ``scenario`` is the base scenario of every match: its ``topology`` and ``seed`` are replaced by
    each match's own. ``agent_files`` holds a SHA-256 of each agent's file, so that a resume after
    an agent was edited is refused rather than mixing two versions of it. ``agent_paths`` (not
    stored) are the files the workers load, so they do not depend on the workers' search path.
    """

    agents: tuple[str, ...]
    topologies: tuple[str, ...]
    seed: int
    repeat: int
    scenario: Scenario
    agent_files: tuple[str, ...]
    agent_paths: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The configuration as stored with the results."""
        return {
            "format": CONFIG_FORMAT,
            "agents": list(self.agents),
            "topologies": list(self.topologies),
            "seed": self.seed,
            "repeat": self.repeat,
            "scenario": self.scenario.model_dump(
                mode="json",
                # the draw is a Logist configuration's alone: other stored tournaments keep their configuration
                exclude={"topology", "seed"} | (set() if self.scenario.logist_tasks is not None else {"task_draw"}),
            ),
            "agent_files": dict(zip(self.agents, self.agent_files, strict=True)),
        }


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def config_difference(stored: Mapping[str, Any], current: Mapping[str, Any]) -> str | None:
    """A short phrase naming the first difference between two stored configurations, or None."""
    order = ["format", "agents", "topologies", "seed", "repeat", "scenario", "agent_files"]
    keys = order + sorted((set(stored) | set(current)) - set(order))
    for key in keys:
        old, new = stored.get(key), current.get(key)
        if old == new:
            continue
        if key == "agent_files" and isinstance(old, dict) and isinstance(new, dict):
            changed = sorted(a for a in set(old) & set(new) if old[a] != new[a])
            if changed and set(old) == set(new):
                return f"the file of agent {changed[0]!r} changed since the run started"
        if key == "scenario" and isinstance(old, dict) and isinstance(new, dict):
            for field in sorted(set(old) | set(new)):
                if old.get(field) != new.get(field):
                    return (
                        f"scenario.{field} differs (stored {_short(old.get(field))}, "
                        f"now {_short(new.get(field))})"
                    )
        return f"{key} differs (stored {_short(old)}, now {_short(new)})"
    return None


def from_earlier_apdp(stored: Mapping[str, Any], current: Mapping[str, Any]) -> bool:
    """Whether ``stored`` was written by an earlier apdp: its scenario lacks fields this one writes."""
    old, new = stored.get("scenario"), current.get("scenario")
    return isinstance(old, dict) and isinstance(new, dict) and bool(set(new) - set(old))


def grows(stored: Mapping[str, Any], current: Mapping[str, Any]) -> bool:
    """Whether ``current`` only adds to the tournaments of ``stored``: more agents (the stored ones with
    the same files), networks or tournaments per network, and nothing else changed. Every stored match
    is then a match of ``current`` with the same seeds (a match's seeds depend on its pair, network and
    tournament seed alone: :func:`apdp.tournament.schedule.match_seed`)."""
    rest = {"agents", "topologies", "repeat", "agent_files"}
    if any(stored.get(k) != current.get(k) for k in (set(stored) | set(current)) - rest):
        return False
    old_files, new_files = stored.get("agent_files"), current.get("agent_files")
    if not isinstance(old_files, dict) or not isinstance(new_files, dict):
        return False
    return (
        set(stored.get("agents") or ()) <= set(current.get("agents") or ())
        and all(new_files.get(a) == h for a, h in old_files.items())
        and set(stored.get("topologies") or ()) <= set(current.get("topologies") or ())
        and int(stored.get("repeat", 1)) <= int(current.get("repeat", 1))
    )


def resolve_agents(names: Sequence[str] | None) -> list[tuple[str, str]]:
    """(name, file) of each agent named, or of every agent found (shipped and the user's) when ``names``
    is None: every auction agent, that is (an agent of the course's other exercises plays another game)."""
    if names is None:
        sources = [s for s in available_agents() if agent_kind(s.path) in (None, "auction")]
    else:
        sources = [find_agent(n) for n in names]
    seen: set[str] = set()
    for s in sources:
        if s.name in seen:
            raise UserError(f"--agents names {s.name!r} twice; a field lists each agent once")
        seen.add(s.name)
    check_names_apart(sources)
    if len(sources) < 2:
        raise UserError(
            f"a tournament needs at least 2 agents, got {len(sources)}: give --agents a,b"
        )
    return [(s.name, str(s.path)) for s in sources]


def resolve_topologies(spec: str) -> list[str]:
    """Network names from ``all`` or a comma-separated list of names, codes or aliases."""
    names = available_topologies() if spec.strip().lower() == "all" else spec.split(",")
    out: list[str] = []
    for name in names:
        name = name.strip()
        if not name:
            raise UserError(f"--topology {spec!r} has an empty name; give e.g. france or all")
        loaded = load_topology(name)
        # a network given as a file stays a (absolute) path, so that workers can load it too
        is_file = name.endswith(".toml") or os.sep in name
        canonical = str(Path(name).resolve()) if is_file else loaded.name
        if canonical not in out:
            out.append(canonical)
    return out


def make_config(
    *,
    topology: str | None,
    agents: Sequence[str] | None,
    seed: int = 0,
    repeat: int = 1,
    scenario_file: str | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> TournamentConfig:
    """Check every option and build the configuration; a bad one raises UserError (one line).

    ``topology`` None takes the scenario's network; ``agents`` None takes every agent found;
    ``overrides`` are scenario overrides (``{"tasks": 5, "timeouts.bid": 1.0}``, None ignored).
    """
    if repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {repeat}")
    if not 0 <= seed < 2**62:
        raise UserError(f"--seed must be in [0, 2**62), got {seed}")
    scenario = load_scenario(scenario_file, overrides)
    topologies = resolve_topologies(topology if topology is not None else scenario.topology)
    field = resolve_agents(agents)
    for t in topologies:
        scenario.build_companies(load_topology(t), 2)  # a bad company setup fails now, not later
    return TournamentConfig(
        agents=tuple(name for name, _ in field),
        topologies=tuple(topologies),
        seed=seed,
        repeat=repeat,
        scenario=scenario,
        agent_files=tuple(agent_hash(path) for _, path in field),
        agent_paths=tuple(path for _, path in field),
    )

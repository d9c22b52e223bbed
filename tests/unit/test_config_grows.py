"""A results store may grow to a larger field (a study adds a model or a sample), never change."""

from __future__ import annotations

from typing import Any

from apdp.tournament.config import grows

STORED: dict[str, Any] = {
    "format": "apdp-tournament/1", "agents": ["a", "b"], "topologies": ["france"], "seed": 1, "repeat": 1,
    "scenario": {"tasks": 5}, "agent_files": {"a": "1", "b": "2"},
}


def test_more_agents_networks_or_seeds_grow_the_store() -> None:
    assert grows(STORED, {**STORED, "agents": ["a", "b", "c"], "agent_files": {"a": "1", "b": "2", "c": "3"}})
    assert grows(STORED, {**STORED, "topologies": ["france", "switzerland"], "repeat": 2})


def test_anything_else_is_another_tournament() -> None:
    assert not grows(STORED, {**STORED, "agent_files": {"a": "1", "b": "changed"}})
    assert not grows(STORED, {**STORED, "agents": ["a"], "agent_files": {"a": "1"}})
    assert not grows(STORED, {**STORED, "seed": 2})
    assert not grows(STORED, {**STORED, "scenario": {"tasks": 6}})
    assert not grows(STORED, {**STORED, "repeat": 0})

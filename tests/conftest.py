"""Shared fixtures: the hostile zoo and fast scenarios."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from apdp.scenario import Scenario, make_scenario

ZOO = Path(__file__).parent / "zoo"


def fast_scenario(**fields: Any) -> Scenario:
    """A short match with short time limits, for tests."""
    data: dict[str, Any] = {"tasks": 8, "timeouts": {"setup": 2.0, "bid": 1.0, "plan": 2.0}}
    data.update(fields)
    return make_scenario(data)


@pytest.fixture
def zoo() -> Path:
    return ZOO

"""Shared fixtures: the hostile zoo and fast scenarios."""

from __future__ import annotations

from collections.abc import Iterator
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


@pytest.fixture(scope="session", autouse=True)
def _key_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fixed per-user key (apdp.seeding) for the whole run: tests never touch the real home,
    and matches played without a key are the same on every run."""
    path = tmp_path_factory.mktemp("apdp-key") / "key"
    path.write_text("5e" * 32 + "\n")
    path.chmod(0o600)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APDP_KEY_FILE", str(path))
        yield path

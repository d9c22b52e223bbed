"""Shared fixtures and checks: the hostile zoo, fast scenarios, one core per match."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apdp.scenario import Scenario, make_scenario
from apdp.tournament.store import ResultsStore

ZOO = Path(__file__).parent / "zoo"
TEMPLATE = Path(__file__).resolve().parent.parent / "agents" / "template.py"


def folder_agent(parent: Path, name: str, code: str) -> Path:
    """A Python agent folder ``parent/name``: ``agent.py`` holds ``code``, beside a copy of the
    template (``from template import Template``: an agent file alone could not import it)."""
    folder = parent / name
    folder.mkdir(parents=True)
    (folder / "agent.py").write_text(code)
    shutil.copy(TEMPLATE, folder / "template.py")
    return folder


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
    """A fixed per-user key (apdp.referee.seeding) for the whole run: tests never touch the real home,
    and matches played without a key are the same on every run; and a core lock folder
    (apdp.sandbox.cores) of this test process's own."""
    path = tmp_path_factory.mktemp("apdp-key") / "key"
    path.write_text("5e" * 32 + "\n")
    path.chmod(0o600)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APDP_KEY_FILE", str(path))
        # the cores of this test process's own: tests running side by side each pin their matches
        cores = tmp_path_factory.mktemp("apdp-cores")
        cores.chmod(0o700)
        patch.setenv("APDP_CORES_DIR", str(cores))
        yield path


def assert_one_core_per_match(out: Path, matches: int) -> None:
    """Both agents of each stored match bid (tests/zoo/core_bidder.py) the same single core."""
    cores = os.sched_getaffinity(0)
    store = ResultsStore.open(out)
    try:
        records = [store.record(m.key) for m in store.matches()]
        bids = [{bid for auction in r["auctions"] for bid in auction["bids"]} for r in records if r is not None]
    finally:
        store.close()
    assert len(bids) == matches
    for match in bids:  # both agents of a match, at every auction, on the same single core
        assert len(match) == 1, match
        (bid,) = match
        assert bid is not None and bid // 1000 == 1 and int(bid) % 1000 in cores, bid

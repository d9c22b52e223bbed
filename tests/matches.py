"""What tests need to play matches: a short scenario, a Python agent folder made on the spot, and the
check that every match ran on one core."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from apdp.scenario import Scenario, make_scenario
from apdp.tournament.store import ResultsStore
from tests.paths import TEMPLATE


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


def assert_one_core_per_match(out: Path, matches: int) -> None:
    """Both agents of each stored match bid (tests/data/zoo/core_bidder.py) the same single core."""
    cores = os.sched_getaffinity(0)
    store = ResultsStore.open(out)
    try:
        records = [store.record(m.match_id) for m in store.matches()]
        bids = [{bid for auction in r["auctions"] for bid in auction["bids"]} for r in records if r is not None]
    finally:
        store.close()
    assert len(bids) == matches
    for match in bids:  # both agents of a match, at every auction, on the same single core
        assert len(match) == 1, match
        (bid,) = match
        assert bid is not None and bid // 1000 == 1 and int(bid) % 1000 in cores, bid

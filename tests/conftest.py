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


#: Each test file's layer, a pytest marker (``pytest -m unit`` runs the rules, plans, seeds,
#: schedules, statistics and store in seconds; ``-m "not browser and not java"`` skips the slow
#: outside parts). Files not named here are ``integration``: they play real sandboxed matches.
LAYERS = {
    "unit": {
        "test_cli_help.py", "test_layers.py", "test_logist_draw.py",
        "test_planning_insertion.py", "test_planning_search.py", "test_progress_lines.py", "test_rules.py",
        "test_shortest_paths.py", "test_standings.py", "test_topology.py", "test_tournament_store.py",
    },
    "sandbox": {
        "test_attacks.py", "test_sandbox.py", "test_hostile_replies.py", "test_agent_files.py", "test_builds.py",
        "test_kernel_memory.py", "test_unprivileged.py", "test_zoo.py", "test_cpu.py", "test_programs.py",
    },
    "browser": {"test_pages_browser.py"},
    "java": {"test_java.py", "test_logist_api.py"},
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        name = item.path.name
        layer = next((layer for layer, files in LAYERS.items() if name in files), "integration")
        item.add_marker(getattr(pytest.mark, layer))

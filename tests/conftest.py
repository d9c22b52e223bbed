"""Fixtures of every layer: a fixed key and core lock folder for the run, the scripted chat server,
the compiled Java host's cache."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from apdp.agents.java.jdk import NoJdk, find_jdk
from tests.chat import ChatServer, serve_chat


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


@pytest.fixture
def server() -> Iterator[ChatServer]:
    """A scripted chat-completions server on loopback (tests/chat.py)."""
    with serve_chat() as chat:
        yield chat


def _need_jdk() -> None:
    """Skip without a JDK, saying why; except under CI (CI=true), where the Java tests must run."""
    try:
        find_jdk()
    except NoJdk as exc:
        if os.environ.get("CI") == "true":
            raise  # CI installs a JDK: the Java tests must run there
        pytest.skip(f"Java agents not tested: {exc}")


@pytest.fixture(scope="session")
def java_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The compiled Java host's cache for this run (not the user's): shared by the workers of the
    run, so the host is compiled once. Skips without a JDK (:func:`_need_jdk`)."""
    _need_jdk()
    root = tmp_path_factory.getbasetemp()
    shared = root.parent if root.name.startswith("popen-gw") else root
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(shared / "java-cache"))
        yield shared / "java-cache"


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
    "java": {"test_java.py"},
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        name = item.path.name
        layer = next((layer for layer, files in LAYERS.items() if name in files), "integration")
        item.add_marker(getattr(pytest.mark, layer))

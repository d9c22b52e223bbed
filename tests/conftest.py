"""Each test's layer, from its folder; and fixtures of every layer: a fixed key and core lock folder
for the run, the scripted chat server, the compiled Java host's cache."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from apdp.agents.java.jdk import NoJdk, find_jdk
from tests.chat import ChatServer, serve_chat

#: pytester runs pytest on made-up folders (tests/integration/test_pytest_plugin.py).
pytest_plugins = ["pytester"]


@pytest.fixture(scope="session", autouse=True)
def _secret_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fixed per-user key (apdp.referee.seeding) for the whole run: tests never touch the real home,
    and matches played without a key are the same on every run; and a core lock folder
    (apdp.sandbox.cores) of this test process's own."""
    path = tmp_path_factory.mktemp("apdp-key") / "key"
    path.write_text("5e" * 32 + "\n")
    path.chmod(0o600)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APDP_SECRET_FILE", str(path))
        # the cores of this test process's own: tests running side by side each pin their matches
        cores = tmp_path_factory.mktemp("apdp-cores")
        cores.chmod(0o700)
        patch.setenv("APDP_CORES_DIR", str(cores))
        yield path


@pytest.fixture(autouse=True)
def _ctrl_c_as_a_terminal_has_it() -> Iterator[None]:
    """Give Ctrl-C back its handler after each test: ``apdp.cli.main`` run in the test's process ignores
    SIGINT once its work is done, and a process started later would inherit the ignoring (Python then
    installs no KeyboardInterrupt handler in it), so that a later test's Ctrl-C would be lost."""
    before = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture
def server() -> Iterator[ChatServer]:
    """A scripted chat-completions server on loopback (tests/chat.py)."""
    with serve_chat() as chat:
        yield chat


def _need_jdk() -> None:
    """Skip without a JDK or the Logist platform's libraries, saying why; except under CI (CI=true),
    where the Java tests must run."""
    from apdp.agents.java.libraries import LIBRARIES

    try:
        find_jdk()
    except NoJdk as exc:
        if os.environ.get("CI") == "true":
            raise  # CI installs a JDK: the Java tests must run there
        pytest.skip(f"Java agents not tested: {exc}")
    missing = [lib.package for lib in LIBRARIES if not lib.installed]
    if missing and os.environ.get("CI") != "true":  # CI installs them too
        pytest.skip(f"Java agents not tested: the Logist platform's libraries are missing (apt-get install "
                    f"{' '.join(missing)})")


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


#: The layers of the tests, each a folder of tests/ and the pytest marker of the tests in it:
#: ``pytest -m unit`` runs in seconds; ``-m "not browser and not java"`` skips what needs Chromium
#: or a JDK. Markers are registered in pyproject.toml (``--strict-markers``).
LAYERS = ("unit", "sandbox", "integration", "browser", "java")
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test of tests/ with its layer: the folder it sits in. (Tests from elsewhere, such
    as the agent checks of ``pytest --apdp-agent``, are not the project's.)"""
    for item in items:
        path = item.path.resolve()
        if not path.is_relative_to(TESTS):
            continue
        folder = path.relative_to(TESTS).parts[0]
        if folder not in LAYERS:
            where = ", ".join(f"tests/{layer}/" for layer in LAYERS)
            raise pytest.UsageError(f"{item.path}: a test goes in the folder of its layer, one of {where}")
        item.add_marker(getattr(pytest.mark, folder))

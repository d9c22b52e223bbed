"""A unit test starts no process: here, starting one fails the test, naming the layer to move it to."""

from __future__ import annotations

import _posixsubprocess
import os
import subprocess
from typing import Any

import pytest


def _refuse(*args: Any, **kwargs: Any) -> Any:
    # pytest.fail is no Exception: code under test that catches every Exception cannot swallow it
    pytest.fail("a unit test starts no process: one that does belongs in tests/integration/ "
                "(or tests/sandbox/, tests/java/)")


@pytest.fixture(autouse=True)
def _no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """subprocess, multiprocessing and os.fork/posix_spawn/system all go through these."""
    monkeypatch.setattr(subprocess.Popen, "_execute_child", _refuse)
    monkeypatch.setattr(_posixsubprocess, "fork_exec", _refuse)
    for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, _refuse)

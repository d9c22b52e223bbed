"""What the browser tests share: the headless Chromium they drive (one per test module), found on
PATH or at ``$APDP_CHROMIUM``; in CI a missing one fails the tests instead of skipping them."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


def chromium() -> str | None:
    """The Chromium to drive: $APDP_CHROMIUM, else the first on PATH."""
    given = os.environ.get("APDP_CHROMIUM")
    if given:
        return given
    return next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)


def missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the browser tests must run in CI, but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed (pip install -e '.[test]')")
    executable = chromium()
    if executable is None:
        missing("there is no Chromium on PATH (apt-get install chromium, or set APDP_CHROMIUM)")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()

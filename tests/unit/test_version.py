"""apdp's version: the package's metadata is ``apdp.__version__``; the CHANGELOG has an entry for the
version pyproject.toml gives, with the schema versions of stores and records it writes."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata

import apdp
from apdp.referee.record import RECORD_SCHEMA
from apdp.tournament.migrations import STORE_SCHEMA
from tests.paths import ROOT


def test_version_is_the_installed_package_s() -> None:
    assert apdp.__version__ == metadata.version("apdp")


def test_the_changelog_has_the_version_and_its_schemas() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d\d-\d\d$", changelog, re.M)
    row = re.search(rf"^\| {re.escape(version)} +\| (\d+) .*\| (\d+) .*\|$", changelog, re.M)
    assert row is not None and (int(row[1]), int(row[2])) == (STORE_SCHEMA, RECORD_SCHEMA)

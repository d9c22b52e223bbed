"""Provenance counts only where the organiser's harness wrote it: a ledger line is signed with a key
derived from the per-user secret, and a line anyone else wrote beside an agent (forged, tampered
with, signed with another user's secret, or written before apdp signed its ledgers) vouches for
nothing; the identity says so, for the report to tell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apdp.agents.files import agent_hash
from apdp.agents.identity import agent_identity
from apdp.agents.provenance import LEDGER, SIGNATURE, Provenance, read_provenance, record_generated
from tests.paths import TEMPLATE

CODE = TEMPLATE.read_text(encoding="utf-8").replace("class Template", "class Student")


def _agent(folder: Path) -> Path:
    """A student's hand-written agent file, in a folder of its own."""
    folder.mkdir(parents=True)
    path = folder / "student.py"
    path.write_text(CODE, encoding="utf-8")
    return path


def _line(path: Path, **extra: object) -> str:
    """A ledger line for the file at ``path`` as the harness wrote it before it signed (a model's claim)."""
    entry = {"file": path.name, "sha256": agent_hash(path),
             "provenance": {"model": "gpt-x", "strategy": "a1", "round": 0, "prompt_hash": None, "date": None},
             **extra}
    return json.dumps(entry, sort_keys=True) + "\n"


def test_a_forged_ledger_line_beside_an_agent_makes_it_no_models(tmp_path: Path) -> None:
    path = _agent(tmp_path / "student")
    (path.parent / LEDGER).write_text(_line(path), encoding="utf-8")  # one forged line
    assert read_provenance(path) is None
    identity = agent_identity("student", path)
    assert (identity["origin"], identity["provenance"], identity["ledger"]) == ("hand-written", None, "unsigned")
    (path.parent / LEDGER).write_text(_line(path, **{SIGNATURE: "0" * 64}), encoding="utf-8")
    assert agent_identity("student", path)["origin"] == "hand-written"


def test_only_a_line_signed_with_this_users_secret_vouches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _agent(tmp_path / "agents")
    record_generated(path, Provenance("gpt-x", "a1", 0, None, "2025-01-01"))
    identity = agent_identity("student", path)
    assert identity["origin"] == "generated" and identity["provenance"]["model"] == "gpt-x"
    assert "ledger" not in identity
    signed = (path.parent / LEDGER).read_text(encoding="utf-8")

    # the same line with another model: its signature no longer holds
    (path.parent / LEDGER).write_text(signed.replace('"gpt-x"', '"gpt-y"'), encoding="utf-8")
    assert read_provenance(path) is None

    # a line signed by another user's apdp (another secret)
    other = tmp_path / "other-secret"
    other.write_text("17" * 32 + "\n", encoding="ascii")
    other.chmod(0o600)
    (path.parent / LEDGER).unlink()
    with monkeypatch.context() as patch:
        patch.setenv("APDP_SECRET_FILE", str(other))
        record_generated(path, Provenance("gpt-x", "a1", 0, None, "2025-01-01"))
        assert read_provenance(path) is not None  # that user's apdp trusts it
    assert read_provenance(path) is None and agent_identity("student", path)["ledger"] == "unsigned"

    # the last signed line counts, whatever unsigned lines follow it
    (path.parent / LEDGER).write_text(signed + _line(path).replace("gpt-x", "gpt-z"), encoding="utf-8")
    assert (read_provenance(path) or {}).get("model") == "gpt-x"

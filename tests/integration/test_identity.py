"""Every match record and tournament store keeps each agent's identity as it played."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from apdp.agents.discovery import BUNDLED_TEMPLATE
from apdp.agents.files import agent_hash as file_hash
from apdp.agents.identity import agent_identity
from apdp.codegen.ingest import ingest_code
from apdp.referee.match import play_match
from tests.matches import fast_scenario

TEMPLATE = BUNDLED_TEMPLATE.read_text(encoding="utf-8")


def test_a_record_keeps_hash_origin_provenance_and_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agents = tmp_path / "agents"
    ingest_code(TEMPLATE.replace("class Template", "class Gen"), "gen", agents_dir=agents, model="model-x",
                strategy="a1", prompt_hash="abc")
    (agents / "mine.py").write_text(TEMPLATE.replace("class Template", "class Mine"))
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    record = play_match(fast_scenario(tasks=2), ["gen", "template"], seed=1).to_json()
    gen, template = record["identities"]
    assert (template["name"], template["origin"], template["provenance"]) == ("template", "baseline", None)
    assert template["sha256"] == file_hash(BUNDLED_TEMPLATE) and template["file"] == "template.py"
    assert template["apdp"] == metadata.version("apdp")
    assert (gen["origin"], gen["provenance"]["model"], gen["provenance"]["strategy"]) == ("generated", "model-x", "a1")
    assert gen["sha256"] == file_hash(agents / "gen.py")
    assert agent_identity("mine", agents / "mine.py")["origin"] == "hand-written"

"""A generated agent plays a tournament by name, and reports pool agents by provenance."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from apdp.codegen.ingest import ingest_code
from apdp.tournament.config import make_config
from apdp.tournament.report import report
from apdp.tournament.run import run_tournament
from apdp.tournament.store import ResultsStore
from tests.paths import TEMPLATE as TEMPLATE_PATH

TEMPLATE = TEMPLATE_PATH.read_text(encoding="utf-8")


def test_generated_agents_play_by_name_and_group_by_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agents = tmp_path / "agents"
    for name, model, strategy in (("gen-a", "model-x", "a1"), ("gen-b", "model-y", "ir")):
        ingest_code(TEMPLATE.replace("class Template", "class Generated"), name, agents_dir=agents,
                    model=model, strategy=strategy, prompt_hash="abc")
    (agents / "hand.py").write_text(TEMPLATE.replace("class Template", "class Hand"), encoding="utf-8")
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    config = make_config(topology="france", agents=["gen-a", "gen-b", "hand", "template"], overrides={"tasks": 4})
    result = run_tournament(config, tmp_path / "out", jobs=2, progress=False)
    assert result.played == 12 and result.errors == 0

    by_model = json.loads(report([tmp_path / "out"], "json", group_by="model"))
    groups = {g["group"]: g for g in by_model["groups"]}
    assert set(groups) == {"model-x", "model-y", "human", "baseline"}
    assert groups["model-x"]["agents"] == ["gen-a"] and groups["baseline"]["agents"] == ["template"]
    assert sum(g["wins"] + g["draws"] + g["losses"] for g in groups.values()) == 2 * 12
    by_both = report([tmp_path / "out"], "table", group_by="provenance")
    assert "Groups by provenance" in by_both and "model-y / ir" in by_both
    by_strategy = json.loads(report([tmp_path / "out"], "json", group_by="strategy"))
    assert {g["group"] for g in by_strategy["groups"]} == {"a1", "ir", "human", "baseline"}

    # the groups are what was stored when the agents played, not the files present now
    store = ResultsStore.open(tmp_path / "out")
    stored = store.identities()
    record = store.record(next(iter(store.finished_keys())))
    store.close()
    assert stored["gen-a"]["provenance"]["model"] == "model-x" and stored["template"]["origin"] == "baseline"
    assert record is not None and [i["name"] for i in record["identities"]] == record["agents"]
    shutil.rmtree(agents)
    monkeypatch.delenv("APDP_AGENTS")
    again = json.loads(report([tmp_path / "out"], "json", group_by="model"))
    assert again["groups"] == by_model["groups"] and again["notes"] == []

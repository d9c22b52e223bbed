"""A generated agent plays a tournament by name, and reports pool agents by provenance, with a
group's interval over its samples and matches."""

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
from tests.command import apdp
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


def test_two_samples_of_a_model_and_strategy_get_an_interval_over_both(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    agents = tmp_path / "agents"
    for name, model in (("gen-x1", "model-x"), ("gen-x2", "model-x"), ("gen-y", "model-y")):
        ingest_code(TEMPLATE.replace("class Template", "class Generated"), name, agents_dir=agents,
                    model=model, strategy="a1", prompt_hash="abc")
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    config = make_config(topology="france", agents=["gen-x1", "gen-x2", "gen-y", "template"], repeat=2,
                         overrides={"tasks": 4})
    result = run_tournament(config, tmp_path / "out", jobs=2, progress=False)
    assert result.played == 24 and result.errors == 0

    done = apdp("report", str(tmp_path / "out"), "--group-by", "model,strategy", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["group_by"] == "model,strategy"
    assert "two-level bootstrap (1000 resamples" in data["group_interval"]
    groups = {g["group"]: g for g in data["groups"]}
    assert set(groups) == {"model-x / a1", "model-y / a1", "baseline"}
    x, y = groups["model-x / a1"], groups["model-y / a1"]
    # the members in standings order: which of the two wins more depends on the drawn seed
    assert (sorted(x["agents"]), x["samples"], x["matches"], x["interval_from"]) == (
        ["gen-x1", "gen-x2"], 2, 24, "agents and matches")
    assert x["rating_low"] <= x["rating_high"]
    # one sample: the interval of its matches alone, the agent's own
    agent = next(a for a in data["agents"] if a["agent"] == "gen-y")
    assert (y["samples"], y["matches"], y["interval_from"]) == (1, 12, "matches only")
    assert (y["mean_rating"], y["rating_low"], y["rating_high"]) == (
        agent["rating"], agent["rating_low"], agent["rating_high"])
    # the study's Table 1 columns are all there, for agents and for groups
    for key in ("avg_wins", "sd_wins", "avg_losses", "sd_losses", "total_wins", "total_losses", "win_rate"):
        assert key in agent
    for key in ("avg_wins", "sd_wins", "avg_losses", "sd_losses", "wins", "losses", "win_rate"):
        assert key in x
    # the same results give the same figures, in this process too; provenance is the same grouping
    again = json.loads(report([tmp_path / "out"], "json", group_by="provenance"))
    assert again["groups"] == data["groups"]

    csv_text = apdp("report", str(tmp_path / "out"), "--group-by", "model, strategy", "--format", "csv",
                    "--table", "groups", "--resamples", "200")
    assert csv_text.returncode == 0, csv_text.stderr
    header, *rows = csv_text.stdout.splitlines()
    assert header.endswith(",rating_low,rating_high,samples,interval_from") and len(rows) == 3
    refused = apdp("report", str(tmp_path / "out"), "--group-by", "model,strategy", "--resamples", "5")
    assert refused.returncode != 0 and "--resamples 5: give at least 100" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_a_forged_ledger_line_beside_an_agent_played_by_path_puts_it_in_no_models_group(tmp_path: Path) -> None:
    from apdp.agents.files import agent_hash
    from apdp.agents.provenance import LEDGER

    student = tmp_path / "students" / "bob" / "agent.py"  # played by its path, as a study manifest's file
    student.parent.mkdir(parents=True)
    student.write_text(TEMPLATE.replace("class Template", "class Bob"), encoding="utf-8")
    forged = {"file": "agent.py", "sha256": agent_hash(student),
              "provenance": {"model": "gpt-x", "strategy": "a1", "round": 0, "prompt_hash": None, "date": None}}
    (student.parent / LEDGER).write_text(json.dumps(forged) + "\n", encoding="utf-8")
    config = make_config(topology="france", agents=[str(student), "template"], overrides={"tasks": 3})
    assert run_tournament(config, tmp_path / "out", jobs=1, progress=False).errors == 0

    data = json.loads(report([tmp_path / "out"], "json", group_by="model"))
    groups = {g["group"]: g["agents"] for g in data["groups"]}
    assert groups == {"human": ["agent"], "baseline": ["template"]}
    [note] = data["notes"]
    assert note.startswith("a ledger line beside agent claims a model made it, not signed by this user's apdp")
    assert "written before apdp signed its ledgers" in note and note.endswith("counted as hand-written")
    done = apdp("report", str(tmp_path / "out"), "--group-by", "model")
    assert done.returncode == 0 and "gpt-x" not in done.stdout and "Note: a ledger line beside agent" in done.stdout

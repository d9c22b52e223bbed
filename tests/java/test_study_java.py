"""A whole study in one run, as the study apdp exists for lays it out, at a small scale: 2 models x 3
prompting strategies x 2 samples of generated agents against the Python baselines and a Java agent
written for the Logist platform. One ``apdp study run`` generates, checks, plays, analyses and reports;
a second run asks no model and plays no match. The models are fake, on loopback (tests/chat.py).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.chat import ChatServer, serve_chat
from tests.command import apdp
from tests.paths import JAVA
from tests.replies import GOOD, repaired, written

STRATEGIES = ("a1", "a2", "ir")
MODELS = ("m-one", "m-two")


def respond(request: dict[str, Any]) -> tuple[int, str]:
    """``m-one`` writes a clean agent at once; ``m-two`` first hands in no plans, and a clean agent
    once told of its faults. Asked to improve a clean agent (IR), both hand it back as it is."""
    return repaired(request) if request["model"] == "m-two" else written(GOOD, request["model"])


@pytest.fixture
def models() -> Iterator[ChatServer]:
    with serve_chat(respond) as chat:
        yield chat


def manifest(url: str, java_agent: Path) -> str:
    generators = "".join(
        f'[[generator]]\nmodel = "{m}"\nbase_url = "{url}"\nstrategies = {list(STRATEGIES)}\nsamples = 2\n\n'
        for m in MODELS
    ).replace("'", '"')
    return f"""\
name = "pilot"
networks = ["switzerland"]
seeds = [1]
tasks = 3
timeouts = {{ setup = 20.0, bid = 2.0, plan = 5.0 }}
agents = ["honest", "naive", "{java_agent}"]
rounds = 1
parallel = 2

[check]
tasks = 3
opponents = ["template"]
networks = ["switzerland"]
timeouts = {{ setup = 20.0, bid = 2.0, plan = 5.0 }}

{generators}"""


def test_a_study_of_two_models_three_strategies_two_samples_with_baselines_and_a_java_agent(
    java_cache: Path, models: ChatServer, tmp_path: Path
) -> None:
    from apdp.agents.java.install import add_agent

    java = add_agent(JAVA / "project" / "src", "demo.Plain", name="plain-java", agents_dir=tmp_path / "java").folder
    path = tmp_path / "pilot.toml"
    path.write_text(manifest(models.url, java), encoding="utf-8")
    out = tmp_path / "study"
    command = ("study", "run", str(path), "--out", str(out), "--jobs", "2", "--quiet")

    done = apdp(*command)
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
    assert "12 agent(s) generated now" in done.stdout, done.stdout

    with (out / "funnel.csv").open(encoding="utf-8") as f:
        funnel = {(r["model"], r["strategy"]): r for r in csv.DictReader(f)}
    assert set(funnel) == {(m, s) for m in MODELS for s in STRATEGIES}
    for strategy in STRATEGIES:
        assert funnel["m-one", strategy]["attempts"] == "2" and funnel["m-one", strategy]["clean_first"] == "2"
        assert funnel["m-two", strategy]["clean_after_repair"] == "2", funnel["m-two", strategy]
        assert "undelivered" in funnel["m-two", strategy]["faults"]

    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    agents = {a["agent"] for a in report["agents"]}
    assert {"honest", "naive", "plain-java"} <= agents and len(agents) == 15
    assert len(report["matches"]) == 15 * 14  # a double all-play-all of the 15, on one network and seed
    assert not any(m.get("faults") for m in report["matches"] if "plain-java" in m["agents"]), "the Java agent faulted"
    groups = {g["group"]: g for g in report["groups"]}
    for model in MODELS:
        for strategy in STRATEGIES:
            group = groups[f"{model} / {strategy}"]
            assert group["samples"] == 2 and group["interval_from"] == "agents and matches", group
    analysis = {a["agent"]: a for a in report["analysis"]["agents"]}
    assert set(analysis) == agents
    assert all(a["planning_gap"] is None or a["planning_gap"] >= 0 for a in analysis.values())
    page = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="funnel-section"' in page and '"analysis"' in page

    again = apdp(*command)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "0 model call(s) made" in again.stdout and "0 match(es) played now" in again.stdout, again.stdout
    print(done.stdout.strip().splitlines()[-1], again.stdout.strip().splitlines()[-1], sep="\n")  # the README's figure

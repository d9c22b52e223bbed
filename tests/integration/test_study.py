"""``apdp study run`` end to end against fake models on loopback (tests/chat.py), never a real one.

The fake models, all served by one scripted server, are told apart by the model name of the request:
``m-good`` writes a clean agent at once, ``m-fix`` a faulty one first and a clean one when told of its
faults, ``m-bad`` never writes code, and ``m-slow`` answers after its client has given up. Checks and
tournaments are tiny (5 tasks, one network, one opponent, short limits).
"""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.chat import ChatServer, completion, serve_chat
from tests.command import apdp
from tests.paths import ROOT
from tests.replies import GOOD, USAGE, repaired, written

#: ``m-wait`` answers once this is set: a test holds its calls in flight (set otherwise).
RELEASE = threading.Event()
RELEASE.set()


def respond(request: dict[str, Any]) -> tuple[int, str]:
    """The fake models' answers (see the module docstring)."""
    model = request["model"]
    if model == "m-slow":
        time.sleep(1.5)
    elif model == "m-wait":
        RELEASE.wait(60)
    elif model == "m-bad":
        return 200, completion("I would rather not write code today.", model, USAGE)
    elif model == "m-fix":
        return repaired(request)
    return written(GOOD, model)


@pytest.fixture
def models() -> Iterator[ChatServer]:
    with serve_chat(respond) as chat:
        yield chat


def manifest(url: str, good_samples: int = 2) -> str:
    return f"""\
name = "pilot"
networks = ["france"]
seeds = [1]
tasks = 4
timeouts = {{ bid = 1.0, plan = 3.0 }}
agents = ["honest"]
rounds = 1
parallel = 3

[check]
tasks = 4
opponents = ["template"]
networks = ["france"]
timeouts = {{ bid = 1.0, plan = 3.0 }}

[[generator]]
model = "m-good"
base_url = "{url}"
strategies = ["a1"]
samples = {good_samples}
price = {{ prompt = 1.0, completion = 2.0 }}

[[generator]]
model = "m-fix"
base_url = "{url}"
strategies = ["a1"]

[[generator]]
model = "m-bad"
base_url = "{url}"
strategies = ["a1"]

[[generator]]
model = "m-slow"
base_url = "{url}"
strategies = ["a1"]
timeout = 0.3
retries = 1
backoff = 0
"""


def study(tmp_path: Path, url: str, *args: str, good_samples: int = 2) -> tuple[Any, Path]:
    path = tmp_path / "pilot.toml"
    path.write_text(manifest(url, good_samples), encoding="utf-8")
    out = tmp_path / "study"
    return apdp("study", "run", str(path), "--out", str(out), "--jobs", "1", "--quiet", *args), out


def funnel(out: Path) -> dict[tuple[str, str], dict[str, str]]:
    with (out / "funnel.csv").open(encoding="utf-8") as f:
        return {(r["model"], r["strategy"]): r for r in csv.DictReader(f)}


def paid(out: Path) -> int:
    lines = (out / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    return sum(1 for line in lines if json.loads(line)["kind"] == "call")


def test_a_study_generates_plays_reports_and_a_rerun_does_nothing(tmp_path: Path, models: ChatServer) -> None:
    started = time.monotonic()
    done, out = study(tmp_path, models.url)
    first_run = time.monotonic() - started
    assert done.returncode == 0, done.stderr + done.stdout
    rows = funnel(out)
    assert rows["m-good", "a1"]["attempts"] == "2" and rows["m-good", "a1"]["clean_first"] == "2"
    assert rows["m-good", "a1"]["tokens"] == "300" and rows["m-good", "a1"]["cost"] == "0.0004"
    assert rows["m-fix", "a1"]["clean_after_repair"] == "1" and rows["m-fix", "a1"]["repairs"] == "1:1"
    assert "undelivered" in rows["m-fix", "a1"]["faults"]
    assert rows["m-bad", "a1"]["never_clean"] == "1" and rows["m-bad", "a1"]["replies_with_code"] == "0"
    assert "no_code" in rows["m-bad", "a1"]["faults"]
    assert rows["m-slow", "a1"]["errors"] == "1" and rows["m-slow", "a1"]["never_clean"] == "1"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    # the three clean generated agents and honest: 4 agents, 12 matches on one network and seed
    assert len(report["matches"]) == 12
    groups = {g["group"] for g in report["groups"]}
    assert {"m-good / a1", "m-fix / a1", "baseline"} <= groups, groups
    assert report["funnel"][0]["model"] == "m-good"
    assert 'id="funnel-section"' in (out / "report.html").read_text(encoding="utf-8")
    analysis = report["analysis"]  # each agent's bidding apart from its planning (apdp analyze)
    assert analysis["matches"] + analysis["faulted"] == 12
    assert sorted(a["agent"] for a in analysis["agents"]) == sorted(a["agent"] for a in report["agents"])
    assert all("planning_gap" in a and "markup" in a for a in analysis["agents"])
    assert '"analysis"' in (out / "report.html").read_text(encoding="utf-8")
    requests = len(models.requests)
    assert paid(out) == requests - 2  # the slow model's two attempts were never answered

    again = time.monotonic()
    written = (out / "report.json").stat().st_mtime_ns
    rerun, _ = study(tmp_path, models.url)
    assert rerun.returncode == 0, rerun.stderr + rerun.stdout
    assert len(models.requests) == requests, "the rerun asked a model"
    assert "0 model call(s) made" in rerun.stdout and "0 match(es) played now, 12 stored" in rerun.stdout
    # nothing new: the last run's reports stand, the analysis (every match replanned) is not worked out again
    assert (out / "report.json").stat().st_mtime_ns == written and (out / "report.txt").is_file()
    print(f"first run {first_run:.1f} s, rerun {time.monotonic() - again:.1f} s")
    # the study's folder stands for its results: report and analyze take it as it is
    shown = apdp("report", str(out), "--group-by", "model,strategy")
    assert shown.returncode == 0 and "m-good / a1" in shown.stdout, shown.stderr
    analysed = apdp("analyze", str(out), "--quiet", "--jobs", "1")
    assert analysed.returncode == 0 and "planning" in analysed.stdout.lower(), analysed.stderr


def test_a_stopped_study_resumes_without_paying_twice_and_a_sample_adds_only_its_work(
    tmp_path: Path, models: ChatServer
) -> None:
    stopped, out = study(tmp_path, models.url, "--max-calls", "2")
    assert stopped.returncode == 3, stopped.stderr + stopped.stdout
    assert "budget of 2 new model call(s) is spent" in stopped.stdout
    assert paid(out) <= 2 and not (out / "results").exists()  # m-slow may have had one of the two

    done, _ = study(tmp_path, models.url)
    assert done.returncode == 0, done.stderr + done.stdout
    assert paid(out) == len(models.requests) - 2  # every answered call asked once (m-slow: 2 unanswered)
    asked = [(r["model"], json.dumps(r["messages"])) for r in models.requests if r["model"] in ("m-fix", "m-bad")]
    assert len(asked) == len(set(asked)), "a call was paid twice"

    before = len(models.requests)
    more, _ = study(tmp_path, models.url, good_samples=3)
    assert more.returncode == 0, more.stderr + more.stdout
    assert len(models.requests) == before + 1  # the new sample's one call
    assert "1 agent(s) generated now" in more.stdout
    assert "8 match(es) played now, 12 stored" in more.stdout  # the new agent against the 4 others
    assert funnel(out)["m-good", "a1"]["attempts"] == "3"


def test_ctrl_c_keeps_every_answer_and_the_rerun_asks_only_the_rest(tmp_path: Path, models: ChatServer) -> None:
    text = manifest(models.url).split("[[generator]]")[0] + "".join(
        f'[[generator]]\nmodel = "{m}"\nbase_url = "{models.url}"\nstrategies = ["a1", "a2"]\n\n'
        for m in ("m-wait", "m-fix")
    )
    path = tmp_path / "pilot.toml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "study"
    command = [sys.executable, "-c", "from apdp.cli import console; console()", "study", "run", str(path), "--out",
               str(out), "--jobs", "1", "--quiet"]
    RELEASE.clear()  # m-wait's calls stay in flight until the run is interrupted: it cannot end first
    try:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not (out / "journal.jsonl").exists() or paid(out) == 0:
            assert process.poll() is None and time.monotonic() < deadline, "no model call was answered"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        time.sleep(0.5)  # the interrupt reaches the run while m-wait's calls are still unanswered
    finally:
        RELEASE.set()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    interrupted = paid(out)
    assert interrupted == len(models.requests), "a call in flight was not kept"
    assert not (out / "report.json").exists()

    done = apdp("study", "run", str(path), "--out", str(out), "--jobs", "1", "--quiet")
    assert done.returncode == 0, done.stderr + done.stdout
    asked = [(r["model"], json.dumps(r["messages"])) for r in models.requests]
    assert len(asked) == len(set(asked)) == paid(out), "a call was paid twice"
    assert f"{paid(out) - interrupted} model call(s) made" in done.stdout
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["matches"]


def test_a_study_improves_a_parent_and_reports_child_against_parent(tmp_path: Path, models: ChatServer) -> None:
    path = tmp_path / "improve.toml"
    path.write_text(manifest(models.url).split("[[generator]]")[0] + (
        f'[[generator]]\nmodel = "m-good"\nbase_url = "{models.url}"\nstrategies = ["improve"]\nparent = "honest"\n'
    ), encoding="utf-8")
    out = tmp_path / "study"
    done = apdp("study", "run", str(path), "--out", str(out), "--jobs", "1", "--quiet")
    assert done.returncode == 0, done.stderr + done.stdout
    (request,) = models.requests
    assert "class Honest" in request["messages"][0]["content"]  # the parent's code, sent to the model
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    (pair,) = report["lineage"]["pairs"]
    assert (pair["agent"], pair["parent"], pair["matches"]) == ("m-good-improve-1", "honest", 2)

    bad = path.read_text(encoding="utf-8").replace('parent = "honest"', 'parent = "nobody"')
    path.write_text(bad, encoding="utf-8")
    done = apdp("study", "run", str(path), "--out", str(tmp_path / "other"), "--quiet")
    assert done.returncode == 2 and "parent 'nobody'" in done.stderr and len(models.requests) == 1


def test_a_study_of_given_agents_alone_plays_them(tmp_path: Path) -> None:
    """A manifest with agents and no generator is valid: the study plays its agents (issue 35: it
    stopped on 'study/agents: no such folder')."""
    path = tmp_path / "study.toml"
    path.write_text('name = "given"\nnetworks = ["france"]\nseeds = [1]\ntasks = 3\n'
                    'timeouts = { bid = 1.0, plan = 3.0 }\nagents = ["honest", "naive"]\n', encoding="utf-8")
    out = tmp_path / "study"
    done = apdp("study", "run", str(path), "--out", str(out), "--jobs", "1", "--quiet")
    assert done.returncode == 0, done.stderr + done.stdout
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert len(report["matches"]) == 2 and not (out / "agents").exists()

"""A study of the deliberative exercise against the tests' fake models (issue 33, done when): ``m-astar``
answers an A* agent with an admissible heuristic, ``m-sum`` one whose heuristic adds every task's
legs up (inadmissible); the report says, per model, how many agents were optimal and how many
heuristics inadmissible. Rounds are small (5 tasks, one network, one seed)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.chat import ChatServer, serve_chat
from tests.command import apdp
from tests.exercise_replies import ADMISSIBLE, INADMISSIBLE, SPREAD
from tests.replies import written


def respond(request: dict[str, Any]) -> tuple[int, str]:
    return written(ADMISSIBLE if request["model"] == "m-astar" else INADMISSIBLE, request["model"])


@pytest.fixture
def models() -> Iterator[ChatServer]:
    with serve_chat(respond) as chat:
        yield chat


def manifest(url: str, exercise: str = "deliberative") -> str:
    return f"""\
name = "section51"
exercise = "{exercise}"
networks = ["switzerland"]
seeds = [1]
tasks = 5
timeouts = {{ setup = 20.0, plan = 20.0 }}
rounds = 1

[check]
tasks = 5
timeouts = {{ setup = 20.0, plan = 20.0 }}

[[generator]]
model = "m-astar"
base_url = "{url}"
strategies = ["a1"]

[[generator]]
model = "m-sum"
base_url = "{url}"
strategies = ["a1"]
"""


def test_a_deliberative_study_reports_optimal_agents_and_inadmissible_heuristics(tmp_path: Path,
                                                                                 models: ChatServer) -> None:
    path = tmp_path / "study.toml"
    path.write_text(manifest(models.url), encoding="utf-8")
    out = tmp_path / "out"
    done = apdp("study", "run", str(path), "--out", str(out), "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["exercise"] == "deliberative"
    groups = {g["model"]: g for g in report["groups"]}
    assert groups["m-astar"]["first_try_rate"] == 1.0 and groups["m-sum"]["first_try_rate"] == 1.0
    assert (groups["m-astar"]["optimal_agents"], groups["m-astar"]["admissible"],
            groups["m-astar"]["inadmissible"]) == (1, 1, 0)
    assert (groups["m-sum"]["admissible"], groups["m-sum"]["inadmissible"]) == (0, 1)
    assert groups["m-astar"]["nodes"] is not None  # what the agent printed
    assert groups["m-astar"]["plan_cpu"] is not None  # what the referee measured
    ranked = [a["model"] for a in report["agents"]]
    assert ranked == ["m-astar", "m-sum"]
    with (out / "funnel.csv").open(encoding="utf-8") as f:
        rows = {r["model"]: r for r in csv.DictReader(f)}
    assert rows["m-sum"]["inadmissible"] == "1" and rows["m-astar"]["first_try_rate"] == "1.0"
    text = (out / "report.txt").read_text(encoding="utf-8")
    assert "solved first try" in text and "inadmissible" in text
    assert "inadmissible" in (out / "report.html").read_text(encoding="utf-8")
    calls = len(models.requests)
    again = apdp("study", "run", str(path), "--out", str(out), "--jobs", "1")
    assert again.returncode == 0 and len(models.requests) == calls, again.stderr
    assert "0 round(s) played now" in again.stderr


def test_a_bad_exercise_key_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "study.toml"
    path.write_text(manifest("http://127.0.0.1:9/v1", "deliberate"), encoding="utf-8")
    done = apdp("study", "run", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "exercise: 'deliberate' is no exercise; write exercise = \"reactive\"" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


WANDERER = '''
from apdp import Move, ReactiveAgent


class Wanderer(ReactiveAgent):
    """Never takes an offer."""

    def act(self, vehicle, task):
        return Move(sorted(self.topology.neighbours(vehicle.city))[0])
'''

@pytest.mark.parametrize(("exercise", "other", "score"), [
    ("reactive", WANDERER, "ratio"), ("centralized", SPREAD, "cost_vs_template")])
def test_a_reactive_or_centralized_study_reports_its_score_per_model(tmp_path: Path, exercise: str, other: str,
                                                                     score: str) -> None:
    from apdp.bundled import BUNDLED_AGENTS

    template = (BUNDLED_AGENTS / "exercises" / f"{exercise}.py").read_text(encoding="utf-8")

    def replies(request: dict[str, Any]) -> tuple[int, str]:  # m-astar: the course's template
        return written(template if request["model"] == "m-astar" else other, request["model"])

    secret = tmp_path / "out" / "exercise" / "secret"  # the rounds' draws: the same every run of the test
    secret.parent.mkdir(parents=True)
    secret.write_text("5e" * 32 + "\n", encoding="ascii")
    with serve_chat(replies) as chat:
        path = tmp_path / "study.toml"
        path.write_text(manifest(chat.url, exercise).replace('["switzerland"]', '["france"]'), encoding="utf-8")
        done = apdp("study", "run", str(path), "--out", str(tmp_path / "out"), "--jobs", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["exercise"] == exercise
    groups = {g["model"]: g for g in report["groups"]}
    assert groups["m-astar"]["first_try_rate"] == 1.0 and groups["m-sum"]["scored"] == 1
    if exercise == "reactive":  # the template takes offers (reward per km above 0); the wanderer none
        assert groups["m-astar"][score] > 0 and groups["m-sum"][score] == 0
        assert [a["model"] for a in report["agents"]] == ["m-astar", "m-sum"]
    else:  # the template is the reference itself, on one vehicle; the other spreads the tasks
        assert groups["m-astar"][score] == 0 and groups["m-sum"][score] != 0
        assert groups["m-astar"]["vehicles_used"] == 1 and groups["m-sum"]["vehicles_used"] > 1
        cheaper_first = sorted(groups, key=lambda m: groups[m][score])
        assert [a["model"] for a in report["agents"]] == cheaper_first

"""A Python agent of each exercise plays from its template through the CLI (issue 33): apdp new
--exercise, apdp match --exercise --record, apdp verify and apdp replay of its record; bad input is
one line naming the thing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.command import apdp
from tests.exercise_replies import SPREAD
from tests.exercise_runs import CONFIG
from tests.paths import ROOT


@pytest.mark.parametrize(("exercise", "figures"), [
    ("reactive", None),
    ("deliberative", "10 tasks, 5180 km, cost 25900, reward 537186, profit 511286"),  # the platform's 01_template
    ("centralized", "30 tasks, 13746.2 km, cost 68731, reward 1803743, profit 1735012"),  # 01_template_naive
])
def test_a_template_agent_plays_its_exercise(tmp_path: Path, exercise: str, figures: str | None) -> None:
    made = apdp("new", "mine", "--exercise", exercise, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    played = apdp("match", "--exercise", exercise, "--agents", "mine", "--record", "rec.json", "--platform-tasks",
                  cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "1. mine:" in played.stdout and "fault" not in played.stdout and "the platform's own draw" in played.stdout
    if figures is not None:
        assert figures in played.stdout
    record = json.loads((tmp_path / "rec.json").read_text())
    assert record["format"] == "apdp-exercise-record/1" and record["exercise"] == exercise
    assert record["draws"] == {"from": "platform"}
    checked = apdp("verify", "rec.json", cwd=tmp_path)
    assert checked.returncode == 0 and "valid" in checked.stdout, checked.stdout + checked.stderr
    shown = apdp("replay", "rec.json", "-o", "rep.html", cwd=tmp_path)
    assert shown.returncode == 0 and "Vehicle 1" in shown.stdout and (tmp_path / "rep.html").is_file()
    record["statistics"][0]["total_profit"] += 1
    (tmp_path / "bad.json").write_text(json.dumps(record))
    tampered = apdp("verify", "bad.json", cwd=tmp_path)
    assert tampered.returncode == 1 and "statistics differ" in tampered.stdout


def test_a_logist_configuration_names_its_exercise(tmp_path: Path) -> None:
    apdp("new", "mine", "--exercise", "deliberative", cwd=tmp_path)
    played = apdp("match", "--scenario", str(CONFIG / "deliberative.xml"), "-a", "mine,mine", "--platform-tasks",
                  cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "6 tasks" in played.stdout and "4 tasks" in played.stdout  # the platform's 04_template_x2


@pytest.mark.parametrize(("args", "says"), [
    (["match", "--exercise", "foo", "-a", "x"], "--exercise 'foo': choose reactive, deliberative or centralized"),
    (["match", "--exercise", "reactive", "--topology", "mars", "-a", "x"], "--topology 'mars'"),
    (["new", "x", "--exercise", "bar"], "--exercise 'bar'"),
    (["match", "--exercise", "reactive", "-a", "x", "--bid-timeout", "1"], "--bid-timeout: an exercise has no bids"),
    (["match", "--exercise", "centralized", "-a", "x", "--tasks", "0"], "--tasks 0: give a number of tasks"),
])
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    done = apdp(*args, cwd=tmp_path)
    assert done.returncode != 0 and says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


SAYS_PARAMS = '''
from apdp import Move, ReactiveAgent

class SaysParams(ReactiveAgent):
    def setup(self, topology, distribution, company):
        print("params", sorted(self.params.items()), flush=True)

    def act(self, vehicle, task):
        return Move(sorted(self.topology.neighbours(vehicle.city))[0])
'''


def test_kinds_mix_parameters_reach_exercise_agents_and_acts_end_a_reactive_round(tmp_path: Path) -> None:
    # a reactive and a deliberative agent in the course's deliberative configuration (the platform
    # gives each the behaviour its class implements); parameters from params.toml, then the scenario's
    apdp("new", "planner", "--exercise", "deliberative", cwd=tmp_path)
    (tmp_path / "agents" / "says.py").write_text(SAYS_PARAMS, encoding="utf-8")
    (tmp_path / "agents" / "params.toml").write_text('[says]\nalpha = 1\nbeta = "from params.toml"\n')
    text = (ROOT / "scenarios" / "exercises" / "deliberative_switzerland.toml").read_text(encoding="utf-8")
    (tmp_path / "mixed.toml").write_text(text + '\n[agents.says]\nbeta = "from the scenario"\n', encoding="utf-8")
    played = apdp("match", "--scenario", "mixed.toml", "-a", "says,planner", "--acts", "20", "--show-output",
                  "--record", "rec.json", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "says (reactive), planner, until 20 act calls" in played.stdout
    assert "params [('alpha', 1), ('beta', 'from the scenario')]" in played.stdout
    record = json.loads((tmp_path / "rec.json").read_text())
    assert record["kinds"] == ["reactive", "deliberative"] and record["end"] == {"hours": None, "acts": 20}
    # an act's answer is kept as the city index of its move (a few bytes an act)
    assert len(record["answers"][0]) == 20 and all(isinstance(a, int) for a in record["answers"][0])
    assert [a["call"] for a in record["answers"][1]][:1] == ["plan"]
    checked = apdp("verify", "rec.json", cwd=tmp_path)
    assert checked.returncode == 0 and "valid" in checked.stdout, checked.stdout + checked.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["match", "--exercise", "reactive", "--acts", "0", "-a", "x"], "--acts 0: give a positive number"),
    (["match", "--exercise", "reactive", "--hours", "-1", "-a", "x"], "--hours -1: give a positive number"),
    (["match", "--topology", "ch", "--acts", "5", "-a", "naive,honest"], "--hours and --acts end a reactive"),
])
def test_a_bad_end_is_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    apdp("new", "x", "--exercise", "reactive", cwd=tmp_path)
    done = apdp(*args, cwd=tmp_path)
    assert done.returncode != 0 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_exercise_tournament_ranks_by_its_score_and_resumes(tmp_path: Path) -> None:
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "spread.py").write_text(SPREAD)
    args = ("tournament", "--exercise", "centralized", "--agents", "spread,centralized", "--out", "res")
    first = apdp(*args, cwd=tmp_path)  # the course's template plays by its exercise's name
    assert first.returncode == 0, first.stderr
    table = first.stdout.splitlines()
    rows = [line.split() for line in table if line[:1].isdigit()]
    assert sorted(r[1] for r in rows) == ["centralized", "spread"], first.stdout
    # ranked by the cost against the template's (the template itself: 0), no fault; spread used more vehicles
    assert [float(r[5]) for r in rows] == sorted(float(r[5]) for r in rows), first.stdout
    by_name = {r[1]: r for r in rows}
    assert by_name["centralized"][5] == "0" and by_name["spread"][3] == "0", first.stdout
    assert by_name["centralized"][-2] == "1" and by_name["spread"][-2] != "1", first.stdout
    # the tasks are drawn from the field's own secret (kept for a resume), not as the platform draws the file's
    assert (tmp_path / "res" / "secret").stat().st_mode & 0o777 == 0o600
    assert "1735012" not in first.stdout  # the template's profit on the platform's draw of the course's file
    again = apdp(*args, cwd=tmp_path)
    assert again.returncode == 0 and "0 round(s) played now, 2 stored" in again.stderr, again.stderr
    assert again.stdout == first.stdout
    wrong = apdp("tournament", "--exercise", "centralized", "--agents", "nobody,centralized", cwd=tmp_path)
    assert wrong.returncode == 2 and len(wrong.stderr.strip().splitlines()) <= 3 and "nobody" in wrong.stderr


TELEPORTS = {
    "deliberative": '''
from apdp import Deliver, DeliberativeAgent, Pickup


class Teleport(DeliberativeAgent):
    def plan(self, vehicle, tasks):
        return [Deliver(t.id) for t in vehicle.carried] + [a for t in tasks for a in (Pickup(t.id), Deliver(t.id))]
''',
    "centralized": '''
from apdp import CentralizedAgent, Deliver, Pickup


class Teleport(CentralizedAgent):
    def plan(self, vehicles, tasks):
        return [[a for t in tasks for a in (Pickup(t.id), Deliver(t.id))]] + [[] for _ in vehicles[1:]]
''',
}


@pytest.mark.parametrize("exercise", sorted(TELEPORTS))
def test_a_plan_that_picks_up_or_delivers_away_from_the_tasks_city_is_illegal(tmp_path: Path, exercise: str) -> None:
    """The platform's verifier checks neither city: without apdp's rule, pickups and deliveries where
    the vehicle stands earned every reward for no km and ranked above the optimum."""
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "teleport.py").write_text(TELEPORTS[exercise])
    played = apdp("match", "--exercise", exercise, "--agents", "teleport", cwd=tmp_path)
    assert "Illegal pickup: the vehicle is in" in played.stdout + played.stderr, played.stdout + played.stderr
    assert "reward 0" in played.stdout or "fault" in played.stdout, played.stdout
    ranked = apdp("tournament", "--exercise", exercise, "--agents", f"teleport,{exercise}", "--out", "res",
                  cwd=tmp_path)
    assert ranked.returncode == 0, ranked.stderr
    rows = {line.split()[1]: line.split() for line in ranked.stdout.splitlines() if line[:1].isdigit()}
    assert rows[exercise][0] == "1" and rows["teleport"][3] != "0", ranked.stdout  # faulted, ranked last


def test_a_record_naming_a_device_or_a_pipe_as_its_scenario_is_refused_in_one_line(tmp_path: Path) -> None:
    """A crafted record names what verify and replay then read as its configuration: never read
    whole, never waited on (it hung them, or took 9 GB)."""
    played = apdp("match", "--exercise", "deliberative", "--agents", "deliberative", "--record", "rec.json",
                  cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "rec.json").read_text())
    os.mkfifo(tmp_path / "pipe.xml")
    for scenario in ("/dev/zero", str(tmp_path / "pipe.xml"), "/proc/self/fd/0"):
        record["scenario"] = scenario
        (tmp_path / "forged.json").write_text(json.dumps(record))
        for command in (("verify", "forged.json"), ("replay", "forged.json", "-o", "x.html")):
            run = apdp(*command, cwd=tmp_path)
            said = (run.stdout + run.stderr).strip()
            assert run.returncode != 0 and "not a regular file" in said, (scenario, said)
            assert "Traceback" not in said and len(run.stderr.strip().splitlines()) <= 1, said


def test_an_exercise_agent_is_no_auction_agent(tmp_path: Path) -> None:
    """An auction tournament of every agent found leaves the exercises' agents out (it faulted every
    match of theirs), and an auction match of one says which game it plays."""
    assert apdp("new", "mine", "--exercise", "reactive", cwd=tmp_path).returncode == 0
    played = apdp("match", "--tasks", "2", "--agents", "mine,naive", cwd=tmp_path)
    assert "its agent plays the reactive exercise, not the auction" in played.stdout, played.stdout
    assert "apdp match --exercise reactive" in played.stdout
    ran = apdp("tournament", "--topology", "switzerland", "--tasks", "2", "--quiet", "--out", "res", cwd=tmp_path)
    assert ran.returncode == 0 and "0 with faults" in ran.stdout, ran.stdout + ran.stderr
    assert "mine" not in ran.stdout + ran.stderr


def test_a_round_of_other_settings_verifies_and_replays_as_played(tmp_path: Path) -> None:
    played = apdp("match", "--exercise", "deliberative", "-a", "deliberative", "--tasks", "3", "--plan-timeout", "20",
                  "--seed", "9", "--record", "t.json", cwd=tmp_path)
    assert played.returncode == 0 and "seed 9" in played.stdout, played.stdout + played.stderr
    record = json.loads((tmp_path / "t.json").read_text())
    assert record["settings"] == {"tasks": 3, "rng_seed": 23456, "timeouts_ms": {"setup": 300000, "plan": 20000}}
    assert record["seed"] == 9
    assert record["events"] > 0 and record["statistics"][0]["total_tasks"] == 3
    checked = apdp("verify", "t.json", cwd=tmp_path)
    assert checked.returncode == 0 and "valid" in checked.stdout, checked.stdout + checked.stderr
    record["settings"] = {"tasks": 4}
    (tmp_path / "u.json").write_text(json.dumps(record))
    assert apdp("verify", "u.json", cwd=tmp_path).returncode == 1

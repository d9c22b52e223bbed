"""Logist agents of the course's reactive, deliberative and centralized exercises, played unchanged
(issue 33), the way a student plays them: ``apdp logist import`` of their project, then ``apdp match``
(``--exercise E`` or ``--scenario`` a course configuration), each agent sandboxed in its own process
through the Java host, by apdp's exercise referee (:func:`apdp.referee.exercise_round.play_exercise`).

The agents are tests/data/java/exercises_project (a student's project with an agent of each exercise):
each prints what the platform hands it at every call, and platform/ keeps what they printed when the
real platform ran them on the course's configurations. Each must print here, line for line, what it
printed there, and end with the platform's statistics; the course's naive templates must also give
the figures of the platform's reference runs (tests/data/exercises/runs) and of the same plan written
in Python.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from apdp.agents.discovery import AgentSource
from apdp.agents.java.names import installed_behavior
from apdp.exercises.centralized import CentralizedPlanCall, CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration, read_exercise
from apdp.exercises.deliberative import CancelCall, DeliberativeSeat, PlanCall
from apdp.exercises.history import AgentStatistics
from apdp.exercises.naive_plan import naive_plan, naive_plans
from apdp.exercises.round import ReactiveEnd, Round, Seat
from apdp.game.plan import Action
from apdp.referee.exercise_record import ExerciseRecord
from apdp.referee.exercise_round import play_exercise
from tests.command import apdp
from tests.paths import JAVA, ROOT

PROJECT = JAVA / "exercises_project"
PLATFORM = PROJECT / "platform"
CONFIG = ROOT / "scenarios" / "exercises" / "config"
RUNS = ROOT / "tests" / "data" / "exercises" / "runs"
KINDS = {"walker-java": "reactive", "greedy-walker-java": "reactive", "naive-java": "deliberative",
         "central-java": "centralized", "bidder-java": "auction", "both-java": "reactive"}
#: The platform's figures of the course's naive templates (deliberative/01_template, centralized/01_template_naive).
TEMPLATE_FIGURES = {"deliberative": "10 tasks, 5180 km, cost 25900, reward 537186, profit 511286",
                    "centralized": "30 tasks, 13746.2 km, cost 68731, reward 1803743, profit 1735012"}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory, java_cache: Path) -> tuple[Path, str]:
    """The project imported by ``apdp logist import`` into a student's folder: (the folder, what it printed)."""
    work = tmp_path_factory.mktemp("student")
    done = apdp("logist", "import", str(PROJECT), cwd=work)
    assert done.returncode == 0, done.stderr
    return work, done.stdout


@pytest.fixture
def agents(imported: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The imported agents' folder, the one apdp searches (its params.toml read as a match reads it)."""
    folder = imported[0] / "agents"
    monkeypatch.setenv("APDP_AGENTS", str(folder))
    yield folder


def _lines(output: str, agent: int) -> list[str]:
    """The lines agent ``agent`` printed (``KIND <id> ...``), those with a time in milliseconds aside."""
    return [line for line in output.splitlines()
            if re.match(rf"^(WALKER|NAIVE|CENTRAL) {agent} ", line) and "milliseconds" not in line]


def _statistics(name: str) -> list[tuple[int, int, int, int, int]]:
    """The platform's statistics of a run of platform/: (tasks, units, cost, reward, profit) per rank."""
    text = (PLATFORM / f"{name}.statistics.xml").read_text(encoding="utf-8")
    values = [int(float(v) * (1000 if k == "distance" else 1)) for k, v in
              re.findall(r'<total-(\w+) value="([^"]+)"/>', text)]
    return [tuple(values[i:i + 5]) for i in range(0, len(values), 5)]  # type: ignore[misc]


def _figures(statistics: Sequence[AgentStatistics]) -> list[tuple[int, int, int, int, int]]:
    return [(s.total_tasks, s.total_distance_units, s.total_cost, s.total_reward, s.total_profit) for s in statistics]


def _play(agents: Path, configuration: str | ExerciseConfiguration, names: Sequence[str],
          **options: object) -> ExerciseRecord:
    """A round of the installed agents ``names``, sandboxed, as ``apdp match --platform-tasks`` plays it
    (the platform's own draw: its figures are the platform's)."""
    scenario = configuration if isinstance(configuration, ExerciseConfiguration) else CONFIG / f"{configuration}.xml"
    options = {"platform_draw": True, **options}
    return play_exercise(scenario, [AgentSource(n, agents / n) for n in names], **options)  # type: ignore[arg-type]


def test_a_student_s_project_plays_all_four_exercises_unchanged_from_the_command_line(
    imported: tuple[Path, str],
) -> None:
    work, printed = imported
    for name, kind in KINDS.items():
        assert f"as {name!r}" in printed and installed_behavior(work / "agents" / name) == kind
    record = work / "deliberative.json"
    done = apdp("match", "--exercise", "deliberative", "-a", "naive-java", "--record", str(record), "--platform-tasks",
                cwd=work)
    assert done.returncode == 0 and f"1. naive-java: {TEMPLATE_FIGURES['deliberative']}" in done.stdout, done
    verified = apdp("verify", str(record), cwd=work)
    assert verified.returncode == 0 and "valid (deliberative exercise" in verified.stdout, verified
    done = apdp("match", "--exercise", "centralized", "-a", "central-java", "--platform-tasks", cwd=work)
    assert done.returncode == 0 and f"1. central-java: {TEMPLATE_FIGURES['centralized']}" in done.stdout, done
    # the course's own configuration file; the walkers read their parameters (a seed, a policy) from
    # the agents.xml the import put in agents/params.toml: unseeded, they would not print what they did
    done = apdp("match", "--scenario", str(CONFIG / "reactive_france.xml"), "-a", "greedy-walker-java,walker-java",
                "--acts", "300", "--show-output", "--record", str(work / "reactive.json"), "--platform-tasks", cwd=work)
    assert done.returncode == 0 and "until 300 act calls" in done.stdout, done
    platform = (PLATFORM / "reactive_france-2.txt").read_text(encoding="utf-8")
    for agent in (0, 1):
        lines = _lines(done.stdout, agent)
        assert len(lines) > 140 and lines == _lines(platform, agent)[:len(lines)]
    assert json.loads((work / "reactive.json").read_text(encoding="utf-8"))["end"] == {"hours": None, "acts": 300}
    assert apdp("verify", str(work / "reactive.json"), cwd=work).returncode == 0
    done = apdp("match", "-a", "bidder-java,naive", "--topology", "ch", "--tasks", "5", "--seed", "1", cwd=work)
    assert done.returncode == 0 and re.search(r"bidder-java .* -\n", done.stdout), done  # no fault
    assert not (work / "config").exists()  # an agent writes in its own folder only


@pytest.mark.parametrize(("run", "configuration", "names"), [
    ("deliberative_switzerland-1", "deliberative_switzerland", ["naive-java"]),
    ("deliberative_switzerland-2", "deliberative_switzerland", ["naive-java", "naive-java"]),
    ("centralized_england-1", "centralized_england", ["central-java"]),
])
def test_each_agent_sees_and_scores_in_apdp_what_it_did_on_the_platform(
    agents: Path, run: str, configuration: str, names: list[str]
) -> None:
    record = _play(agents, configuration, names)
    assert record.fault is None and record.referee_error is None, record.fault
    platform = (PLATFORM / f"{run}.txt").read_text(encoding="utf-8")
    for agent, output in enumerate(record.outputs):
        expected = _lines(platform, agent)
        assert expected and _lines(output, agent) == expected
    assert _figures(record.statistics) == _statistics(run)
    if len(names) == 2:  # stuck pickups: cancelled plans and new ones, as on the platform
        assert {"cancelled"} <= {a.call for answers in record.answers for a in answers}


def test_reactive_agents_see_in_apdp_every_offer_and_total_they_saw_on_the_platform(agents: Path) -> None:
    names = ["greedy-walker-java", "walker-java"]  # deterministic, and the template's rule on a seeded Random
    record = _play(agents, "reactive_france", names, end=ReactiveEnd(hours=None, acts=300))
    assert record.fault is None and record.kinds == ("reactive", "reactive")
    platform = (PLATFORM / "reactive_france-2.txt").read_text(encoding="utf-8")
    for agent, output in enumerate(record.outputs):
        lines = _lines(output, agent)
        assert len(lines) > 140 and lines == _lines(platform, agent)[:len(lines)]
        assert any(" The total profit after 150 actions is " in line for line in lines) or agent == 0
    assert "pNoTask=0.38137106855712677 sumP=0.6186289314428731" in record.outputs[0]  # the no-task share, to the bit


class _PythonNaive:
    """The deliberative template's naive plan written in Python (apdp.exercises.naive_plan), as a controller."""

    def __init__(self, exercise: ExerciseConfiguration) -> None:
        self.topology = exercise.topology

    def plan(self, call: PlanCall) -> list[Action]:
        return naive_plan(self.topology, call.vehicle.city, call.tasks)

    def plan_cancelled(self, call: CancelCall) -> None:
        pass


class _PythonCentral(_PythonNaive):
    """The centralized template's naive plans written in Python, as a controller."""

    def plan(self, call: CentralizedPlanCall) -> list[list[Action]]:  # type: ignore[override]
        return naive_plans(self.topology, [v.home for v in call.vehicles], call.tasks)


@pytest.mark.parametrize(("configuration", "reference", "kind"), [
    ("deliberative_switzerland", "deliberative/01_template", "deliberative"),
    ("centralized_england", "centralized/01_template_naive", "centralized"),
])
def test_a_java_template_scores_as_its_python_equivalent_and_the_platform_s_reference_run(
    agents: Path, configuration: str, reference: str, kind: str
) -> None:
    exercise = read_exercise(CONFIG / f"{configuration}.xml")
    name = "naive-java" if kind == "deliberative" else "central-java"
    java = _play(agents, exercise, [name])
    seat: Seat = DeliberativeSeat(_PythonNaive(exercise)) if kind == "deliberative" else CentralizedSeat(
        _PythonCentral(exercise))
    scripted = Round(exercise, [seat], [name])
    scripted.run()
    summary = (RUNS / reference / "summary.txt").read_text(encoding="utf-8")
    platform = {k: float(v) for k, v in re.findall(r'<total-([\w-]+) value="([^"]+)"/>', summary)}
    figures = (int(platform["tasks"]), round(platform["distance"] * 1000), int(platform["cost"]),
               int(platform["reward"]), int(platform["profit"]))
    assert _figures(java.statistics) == _figures(scripted.statistics()) == [figures]


def test_a_reactive_and_a_deliberative_agent_share_a_round_each_of_its_own_kind(agents: Path) -> None:
    # the platform gives each agent the behaviour its class implements, whatever the file's mode=
    record = _play(agents, "deliberative_switzerland", ["walker-java", "naive-java"], end=ReactiveEnd(hours=50))
    assert record.fault is None and record.kinds == ("reactive", "deliberative"), record.fault
    assert [a.call for a in record.answers[1]] == ["plan"] and {a.call for a in record.answers[0]} == {"act"}
    assert {s.agent: s.total_tasks for s in record.statistics}["naive-java"] == 10  # the reactive one takes none


# ---- faults ----

@pytest.mark.parametrize(("fail", "message"), [
    ("null", "act() returned null"),
    ("throw", "IllegalStateException: failing on purpose in act"),
    ("exit", "the agent called System.exit"),
    ("memory", "out of memory"),
])
def test_a_reactive_agent_s_null_action_exception_exit_or_memory_is_its_fault(
    agents: Path, fail: str, message: str
) -> None:
    from apdp.agents.java.install import add_agent

    name = f"walker-{fail}"
    add_agent(agents / "walker-java" / ".build" / "classes", "exercises.Walker", name=name, agents_dir=agents,
              params={"fail": fail}, replace=True)
    record = _play(agents, "reactive_france", [name], end=ReactiveEnd(hours=None, acts=10))
    assert record.referee_error is None and record.fault is not None
    assert message in record.fault.message or (fail == "memory" and str(record.fault.kind) == "memory"), record.fault
    assert record.fault.phase == "act"


@pytest.mark.parametrize(("name", "configuration"), [
    ("naive-java", "deliberative_switzerland"), ("central-java", "centralized_england"),
])
def test_a_null_plan_is_the_agent_s_fault(agents: Path, name: str, configuration: str) -> None:
    record = _play(agents, configuration, [name], params=[{"fail": "null"}])
    assert record.fault is not None and record.fault.phase == "plan", record.fault
    assert re.search(r"plan\(\) returned null", record.fault.message), record.fault


def test_an_agent_of_one_kind_asked_another_s_call_says_what_it_is(agents: Path) -> None:
    # AuctionBehavior and ReactiveBehavior: reactive, on an exercise's configuration and in an auction
    record = _play(agents, "deliberative_switzerland", ["both-java"], end=ReactiveEnd(hours=None, acts=5))
    assert record.fault is None and record.kinds == ("reactive",) and record.events >= 5
    from apdp.referee.match import play_match
    from apdp.scenario import load_scenario

    spec = load_scenario(None, {"topology": "switzerland", "tasks": 2, "seed": 1})
    result = play_match(spec, [AgentSource("both-java", agents / "both-java"), "naive"])
    (fault,) = result.result.faults
    assert fault.phase == "bid" and re.search(r"exercises\.Both is a reactive agent .*'bid'", fault.message), fault

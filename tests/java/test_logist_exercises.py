"""Logist agents of the course's reactive, deliberative and centralized exercises, played unchanged
through apdp's Java host (issue 33).

The agents are tests/data/java/exercises_project (a student's project with an agent of each exercise,
installed with ``apdp logist import``): each prints what the platform hands it at every call, and
platform/ keeps what they printed when the real platform ran them on the course's configurations.
Here apdp's exercise round (apdp.exercises.round) drives them through the host
(tests/java/exercise_driver.py), and each must print, line for line, what it printed there, and end
with the platform's statistics; the course's naive templates must also give the figures of the
platform's reference runs (tests/data/exercises/runs) and of the same plan written in Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from apdp.agents.java.names import installed_behavior
from apdp.exercises.centralized import CentralizedPlanCall, CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration, read_exercise
from apdp.exercises.deliberative import CancelCall, DeliberativeSeat, PlanCall
from apdp.exercises.history import AgentStatistics
from apdp.exercises.naive_plan import naive_plan, naive_plans
from apdp.exercises.round import ReactiveEnd, Round, Seat
from apdp.game.plan import Action
from tests.java.exercise_driver import HostFault, JavaExerciseAgent, installed_params, play_round, setup_json
from tests.paths import JAVA, ROOT

PROJECT = JAVA / "exercises_project"
PLATFORM = PROJECT / "platform"
CONFIG = ROOT / "scenarios" / "exercises" / "config"
RUNS = ROOT / "tests" / "data" / "exercises" / "runs"
KINDS = {"walker-java": "reactive", "greedy-walker-java": "reactive", "naive-java": "deliberative",
         "central-java": "centralized", "bidder-java": "auction", "both-java": "reactive"}


@pytest.fixture(scope="module")
def agents(tmp_path_factory: pytest.TempPathFactory, java_cache: Path) -> Path:
    """The project imported (every agent of its agents.xml)."""
    from apdp.agents.java.project import import_project

    folder = tmp_path_factory.mktemp("exercises") / "agents"
    result = import_project(PROJECT, folder)
    assert result.failed == [] and result.skipped == []
    assert {a.name: a.behavior for a in result.installed} == KINDS
    return folder


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


def test_import_installs_each_exercise_s_agent_of_the_kind_the_platform_gives_it(agents: Path) -> None:
    assert {name: installed_behavior(agents / name) for name in KINDS} == KINDS
    assert "# logist behaviour: reactive" in (agents / "both-java" / "agent.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("run", "configuration", "names", "kind"), [
    ("deliberative_switzerland-1", "deliberative_switzerland", ["naive-java"], "deliberative"),
    ("deliberative_switzerland-2", "deliberative_switzerland", ["naive-java", "naive-java"], "deliberative"),
    ("centralized_england-1", "centralized_england", ["central-java"], "centralized"),
])
def test_each_agent_sees_and_scores_in_apdp_what_it_did_on_the_platform(
    agents: Path, tmp_path: Path, run: str, configuration: str, names: list[str], kind: str
) -> None:
    exercise = read_exercise(CONFIG / f"{configuration}.xml")
    round_, outputs = play_round(exercise, [agents / n for n in names], [kind] * len(names), tmp_path,
                                 [installed_params(agents, n) for n in names])
    platform = (PLATFORM / f"{run}.txt").read_text(encoding="utf-8")
    for agent, output in enumerate(outputs):
        expected = _lines(platform, agent)
        assert expected and _lines(output, agent) == expected
    assert _figures(round_.statistics()) == _statistics(run)


def test_reactive_agents_see_in_apdp_every_offer_and_total_they_saw_on_the_platform(
    agents: Path, tmp_path: Path
) -> None:
    names = ["greedy-walker-java", "walker-java"]  # deterministic, and the template's rule on a seeded Random
    exercise = read_exercise(CONFIG / "reactive_france.xml")
    _, outputs = play_round(exercise, [agents / n for n in names], ["reactive"] * 2, tmp_path,
                            [installed_params(agents, n) for n in names], end=ReactiveEnd(hours=None, acts=300))
    platform = (PLATFORM / "reactive_france-2.txt").read_text(encoding="utf-8")
    for agent, output in enumerate(outputs):
        lines = _lines(output, agent)
        assert len(lines) > 140 and lines == _lines(platform, agent)[:len(lines)]
        assert any(" The total profit after 150 actions is " in line for line in lines) or agent == 0
    assert "pNoTask=0.38137106855712677 sumP=0.6186289314428731" in outputs[0]  # the no-task share, to the bit


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
    agents: Path, tmp_path: Path, configuration: str, reference: str, kind: str
) -> None:
    exercise = read_exercise(CONFIG / f"{configuration}.xml")
    name = "naive-java" if kind == "deliberative" else "central-java"
    java, _ = play_round(exercise, [agents / name], [kind], tmp_path, [{}])
    seat: Seat = DeliberativeSeat(_PythonNaive(exercise)) if kind == "deliberative" else CentralizedSeat(
        _PythonCentral(exercise))
    scripted = Round(exercise, [seat], [name])
    scripted.run()
    summary = (RUNS / reference / "summary.txt").read_text(encoding="utf-8")
    platform = {k: float(v) for k, v in re.findall(r'<total-([\w-]+) value="([^"]+)"/>', summary)}
    figures = (int(platform["tasks"]), round(platform["distance"] * 1000), int(platform["cost"]),
               int(platform["reward"]), int(platform["profit"]))
    assert _figures(java.statistics()) == _figures(scripted.statistics()) == [figures]


# ---- faults ----

@pytest.mark.parametrize(("fail", "message"), [
    ("null", "act() returned null"),
    ("throw", "IllegalStateException: failing on purpose in act"),
    ("exit", "the agent called System.exit"),
    ("memory", "out of memory"),
])
def test_a_reactive_agent_s_null_action_exception_exit_or_memory_is_its_fault(
    agents: Path, tmp_path: Path, fail: str, message: str
) -> None:
    from apdp.agents.java.install import add_agent

    name = f"walker-{fail}"
    add_agent(agents / "walker-java" / ".build" / "classes", "exercises.Walker", name=name, agents_dir=agents,
              params={"fail": fail}, replace=True)
    exercise = read_exercise(CONFIG / "reactive_france.xml")
    with pytest.raises(HostFault, match=re.escape(message)):
        play_round(exercise, [agents / name], ["reactive"], tmp_path, [{"fail": fail}],
                   end=ReactiveEnd(hours=None, acts=10))


@pytest.mark.parametrize(("name", "kind", "configuration"), [
    ("naive-java", "deliberative", "deliberative_switzerland"), ("central-java", "centralized", "centralized_england"),
])
def test_a_null_plan_is_the_agent_s_fault(
    agents: Path, tmp_path: Path, name: str, kind: str, configuration: str
) -> None:
    exercise = read_exercise(CONFIG / f"{configuration}.xml")
    with pytest.raises(HostFault, match=r"plan\(\) returned null"):
        play_round(exercise, [agents / name], [kind], tmp_path, [{"fail": "null"}])


def test_an_agent_of_one_kind_asked_another_s_call_says_what_it_is(agents: Path, tmp_path: Path) -> None:
    exercise = read_exercise(CONFIG / "reactive_france.xml")
    both = JavaExerciseAgent(agents / "both-java", tmp_path)  # AuctionBehavior and ReactiveBehavior: reactive
    try:
        both.request(setup_json(exercise, 0, {}))
        with pytest.raises(HostFault, match=r"exercises\.Both is a reactive agent .*'bid'"):
            both.request({"type": "bid", "task": {"id": 0, "pickup": "Paris", "delivery": "Lyon", "weight": 3}})
        reply = both.request({"type": "act", "vehicle": {"id": 0, "city": "Paris"}, "task": None})
        assert reply["action"][0] == "move"
    finally:
        both.close()

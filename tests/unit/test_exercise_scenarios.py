"""The course's configurations of the three exercises shipped on the four networks
(``scenarios/exercises``): each file loads in both forms, the two forms are the same world, the
course's own three are the course's files, and each plays a short round with the course's template
behaviour."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from apdp.bundled import BUNDLED_SCENARIOS
from apdp.errors import UserError
from apdp.exercises.centralized import CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration, read_exercise
from apdp.exercises.deliberative import CancelCall, DeliberativeSeat, PlanCall
from apdp.exercises.distribution import TaskStream
from apdp.exercises.naive_plan import naive_plan
from apdp.exercises.reactive import ActCall, ReactiveSeat
from apdp.exercises.reactive_mdp import COURSE_DISCOUNT
from apdp.exercises.round import ReactiveEnd, Round
from apdp.exercises.scores.centralized import TemplateController
from apdp.exercises.topology import LogistTopology
from apdp.game.plan import Action, Move, Pickup
from apdp.logist.javarandom import JavaRandom
from tests.exercise_runs import CONFIG

SCENARIOS = BUNDLED_SCENARIOS / "exercises"
EXERCISES = ("reactive", "deliberative", "centralized")
NETWORKS = ("switzerland", "france", "england", "netherlands")
CASES = [(e, n) for e in EXERCISES for n in NETWORKS]


def _world(config: ExerciseConfiguration) -> tuple[object, ...]:
    """What a round depends on: the network's view, the laws and number, companies, limits, exercise."""
    t = config.topology
    stream = TaskStream(config)
    return (t.cities, t.units, t.neighbours, config.laws, config.tasks, config.companies, config.timeouts_ms,
            config.exercise, tuple(stream.batch(config.tasks)), stream.no_task)


def test_every_exercise_ships_on_every_network() -> None:
    assert sorted(p.name for p in SCENARIOS.glob("*.toml")) == sorted(f"{e}_{n}.toml" for e, n in CASES)
    assert sorted(p.name for p in (SCENARIOS / "config").glob("*.xml")) == sorted(
        ["agents.xml", "settings_default.xml", *(f"{e}_{n}.xml" for e, n in CASES)])


@pytest.mark.parametrize(("exercise", "network"), CASES)
def test_both_forms_are_the_same_world(exercise: str, network: str) -> None:
    xml = read_exercise(SCENARIOS / "config" / f"{exercise}_{network}.xml")
    toml = read_exercise(SCENARIOS / f"{exercise}_{network}.toml")
    assert xml.exercise == toml.exercise == exercise
    assert xml.network.name.replace("the ", "") == toml.network.name == network
    assert _world(xml) == _world(toml)
    assert xml.timeouts_ms == {"setup": 300_000, "plan": 300_000}


@pytest.mark.parametrize(("exercise", "network"), [("reactive", "france"), ("deliberative", "switzerland"),
                                                   ("centralized", "england")])
def test_the_course_configurations_are_the_courses(exercise: str, network: str) -> None:
    shipped = read_exercise(SCENARIOS / "config" / f"{exercise}_{network}.xml")
    course = read_exercise(CONFIG / f"{exercise}.xml")
    assert _world(shipped) == _world(course)


class ReactiveTemplate:
    """The course's reactive template: takes the offer with probability ``discount`` (its
    ``pPickup``), else moves to a random neighbour (seeded here; the course's is not)."""

    def __init__(self, topology: LogistTopology, seed: int) -> None:
        self.topology = topology
        self.random = JavaRandom(seed)

    def act(self, call: ActCall) -> Action:
        if call.task is None or self.random.next_double() > COURSE_DISCOUNT:
            return Move(self.topology.random_neighbor(call.vehicle.city, self.random))
        return Pickup(0)


class DeliberativeTemplate:
    """The course's deliberative template's naive plan."""

    def __init__(self, topology: LogistTopology) -> None:
        self.topology = topology

    def plan(self, call: PlanCall) -> list[Action]:
        return naive_plan(self.topology, call.vehicle.city, call.tasks)

    def plan_cancelled(self, call: CancelCall) -> None:
        pass


@pytest.mark.parametrize(("exercise", "network"), CASES)
def test_each_scenario_plays_a_round_of_the_templates(exercise: str, network: str) -> None:
    config = read_exercise(SCENARIOS / f"{exercise}_{network}.toml")
    t = config.topology
    if exercise == "reactive":
        seats: list[object] = [ReactiveSeat(ReactiveTemplate(t, k)) for k in range(2)]
    elif exercise == "deliberative":  # two templates compete for the tasks
        seats = [DeliberativeSeat(DeliberativeTemplate(t)) for _ in range(2)]
    else:
        seats = [CentralizedSeat(TemplateController(t))]
    round_ = Round(config, seats, [f"template-{k}" for k in range(len(seats))],  # type: ignore[arg-type]
                   end=ReactiveEnd(hours=None, acts=200))
    history = round_.run()
    assert len(history.tasks) == config.tasks and history.events
    if exercise == "reactive":
        assert round_.acts == 200 and all(s.total_distance_units > 0 for s in history.statistics)
    elif exercise == "deliberative":  # every task delivered by one of them
        assert sum(len(v.delivered) for a in round_.agents for v in a.vehicles) == config.tasks
    else:
        (stats,) = history.statistics
        assert stats.total_tasks == config.tasks
        assert stats.total_reward == sum(int(x.reward or 0) for x in history.tasks)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("change", "message"), [
    (("tasks = 10", "tasks = 0"), r"bad\.toml: tasks: Input should be greater than or equal to 1 \(got 0\)$"),
    (("exercise = \"reactive\"", "exercise = \"auction\""), r"bad\.toml: exercise: Input should be 'reactive'"),
    (("home = \"Paris\"", "home = \"Pariss\""), r"bad\.toml: company 'Company A' vehicle 'Vehicle 1': home 'Pariss'"),
    (("topology = \"france\"", "topology = \"atlantis\""), r"bad\.toml: topology: unknown topology 'atlantis'"),
    (("policy = \"short\"", "policy = \"near\""), r"bad\.toml: laws\.reward\.policy: Input should be"),
    (("capacity = 30", "capacity = 30.5"), r"companies\.0\.vehicles\.0\.capacity: Input should be a valid integer"),
    (("seed = ", "sed = "), r"bad\.toml: seed: Field required"),
    (("tasks = 10", "tasks = 10\nbids = 3"), r"bad\.toml: bids: unknown field"),
    (("[timeouts]", "[timeouts"), r"bad\.toml: not valid TOML"),
])
def test_a_bad_toml_file_is_one_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    text = (SCENARIOS / "reactive_france.toml").read_text(encoding="utf-8")
    assert change[0] in text
    with pytest.raises(UserError, match=message) as caught:
        read_exercise(_write(tmp_path, text.replace(change[0], change[1], 1)))
    assert "\n" not in str(caught.value)


def test_a_toml_file_may_name_a_network_file_beside_it(tmp_path: Path) -> None:
    (tmp_path / "net.xml").write_bytes((SCENARIOS / "config" / "topology" / "france.xml").read_bytes())
    text = (SCENARIOS / "reactive_france.toml").read_text(encoding="utf-8").replace('"france"', '"net.xml"')
    config = read_exercise(_write(tmp_path, text))
    shipped = read_exercise(SCENARIOS / "reactive_france.toml")
    assert _world(dataclasses.replace(config, source="")) == _world(shipped)

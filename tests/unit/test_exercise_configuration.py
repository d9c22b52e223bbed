"""Course configurations and the platform's one random stream (B1-B5): the batches of the
reference runs, the no-task draws that shift them, and the offers that continue the stream."""

from __future__ import annotations

import math

import pytest

from apdp.exercises.configuration import platform_timeout_ms, read_exercise
from apdp.exercises.distribution import TaskStream
from apdp.exercises.history import read_history
from apdp.logist.javarandom import JavaRandom
from apdp.logist.tasks import draw_logist_tasks, draw_no_task
from tests.exercise_runs import CONFIG, RUNS

BATCHES = [("reactive.xml", "reactive/04_probe"), ("reactive.xml", "reactive/05_probe_three"),
           ("deliberative.xml", "deliberative/01_template"), ("deliberative.xml", "deliberative/06_probe_seq_x2"),
           ("centralized.xml", "centralized/01_template_naive"), ("centralized_2co.xml", "centralized/04_two_agents")]


@pytest.mark.parametrize(("config", "run"), BATCHES)
def test_the_batch_is_the_platforms(config: str, run: str) -> None:
    configuration = read_exercise(CONFIG / config)
    batch = TaskStream(configuration).batch(configuration.tasks)
    assert tuple(batch) == read_history(RUNS / run / "history.xml").tasks
    assert draw_logist_tasks(configuration.network, configuration.laws, configuration.tasks) == batch


def test_a_uniform_no_task_takes_one_draw_per_city_before_the_batch() -> None:
    configuration = read_exercise(CONFIG / "reactive.xml")
    laws = configuration.laws
    assert laws.no_task is not None and (laws.no_task.distribution, laws.no_task.min, laws.no_task.max) == (
        "uniform", 0.2, 0.4)
    played = read_history(RUNS / "reactive/04_probe/history.xml").tasks
    without = laws.model_copy(update={"no_task": None})
    assert tuple(draw_logist_tasks(configuration.network, without, configuration.tasks)) != played
    stream = TaskStream(configuration)
    assert all(0.2 <= p <= 0.4 for p in stream.no_task) and len(set(stream.no_task)) == 9
    for city in stream.cities:  # B4: P sums to 1 - notask
        total = sum(stream.probability(city, to) for to in stream.cities)
        assert math.isclose(total, 1 - stream.probability(city, None))
    assert stream.probability("Paris", "Paris") == 0.0 and stream.reward("Paris", "Paris") == 0


def test_companies_settings_and_a_constant_no_task() -> None:
    configuration = read_exercise(CONFIG / "reactive2_cap15.xml")
    first = configuration.companies[0].vehicles[0]
    assert (first.name, first.home, first.capacity, first.cost_per_km, first.speed) == (
        "Vehicle 1", "Amsterdam", 15, 5, 90_000)
    assert len(configuration.companies) == 6 and configuration.timeouts_ms == {"setup": 300_000, "plan": 300_000}
    assert platform_timeout_ms(300_000) == 303_000 and platform_timeout_ms(1000) == 1010
    assert configuration.laws.reward.policy == "short"
    law = configuration.laws.no_task
    assert law is not None
    constant = configuration.laws.model_copy(update={"no_task": law.model_copy(update={"distribution": "constant"})})
    rng, fresh = JavaRandom(1), JavaRandom(1)
    assert draw_no_task(constant, 3, rng) == (0.30000000000000004,) * 3  # (0.2 + 0.4) / 2, and no draw
    assert rng.next_double() == fresh.next_double()


def test_offers_continue_the_stream_after_the_batch() -> None:
    configuration = read_exercise(CONFIG / "reactive.xml")
    stream = TaskStream(configuration)
    stream.batch(configuration.tasks)
    assert stream.offer("Paris") is None  # 04_probe's first act: no task at Paris
    assert stream.offer("Bordeaux") is None
    assert stream.offer("Lyon") is None
    offer = stream.offer("Genève")
    assert offer is not None and (offer.id, offer.delivery, offer.weight, offer.reward) == (0, "Brest", 3, 27782)

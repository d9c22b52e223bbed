"""An exercise's replay page in a real headless Chromium (driven by Playwright), as
test_pages_browser.py drives the auction's: each exercise's page loads with no console error and no
request but its own file, its map draws every city and road and one marker per vehicle, stepping
the timeline moves a vehicle along the roads it drove, and the end shows the record's figures.
Without Chromium these tests skip, except under CI, where they fail.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from apdp.exercises.configuration import read_exercise
from apdp.pages.exercise_replay import write_exercise_replay
from tests.browser.test_pages_browser import number, open_page
from tests.exercise_pages import played


@pytest.mark.parametrize(("exercise", "agents"), [("reactive", 2), ("deliberative", 2), ("centralized", 1)])
def test_an_exercise_replay_draws_the_map_and_steps_its_vehicles(browser: Any, tmp_path: Path,
                                                                 exercise: str, agents: int) -> None:
    record = played(exercise, agents=agents, acts=150)
    path = tmp_path / f"{exercise}.html"
    write_exercise_replay(record, path)
    watched = open_page(browser, path)
    page = watched.page
    configuration = read_exercise(record.scenario)
    network = configuration.network
    vehicles = sum(len(c.vehicles) for c in configuration.companies[:agents])
    assert page.locator("#map circle.city").count() == len(network.cities)
    assert page.locator("#map line.road").count() == len(network.roads)
    assert page.locator("#map g.vehicle").count() == vehicles
    assert page.locator("#standing tbody tr").count() == agents
    assert page.get_attribute("#slider", "max") == str(record.events)

    def places() -> list[tuple[str | None, str | None]]:
        markers = page.locator("#map g.vehicle")
        return [(markers.nth(i).get_attribute("data-city"), markers.nth(i).get_attribute("style"))
                for i in range(vehicles)]

    at_home = places()
    assert all(city is not None for city, _ in at_home)
    steps = 0
    while places() == at_home:  # the first events may be pickups, where no vehicle moves
        assert steps < record.events, "no vehicle ever moved"
        page.click("#next")
        steps += 1
    moved = [i for i, (now, then) in enumerate(zip(places(), at_home, strict=True)) if now != then]
    assert len(moved) == 1 and places()[moved[0]][0] != at_home[moved[0]][0]  # one event: one vehicle, elsewhere
    assert page.get_attribute("body", "data-position") == str(steps)
    assert page.get_attribute(f"#map path.driven[data-vehicle='{moved[0]}']", "d")  # the road it drove
    assert page.locator("#events tr.current").count() == 1
    assert page.get_attribute("#events tr.current", "data-event") == str(steps - 1)

    page.click("#last")
    assert page.get_attribute("body", "data-end") == "1"
    shown = sorted(number(page.inner_text(f"#standing tr[data-agent='{a}'] td.profit")) for a in range(agents))
    assert shown == sorted(s.total_profit for s in record.statistics)
    finals = sorted(number(t) for t in page.locator("#statistics td.final-profit").all_inner_texts())
    assert finals == shown
    page.click("#first")
    assert places() == at_home and page.get_attribute("body", "data-position") == "0"
    assert watched.errors == []
    assert watched.requests == [path.resolve().as_uri()]

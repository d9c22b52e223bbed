"""apdp's ``honest`` and ``model-opponent`` bid, bid for bid, what the course's test agents bid on
the course's four Logist configurations (50 tasks, both seats).

``tests/data/logist/course_agents/histories`` holds those bids: the course's honest and best-response
agents, written in Java on apdp's Logist API (``course_agents/src/course``) and played by
``course_agents/record_histories.py``. Their costs are Java doubles added leg by leg over the
platform's distances (integer units of km x 1000); apdp's greedy schedules add them up the same way
(:mod:`apdp.baselines.greedy.schedule`): summed otherwise, about one bid in a hundred came out one
unit apart (England, task 22: 2677 for the platform's 2678) and a few Netherlands insertions differed.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from apdp.baselines.greedy import GreedyAgent
from apdp.baselines.honest import Honest
from apdp.baselines.model_opponent import ModelOpponent
from apdp.game.deadline import Deadline
from apdp.game.task import Task
from apdp.scenario import load_scenario
from tests.paths import LOGIST

HISTORIES = sorted((LOGIST / "course_agents" / "histories").glob("*.xml"))
APDP_AGENT = {"honest-java": Honest, "best-response-java": ModelOpponent}


def replay(path: Path) -> tuple[int, list[str]]:
    """apdp's agents in the history's seats, told the history's winners: how many bids they made,
    and each one that differs from the history's."""
    root = ET.parse(path).getroot()
    scenario = load_scenario(LOGIST / root.attrib["configuration"], {"tasks": int(root.attrib["tasks"])})
    topology = scenario.load_topology()
    names = [a.attrib["name"] for a in root.iter("agent")]
    companies = scenario.build_companies(topology, len(names))
    agents: list[GreedyAgent] = []
    for k, (name, company) in enumerate(zip(names, companies, strict=True)):
        agent = APDP_AGENT[name]()
        agent.topology, agent.company, agent.agent_id, agent.agents = topology, company, k, len(names)
        agent.params, agent.rng, agent.deadline = {}, np.random.default_rng(0), Deadline.never()
        agent.setup(topology, scenario.distribution_for(topology), company)
        agents.append(agent)
    bids = 0
    different: list[str] = []
    for element in root.iter("task"):
        task = Task(int(element.attrib["id"]), element.attrib["pickup"], element.attrib["delivery"],
                    float(element.attrib["weight"]))
        theirs = [float(b.attrib["bid"]) for b in element.iter("bid")]
        ours = [agent.bid(task) for agent in agents]
        for name, mine, platform in zip(names, ours, theirs, strict=True):
            bids += 1
            if mine != platform:
                different.append(f"task {task.id} {name}: {mine} for {platform:.0f}")
        winner = min(range(len(theirs)), key=lambda k: (theirs[k], k))  # ties: the first listed
        for agent in agents:
            agent.auction_result(task, winner, theirs)
    return bids, different


def test_every_configuration_and_seat_has_a_history() -> None:
    assert [p.name for p in HISTORIES] == sorted(
        f"{seats}_{network}.xml" for seats in ("hb", "bh")
        for network in ("england", "france", "switzerland", "the_netherlands")
    )


@pytest.mark.parametrize("history", HISTORIES, ids=lambda p: p.stem)
def test_honest_and_model_opponent_bid_as_the_course_test_agents(history: Path) -> None:
    bids, different = replay(history)
    assert bids == 100
    assert different == []


def test_the_england_bid_summing_the_km_first_got_wrong() -> None:
    root = ET.parse(LOGIST / "course_agents" / "histories" / "bh_england.xml").getroot()
    [task] = [t for t in root.iter("task") if t.attrib["id"] == "22"]
    assert [b.attrib["bid"] for b in task.iter("bid")] == ["2668", "2678"]

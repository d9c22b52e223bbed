"""The platform's reference runs of the course's exercises (``tests/data/exercises/runs``, from
``shared/reference/logist-exercise-runs``) and scripted controllers that replay the decisions they
record: a probe's console for reactive act answers and deliberative plans, a history's events for plans
that never got stuck."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from apdp.exercises.centralized import CentralizedPlanCall
from apdp.exercises.deliberative import CancelCall, PlanCall
from apdp.exercises.history import History
from apdp.exercises.reactive import ActCall
from apdp.game.plan import Action, Deliver, Move, Pickup
from tests.paths import DATA

EXERCISES = DATA / "exercises"
CONFIG = EXERCISES / "config"
RUNS = EXERCISES / "runs"

_ACTION = re.compile(r"(Move|Pickup|Deliver) \((?:Task (\d+)|([^)]+))\)")


def parse_actions(text: str) -> list[Action]:
    """``[Move (Bern), Pickup (Task 0), ...]`` as actions."""
    out: list[Action] = []
    for kind, task, city in _ACTION.findall(text):
        out.append(Move(city) if kind == "Move" else Pickup(int(task)) if kind == "Pickup" else Deliver(int(task)))
    return out


@dataclass(frozen=True)
class Act:
    """One ``RP act`` line of a reactive probe's console."""

    agent: str
    number: int
    city: str
    task: tuple[str, str, int, int] | None
    vehicle_reward: int
    vehicle_units: int
    agent_reward: int
    agent_cost: int
    agent_profit: int
    action: Action


_ACT = re.compile(r"RP act agent=(\S+) n=(\d+) g=\d+ veh=.+? city=(.+?) task=(none|0:(.+?)->(.+?):w(\d+):r(\d+)) "
                  r"vReward=(\d+) vUnits=(\d+) .*?aReward=(-?\d+) aCost=(-?\d+) aProfit=(-?\d+) .*-> (.*)$")


def reactive_acts(run: Path) -> list[Act]:
    """The act calls a reactive probe printed, in the order they were made."""
    out = []
    for line in (run / "console.log").read_text(encoding="utf-8").splitlines():
        m = _ACT.match(line)
        if m:
            g = m.groups()
            task = None if g[3] == "none" else (g[4], g[5], int(g[6]), int(g[7]))
            out.append(Act(g[0], int(g[1]), g[2], task, int(g[8]), int(g[9]), int(g[10]), int(g[11]), int(g[12]),
                           parse_actions(g[13])[0]))
    return out


class ScriptedReactive:
    """Answers each act call with the recorded action of that agent, and keeps the calls it got."""

    def __init__(self, acts: Sequence[Act]) -> None:
        self.acts = list(acts)
        self.calls: list[ActCall] = []

    def act(self, call: ActCall) -> Action:
        self.calls.append(call)
        return self.acts[call.number - 1].action


_PLAN_ASKED = re.compile(r"DP plan agent=\S+ call=\d+ thread=\S+ veh=(.+?) city=")
_PLAN_MADE = re.compile(r"DP plan agent=\S+ call=\d+ km=\S+ plan=(\[.*\]), \S+$")


def deliberative_plans(run: Path) -> dict[str, list[list[Action]]]:
    """Per vehicle name, the plans a deliberative probe returned, in order."""
    plans: dict[str, list[list[Action]]] = defaultdict(list)
    asking = None
    for line in (run / "console.log").read_text(encoding="utf-8").splitlines():
        if m := _PLAN_ASKED.match(line):
            asking = m.group(1)
        elif (m := _PLAN_MADE.match(line)) and asking is not None:
            plans[asking].append(parse_actions(m.group(1)))
            asking = None
    return plans


def stuck_lines(run: Path) -> list[str]:
    """The platform's ``LP: Stuck action : ...`` lines."""
    return [line for line in (run / "console.log").read_text(encoding="utf-8").splitlines()
            if line.startswith("LP: Stuck action")]


class ScriptedDeliberative:
    """Returns the recorded plans one after the other, and keeps the calls it got."""

    def __init__(self, plans: Sequence[Sequence[Action]]) -> None:
        self.plans = [list(p) for p in plans]
        self.calls: list[PlanCall] = []
        self.cancelled: list[CancelCall] = []

    def plan(self, call: PlanCall) -> list[Action]:
        self.calls.append(call)
        return self.plans[call.number - 1]

    def plan_cancelled(self, call: CancelCall) -> None:
        self.cancelled.append(call)


def vehicle_actions(history: History) -> dict[str, list[Action]]:
    """Per vehicle name, the actions the history shows, in order."""
    out: dict[str, list[Action]] = defaultdict(list)
    for event in history.events:
        out[event.vehicle].append(event.action)
    return out


class ScriptedCentralized:
    """Returns, for each vehicle, the actions the history shows it doing."""

    def __init__(self, history: History) -> None:
        self.actions = vehicle_actions(history)
        self.calls: list[CentralizedPlanCall] = []

    def plan(self, call: CentralizedPlanCall) -> list[list[Action]]:
        self.calls.append(call)
        return [self.actions.get(v.name, []) for v in call.vehicles]

"""A round's history as data, in the form of the platform's ``history.xml`` (A7): the batch of
tasks, the events with their simulated times (ns), and each agent's statistics ranked by profit.
:func:`read_history` reads a platform's file, for comparing it with a round played here.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task


@dataclass(frozen=True, slots=True)
class Event:
    """``<event id time vehicle move|pickup|deliver>``: an action a vehicle began at ``time`` (ns)."""

    id: int
    time: int
    vehicle: str
    action: Action
    #: The vehicle's number in the round (companies' vehicles in order), which its name may not tell
    #: (two companies may name a vehicle alike); None in a history read from the platform's file.
    number: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class AgentStatistics:
    """``<stat rank agent>``: an agent's totals at the end of the round (S)."""

    rank: int
    agent: str
    total_tasks: int
    total_distance_units: int
    total_cost: int
    total_reward: int
    total_profit: int

    @property
    def total_distance(self) -> float:
        """``total-distance``: km as the platform writes it (units / 1000.0)."""
        return self.total_distance_units / 1000.0


@dataclass(frozen=True)
class History:
    """A round: its agents (name, vehicle names), the batch, the events, the statistics (none if unfinished)."""

    configuration: str
    agents: tuple[tuple[str, tuple[str, ...]], ...]
    tasks: tuple[Task, ...]
    events: tuple[Event, ...]
    statistics: tuple[AgentStatistics, ...]


def _text(value: str | None) -> str:
    """An attribute as the platform meant it: its files hold UTF-8 under an ISO-8859-1 declaration."""
    text = value or ""
    try:
        return text.encode("iso-8859-1").decode("utf-8")
    except UnicodeError:
        return text


def _action(event: ET.Element) -> Action:
    if event.get("move") is not None:
        return Move(_text(event.get("move")))
    if event.get("pickup") is not None:
        return Pickup(int(event.get("pickup", "")))
    return Deliver(int(event.get("deliver", "")))


def read_history(path: str | Path) -> History:
    """A platform's ``history.xml`` (a single round) as data; km are turned back into units."""
    root = ET.parse(path).getroot()
    agents = tuple((_text(a.get("name")), tuple(_text(v.get("name")) for v in a.iter("vehicle")))
                   for a in root.iter("agent"))
    tasks = tuple(Task(int(t.get("id", "")), _text(t.get("pickup")), _text(t.get("delivery")),
                       int(t.get("weight", "")), int(t.get("reward", ""))) for t in root.iter("task"))
    events = tuple(Event(int(e.get("id", "")), int(e.get("time", "")), _text(e.get("vehicle")), _action(e))
                   for e in root.iter("event"))

    def value(stat: ET.Element, tag: str) -> str:
        element = stat.find(tag)
        return "" if element is None else element.get("value", "")

    statistics = tuple(
        AgentStatistics(int(s.get("rank", "")), _text(s.get("agent")), int(value(s, "total-tasks")),
                        round(float(value(s, "total-distance")) * 1000), int(value(s, "total-cost")),
                        int(value(s, "total-reward")), int(value(s, "total-profit")))
        for s in root.iter("stat")
    )
    return History(root.get("configuration", ""), agents, tasks, events, statistics)

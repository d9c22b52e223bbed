"""Re-checking a match record from its own content: every rule of the game, every figure.

``verify_record`` trusts nothing in the record but the network's name: it replays the auctions,
checks every plan with the referee's own validator and recomputes revenue, cost, profit and the
winner by the record's settlement rule (``settlement``, see :mod:`apdp.referee.record`: a faulted
agent is paid nothing; records without the field, written before that rule, by the old rule
"won", under which it kept its winning bids). Every number must be finite and within its range
(bids by the record's bid rule, ``bids``: apdp's or the Logist platform's, see
:func:`apdp.game.auction.check_bid`; figures at most :data:`apdp.referee.record_format.MAX_FIGURE`
in size). It returns every problem found, in plain words. The record of a match the referee could
not finish is no valid record: it says why.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from apdp.errors import UserError
from apdp.game.auction import check_bid, lowest_bidders
from apdp.game.company import Company
from apdp.game.fault import PHASES, FaultKind
from apdp.game.plan import VehiclePlan, check_plans, company_cost, plans_from_json
from apdp.game.task import Task
from apdp.game.topology import Topology, TopologyError
from apdp.reading import ReadRefused, read_regular
from apdp.referee.record import (
    LOGIST_SETTLEMENT,
    RECORD_FORMAT,
    SETTLEMENT,
    match_winner,
    record_topology,
    referee_error,
    settle_logist,
    unknown_schema,
)
from apdp.referee.record_format import MatchRecord


class UnreadableRecord(UserError):
    """The file is not a record at all (not JSON, not an object, wrong format)."""


#: The largest record file read: a record takes at most its ``limits.record_kb`` (256 KiB by default).
MAX_RECORD_FILE = 64 * 2**20


def _record_text(path: str | Path) -> str:
    """The text of a record file: a regular file of at most MAX_RECORD_FILE bytes (never a device or a
    pipe, read to its end), UTF-8."""
    try:
        data = read_regular(path, MAX_RECORD_FILE)
    except ReadRefused as exc:
        raise UnreadableRecord(f"{path}: {exc} (a record is a .json file of "
                               f"{MAX_RECORD_FILE // 2**20} MiB at most)") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableRecord(f"{path}: not UTF-8 text") from None


def read_record_json(path: str | Path) -> dict[str, Any]:
    """The JSON object of a record file, of any format (a match's, an exercise's), read within the
    bounds of any record; UnreadableRecord if it is none."""
    text = _record_text(path)
    try:
        data = json.loads(text)
    except RecursionError:
        raise UnreadableRecord(f"{path}: not a record (its JSON is nested too deep)") from None
    except ValueError as exc:
        raise UnreadableRecord(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise UnreadableRecord(f"{path}: a record is a JSON object, got {type(data).__name__}")
    return data


def read_record(path: str | Path) -> dict[str, Any]:
    """Load a record file; UnreadableRecord if it cannot be read as an apdp record."""
    data = read_record_json(path)
    if data.get("format") != RECORD_FORMAT:
        raise UnreadableRecord(
            f"{path}: format is {data.get('format')!r}, expected {RECORD_FORMAT!r}"
        )
    unknown = unknown_schema(data)
    if unknown is not None:
        raise UnreadableRecord(f"{path}: {unknown}")
    return data


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


def verify_record(data: dict[str, Any]) -> list[str]:
    """Every problem of a record, in plain words; an empty list means the record is valid."""
    failure = referee_error(data)
    if failure is not None:
        return [f"the referee could not finish this match (apdp's failure, not an agent's): {failure}"]
    unknown = unknown_schema(data)
    if unknown is not None:
        return [f"schema: {unknown}"]
    try:
        rec = MatchRecord.model_validate(data)
    except ValidationError as exc:
        return [
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:20]
        ]
    try:
        topology = record_topology(data)
    except TopologyError as exc:
        return [f"topology: {exc}"]
    n = len(rec.agents)
    if len(rec.companies) != n:
        return [f"{n} agents but {len(rec.companies)} companies"]
    companies, tasks, problems = _companies_and_tasks(rec, topology)
    if problems:
        return problems
    faulty = {f.agent for f in rec.result.faults}
    problems += _fault_problems(rec)
    won, revenue = _auctions(rec, tasks, problems)
    if len(rec.plans) != n:
        problems.append(f"{len(rec.plans)} plan entries for {n} agents")
        return problems
    costs, parsed = _plans(rec, topology, companies, won, tasks, problems)
    if rec.settlement == LOGIST_SETTLEMENT:
        return problems + _logist_result(data, rec, topology, companies, parsed)
    return problems + _result_problems(rec, revenue, costs, faulty)


def _companies_and_tasks(rec: MatchRecord, topology: Topology) -> tuple[list[Company], dict[int, Task], list[str]]:
    """The record's companies and tasks by id, and what is wrong with them (cities, capacities,
    weights, rewards, ids used twice)."""
    problems: list[str] = []
    companies: list[Company] = []
    for c, comp in enumerate(rec.companies):
        vehicles = []
        for v, veh in enumerate(comp.vehicles):
            if veh.home not in topology:
                problems.append(f"company {c} vehicle {v}: unknown city {veh.home!r}")
            if not (veh.capacity > 0 and veh.cost_per_km > 0):
                problems.append(f"company {c} vehicle {v}: capacity and cost per km must be > 0")
            vehicles.append(veh.vehicle())
        companies.append(Company(comp.name, tuple(vehicles)))
    tasks: dict[int, Task] = {}
    for t in rec.tasks:
        if t.id in tasks:
            problems.append(f"task {t.id}: id used twice")
        for city in (t.pickup, t.delivery):
            if city not in topology:
                problems.append(f"task {t.id}: unknown city {city!r}")
        if not t.weight > 0:
            problems.append(f"task {t.id}: weight must be > 0")
        if t.reward is not None and t.reward < 0:
            problems.append(f"task {t.id}: reward must be >= 0")
        tasks[t.id] = t.task()
    return companies, tasks, problems


def _fault_problems(rec: MatchRecord) -> list[str]:
    """Faults of agents the match does not have, or of kinds apdp does not know."""
    problems = []
    for f in rec.result.faults:
        if not 0 <= f.agent < len(rec.agents):
            problems.append(f"fault of unknown agent {f.agent}")
        if f.kind not in {k.value for k in FaultKind}:
            problems.append(f"fault of agent {f.agent}: unknown kind {f.kind!r}")
        assert f.phase in PHASES
    return problems


def _auctions(rec: MatchRecord, tasks: dict[int, Task], problems: list[str]) -> tuple[list[list[Task]], list[float]]:
    """The tasks each agent won and its revenue, replaying the auctions: one per task, in order;
    the lowest bid wins. What is wrong with them goes into ``problems``."""
    n = len(rec.agents)
    logist = rec.settlement == LOGIST_SETTLEMENT
    won: list[list[Task]] = [[] for _ in range(n)]
    revenue = [0.0] * n
    if [a.task for a in rec.auctions] != [t.id for t in rec.tasks]:
        problems.append("auctions do not follow the tasks one by one in order")
    for k, auction in enumerate(rec.auctions):
        label = f"auction {k} (task {auction.task})"
        if len(auction.bids) != n:
            problems.append(f"{label}: {len(auction.bids)} bids for {n} agents")
            continue
        for i, bid in enumerate(auction.bids):
            problem = check_bid(bid, rec.bids)
            if problem is None and logist and bid is not None and not isinstance(bid, int):
                problem = f"a bid of the platform's rules is a whole number (a Java long), got {bid!r}"
            if problem:
                problems.append(f"{label}: agent {i}: {problem}")
        low = lowest_bidders(auction.bids, rec.bids)
        if auction.winner is None:
            if low:
                problems.append(f"{label}: no winner although agent {low[0]} bid")
            continue
        if not 0 <= auction.winner < n:
            problems.append(f"{label}: winner {auction.winner} is not an agent")
            continue
        winning_bid = auction.bids[auction.winner]
        if winning_bid is not None:
            revenue[auction.winner] += float(winning_bid)
        problems += _winner_problems(rec, label, auction.bids, auction.winner, low)
        if auction.task in tasks:
            won[auction.winner].append(tasks[auction.task])
    return won, revenue


def _winner_problems(rec: MatchRecord, label: str, bids: list[Any], winner: int, low: list[int]) -> list[str]:
    """What is wrong with an auction's winner: not the lowest bidder, or not the first listed of a tie
    the record gives to the first."""
    if winner not in low:
        lowest = f"{bids[low[0]]!r} by agent {low[0]}" if low else "no bids at all"
        return [f"{label}: won by agent {winner} with {bids[winner]!r}, not the lowest bid ({lowest})"]
    if rec.ties == "first" and winner != low[0]:
        return [f"{label}: won by agent {winner}, but a tie goes to the agent listed first (agent {low[0]})"]
    return []


def _plans(rec: MatchRecord, topology: Topology, companies: list[Company], won: list[list[Task]],
           tasks: dict[int, Task], problems: list[str]) -> tuple[list[float], list[list[VehiclePlan] | None]]:
    """Each agent's plan cost and its plans read (None: none or unreadable): every sound agent's
    plans are valid, a plan fault's plans really are invalid; what is wrong goes into ``problems``."""
    logist = rec.settlement == LOGIST_SETTLEMENT
    faulty = {f.agent for f in rec.result.faults}
    plan_faults = {f.agent for f in rec.result.faults if f.kind == FaultKind.INVALID_PLAN}
    costs: list[float] = []
    parsed: list[list[VehiclePlan] | None] = [None] * len(rec.agents)
    for i, raw in enumerate(rec.plans):
        if raw is None:
            costs.append(0.0)
            if i not in faulty and not (logist and faulty):  # a fault ended a Logist game before its plans
                problems.append(f"agent {i}: no plans but no fault either")
            continue
        try:
            plans = plans_from_json(raw)
        except ValueError as exc:
            problems.append(f"agent {i}: {exc}")
            costs.append(0.0)
            continue
        violations = check_plans(topology, companies[i].vehicles, plans, won[i], tasks, cities=not logist)
        if i not in faulty:
            problems += [f"agent {i}, {v}" if v.vehicle is not None else f"agent {i}: {v}"
                         for v in violations]
        elif i in plan_faults and not violations:
            problems.append(f"agent {i}: recorded as an invalid plan, but its plan is valid")
        costs.append(company_cost(topology, companies[i].vehicles, plans))
        parsed[i] = plans
    return costs, parsed


def _result_problems(rec: MatchRecord, revenue: list[float], costs: list[float], faulty: set[int]) -> list[str]:
    """What is wrong with the result: its figures add up (by the record's settlement rule) and the
    winner follows from them."""
    n = len(rec.agents)
    problems = []
    if rec.settlement == SETTLEMENT:
        revenue = [0.0 if i in faulty else r for i, r in enumerate(revenue)]
    profit = [r - c for r, c in zip(revenue, costs, strict=True)]
    res = rec.result
    for name, got, want in (("revenue", res.revenue, revenue), ("cost", res.cost, costs),
                            ("profit", res.profit, profit)):
        if len(got) != n:
            problems.append(f"result.{name}: {len(got)} values for {n} agents")
            continue
        for i in range(n):
            if not _close(float(got[i]), want[i]):
                problems.append(
                    f"result.{name} of agent {i} is {got[i]:.6g}, but the record adds up to {want[i]:.6g}"
                )
    expected = match_winner(profit, faulty)
    if res.winner != expected:
        who = "nobody" if expected is None else f"agent {expected}"
        problems.append(f"result.winner is {res.winner}, but by the profits and faults {who} wins")
    return problems


def _logist_result(data: dict[str, Any], rec: MatchRecord, topology: Topology, companies: list[Company],
                   parsed: list[list[VehiclePlan] | None]) -> list[str]:
    """What is wrong with the result of a record of the Logist platform's rules: its figures, exact
    Java longs (:func:`apdp.referee.record.settle_logist`), its winner, and the ``wrapped`` agents."""
    faults = [f.model_dump(exclude_none=True) for f in rec.result.faults]
    want = settle_logist(data, topology, companies, [f.agent for f in rec.result.faults], faults, parsed)
    res = rec.result
    problems = []
    for name in ("revenue", "cost", "profit"):
        got = getattr(res, name)
        if len(got) != len(rec.agents):
            problems.append(f"result.{name}: {len(got)} values for {len(rec.agents)} agents")
            continue
        for i, (value, expected) in enumerate(zip(got, want[name], strict=True)):
            if not isinstance(value, int) or value != expected:
                problems.append(f"result.{name} of agent {i} is {value!r}, but the platform's long arithmetic "
                                f"gives {expected}")
    if res.winner != want["winner"]:
        who = "nobody" if want["winner"] is None else f"agent {want['winner']}"
        problems.append(f"result.winner is {res.winner}, but by the platform's rules {who} wins")
    wrapped = data.get("result", {}).get("wrapped", [])
    if wrapped != want.get("wrapped", []):
        problems.append(f"result.wrapped is {wrapped}, but the agents whose figures wrap are "
                        f"{want.get('wrapped', [])}")
    return problems

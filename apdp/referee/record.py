"""Match records (format ``apdp-record/1``) and the settlement of a match's result.

A record is a JSON object whose fields are defined once, as types, in
:class:`apdp.referee.record_format.MatchRecord` (the tasks in auction order, every auction's bids and
winner, each agent's plans, the settlement rule and the result with its faults); the referee writes it
(:func:`apdp.referee.match.play_match`), :mod:`apdp.check.verify` checks a record against those types, and a
test fails when the referee writes a field they do not declare.

Settlement (:func:`settle`): an agent is paid for what it delivers. A sound agent's plans deliver
every task it won, so its revenue is the sum of its winning bids. A faulted agent never has valid
plans (an agent that faults stops before its plan, or its plan is the fault), so it delivers
nothing: its revenue is 0. Every agent's cost is the distance its recorded plans drive x cost per
km (0 without plans, so an invalid plan's moves are paid for); profit is revenue - cost. Records
written before this rule have no ``settlement`` field and were settled by the rule ``"won"``: every
agent, faulted or not, kept the sum of its winning bids. :mod:`apdp.check.verify` checks each
record by the rule it names, so old records still verify.

``schema`` (beside ``format``) is the version of what the record holds, :data:`RECORD_SCHEMA`;
records written before it have none and are version 1. A reader refuses a record of a newer schema
in one line; what it still accepts of earlier records (the rule "won", apdp 0.1's network form) is
listed, with the results store's versions, in :mod:`apdp.tournament.migrations`.

Fields may be added (``timing``, ``output``, ``sandbox``: the protections that were off on the
machine that played it; ``network``: the network itself (:meth:`apdp.game.topology.Topology.to_json`;
records of apdp 0.1 have a topology file's form), when it is not the
shipped network of that name (a Logist topology file, a ``.toml`` path); ``ties``: ``"first"`` when
equal lowest bids went to the agent listed first (a Logist configuration) rather than to the seeded
draw; a task's ``reward``, what the Logist platform draws for it; on a fault: ``traceback`` for an exception,
``import_error`` when the agent's file failed to import, ``violations`` for an invalid plan, each
``{"vehicle", "action", "task", "message"}``, the first :data:`MAX_VIOLATIONS` only: the message
counts them all); none are renamed. A match in which the referee itself failed (an error of apdp's,
never an agent's doing) is recorded all the same, with ``result.referee_error`` (the reason), no
winner and no figures: reports count such matches and never call their tournament complete. Timing
fields differ from run to run; everything else is fixed by the seed. ``timing`` is::

    {"match": wall seconds,
     "agents": [{"setup", "bid_total", "bid_max", "plan": wall seconds of the calls,
                 "faulted_call": seconds of the call that faulted (only on a fault),
                 "settled": seconds the referee waited, before other agents' calls, for work
                            the agent left running while paused to end (only if it did:
                            :mod:`apdp.sandbox.paused`),
                 "cpu": {"setup", "bid", "auction_result", "plan": CPU seconds}}, ...]}

``cpu`` is user + system time of the agent's process and of the children it waited for, per phase
(all bids, all auction results), measured by the referee from ``/proc`` (in the kernel's clock
ticks, 10 ms): absent where there is none. An auction's result travels with the next request to
the agent; when the agent answers it in under a millisecond, or answers both before the referee
reads, its CPU is counted with that request's call (a bid, or the plan). A bid's request answered
in under a millisecond is not read at all: its CPU counts to the next one read, or to the bids at
the auctions' end (the agent is paused between its calls, so nothing is lost on the way).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apdp.files import write_atomically
from apdp.game.company import Company
from apdp.game.fault import Fault
from apdp.game.plan import VehiclePlan, company_cost, plans_from_json
from apdp.game.task import Task
from apdp.game.topology import Topology, TopologyError, network_from_json, parse_topology
from apdp.logist import money
from apdp.messages.sizes import KEPT_MESSAGE
from apdp.scenario.networks import load_named_topology, load_topology
from apdp.text import clean_text

if TYPE_CHECKING:
    from apdp.scenario import Scenario

RECORD_FORMAT = "apdp-record/1"
#: The version of what a record holds (its ``schema`` field, beside ``format``; absent in records
#: written before it, which are version 1). The versions and what readers still accept of earlier
#: records are listed in :mod:`apdp.tournament.migrations`.
RECORD_SCHEMA = 2
#: The settlement rules (see the module's text): a record's ``settlement`` field, absent = "won".
SETTLEMENT = "delivered"
OLD_SETTLEMENT = "won"
#: The Logist platform's settlement (records of ``rules = "logist"``): see :func:`settle_logist`.
LOGIST_SETTLEMENT = "logist"
#: Record fields that depend on the machine, not the seed.
TIMING_FIELDS = ("timing", "sandbox")
#: Violations of an invalid plan kept in its fault (its message counts them all).
MAX_VIOLATIONS = 10
#: What a record keeps of a fault message and a violation when it must shrink to fit its limit.
_SHORT_MESSAGE = 300
_SHORT_VIOLATIONS = 3


def embedded_network(topology: Topology) -> dict[str, Any] | None:
    """The record's ``network`` field for ``topology``: None when its name loads the same network."""
    try:
        named = load_topology(topology.name)
    except TopologyError:
        named = None
    if named is topology or (named is not None and (named.cities, dict(named.coordinates), named.roads) == (
        topology.cities, dict(topology.coordinates), topology.roads
    )):
        return None
    return topology.to_json()


#: The most cities and roads of a network a record may embed: a network is built with a shortest
#: path between every two cities, in time that grows with the cube of the cities (800 take 2 s, 2,400
#: over a minute and 460 MB), and a record is anyone's file.
MAX_RECORD_CITIES = 500
MAX_RECORD_ROADS = 20_000


def record_topology(record: dict[str, Any]) -> Topology:
    """The network a record was played on: its ``network`` field, or else the network of its name
    (a name only: never a file a record names).

    A broken, unknown or oversized network raises TopologyError.
    """
    network = record.get("network")
    if network is not None:
        if not isinstance(network, dict):
            raise TopologyError("record network: not an object")
        cities, roads = network.get("cities"), network.get("roads", network.get("routes"))
        if (isinstance(cities, list) and len(cities) > MAX_RECORD_CITIES) or (
                isinstance(roads, list) and len(roads) > MAX_RECORD_ROADS):
            raise TopologyError(
                f"record network: {len(cities) if isinstance(cities, list) else 0} cities and "
                f"{len(roads) if isinstance(roads, list) else 0} roads, more than a record may embed "
                f"({MAX_RECORD_CITIES} cities, {MAX_RECORD_ROADS} roads)")
        if "routes" in network:  # the form of apdp 0.1's records: a topology file's
            return parse_topology(network, "record network")
        return network_from_json(network, "record network")
    return load_named_topology(str(record.get("topology")))


def record_schema(record: dict[str, Any]) -> int | None:
    """The schema version of ``record``: its ``schema`` field, 1 when it has none; None when the
    field is not a whole number."""
    value = record.get("schema", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def unknown_schema(record: dict[str, Any]) -> str | None:
    """Why this apdp cannot read ``record`` (a schema it does not know: one phrase), or None."""
    version = record_schema(record)
    if version is None or version < 1:
        return f"its schema {clean_text(repr(record.get('schema')), 40)} is no record schema apdp writes"
    if version > RECORD_SCHEMA:
        return f"written by a newer apdp (record schema {version}, this apdp knows {RECORD_SCHEMA}): upgrade apdp"
    return None


def game_json(topology: Topology, seed: int, agents: Sequence[str], identities: Sequence[dict[str, Any]],
              companies: Sequence[Company], tasks: Sequence[Task], auctions: list[dict[str, Any]],
              scenario: Scenario | None) -> dict[str, Any]:
    """The JSON of a record's game before its plans: the match as the seed decides it, and the
    rules it was played by (``scenario``'s; None: a match the referee could not play, which has
    no tasks and names no rule)."""
    game: dict[str, Any] = {
        "format": RECORD_FORMAT, "schema": RECORD_SCHEMA, "topology": topology.name, "seed": seed,
        "agents": list(agents), "identities": list(identities), "companies": [c.to_json() for c in companies],
        "tasks": [t.to_json() for t in tasks], "auctions": auctions,
    }
    if scenario is None:
        return game
    logist = scenario.rules == "logist"
    game["settlement"] = LOGIST_SETTLEMENT if logist else SETTLEMENT
    if logist:
        game["rules"] = "logist"
    network = embedded_network(topology)
    if network is not None:
        game["network"] = network
    if scenario.ties == "first":
        game["ties"] = "first"
    if scenario.bids != "apdp":
        game["bids"] = scenario.bids
    if scenario.logist_tasks is not None:  # a Logist configuration's tasks: which draw they are
        game["task_draw"] = scenario.task_draw
    return game


def settlement(record: dict[str, Any]) -> str:
    """The settlement rule of ``record``: its ``settlement`` field, or "won" for older records."""
    return str(record.get("settlement", OLD_SETTLEMENT))


def revenues(record: dict[str, Any], agents: int, faulty: Collection[int] = ()) -> list[float]:
    """Each agent's revenue: the sum of its winning bids, in auction order; 0 for the ``faulty``
    agents when the record's rule is "delivered" (they deliver nothing)."""
    out = [0.0] * agents
    for auction in record["auctions"]:
        w = auction["winner"]
        if w is not None:
            out[w] += float(auction["bids"][w])
    if settlement(record) == SETTLEMENT:
        for i in faulty:
            out[i] = 0.0
    return out


def costs(record: dict[str, Any], topology: Topology, companies: Sequence[Company],
          parsed: Sequence[Sequence[VehiclePlan] | None] | None = None) -> list[float]:
    """Each agent's cost: km driven x cost per km over its plans (0 without plans). ``parsed``:
    the record's plans already parsed (the referee has them), so they are not parsed again."""
    out = []
    plans_of = parsed if parsed is not None else [None if p is None else plans_from_json(p) for p in record["plans"]]
    for company, plans in zip(companies, plans_of, strict=True):
        out.append(0.0 if plans is None else company_cost(topology, company.vehicles, plans))
    return out


def match_winner(profits: Sequence[float], faulty: set[int]) -> int | None:
    """The winner: the sound agent with the strictly highest profit; None on a draw or if all fault.

    A lone sound agent wins whatever its profit; faulty agents always lose.
    """
    sound = [i for i in range(len(profits)) if i not in faulty]
    if not sound:
        return None
    best = max(profits[i] for i in sound)
    top = [i for i in sound if profits[i] == best]
    return top[0] if len(top) == 1 else None


def settle(
    record: dict[str, Any], topology: Topology, companies: Sequence[Company], faults: Sequence[Fault],
    parsed: Sequence[Sequence[VehiclePlan] | None] | None = None,
) -> dict[str, Any]:
    """The ``result`` of a record: revenue, cost, profit per agent, the winner and the faults
    (``parsed``: as for :func:`costs`), by the record's settlement rule (the module's text): a
    faulted agent delivers nothing and is paid nothing; it pays for what its recorded plans drive.
    A record of the Logist platform's rules is settled by :func:`settle_logist`."""
    if settlement(record) == LOGIST_SETTLEMENT:
        return settle_logist(record, topology, companies, [f.agent for f in faults],
                             [f.to_json() for f in faults], parsed)
    n = len(record["agents"])
    revenue = revenues(record, n, {f.agent for f in faults})
    cost = costs(record, topology, companies, parsed)
    profit = [r - c for r, c in zip(revenue, cost, strict=True)]
    return {
        "revenue": revenue,
        "cost": cost,
        "profit": profit,
        "winner": match_winner(profit, {f.agent for f in faults}),
        "faults": [f.to_json() for f in faults],
    }


def without_timing(record: dict[str, Any]) -> dict[str, Any]:
    """The record less the fields that differ from run to run (for comparing replays)."""
    return {k: v for k, v in record.items() if k not in TIMING_FIELDS}


def write_record(record: dict[str, Any], path: str | Path) -> None:
    """Write a record as JSON (UTF-8, city names as they are), never through a planted symlink.

    A missing or read-only folder raises UserError (see :mod:`apdp.files`).
    """
    write_atomically(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")


def record_size(record: dict[str, Any]) -> int:
    """The size of a record as the results store keeps it (compact JSON, UTF-8), in bytes."""
    return len(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "replace"))


def _cut_outputs(record: dict[str, Any], excess: int) -> None:
    """Cut the agents' outputs by ``excess`` characters in all, the longest first."""
    outputs = record.get("output")
    if isinstance(outputs, list):
        cut_outputs(outputs, excess)


def cut_outputs(outputs: list[str], excess: int) -> None:
    """Cut the texts of ``outputs`` (in place) by ``excess`` characters in all, the longest first."""
    while excess > 0:
        longest = max(range(len(outputs)), key=lambda i: len(outputs[i]), default=None)
        if longest is None or not outputs[longest]:
            return
        text = outputs[longest]
        keep = max(0, len(text) - excess - 80)
        outputs[longest] = clean_text(text, keep) if keep else "[output cut: the record reached its limit]"
        if len(outputs[longest]) >= len(text):  # cut to the placeholder already: nothing more to take
            return
        excess -= len(text) - len(outputs[longest])


def fit_record(record: dict[str, Any], limit: int) -> dict[str, Any]:
    """Shrink what agents wrote into ``record`` (in place) until it takes at most ``limit`` bytes:
    their outputs, then tracebacks, then all but the first violations, then long fault messages.
    The game itself (tasks, bids, plans) is never cut: the referee keeps plans within their share
    of the limit (see :func:`apdp.referee.match.play_match`)."""
    size = record_size(record)
    if size <= limit:
        return record
    _cut_outputs(record, size - limit)
    faults: list[dict[str, Any]] = record.get("result", {}).get("faults", [])
    for step in (_drop_traceback, _fewer_violations, _short_message):
        if record_size(record) <= limit:
            break
        for fault in faults:
            step(fault)
    return record


def _drop_traceback(fault: dict[str, Any]) -> None:
    fault.pop("traceback", None)


def _fewer_violations(fault: dict[str, Any]) -> None:
    if isinstance(fault.get("violations"), list):
        fault["violations"] = fault["violations"][:_SHORT_VIOLATIONS]


def _short_message(fault: dict[str, Any]) -> None:
    fault["message"] = clean_text(fault.get("message", ""), _SHORT_MESSAGE)


def referee_error_result(agents: int, faults: Sequence[Fault], reason: str) -> dict[str, Any]:
    """The ``result`` of a match the referee could not finish: no figures, no winner, the reason."""
    return {
        "revenue": [0.0] * agents, "cost": [0.0] * agents, "profit": [0.0] * agents, "winner": None,
        "faults": [f.to_json() for f in faults], "referee_error": clean_text(reason, KEPT_MESSAGE),
    }


def referee_error_record(topology: str, seed: int, agents: Sequence[str], reason: str) -> dict[str, Any]:
    """The record of a match whose referee failed before it could say more (its worker died)."""
    return {
        "format": RECORD_FORMAT, "schema": RECORD_SCHEMA, "topology": topology, "seed": seed, "agents": list(agents),
        "companies": [], "tasks": [], "auctions": [], "plans": [None] * len(agents),
        "result": referee_error_result(len(agents), (), reason),
    }


def referee_error(record: dict[str, Any]) -> str | None:
    """Why the referee failed in the match of ``record``, or None for a finished match."""
    result = record.get("result")
    error = result.get("referee_error") if isinstance(result, dict) else None
    return None if error is None else str(error)


def settle_logist(
    record: dict[str, Any], topology: Topology, companies: Sequence[Company], faulty: Sequence[int],
    faults: list[dict[str, Any]], parsed: Sequence[Sequence[VehiclePlan] | None] | None = None,
) -> dict[str, Any]:
    """The ``result`` of a match played by the Logist platform's rules.

    A game a fault ended has no figures (the platform wrote none: revenue, cost and profit are 0)
    and goes to the one agent left without a fault, if there is one (the study's rule). A game
    played to its end is settled in Java longs (:mod:`apdp.logist.money`): revenue the sum of the
    winning bids, cost the platform's rounding of units x cost per km, profit their difference; the
    higher profit wins, equal profits draw. ``wrapped`` lists the agents one of whose figures wrapped
    around past 2**63 - 1, as on the platform.
    """
    n = len(record["agents"])
    result: dict[str, Any] = {"revenue": [0] * n, "cost": [0] * n, "profit": [0] * n, "winner": None,
                              "faults": faults}
    if faulty:
        sound = [i for i in range(n) if i not in set(faulty)]
        result["winner"] = sound[0] if len(sound) == 1 else None
        return result
    plans_of = parsed if parsed is not None else [None if p is None else plans_from_json(p) for p in record["plans"]]
    won: list[list[int]] = [[] for _ in range(n)]
    for auction in record["auctions"]:
        if auction["winner"] is not None:
            won[auction["winner"]].append(int(auction["bids"][auction["winner"]]))
    wrapped = []
    for i in range(n):
        plans = plans_of[i]
        revenue, over_r = money.revenue(won[i])
        cost, over_c = (0, False) if plans is None else money.company_cost(topology, companies[i].vehicles, plans)
        profit, over_p = money.profit(revenue, cost)
        result["revenue"][i], result["cost"][i], result["profit"][i] = revenue, cost, profit
        if over_r or over_c or over_p:
            wrapped.append(i)
    result["winner"] = match_winner(result["profit"], set())
    if wrapped:
        result["wrapped"] = wrapped
    return result

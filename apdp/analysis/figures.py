"""One match's figures: each agent's planning gap, markups, money left on the table and counterfactual.

:func:`analyse_record` reads a match record (``apdp-record/1``) and nothing else; its definitions
are those of :mod:`apdp.analysis`. It is deterministic: the reference searches run a fixed number
of iterations from seeds drawn from the match's own seed, never on the clock. A record is written
from untrusted agents' replies (checked by the referee), so it is read defensively: a record that
does not hold together (a figure missing, a task or city it does not know) is not analysed, and
says why (``excluded``), rather than stopping the analysis of a whole store.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from apdp.baselines.planning import Problem, Solution, apply_insertion, cheapest_insertion, plan_tasks
from apdp.game.company import Vehicle
from apdp.game.plan import Deliver, Pickup, Stop, VehiclePlan, company_cost, plans_from_json
from apdp.game.task import Task
from apdp.game.topology import Topology, TopologyError
from apdp.referee.record import record_topology, referee_error
from apdp.referee.record_format import MatchRecord

#: LNS iterations of each of the two searches of a reference plan (about 0.1 s of CPU for 25 tasks).
REFERENCE_ITERATIONS = 1000
#: A reference marginal cost at most this is taken as 0: such an auction has no markup.
ZERO_COST = 1e-6

Outcome = Literal["win", "draw", "loss"]
#: Why a match is left out of the figures: a fault, a referee error, or a record that does not read.
Excluded = Literal["faulted", "referee_error", "unreadable"]


@dataclass(frozen=True, slots=True)
class AgentMatch:
    """One agent's figures in one match (see :mod:`apdp.analysis` for the definitions)."""

    agent: str
    #: Its company's index in the match (0 or 1 in a tournament).
    company: int
    #: Tasks it won.
    won: int
    revenue: float
    #: What its own plans cost (the record's figure).
    cost: float
    #: What the reference plan of the tasks it won costs.
    reference_cost: float
    profit: float
    #: The best actual profit of the other agents of the match.
    opponent_profit: float
    outcome: Outcome
    #: Per auction, in auction order: bid / reference marginal cost - 1, or None (abstained, or the
    #: marginal cost is 0 or the task fits none of its vehicles).
    markups: tuple[float | None, ...]
    #: Auctions it bid in whose marginal cost was 0 (or whose task fits none of its vehicles).
    zero_cost: int
    #: Sum, over the auctions it won that another agent bid in, of the next-lowest bid minus its bid.
    left_on_table: float
    #: The auctions that sum is over.
    left_auctions: int

    @property
    def planning_gap(self) -> float | None:
        """Its plan cost over the reference plan cost, minus 1 (None: it won nothing, or the
        reference plan costs nothing)."""
        if self.won == 0 or self.reference_cost <= ZERO_COST:
            return None
        return self.cost / self.reference_cost - 1.0

    @property
    def counterfactual_profit(self) -> float:
        """Its profit had it driven the reference plans: revenue minus reference plan cost."""
        return self.revenue - self.reference_cost

    @property
    def lost_on_planning(self) -> bool:
        """It lost, but with the reference plans (and the same bids) it would have won or drawn."""
        return self.outcome == "loss" and self.counterfactual_profit >= self.opponent_profit


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """The figures of one match: one :class:`AgentMatch` per agent, or none when it is excluded."""

    match_id: str
    #: The agents, in company order (also of an excluded match, so that it is counted for them).
    players: tuple[str, ...]
    agents: tuple[AgentMatch, ...] = ()
    #: Why the match is left out of the figures (None: it is in them).
    excluded: Excluded | None = None
    #: What was wrong with an unreadable record, in a few words.
    reason: str = ""


class _Unreadable(ValueError):
    """The record does not hold together as a match."""


def reference_seed(match_seed: int, company: int) -> int:
    """The seed of an agent's reference searches: from the match's seed and its company's index."""
    digest = hashlib.sha256(f"apdp-analysis/{match_seed}/{company}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _players(data: Mapping[str, Any]) -> tuple[str, ...]:
    agents = data.get("agents")
    return tuple(str(a) for a in agents) if isinstance(agents, list) else ()


def analyse_record(record: MatchRecord | Mapping[str, Any], match_id: str = "") -> MatchAnalysis:
    """The figures of the match of ``record`` (``match_id`` names it in the result): the record, or
    its JSON as a store holds it, read into the type here (a record that is none is one match
    unread, said so)."""
    if isinstance(record, MatchRecord):
        parsed = record
    else:
        data = record
        players = _players(data)
        if referee_error(dict(data)) is not None:
            return MatchAnalysis(match_id, players, excluded="referee_error")
        try:
            parsed = MatchRecord.read(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            return MatchAnalysis(match_id, players, excluded="unreadable", reason=f"{where}: {first['msg']}")
    players = tuple(parsed.agents)
    if parsed.referee_error is not None:
        return MatchAnalysis(match_id, players, excluded="referee_error")
    if parsed.result.faults:
        return MatchAnalysis(match_id, players, excluded="faulted")
    try:
        _check_shape(parsed)
        topology = record_topology(parsed.to_json())
        agents = tuple(_agent_figures(parsed, topology, i) for i in range(len(parsed.agents)))
    except (_Unreadable, TopologyError, ValueError, LookupError, ArithmeticError, AssertionError) as exc:
        # whatever else a record the referee did not write could hold: one match unread, said so
        return MatchAnalysis(match_id, players, excluded="unreadable", reason=str(exc)[:200])
    return MatchAnalysis(match_id, players, agents)


def _check_shape(record: MatchRecord) -> None:
    n = len(record.agents)
    sizes = {"companies": len(record.companies), "plans": len(record.plans), "revenue": len(record.result.revenue),
             "cost": len(record.result.cost), "profit": len(record.result.profit)}
    for what, size in sizes.items():
        if size != n:
            raise _Unreadable(f"{size} {what} for {n} agents")
    if record.result.winner is not None and not 0 <= record.result.winner < n:
        raise _Unreadable(f"winner {record.result.winner} is no agent")
    ids = [t.id for t in record.tasks]
    auctioned = [a.task for a in record.auctions]
    for what, seen in (("task", ids), ("auction of task", auctioned)):
        if len(set(seen)) != len(seen):
            twice = next(x for x in seen if seen.count(x) > 1)
            raise _Unreadable(f"{what} {twice} is there twice")
    for k, auction in enumerate(record.auctions):
        if len(auction.bids) != n or (auction.winner is not None and not 0 <= auction.winner < n):
            raise _Unreadable(f"auction {k}: its bids or winner do not match the {n} agents")


def _agent_figures(record: MatchRecord, topology: Topology, i: int) -> AgentMatch:
    """Agent ``i``'s figures in ``record`` (a match without faults)."""
    tasks = {t.id: t.task() for t in record.tasks}
    vehicles = [v.vehicle() for v in record.companies[i].vehicles]
    for v in vehicles:
        if v.home not in topology:
            raise _Unreadable(f"vehicle {v.name}: home {v.home!r} is not a city of {topology.name}")
    fleet = Solution.empty(Problem(topology, vehicles))  # the tasks won so far, by cheapest insertion
    markups: list[float | None] = []
    zero_cost = left_auctions = 0
    left = 0.0
    won: list[Task] = []
    for auction in record.auctions:
        task = tasks.get(auction.task)
        if task is None:
            raise _Unreadable(f"auction of task {auction.task}, which the record's tasks lack")
        bid = auction.bids[i]
        markup = None
        where = None
        if fleet.problem.can_carry(task):
            where = cheapest_insertion(fleet, fleet.problem.slot(task))
        if bid is not None:
            if where is None or not where.feasible or where.cost <= ZERO_COST:
                zero_cost += 1
            else:
                markup = float(bid) / where.cost - 1.0
        markups.append(markup)
        if auction.winner != i:
            continue
        if bid is None or where is None or not where.feasible:
            raise _Unreadable(f"agent {i} won task {task.id} without a bid, or with no vehicle to carry it")
        apply_insertion(fleet, fleet.problem.slot(task), where)
        won.append(task)
        others = [float(b) for j, b in enumerate(auction.bids) if j != i and b is not None]
        if others:
            left += min(others) - float(bid)
            left_auctions += 1
    reference = reference_cost(topology, vehicles, won, record.plans[i], reference_seed(record.seed, i))
    profits = record.result.profit
    winner = record.result.winner
    return AgentMatch(
        agent=record.agents[i],
        company=i,
        won=len(won),
        revenue=float(record.result.revenue[i]),
        cost=float(record.result.cost[i]),
        reference_cost=reference,
        profit=float(profits[i]),
        opponent_profit=max((float(p) for j, p in enumerate(profits) if j != i), default=0.0),
        outcome="draw" if winner is None else "win" if winner == i else "loss",
        markups=tuple(markups),
        zero_cost=zero_cost,
        left_on_table=left,
        left_auctions=left_auctions,
    )


def _own_stops(plans: Sequence[VehiclePlan], tasks: Mapping[int, Task]) -> list[list[Stop]]:
    """An agent's plans as stops (its pickups and deliveries in its order), one list per vehicle."""
    out: list[list[Stop]] = []
    for plan in plans:
        stops: list[Stop] = []
        for action in plan:
            if isinstance(action, Pickup | Deliver):
                task = tasks.get(action.task)
                if task is None:
                    raise _Unreadable(f"a plan carries task {action.task}, which the agent did not win")
                stops.append(Stop.pickup(task) if isinstance(action, Pickup) else Stop.deliver(task))
        out.append(stops)
    return out


def reference_cost(
    topology: Topology, vehicles: Sequence[Vehicle], won: Sequence[Task], plans: Any, seed: int
) -> float:
    """The cost of the reference plan of the tasks ``won`` on ``vehicles`` (see :mod:`apdp.analysis`):
    the cheaper of two searches of :data:`REFERENCE_ITERATIONS`, from cheapest insertion and from the
    agent's own ``plans`` (their JSON form, as a record holds them; a start that breaks a rule is
    not used)."""
    if not won:
        return 0.0
    scratch = plan_tasks(topology, vehicles, won, max_iterations=REFERENCE_ITERATIONS, seed=seed)
    best = company_cost(topology, vehicles, scratch.plans)
    try:
        own = plans_from_json(plans)
    except ValueError as exc:
        raise _Unreadable(f"plans: {exc}") from None
    if len(own) > len(vehicles):
        raise _Unreadable(f"{len(own)} plans for {len(vehicles)} vehicles")
    own += [[] for _ in range(len(vehicles) - len(own))]
    start = Solution.from_stops(scratch.solution.problem, _own_stops(own, {t.id: t for t in won}))
    if not start.violations(won):
        warm = plan_tasks(topology, vehicles, won, max_iterations=REFERENCE_ITERATIONS, seed=seed, start=start)
        best = min(best, company_cost(topology, vehicles, warm.plans))
    return best

"""Anytime improvement of a solution: large-neighbourhood search with simulated annealing.

Each iteration either ruins and recreates (remove a few tasks, chosen at random, by relatedness, as
a stretch of one route or as whole city visits (see ``removal``), then reinsert each at its cheapest
place in a random order), moves one city visit of a route with all its stops (``visit_move``), or
moves a whole route (swap two vehicles' routes, or append one vehicle's route to another's). A *city
visit* is a run of consecutive stops of a route in one city: as tasks go back in one at a time into
the visits where they fit for free, the order in which a route visits cities changes only when
whole visits go out (or move) at once.

A candidate is accepted when it is cheaper, or with probability ``exp(-increase / T)``. The most it
may cost is drawn before it is built, so a ruin and recreate gives up on it as soon as the tasks
put back have passed that: each only adds to the cost (see ``recreate``; this saves about 13% of
the work). The temperature ``T`` falls geometrically from ``start_temperature`` to
``end_temperature`` (both as fractions of the initial cost per task) over each of ``cycles`` equal
parts of the run, each part starting from the best solution so far. After ``restart_after``
iterations without a new best solution the search goes back to the best one (0: never). The best
solution of a run is polished by local search at its end (``descent.descend``: relocating tasks,
merging two visits of one city), unless the clock ended the run.

When capacity binds, valid plans lie far apart; so in a share of the iterations
(``overload_chance``) the removed tasks go back where they may overload a vehicle, and a plan's
cost in the search is its cost plus a price times its excess load (``overload``). The price adapts
so that about ``valid_share`` of the plans tried are valid; only valid plans become the best.

Runs are reproducible: with ``max_iterations`` the schedule follows the iteration count and every
choice comes from the given ``random.Random``, so the result depends on the seed only; the
deadline is then only a safety cap. Without ``max_iterations`` the schedule follows the clock.
(The rules a run asks when to stop, and how far along it is, are in :mod:`stopping`.)
A :class:`SearchLog` passed along counts the iterations run and the runs the clock ended: a run
that stopped on its deadline before its iterations were done depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

import apdp.baselines.planning.overload as overload
from apdp.baselines.planning.descent import descend
from apdp.baselines.planning.insertion import apply_insertion, cheapest_insertion, construct
from apdp.baselines.planning.removal import city_visits, related_tasks, route_stretch, ruin
from apdp.baselines.planning.solution import Solution
from apdp.baselines.planning.stopping import (
    AtDeadline,
    ElapsedTime,
    IterationBudget,
    NoImprovement,
    Schedule,
    StoppingRule,
)
from apdp.game.deadline import Deadline


@dataclass(frozen=True, slots=True)
class LnsSettings:
    """Tunable numbers of the search."""

    #: fewest and most tasks removed per iteration (the most is also capped by ``remove_share``)
    min_remove: int = 1
    max_remove: int = 15
    #: at most this share of the tasks is removed at once
    remove_share: float = 0.5
    #: initial and final temperature, as fractions of the initial cost per task
    start_temperature: float = 2.0
    end_temperature: float = 0.03
    #: cooling runs per search, each from the best solution so far: a run spends its last part
    #: frozen at the best it found, a new run starts hot again (on the 20 France instances of 30
    #: tasks at the '1 s' budget, 4 runs gave 0.46% and 0.52% on two sets of 10 seeds, 3 runs
    #: 0.64% and 0.60%; at 40 tasks 1.18% and 1.11% against 1.37% and 1.00%)
    cycles: int = 4
    #: chance that an iteration moves whole routes instead of tasks
    route_move_chance: float = 0.05
    #: chances of related, route-stretch and whole-visit removal (the rest is random removal)
    related_chance: float = 0.4
    stretch_chance: float = 0.3
    visit_chance: float = 0.3
    #: chance that an iteration moves one city visit, all its stops at once (see ``visit_move``)
    visit_move_chance: float = 0.0
    #: share of the budget spent comparing fleet uses (see ``improve``)
    fleet_share: float = 0.6
    #: go back to the best solution after this many iterations without a new best (0: never)
    restart_after: int = 0
    #: polish each new best solution by local search (``descent.descend``), not only the last
    polish_every_best: bool = True
    #: first price of a unit of excess load (see ``overload``), as a fraction of the initial cost
    #: per task over the largest capacity; 0: tasks only go where they fit
    overload_price: float = 3.0
    #: chance that an iteration's tasks go back with overloading allowed, at the current price
    #: (its insertion costs about 1.5 times the other's)
    overload_chance: float = 0.5
    #: every this many plans tried, the price goes up ``price_step`` times when fewer than
    #: ``valid_share`` of them were valid, down otherwise
    price_every: int = 100
    valid_share: float = 0.5
    price_step: float = 1.3


#: The search of a marginal cost (``Fleet.marginal_cost``, a few hundred iterations in a bid): one
#: cooling run and no overloading, as before these were added; their settings were tuned on whole
#: plans of 30 and 40 tasks (bench/planner.py), not on the bids of a match.
MARGINAL_COST_SETTINGS = LnsSettings(
    start_temperature=4.0, end_temperature=0.01, cycles=1, restart_after=300, overload_price=0.0
)


DEFAULT_SETTINGS = LnsSettings()


@dataclass(slots=True)
class SearchLog:
    """What searches did: iterations run, iterations they were given, and runs ended by the clock."""

    iterations: int = 0
    budget: int = 0
    clock_stops: int = 0

    @property
    def stopped_by_clock(self) -> bool:
        """True when some run ended at its deadline rather than after its iterations (or, run
        without an iteration budget, at its deadline as meant)."""
        return self.clock_stops > 0


def improve(
    solution: Solution,
    rng: random.Random,
    *,
    deadline: Deadline | None = None,
    max_iterations: int | None = None,
    settings: LnsSettings = DEFAULT_SETTINGS,
    explore_fleet: bool = True,
    log: SearchLog | None = None,
) -> Solution:
    """The best solution found starting from ``solution`` (which is left untouched).

    Stops after ``max_iterations`` iterations or at ``deadline``, whichever comes first; at least
    one of them must be given. Returns quickly (one iteration) when the deadline has passed.

    With ``explore_fleet`` and several vehicles, a first share of the budget
    (``settings.fleet_share``) also searches from every single vehicle carrying everything (when
    it can): open routes make "one long route or several?" a choice local moves rarely undo.
    The best start then gets the rest of the budget. ``log`` adds up what the runs did.
    """
    if deadline is None and max_iterations is None:
        raise ValueError("improve needs a deadline or max_iterations")
    deadline = deadline or Deadline.never()
    problem = solution.problem
    slots = solution.slots()
    starts: list[tuple[Solution, list[int] | None]] = [(solution, None)]
    if explore_fleet and problem.vehicle_count > 1 and len(slots) > 2:
        peak = max((problem.stop_load[2 * s] for s in slots), default=0.0)
        for v in range(problem.vehicle_count):
            if peak <= problem.capacities[v] + 1e-9:
                alone = construct(Solution.empty(problem), slots, [v])
                starts.append((alone, [v]))
    if len(starts) == 1:
        return anneal(solution, rng, deadline, max_iterations, settings, log=log)
    share = settings.fleet_share / len(starts)
    now = time.monotonic()
    span = deadline.at - now
    found: list[Solution] = []
    for k, (start, allowed) in enumerate(starts):
        stage_deadline = Deadline(min(deadline.at, now + span * share * (k + 1)))
        stage_iterations = None if max_iterations is None else int(max_iterations * share)
        found.append(anneal(start, rng, stage_deadline, stage_iterations, settings, allowed, log))
    best = min(found, key=lambda s: s.cost)
    rest = None if max_iterations is None else max_iterations - len(starts) * int(max_iterations * share)
    return anneal(best, rng, deadline, rest, settings, log=log)


def anneal(
    solution: Solution,
    rng: random.Random,
    deadline: Deadline,
    max_iterations: int | None,
    settings: LnsSettings = DEFAULT_SETTINGS,
    allowed: list[int] | None = None,
    log: SearchLog | None = None,
) -> Solution:
    """One simulated-annealing LNS run (see the module docstring); ``allowed`` limits vehicles;
    ``log`` counts its iterations and whether the clock ended it. It stops after ``max_iterations``
    (an :class:`IterationBudget`) or at ``deadline`` (:class:`AtDeadline`), the first that comes."""
    current = solution.copy()
    current.refresh()
    slots = current.slots()
    if log is not None:
        log.budget += max_iterations or 0
    if not slots or (max_iterations is not None and max_iterations <= 0):
        return current.copy()
    run = Annealing(current, slots, rng, settings, allowed)
    budget = None if max_iterations is None else IterationBudget(max_iterations)
    at_deadline = AtDeadline(deadline)
    stopped = run.search(budget or ElapsedTime(deadline), [budget, at_deadline] if budget else [at_deadline])
    if log is not None:
        log.iterations += run.iteration
        log.clock_stops += stopped is at_deadline
    best = run.best
    best.refresh()
    return best if stopped is at_deadline else descend(best)


class Annealing:
    """The state of one run: the current solution (its cost in the search: its cost plus the price
    of its excess load) and the best, the price of a unit of excess and the plans tried at it."""

    def __init__(
        self, current: Solution, slots: list[int], rng: random.Random, settings: LnsSettings,
        allowed: list[int] | None,
    ) -> None:
        self.rng, self.settings, self.slots, self.allowed = rng, settings, slots, allowed
        self.current, self.best = current, current.copy()
        self.current_cost = self.best_cost = current.cost
        n = len(slots)
        per_task = self.current_cost / n if self.current_cost > 0 else 1.0
        self.t_start = settings.start_temperature * per_task
        self.t_ratio = settings.end_temperature / settings.start_temperature
        self.most = max(settings.min_remove, min(settings.max_remove, int(n * settings.remove_share)))
        self.least = min(settings.min_remove, self.most)
        problem = current.problem
        self.route_moves = allowed is None and problem.vehicle_count > 1
        self.price = settings.overload_price * per_task / problem.max_capacity  # money per unit of excess
        self.relaxed = self.price > 0.0
        self.excess = 0.0  # of the current solution
        self.tried = self.valid_tried = 0
        self.cycles_done = 0.0
        self.iteration = self.last_best = 0
        self.restart = NoImprovement(settings.restart_after)

    def search(self, schedule: Schedule, rules: list[StoppingRule]) -> StoppingRule:
        """Iterate until one of ``rules`` says stop; that rule."""
        while True:
            for rule in rules:
                if rule(self.iteration):
                    return rule
            self.step(schedule.progress(self.iteration))

    def step(self, progress: float) -> None:
        """One iteration at ``progress`` of the run: a candidate drawn, judged, and the restarts and
        the price of excess load kept."""
        settings = self.settings
        self.iteration += 1
        if settings.cycles > 1:
            cycle, progress = divmod(progress * settings.cycles, 1.0)
            if cycle > self.cycles_done:
                self.cycles_done = cycle
                self.back_to_best()
        temperature = self.t_start * self.t_ratio**progress
        # accepted below ``limit``: cheaper, or at most -T log(u) dearer (the annealing rule)
        limit = self.current_cost - temperature * math.log(1.0 - self.rng.random())
        candidate, overloading, built = self.candidate(limit)
        if candidate is not None:
            self.judge(candidate, overloading, built, limit)
        if self.restart(self.iteration, self.last_best):
            self.back_to_best()
            self.last_best = self.iteration
        if self.relaxed and self.tried >= settings.price_every:
            self.adapt_price()

    def back_to_best(self) -> None:
        self.current, self.current_cost, self.excess = self.best.copy(), self.best_cost, 0.0

    def candidate(self, limit: float) -> tuple[Solution | None, bool, bool]:
        """A candidate (None when the move found none), whether its tasks went back where they may
        overload, and whether it was built whole (False: given up as dearer than ``limit``)."""
        rng, settings = self.rng, self.settings
        draw = rng.random()
        if self.route_moves and draw < settings.route_move_chance:
            return route_move(self.current, rng), False, True
        if draw > 1.0 - settings.visit_move_chance:
            return visit_move(self.current, rng), False, True
        candidate = self.current.copy()
        removed = choose_removal(candidate, self.slots, rng.randint(self.least, self.most), rng, settings)
        ruin(candidate, removed)
        rng.shuffle(removed)
        overloading = self.relaxed and rng.random() < settings.overload_chance
        # what the candidate's excess costs already (tasks going back only add to it)
        floor = self.price * overload.solution_excess(candidate) if self.excess > 0.0 else 0.0
        built = recreate(candidate, removed, self.price if overloading else 0.0, self.allowed, limit - floor)
        return candidate, overloading, built

    def judge(self, candidate: Solution, overloading: bool, built: bool, limit: float) -> None:
        """Accept ``candidate`` when it was built whole and costs less than ``limit`` in the search;
        keep it as the best when it is also valid and the cheapest yet."""
        candidate_excess = 0.0
        if self.relaxed:
            # tasks put back where they fit add no excess to a plan that had none; a candidate
            # given up counts for the price by the excess it has so far
            if overloading or self.excess > 0.0:
                candidate_excess = overload.solution_excess(candidate)
            self.tried += 1
            self.valid_tried += candidate_excess == 0.0
        cost = candidate.cost
        if built and cost + self.price * candidate_excess < limit:
            self.current, self.excess = candidate, candidate_excess
            self.current_cost = cost + self.price * candidate_excess
            if candidate_excess == 0.0 and cost < self.best_cost - 1e-9:
                if self.settings.polish_every_best:
                    descend(candidate)
                    self.current_cost = cost = candidate.cost
                self.best, self.best_cost = candidate.copy(), cost
                self.last_best = self.iteration

    def adapt_price(self) -> None:
        """Raise the price of excess load when fewer than ``valid_share`` of the plans tried at it
        were valid, lower it otherwise."""
        settings = self.settings
        if self.valid_tried < settings.valid_share * self.tried:
            self.price *= settings.price_step
        else:
            self.price /= settings.price_step
        self.tried = self.valid_tried = 0
        self.current_cost = self.current.cost + self.price * self.excess


def recreate(
    candidate: Solution, removed: list[int], price: float, allowed: list[int] | None, limit: float
) -> bool:
    """Put the ``removed`` tasks back, in order, each at its cheapest place (overloading allowed
    at ``price`` when above 0), in place. Each task only adds to the cost, so this gives up, False
    with the candidate half built, as soon as the cost reaches ``limit`` (or a task fits none of
    the ``allowed`` vehicles)."""
    cost = candidate.cost
    for slot in removed:
        if price > 0.0:
            where = overload.cheapest_insertion(candidate, slot, price, allowed)
        else:
            where = cheapest_insertion(candidate, slot, allowed)
        if not where.feasible:
            return False  # no allowed vehicle can take it
        apply_insertion(candidate, slot, where)
        cost += where.cost
        if cost >= limit:
            return False
    return True


def choose_removal(
    solution: Solution, slots: list[int], count: int, rng: random.Random, settings: LnsSettings
) -> list[int]:
    """Which tasks to take out: related to a random one, a stretch of a route, or at random."""
    draw = rng.random()
    if draw < settings.related_chance:
        return related_tasks(solution, slots, count, rng)
    if draw < settings.related_chance + settings.stretch_chance:
        return route_stretch(solution, count, rng) or rng.sample(slots, count)
    if draw < settings.related_chance + settings.stretch_chance + settings.visit_chance:
        return city_visits(solution, count, rng) or rng.sample(slots, count)
    return rng.sample(slots, count)


def visit_move(solution: Solution, rng: random.Random, tries: int = 4) -> Solution | None:
    """One city visit (a run of consecutive stops in one city) of a random route moved, stops
    and all, to the cheapest place of that route that keeps the route valid; None if none does.

    Reinserting tasks one at a time keeps them in the visits where they fit for free, so it rarely
    changes the order in which a route visits cities; this move changes it directly. The places are
    ranked by their extra distance; the ``tries`` cheapest are checked for precedence and capacity.
    """
    problem = solution.problem
    routes = solution.routes
    used = [v for v in range(len(routes)) if routes[v]]
    if not used:
        return None
    v = rng.choice(used)
    route = routes[v]
    city = problem.stop_city
    k = rng.randrange(len(route))
    here = city[route[k]]
    first = k
    while first > 0 and city[route[first - 1]] == here:
        first -= 1
    last = k + 1
    while last < len(route) and city[route[last]] == here:
        last += 1
    visit = route[first:last]
    rest = route[:first] + route[last:]
    if not rest:
        return None
    dist = problem.dist
    row = dist[here]
    cities = [problem.homes[v], *map(city.__getitem__, rest)]
    n = len(rest)
    # extra km of the visit between cities[p] and cities[p + 1] (or after the last stop)
    extra = [row[cities[p]] + row[cities[p + 1]] - dist[cities[p]][cities[p + 1]] for p in range(n)]
    extra.append(row[cities[n]])
    places = sorted((e, p) for p, e in enumerate(extra) if p != first)
    for _, p in places[:tries]:
        trial = rest[:p] + visit + rest[p:]
        if problem.route_fits(v, trial):
            candidate = solution.copy()
            candidate.routes[v] = trial
            candidate.refresh(v)
            return candidate
    return None


def route_move(solution: Solution, rng: random.Random) -> Solution | None:
    """Swap two vehicles' routes, or append one route to another; None if capacities forbid it."""
    problem = solution.problem
    a, b = rng.sample(range(problem.vehicle_count), 2)
    ra, rb = solution.routes[a], solution.routes[b]
    if not ra and not rb:
        return None
    peak_a, peak_b = problem.route_peak_load(ra), problem.route_peak_load(rb)
    candidate = solution.copy()
    if rng.random() < 0.5:
        if peak_a > problem.capacities[b] + 1e-9 or peak_b > problem.capacities[a] + 1e-9:
            return None
        candidate.routes[a], candidate.routes[b] = rb[:], ra[:]
    else:
        if not ra or peak_a > problem.capacities[b] + 1e-9:
            return None
        candidate.routes[b] = rb + ra
        candidate.routes[a] = []
    candidate.refresh(a)
    candidate.refresh(b)
    return candidate

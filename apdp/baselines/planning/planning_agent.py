"""A base for agents that bid with a Fleet and plan with ``plan_tasks`` (the baselines use it).

Parameters (``Agent.param``): ``bid_iterations`` (LNS iterations per marginal cost, 100),
``plan_iterations`` (LNS iterations of the final plan, 3000), ``backend`` (``lns`` or ``ortools``).
An iteration's work grows with the plan's tasks: the budgets are for plans of up to
:data:`BUDGET_TASKS` tasks and shrink in proportion beyond (a plan of 50 tasks gets half the
iterations), so that a call's work is bounded whatever the match's size.

The budgets, not the clock, end the searches: decisions depend on the match's seed only, whatever
the machine's load, and a call ends well inside its time limit (on a loaded 2-core machine the
slowest plan, 50 tasks, took about 0.5 s of CPU for a 5 s limit, the slowest bid 0.04 s for 2.5 s:
``python bench/agent_calls.py``). The deadlines are only a safety stop.
Should the clock end a search all the same (a machine far slower than the budgets allow for), the
agent says so in its output, which the match's record keeps: one line starting with
:data:`CLOCK_STOP` per search the clock ended (:func:`clock_stops` finds them). The OR-Tools
backend always searches until its deadline: its plans depend on the machine's speed.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from typing import ClassVar

from apdp.baselines.planning.fleet import Fleet
from apdp.baselines.planning.lns import SearchLog
from apdp.baselines.planning.opponents import ShadowFleets
from apdp.baselines.planning.planner import BACKENDS, plan_tasks
from apdp.baselines.planning.prior import average_marginal_cost
from apdp.game.agent import Agent
from apdp.game.company import Company, Vehicle
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.game.topology import Topology

#: Seconds kept back from the referee's deadline (plans must still be written out and sent).
PLAN_MARGIN = 0.3
BID_MARGIN = 0.1
#: How the line an agent writes when the clock, not its budget, ended a search begins.
CLOCK_STOP = "clock stop:"
#: Plans of up to this many tasks get the whole iteration budgets; larger ones proportionally less.
BUDGET_TASKS = 25


def iterations_for(budget: int, tasks: int) -> int:
    """The iterations a search of a plan of ``tasks`` tasks gets from a ``budget`` (see the module doc)."""
    return budget if tasks <= BUDGET_TASKS else max(1, budget * BUDGET_TASKS // tasks)


def clock_stops(output: str) -> list[str]:
    """The clock-stop lines in an agent's output (a record's ``output`` entry)."""
    return [line for line in output.splitlines() if line.startswith(CLOCK_STOP)]


class PlanningAgent(Agent):
    """Keeps its own fleet's plan across auctions (and, when ``models_opponents``, a shadow fleet
    per opponent) and plans with the shared planner at the end."""

    #: Whether the agent keeps a shadow fleet of each opponent's won tasks (``self.shadows``).
    models_opponents: ClassVar[bool] = False

    fleet: Fleet
    shadows: ShadowFleets

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Read the planning parameters and start an empty plan (and the shadow fleets)."""
        self.bid_iterations = self.param("bid_iterations", 100)
        self.plan_iterations = self.param("plan_iterations", 3000)
        self.backend = self.param("backend", "lns")
        if self.backend not in BACKENDS:
            raise ValueError(f"parameter backend must be one of {BACKENDS}, got {self.backend!r}")
        self.auctions = 0
        self.fleet = Fleet(topology, company.vehicles, self.new_search_rng())
        if self.models_opponents:
            self.shadows = ShadowFleets(self, topology, company)

    def new_search_rng(self) -> random.Random:
        """A fast generator for the planner, seeded from the match's ``self.rng``."""
        return random.Random(int(self.rng.integers(0, 2**63)))

    def bid_deadline(self, share: float = 1.0) -> Deadline:
        """The part ``share`` of the time left for this bid, less a safety margin."""
        left = max(0.0, self.deadline.remaining() - BID_MARGIN)
        return Deadline.after(left * share)

    def note_clock_stop(self, what: str, log: SearchLog, started: float) -> None:
        """Say in the output (kept in the record) that the clock ended a search of ``what``."""
        if log.stopped_by_clock:
            print(
                f"{CLOCK_STOP} {type(self).__name__}, {what}: the clock ended the search after "
                f"{log.iterations} of {log.budget} iterations ({time.monotonic() - started:.2f} s); "
                "this decision depends on the machine's speed",
                file=sys.stderr,
                flush=True,
            )

    def synthetic_prior(self) -> float:
        """The average marginal cost of ``synthetic_tasks`` (10) tasks drawn from the distribution."""
        log, started = SearchLog(), time.monotonic()
        prior = average_marginal_cost(
            self.topology,
            self.distribution,
            self.company.vehicles,
            self.rng,
            self.param("synthetic_tasks", 10),
            max_iterations=self.param("prior_iterations", 2000),
            deadline=self.deadline.minus(1.0),
            log=log,
        )
        self.note_clock_stop("setup, the prior", log, started)
        return prior

    def own_marginal_cost(self, task: Task, share: float = 1.0) -> float | None:
        """Marginal cost of ``task`` for our fleet (None if we cannot carry it)."""
        log, started = SearchLog(), time.monotonic()
        iterations = iterations_for(self.bid_iterations, len(self.fleet.tasks()) + 1)
        cost = self.fleet.marginal_cost(task, self.bid_deadline(share), iterations, log)
        self.note_clock_stop(f"bid on task {task.id}, own plan", log, started)
        return cost

    def opponents_marginal_cost(self, task: Task) -> float | None:
        """The cheapest opponent's marginal cost of ``task`` on its shadow fleet (None without
        opponents); needs ``models_opponents``."""
        log, started = SearchLog(), time.monotonic()
        largest = max((len(fleet.tasks()) for fleet in self.shadows.fleets.values()), default=0)
        iterations = iterations_for(self.bid_iterations, largest + 1)
        cost = self.shadows.marginal_cost(task, self.bid_deadline(), iterations, log)
        self.note_clock_stop(f"bid on task {task.id}, opponents' plans", log, started)
        return cost

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        """Keep the plan with the task when we won it (or the winner's shadow plan with it)."""
        self.auctions += 1
        if winner == self.agent_id:
            self.fleet.add(task)
        elif self.models_opponents:
            self.shadows.record(task, winner)

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        """Improve the plan of the won tasks within the plan deadline and hand it in."""
        log, started = SearchLog(), time.monotonic()
        result = plan_tasks(
            self.topology,
            vehicles,
            tasks,
            deadline=self.deadline.minus(PLAN_MARGIN),
            max_iterations=iterations_for(self.plan_iterations, len(tasks)),
            seed=int(self.rng.integers(0, 2**63)),
            backend=self.backend,  # type: ignore[arg-type]
            start=self.fleet.solution,
            log=log,
        )
        if self.backend == "ortools":
            log.clock_stops += 1
        self.note_clock_stop(f"plan of {len(tasks)} tasks", log, started)
        return result.plans

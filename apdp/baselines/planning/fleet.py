"""A fleet's plan kept up to date across auctions, and the marginal cost of one more task.

The marginal cost of a task is ``cost(current plan improved with the task) - cost(current plan)``:
the task is inserted at its cheapest place and the result improved by a short, warm-started LNS.
When the improved plan, with the task taken out again, beats the current plan, it becomes the
current plan, so the difference never credits the task with savings it did not cause. If the task
is won, the improved plan is kept.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from apdp.baselines.planning.insertion import insert_task
from apdp.baselines.planning.lns import MARGINAL_COST_SETTINGS, SearchLog, improve
from apdp.baselines.planning.problem import Problem
from apdp.baselines.planning.solution import Solution
from apdp.game.company import Vehicle
from apdp.game.deadline import Deadline
from apdp.game.task import Task
from apdp.game.topology import Topology


class Fleet:
    """The plan of a fleet for the tasks it has won so far (or, as a shadow, an opponent's)."""

    def __init__(self, topology: Topology, vehicles: Sequence[Vehicle], rng: random.Random) -> None:
        self.problem = Problem(topology, vehicles)
        self.solution = Solution.empty(self.problem)
        self.rng = rng
        self._offer: tuple[int, Solution] | None = None

    @property
    def cost(self) -> float:
        """Cost of the current plan."""
        return self.solution.cost

    def tasks(self) -> list[Task]:
        """Tasks of the current plan."""
        return self.solution.tasks()

    def can_carry(self, task: Task) -> bool:
        """True when some vehicle is big enough for ``task``."""
        return self.problem.can_carry(task)

    def marginal_cost(
        self,
        task: Task,
        deadline: Deadline | None = None,
        max_iterations: int | None = 300,
        log: SearchLog | None = None,
    ) -> float | None:
        """Extra cost of adding ``task`` (None if no vehicle can carry it); see the module doc.
        ``log`` adds up what the search did."""
        if not self.can_carry(task):
            return None
        if deadline is None and max_iterations is None:
            raise ValueError("marginal_cost needs a deadline or max_iterations")
        slot = self.problem.slot(task)
        if slot in set(self.solution.slots()):
            return 0.0
        trial = self.solution.copy()
        insert_task(trial, slot)
        trial = improve(
            trial, self.rng, deadline=deadline, max_iterations=max_iterations, explore_fleet=False, log=log,
            settings=MARGINAL_COST_SETTINGS,
        )
        without = trial.without([slot])
        if without.cost < self.solution.cost - 1e-9:
            self.solution = without
        self._offer = (task.id, trial)
        return max(0.0, trial.cost - self.solution.cost)

    def add(self, task: Task) -> None:
        """Add a won task: keep the plan priced for it, or insert it at its cheapest place."""
        if self._offer is not None and self._offer[0] == task.id:
            self.solution = self._offer[1]
        elif self.problem.slot(task) not in set(self.solution.slots()):
            insert_task(self.solution, self.problem.slot(task))
        self._offer = None

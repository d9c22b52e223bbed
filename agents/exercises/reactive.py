"""The reactive template agent: copy it with `apdp new NAME --exercise reactive` and make it better.

The course's ReactiveTemplate: in each city it takes the task offered with probability `discount`
(0.95 unless params say otherwise), else it moves to a random neighbour. Every 50 actions it
prints its total profit so far. Solve the exercise's MDP by value iteration instead.
Play it with:  apdp match --exercise reactive --agents <your-name>
"""

from __future__ import annotations

from apdp import Company, ExerciseDistribution, ExerciseVehicle, Move, Pickup, ReactiveAgent, Task, Topology
from apdp.game.plan import Action


class ReactiveTemplate(ReactiveAgent):
    """Takes an offered task with probability `discount`, else moves to a random neighbour."""

    def setup(self, topology: Topology, distribution: ExerciseDistribution, company: Company) -> None:
        # self.params holds this agent's parameters; self.rng is seeded by the referee.
        self.discount = self.param("discount", 0.95)
        self.actions = 0

    def act(self, vehicle: ExerciseVehicle, task: Task | None) -> Action:
        # The task offered here (or None): Pickup(task.id) carries it and delivers it at once;
        # Move(city) drives to a neighbouring city.
        if task is None or self.rng.random() > self.discount:
            neighbours = list(self.topology.neighbours(vehicle.city))
            action: Action = Move(neighbours[int(self.rng.integers(len(neighbours)))])
        else:
            action = Pickup(task.id)
        if self.actions >= 1 and self.actions % 50 == 0:
            profit = vehicle.reward - round(vehicle.distance_units * vehicle.cost_per_km / 1000)
            print(f"The total profit after {self.actions} actions is {profit} "
                  f"(average profit: {profit / self.actions})")
        self.actions += 1
        return action

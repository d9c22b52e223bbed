"""The OR-Tools routing backend: the same problem as a pickup-and-delivery routing model.

Nodes are an end depot (0, every arc into it is free: routes are open), one start node per
vehicle at its home, then a pickup and a delivery node per task. Constraints: pickup and delivery
on the same vehicle, pickup first (a "distance" dimension whose cumul strictly grows along a
route), and the load within each vehicle's capacity. Arc costs are km x cost per km of the
vehicle, in hundredths (OR-Tools wants integers). The search starts from the given solution,
then runs guided local search until the deadline. When it has nothing to give, it says why.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from apdp.baselines.planning.problem import Problem
from apdp.baselines.planning.solution import Solution
from apdp.game.deadline import Deadline

#: Money and kilometres are scaled to integers by this factor; weights by WEIGHT_SCALE.
COST_SCALE = 100
WEIGHT_SCALE = 1000
#: Seconds kept back from the deadline for building the model and reading the result.
SAFETY = 0.05


def solve_with_ortools(problem_solution: Solution, deadline: Deadline) -> tuple[Solution | None, str]:
    """Improve ``problem_solution`` with OR-Tools until ``deadline``: (the solution it found, "") or
    (None, why it found none: not installed, no time, no solution in time)."""
    try:
        from ortools.constraint_solver import pywrapcp, routing_enums_pb2
    except ImportError:
        return None, "OR-Tools is not installed (pip install 'apdp[ortools]')"

    problem = problem_solution.problem
    slots = sorted(problem_solution.slots())
    if not slots:
        return problem_solution.copy(), ""
    model = _Model(pywrapcp, problem, slots)
    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = (
        routing_enums_pb2.FirstSolutionStrategy.PARALLEL_CHEAPEST_INSERTION
    )
    params.local_search_metaheuristic = (
        routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    )
    seconds = deadline.remaining() - SAFETY
    if seconds <= 0.01:
        return None, f"no time was left for OR-Tools ({deadline.remaining():.2f} s)"
    params.time_limit.FromMilliseconds(max(1, int(seconds * 1000)))
    found = model.solve(params, problem_solution.routes)
    if found is None:
        return None, f"OR-Tools found no solution within {seconds:.1f} s"
    return Solution(problem, model.routes(found)), ""


class _Model:
    """The routing model of a problem's tasks ``slots``: its nodes, arc costs, the "order" and
    "load" dimensions and the pickup and delivery pairs. It keeps its callbacks alive while the
    model lives."""

    def __init__(self, pywrapcp: Any, problem: Problem, slots: list[int]) -> None:
        self.problem = problem
        vehicles = problem.vehicle_count
        # node -> stop code (-1 for the depot and vehicle starts) and city (-1 for the depot)
        self.node_code = [-1] * (1 + vehicles)
        self.node_city = [-1, *list(problem.homes)]
        for s in slots:
            for code in (2 * s, 2 * s + 1):
                self.node_code.append(code)
                self.node_city.append(problem.stop_city[code])
        self.code_node = {code: k for k, code in enumerate(self.node_code) if code >= 0}
        self.manager = pywrapcp.RoutingIndexManager(
            len(self.node_code), vehicles, list(range(1, vehicles + 1)), [0] * vehicles
        )
        self.routing = pywrapcp.RoutingModel(self.manager)
        self.callbacks: list[Callable[..., int]] = []
        self._arc_costs()
        self._order_and_load()
        self._pickups_and_deliveries(slots)

    def km(self, i: int, j: int) -> float:
        """The km from index ``i`` to index ``j`` (0 into or out of the depot)."""
        a, b = self.node_city[self.manager.IndexToNode(i)], self.node_city[self.manager.IndexToNode(j)]
        return 0.0 if a < 0 or b < 0 else self.problem.dist[a][b]

    def _transit(self, callback: Callable[[int, int], int]) -> int:
        self.callbacks.append(callback)
        return int(self.routing.RegisterTransitCallback(callback))

    def _arc_costs(self) -> None:
        """Each vehicle's arc cost: km x its cost per km, in hundredths."""
        for v in range(self.problem.vehicle_count):
            rate = self.problem.costs_per_km[v] * COST_SCALE

            def arc_cost(i: int, j: int, rate: float = rate) -> int:
                return round(self.km(i, j) * rate)

            self.routing.SetArcCostEvaluatorOfVehicle(self._transit(arc_cost), v)

    def _order_and_load(self) -> None:
        """The "order" dimension (its cumul strictly grows along a route) and the "load" dimension
        (within each vehicle's capacity)."""
        routing, problem, node_code = self.routing, self.problem, self.node_code

        def order(i: int, j: int) -> int:
            return round(self.km(i, j) * COST_SCALE) + 1

        horizon = int(COST_SCALE * (max(max(r) for r in problem.dist) + 1) * (len(node_code) + 1)) + len(
            node_code
        )
        routing.AddDimension(self._transit(order), 0, horizon, True, "order")

        def demand(i: int) -> int:
            code = node_code[self.manager.IndexToNode(i)]
            return 0 if code < 0 else round(problem.stop_load[code] * WEIGHT_SCALE)

        self.callbacks.append(demand)
        routing.AddDimensionWithVehicleCapacity(
            routing.RegisterUnaryTransitCallback(demand),
            0,
            [math.floor(c * WEIGHT_SCALE + 1e-6) for c in problem.capacities],
            True,
            "load",
        )

    def _pickups_and_deliveries(self, slots: list[int]) -> None:
        """Each task's pickup and delivery on the same vehicle, the pickup first."""
        routing, manager = self.routing, self.manager
        order_dim = routing.GetDimensionOrDie("order")
        solver = routing.solver()
        for s in slots:
            p = manager.NodeToIndex(self.code_node[2 * s])
            d = manager.NodeToIndex(self.code_node[2 * s + 1])
            routing.AddPickupAndDelivery(p, d)
            solver.Add(routing.VehicleVar(p) == routing.VehicleVar(d))
            solver.Add(order_dim.CumulVar(p) <= order_dim.CumulVar(d))

    def solve(self, params: Any, routes: list[list[int]]) -> Any:
        """The assignment found with ``params``, starting from ``routes`` when they make one; None
        when none was found."""
        routing, manager = self.routing, self.manager
        routing.CloseModelWithParameters(params)
        start = routing.ReadAssignmentFromRoutes(
            [[manager.NodeToIndex(self.code_node[c]) for c in route] for route in routes], True
        )
        if start is not None:
            return routing.SolveFromAssignmentWithParameters(start, params)
        return routing.SolveWithParameters(params)

    def routes(self, found: Any) -> list[list[int]]:
        """Each vehicle's route (stop codes) in the assignment ``found``."""
        routing = self.routing
        routes: list[list[int]] = []
        for v in range(self.problem.vehicle_count):
            route = []
            index = found.Value(routing.NextVar(routing.Start(v)))
            while not routing.IsEnd(index):
                route.append(self.node_code[self.manager.IndexToNode(index)])
                index = found.Value(routing.NextVar(index))
            routes.append(route)
        return routes

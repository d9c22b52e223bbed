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
    vehicles = problem.vehicle_count
    # node -> stop code (-1 for the depot and vehicle starts) and city (-1 for the depot)
    node_code = [-1] * (1 + vehicles)
    node_city = [-1, *list(problem.homes)]
    for s in slots:
        for code in (2 * s, 2 * s + 1):
            node_code.append(code)
            node_city.append(problem.stop_city[code])
    code_node = {code: k for k, code in enumerate(node_code) if code >= 0}
    manager = pywrapcp.RoutingIndexManager(
        len(node_code), vehicles, list(range(1, vehicles + 1)), [0] * vehicles
    )
    routing = pywrapcp.RoutingModel(manager)
    dist = problem.dist

    def km(i: int, j: int) -> float:
        a, b = node_city[manager.IndexToNode(i)], node_city[manager.IndexToNode(j)]
        return 0.0 if a < 0 or b < 0 else dist[a][b]

    for v in range(vehicles):
        rate = problem.costs_per_km[v] * COST_SCALE

        def arc_cost(i: int, j: int, rate: float = rate) -> int:
            return round(km(i, j) * rate)

        routing.SetArcCostEvaluatorOfVehicle(routing.RegisterTransitCallback(arc_cost), v)

    def order(i: int, j: int) -> int:
        return round(km(i, j) * COST_SCALE) + 1

    horizon = int(COST_SCALE * (max(max(r) for r in dist) + 1) * (len(node_code) + 1)) + len(
        node_code
    )
    routing.AddDimension(routing.RegisterTransitCallback(order), 0, horizon, True, "order")
    order_dim = routing.GetDimensionOrDie("order")

    def demand(i: int) -> int:
        code = node_code[manager.IndexToNode(i)]
        return 0 if code < 0 else round(problem.stop_load[code] * WEIGHT_SCALE)

    routing.AddDimensionWithVehicleCapacity(
        routing.RegisterUnaryTransitCallback(demand),
        0,
        [math.floor(c * WEIGHT_SCALE + 1e-6) for c in problem.capacities],
        True,
        "load",
    )
    solver = routing.solver()
    for s in slots:
        p = manager.NodeToIndex(code_node[2 * s])
        d = manager.NodeToIndex(code_node[2 * s + 1])
        routing.AddPickupAndDelivery(p, d)
        solver.Add(routing.VehicleVar(p) == routing.VehicleVar(d))
        solver.Add(order_dim.CumulVar(p) <= order_dim.CumulVar(d))
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
    routing.CloseModelWithParameters(params)
    start = routing.ReadAssignmentFromRoutes(
        [[manager.NodeToIndex(code_node[c]) for c in route] for route in problem_solution.routes],
        True,
    )
    if start is not None:
        found = routing.SolveFromAssignmentWithParameters(start, params)
    else:
        found = routing.SolveWithParameters(params)
    if found is None:
        return None, f"OR-Tools found no solution within {seconds:.1f} s"
    routes: list[list[int]] = []
    for v in range(vehicles):
        route = []
        index = found.Value(routing.NextVar(routing.Start(v)))
        while not routing.IsEnd(index):
            route.append(node_code[manager.IndexToNode(index)])
            index = found.Value(routing.NextVar(index))
        routes.append(route)
    return Solution(problem, routes), ""

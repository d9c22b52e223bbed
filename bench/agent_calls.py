"""The slowest call of each shipped agent: its worst setup, bid and plan, against the time limits.

Plays each agent in this process (no sandbox: the shipped agents only) against an opponent that
abstains on every other task, or on every task, so that the agent's plans grow as large as a match
can make them; per phase it prints the slowest call's wall and CPU seconds, the limit, the limit
over the slowest call (the margin), the phase's CPU seconds per match (what a tournament pays), and
the calls the clock ended (those print a ``clock stop:``
line, which the bench counts). On a loaded machine the wall times grow and the CPU times do not:
compare the two.

    python bench/agent_calls.py                                   # the -lns agents, france, 50 tasks
    python bench/agent_calls.py --agents honest-lns --seeds 3 --topology england
    python bench/agent_calls.py --params plan_iterations=2000,bid_iterations=100
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from apdp.agents.discovery import find_agent, load_agent_class
from apdp.baselines.planning.planning_agent import clock_stops
from apdp.game.agent import Agent
from apdp.game.deadline import Deadline
from apdp.game.plan import check_plans
from apdp.sandbox.worker import deadline_for
from apdp.scenario import make_scenario

LNS = ["exp-cost-fixed-bid-lns", "honest-lns", "model-opponent-lns", "risk-seeking-lns"]
T = TypeVar("T")


def timed(agent: Agent, limit: float, call: Callable[[], T], times: dict[str, list[tuple[float, float]]],
          phase: str, stops: list[str]) -> T:
    """Run one call as the referee would (its deadline set first); keep its wall and CPU seconds."""
    agent.deadline = deadline_for(limit)
    out = io.StringIO()
    wall, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stderr(out):
        result = call()
    times[phase].append((time.perf_counter() - wall, time.process_time() - cpu))
    stops += clock_stops(out.getvalue())
    return result


def play(name: str, topology: str, tasks: int, seed: int, every: int, params: dict[str, Any],
         times: dict[str, list[tuple[float, float]]], stops: list[str]) -> None:
    """One match of ``name`` (company 0) against a bidder that takes 1 task in ``every`` (1: none)."""
    scenario = make_scenario({"topology": topology, "tasks": tasks})
    network = scenario.load_topology()
    [company, _] = scenario.build_companies(network, 2)
    distribution = scenario.distribution_for(network)
    agent = load_agent_class(find_agent(name).path)()
    agent.topology, agent.distribution, agent.company = network, distribution, company
    agent.agent_id, agent.agents, agent.params = 0, 2, params
    agent.rng = np.random.default_rng(seed)
    limits = scenario.timeouts
    agent.timeouts = {"setup": limits.setup, "bid": limits.bid, "plan": limits.plan}
    timed(agent, limits.setup, lambda: agent.setup(network, distribution, company), times, "setup", stops)
    won = []
    for task in scenario.draw_tasks(network, distribution, np.random.default_rng(seed)):
        bid = timed(agent, limits.bid, lambda t=task: agent.bid(t), times, "bid", stops)  # type: ignore[misc]
        theirs = 1.0 if every > 1 and task.id % every == 0 else None
        winner = 1 if theirs is not None or bid is None else 0
        if winner == 0:
            won.append(task)
        agent.deadline = Deadline.after(limits.bid)
        agent.auction_result(task, winner, [bid, theirs])
    plans = timed(agent, limits.plan, lambda: agent.plan(company.vehicles, won), times, "plan", stops)
    problems = check_plans(network, company.vehicles, plans, won)
    if problems:
        raise SystemExit(f"{name}: invalid plan: {problems[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default=",".join(LNS))
    parser.add_argument("--topology", default="france")
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--params", default="", help="k=v,... given to every agent (numbers)")
    args = parser.parse_args()
    params = {k: float(v) if "." in v else int(v) for k, v in (p.split("=") for p in args.params.split(",") if p)}
    limits = make_scenario({}).timeouts
    print(f"{args.topology}, {args.tasks} tasks, seeds 0..{args.seeds - 1}, opponent takes every 2nd task or none; "
          f"limits setup {limits.setup:g} s, bid {limits.bid:g} s, plan {limits.plan:g} s")
    print(f"{'agent':24} {'phase':6} {'calls':>5} {'worst wall':>10} {'worst cpu':>9} {'limit/worst':>11} "
          f"{'cpu/match':>9}  clock stops")
    for name in args.agents.split(","):
        times: dict[str, list[tuple[float, float]]] = defaultdict(list)
        stops: list[str] = []
        for seed in range(args.seeds):
            for every in (2, 1):
                play(name, args.topology, args.tasks, seed, every, params, times, stops)
        for phase in ("setup", "bid", "plan"):
            calls = times[phase]
            wall = max(w for w, _ in calls)
            cpu = max(c for _, c in calls)
            limit = getattr(limits, phase)
            stopped = sum(1 for s in stops if (" plan of " in s) == (phase == "plan")
                          and ("setup" in s) == (phase == "setup"))
            per_match = sum(c for _, c in calls) / (2 * args.seeds)
            print(f"{name:24} {phase:6} {len(calls):5} {wall:10.3f} {cpu:9.3f} {limit / wall:11.1f} "
                  f"{per_match:9.3f}  {stopped}")
    with open("/proc/loadavg") as load:
        print(f"load average (1 min) at the end: {load.read().split()[0]}")


if __name__ == "__main__":
    main()

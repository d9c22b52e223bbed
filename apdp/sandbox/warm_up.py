"""The zygote's warm-up: the agent's side of a few short matches, played in the zygote itself before
it forks any agent process.

An agent process is forked from the zygote and shares its memory until it writes to it. Python
writes where it runs code for the first times: it specializes the bytecode of each function it runs
often enough, fills its method cache and interns names. Done in each agent process, that work is
repeated for every agent of every match, and every page it touches is copied. Done once here, every
agent process starts with the worker's own path (requests read, calls answered, replies written)
ready, in pages it only reads: about 2 ms less CPU per match of two agents
(``bench/match_time.py``).

Nothing of it is left for an agent to see: the agent is apdp's own
(:mod:`apdp.sandbox.warm_up_agent`, on a small made-up network), its module is forgotten and its
objects collected once it ends, and every agent process reseeds numpy's global generator as before.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import socket
import sys
from multiprocessing.connection import Connection
from pathlib import Path

from apdp.agents.discovery import agent_module_name
from apdp.game.company import Company, Vehicle
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology, parse_topology
from apdp.messages.calls import AuctionResultCall, BidCall, Call, PlanCall, SandboxCall, SetupCall, TwoCalls
from apdp.sandbox.worker import ProcessLimits, Session, serve

#: Matches played: Python specializes a function's code once it has run a few times (8 calls in
#: CPython 3.11), so the calls made once per match (setup, plan) need that many matches.
MATCHES = 10
#: Auctions per match: more add nothing that a few do not.
TASKS = 6
_TIMEOUTS = {"setup": 10.0, "bid": 2.0, "plan": 10.0}
#: The agent played, loaded from its file as an agent's file is loaded.
AGENT_FILE = Path(__file__).with_name("warm_up_agent.py")


def _network() -> Topology:
    cities = [{"name": name, "x": x, "y": y} for name, x, y in (("A", 0, 0), ("B", 1, 0), ("C", 1, 1), ("D", 0, 1))]
    routes = [{"from": a, "to": b, "distance": 10.0} for a, b in (("A", "B"), ("B", "C"), ("C", "D"), ("D", "A"))]
    return parse_topology({"name": "warm-up", "cities": cities, "routes": routes}, "the warm-up network")


def _requests(topology: Topology, distribution: TaskDistribution, company: Company, seed: int) -> list[object]:
    """What a referee asks one agent in a match of :data:`TASKS` auctions, as it asks it."""
    setup = SetupCall(0, 2, seed, {}, _TIMEOUTS, topology, distribution, company, str(AGENT_FILE))
    requests: list[object] = [TwoCalls(SandboxCall("unprotected"), setup)]
    cities = topology.cities
    tasks = [Task(k, cities[k % len(cities)], cities[(k + 1) % len(cities)], 1.0 + k) for k in range(TASKS)]
    told: AuctionResultCall | None = None
    for task in tasks:
        bid = BidCall(task, _TIMEOUTS["bid"])
        requests.append(bid if told is None else TwoCalls(told, bid))
        told = AuctionResultCall(task, task.id % 2, (100.0, 101.0), _TIMEOUTS["bid"])
    plan: Call = PlanCall(company.vehicles, tuple(t for t in tasks if t.id % 2 == 0), _TIMEOUTS["plan"])
    requests.append(plan if told is None else TwoCalls(told, plan))
    return requests


def warm_up(matches: int = MATCHES) -> list[bytes]:
    """Play the agent's side of ``matches`` short matches in this process; the replies it sent."""
    topology = _network()
    distribution = TaskDistribution(topology)
    company = Company("warm-up", (Vehicle("v1", "A", 30.0, 5.0), Vehicle("v2", "C", 30.0, 5.0)))
    replies: list[bytes] = []
    for seed in range(matches):
        referee, theirs = socket.socketpair()
        # the referee's end: framed as the referee frames its requests, read as it reads replies
        with referee, Connection(os.dup(referee.fileno())) as ask, Connection(theirs.detach()) as agent:
            for request in _requests(topology, distribution, company, seed):  # a few kB: the buffer holds them
                ask.send_bytes(pickle.dumps(request, pickle.HIGHEST_PROTOCOL))
            referee.shutdown(socket.SHUT_WR)  # the agent's side ends at the last request
            serve(agent, Session(ProcessLimits(2**30, 2**20, os.devnull), [], ""))
            agent.close()
            with contextlib.suppress(EOFError):
                while True:
                    replies.append(ask.recv_bytes())
    sys.modules.pop(agent_module_name(AGENT_FILE), None)  # each agent process loads its agent's file afresh
    gc.collect()  # the agent classes it loaded are cyclic garbage: gone before the zygote freezes what it holds
    return replies

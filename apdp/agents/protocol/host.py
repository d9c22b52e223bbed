"""Run a Python agent file as an agent program: ``python -m apdp.agents.protocol.host AGENT.py``.

A reference implementation of the other side of ``apdp-agent/1``: it reads the requests on stdin,
rebuilds the world from the setup request alone (network, distribution, company), calls the agent,
and writes the replies on stdout. What the agent prints goes to stderr. It shows the protocol
carries all an agent needs, and lets the tests run a Python agent as a program, through the same
sandbox as a program in any other language.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import IO

from apdp.agents.discovery import load_agent_class
from apdp.game.agent import Agent
from apdp.game.deadline import Deadline
from apdp.messages.calls import AuctionResultCall, BidCall, Call, SetupCall, call_from_json
from apdp.messages.replies import Ack, AgentFailed, NotAValue, Reply, bid_reply, plans_reply
from apdp.messages.setup import set_up


def _deadline(seconds: float) -> Deadline:
    return Deadline.after(seconds - min(0.25, 0.1 * seconds))


def _answer(agent: Agent | None, call: Call, path: Path) -> tuple[Agent | None, Reply]:
    if isinstance(call, SetupCall):
        agent = load_agent_class(path)()
        set_up(agent, call, _deadline(call.timeouts["setup"]))
        return agent, Ack()
    if agent is None:
        return None, AgentFailed("exception", f"{call.name!r} before setup")
    agent.deadline = _deadline(call.timeout)
    if isinstance(call, BidCall):
        return agent, bid_reply(agent.bid(call.task))
    if isinstance(call, AuctionResultCall):
        agent.auction_result(call.task, call.winner, list(call.bids))
        return agent, Ack()
    return agent, plans_reply(agent.plan(list(call.vehicles), list(call.tasks)))


def _error(message: str) -> dict[str, str]:
    return {"error": message}


def serve(path: Path, requests: IO[str], replies: IO[str]) -> None:
    """Answer requests until the input ends; an agent's exception is an ``error`` reply."""
    agent: Agent | None = None
    for line in requests:
        try:
            agent, reply = _answer(agent, call_from_json(json.loads(line)), path)
            out = _error(reply.message) if isinstance(reply, AgentFailed | NotAValue) else reply.to_json()
        except Exception as exc:  # the agent's own error (or a broken request): report it, keep serving
            out = _error(f"{type(exc).__name__}: {exc}")
        replies.write(json.dumps(out) + "\n")
        replies.flush()


def main() -> None:
    """Entry point: the protocol on the original stdout, the agent's prints on stderr."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    serve(Path(sys.argv[1]), sys.stdin, protocol)


if __name__ == "__main__":
    main()

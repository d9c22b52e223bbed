"""What the tests' fake models reply: agents' code as models write it (for tests/chat.py's server)."""

from __future__ import annotations

from typing import Any

#: A clean agent: cost-based bids (cost + MARGIN), every task carried alone by the first vehicle.
TEMPLATE = '''\
from apdp import Agent, Stop, plan_from_stops


class Good(Agent):
    """Cost-based bids; every task carried alone by the first vehicle."""

    def bid(self, task):
        vehicle = self.company.vehicles[0]
        if task.weight > vehicle.capacity:
            return None
        km = self.topology.distance(task.pickup, task.delivery)
        return km * vehicle.cost_per_km + MARGIN

    def plan(self, vehicles, tasks):
        stops = []
        for task in tasks:
            stops += [Stop.pickup(task), Stop.deliver(task)]
        first = plan_from_stops(self.topology, vehicles[0], stops)
        return [first] + [[] for _ in vehicles[1:]]
'''


def version(margin: int) -> str:
    """A clean agent bidding its cost plus ``margin`` (class ``Margin<margin>``)."""
    return TEMPLATE.replace("MARGIN", f"{margin}.0").replace("class Good", f"class Margin{margin}")


#: The clean agent of most tests: its cost + 500.
GOOD = TEMPLATE.replace("MARGIN", "500.0")
#: Hands in no plan: every task it won is undelivered.
LAZY = GOOD.replace("class Good", "class Lazy").replace(
    "        first = plan_from_stops(self.topology, vehicles[0], stops)\n"
    "        return [first] + [[] for _ in vehicles[1:]]",
    "        return [[] for _ in vehicles]",
)
#: The token counts a fake model reports for each call.
USAGE = {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}


def answer(text: str, lang: str = "python") -> str:
    """A model's reply with ``text`` in a fenced block of ``lang``, as models write them."""
    return f"Here is the agent.\n\n```{lang}\n{text}```\n\nGood luck!"


def written(code: str, model: str) -> tuple[int, str]:
    """The fake server's answer (status, body) of a model that writes ``code``, with USAGE's tokens."""
    from tests.chat import completion

    return 200, completion(answer(code), model, USAGE)


def repaired(request: dict[str, Any]) -> tuple[int, str]:
    """A model that first hands in no plans (LAZY), and a clean agent (GOOD) once told of its faults."""
    users = [m for m in request["messages"] if m["role"] == "user"]
    return written(LAZY if len(users) == 1 else GOOD, request["model"])

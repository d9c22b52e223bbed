"""The zygote's warm-up plays the agent's side of short matches through the worker's own path, and
leaves nothing behind for the agents forked after it."""

from __future__ import annotations

import gc
import json
import sys

import pytest

from apdp.agents.discovery import agent_module_name
from apdp.sandbox import warm_up as warm

pytestmark = pytest.mark.unit


def test_every_call_of_every_match_is_answered_as_the_referee_expects() -> None:
    replies = [json.loads(r) for r in warm.warm_up(3)]
    per_match = 2 + 1 + 2 * (warm.TASKS - 1) + 2  # unprotected + setup, first bid, result + bid, result + plan
    assert len(replies) == 3 * per_match
    for k in range(3):
        match = replies[k * per_match : (k + 1) * per_match]
        assert [next(iter(r)) for r in match] == (
            ["ok", "ok", "bid"] + ["ok", "bid"] * (warm.TASKS - 1) + ["ok", "plans"]
        )
        assert all(r.get("ok", True) is True for r in match)  # a fault would say failed, not ok
        (plans,) = [r["plans"] for r in match if "plans" in r]
        carried = [a[1] for a in plans[0] if a[0] == "pickup"]
        assert carried == list(range(0, warm.TASKS, 2))  # the tasks it won, in order


def test_the_agent_module_is_forgotten_and_its_objects_collected() -> None:
    name = agent_module_name(warm.AGENT_FILE)
    warm.warm_up(2)
    assert name not in sys.modules
    assert not [o for o in gc.get_objects() if isinstance(o, type) and o.__name__ == "WarmUpAgent"]


def test_bids_come_from_the_agents_generator_seeded_by_the_match() -> None:
    def bids(matches: int) -> list[float]:
        return [r["bid"] for r in map(json.loads, warm.warm_up(matches)) if "bid" in r]

    assert bids(2) == bids(2)  # the same seeds, the same bids
    first, second = bids(2)[: warm.TASKS], bids(2)[warm.TASKS :]
    assert first != second  # two matches, two seeds

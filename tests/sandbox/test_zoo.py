"""Hostile agents: each loses its match with the right fault, within its time limit + 1 s, and the
referee stays up (the other agent plays on and wins)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from tests.matches import fast_scenario
from tests.paths import ZOO

MISBEHAVE = str(ZOO / "misbehave.py")

CASES = [
    # mode, kind, phase, words in the message
    ("sleep_setup", "timeout", "setup", "no answer within 2 s"),
    ("sleep_bid", "timeout", "bid", "no answer within 1 s"),
    ("sleep_auction_result", "timeout", "auction_result", "no answer within 1 s"),
    ("sleep_plan", "timeout", "plan", "no answer within 2 s"),
    ("spin_bid", "timeout", "bid", "no answer"),
    ("spin_plan", "timeout", "plan", "no answer"),
    ("fork_bid", "timeout", "bid", "no answer"),
    ("flood_bid", "timeout", "bid", "no answer"),
    ("half_reply_bid", "timeout", "bid", "no answer within 1 s"),  # the referee never waits past the limit
    ("raise_setup", "exception", "setup", "RuntimeError: hostile agent raises in setup"),
    ("raise_bid", "exception", "bid", "RuntimeError: hostile agent raises in bid"),
    ("raise_auction_result", "exception", "auction_result", "hostile agent raises in auction_result"),
    ("raise_plan", "exception", "plan", "hostile agent raises in plan"),
    ("bid_nan", "bad_bid", "bid", "finite, got nan"),
    ("bid_inf", "bad_bid", "bid", "finite, got inf"),
    ("bid_negative", "bad_bid", "bid", ">= 0, got -1.0"),
    ("bid_string", "bad_bid", "bid", "got str 'cheap'"),
    ("bid_bool", "bad_bid", "bid", "got bool"),
    ("bid_list", "bad_bid", "bid", "got list"),
    ("plan_undelivered", "invalid_plan", "plan", "picked up but never delivered"),
    ("plan_other_vehicle", "invalid_plan", "plan", "delivered by vehicle 1 but picked up by vehicle 0"),
    ("plan_deliver_first", "invalid_plan", "plan", "delivered before it was picked up"),
    ("plan_wrong_city", "invalid_plan", "plan", "picked up in"),
    ("plan_no_road", "invalid_plan", "plan", "follows no road"),
    ("plan_capacity", "invalid_plan", "plan", "exceeds capacity"),
    ("plan_other_company", "invalid_plan", "plan", "is a task of another company"),
    ("plan_twice", "invalid_plan", "plan", "picked up twice"),
    ("plan_unknown_city", "invalid_plan", "plan", "unknown city 'Atlantis'"),
    ("plan_unknown_task", "invalid_plan", "plan", "task 10000 is an unknown task"),
    ("plan_missing_vehicle", "invalid_plan", "plan", "expected 2 vehicle plans, got 1"),
    ("plan_not_list", "invalid_plan", "plan", "must return a list of vehicle plans"),
    ("plan_task_object", "invalid_plan", "plan", "write Pickup(task.id)"),
    ("exit_bid", "process_died", "bid", "exited with code 3"),
    ("hard_exit_plan", "process_died", "plan", "exited with code 0"),
    ("kill_auction_result", "process_died", "auction_result", "killed by SIGKILL"),
    ("memory_setup", "memory", "setup", "out of memory: the limit is 256 MiB"),
    ("memory_bid", "memory", "bid", "out of memory"),
]


@pytest.mark.parametrize(("mode", "kind", "phase", "words"), CASES, ids=[c[0] for c in CASES])
def test_hostile_agent_loses_with_the_right_fault(mode: str, kind: str, phase: str, words: str) -> None:
    scenario = fast_scenario(
        tasks=12, limits={"memory_mb": 256}, agents={"misbehave": {"mode": mode}}
    )
    started = time.monotonic()
    record = play_match(scenario, [MISBEHAVE, "template"], seed=5).to_json()
    elapsed = time.monotonic() - started
    result = record["result"]
    assert [(f["agent"], f["kind"], f["phase"]) for f in result["faults"]] == [(0, kind, phase)]
    assert words in result["faults"][0]["message"]
    assert result["winner"] == 1  # the referee stayed up and the sound agent won
    assert verify_record(record) == []
    limit = {"setup": 2.0, "bid": 1.0, "auction_result": 1.0, "plan": 2.0}[phase]
    assert record["timing"]["agents"][0]["faulted_call"] < limit + 1.0
    # Only the faulty call can take long: the rest of this short match is quick.
    assert elapsed < limit + 1.0 + 3.0


@pytest.mark.parametrize(
    ("file", "words"),
    [
        ("syntax_error.py", "syntax error at line 3"),
        ("import_raises.py", "failed to import: ImportError: this agent needs a package"),
        ("no_agent_class.py", "defines no agent; add a class that subclasses apdp.Agent"),
        ("exit_on_import.py", "exited with code 0"),
    ],
)
def test_broken_agent_file_is_a_fault_of_that_agent_alone(file: str, words: str) -> None:
    record = play_match(fast_scenario(tasks=3), [str(ZOO / file), "template"], seed=1).to_json()
    faults = record["result"]["faults"]
    assert [(f["agent"], f["phase"]) for f in faults] == [(0, "setup")]
    assert words in faults[0]["message"]
    assert record["result"]["winner"] == 1


def test_both_faulty_means_no_winner() -> None:
    scenario = fast_scenario(agents={"misbehave": {"mode": "raise_bid"}})
    record = play_match(scenario, [MISBEHAVE, MISBEHAVE], seed=2).to_json()
    assert record["result"]["winner"] is None
    assert len(record["result"]["faults"]) == 2
    assert verify_record(record) == []


def test_output_is_captured_and_bounded() -> None:
    scenario = fast_scenario(limits={"output_kb": 1}, agents={"misbehave": {"mode": "print_some"}})
    record = play_match(scenario, [MISBEHAVE, "template"], seed=1).to_json()
    assert "bidding on task 0" in record["output"][0]
    flood = play_match(
        fast_scenario(limits={"output_kb": 4}, agents={"misbehave": {"mode": "flood_bid"}}),
        [MISBEHAVE, "template"], seed=1,
    ).to_json()
    assert len(flood["output"][0]) <= 4 * 1024 + 256
    assert "stdout limit reached" in flood["output"][0]


def test_agent_cannot_see_the_referee(tmp_path: Path) -> None:
    """An agent process holds nothing of the referee's: no match seed or task list to find."""
    spy = tmp_path / "spy.py"
    spy.write_text(
        "import gc, sys\n"
        "from apdp import Agent\n"
        "class Spy(Agent):\n"
        "    def bid(self, task):\n"
        "        leaked = [o for o in gc.get_objects() if type(o).__name__ in ('_Referee', 'Seat')]\n"
        "        mains = [m for m in sys.modules if m.split('.')[0] in ('tests', 'pytest', '_pytest')]\n"
        "        return 1000.0 + len(leaked) + 10 * len(mains)\n"
        "    def plan(self, vehicles, tasks):\n"
        "        return [[] for _ in vehicles]\n"
    )
    record = play_match(fast_scenario(tasks=1), [str(spy), "template"], seed=1).to_json()
    assert record["auctions"][0]["bids"][0] == 1000.0


def test_fault_details_are_structured() -> None:
    broken = play_match(fast_scenario(tasks=2), [str(ZOO / "import_raises.py"), "template"], seed=1).to_json()
    assert broken["result"]["faults"][0]["import_error"] is True
    raised = play_match(fast_scenario(tasks=2, agents={"misbehave": {"mode": "raise_bid"}}),
                        [MISBEHAVE, "template"], seed=1).to_json()
    assert "import_error" not in raised["result"]["faults"][0]
    traceback = raised["result"]["faults"][0]["traceback"]
    assert "RuntimeError: hostile agent raises in bid" in traceback
    first = traceback.splitlines()[1]  # the agent's own frame first, none of the worker's (issue 34)
    assert first.startswith('  File "') and "misbehave.py" in first and "worker.py" not in traceback, traceback
    capacity = play_match(fast_scenario(tasks=12, agents={"misbehave": {"mode": "plan_capacity"}}),
                          [MISBEHAVE, "template"], seed=5).to_json()
    violations = capacity["result"]["faults"][0]["violations"]
    assert violations and all(v["vehicle"] == 0 and "exceeds capacity" in v["message"] for v in violations)


def test_an_agent_that_stops_reading_its_requests_times_out_and_the_match_ends() -> None:
    """The referee writes a request within the call's time: an agent that answers but never takes
    its requests off the socket (it only peeks) fills the socket's buffer and times out."""
    record = play_match(fast_scenario(tasks=300), [str(ZOO / "peek_jam.py"), "naive"], seed=1).to_json()
    (fault,) = record["result"]["faults"]
    assert fault["agent"] == 0 and fault["kind"] == "timeout" and "stopped reading" in fault["message"], fault
    assert record["result"]["winner"] == 1


def test_what_is_off_is_asked_before_the_agent_runs_and_no_claim_of_its_own_counts() -> None:
    """An agent that makes its worker say every protection is off changes nothing in the record: the
    referee asked its worker before any code of the agent's ran."""
    honest = play_match(fast_scenario(tasks=2), ["honest", "naive"], seed=1).to_json()
    claimed = play_match(fast_scenario(tasks=2), [str(ZOO / "false_alarm.py"), "naive"], seed=1).to_json()
    assert claimed["result"]["faults"] == []
    assert claimed["sandbox"] == honest["sandbox"]

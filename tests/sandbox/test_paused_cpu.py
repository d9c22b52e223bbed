"""Work an agent leaves in the kernel runs on after its pause (issue 32, point 11): a pause waits for
the system call each of its threads is in, and one call over millions of page-table entries takes a
tenth of a second, a fork of them seconds. That time is its own, never its opponent's: the referee
counts each agent's CPU in a control group of its own and extends its opponent's call by what the
paused agent used meanwhile, and an agent that used more than a quarter of a second while paused is
faulted for it (``timeout``: it ran on after it was paused), with that CPU in its figures.

The match is played on one core, as ``apdp match`` and a tournament play it (unless every core is
taken: then the leftover work may run beside its opponent, which is harmless, and the leaver is
faulted all the same). The opponent needs under a quarter of its time limit in CPU of its own (its
own clock), so a machine busy with other work (the suite's other worker on the same core) still
leaves it room: this test asserts that nothing goes wrong around the pause, and
``test_paused_extension`` that the extension is what it should be, on meters moved by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from apdp.sandbox.cores import core_for_a_match
from apdp.sandbox.paused import LONGEST_SETTLE, RAN_ON_LIMIT
from tests.matches import fast_scenario
from tests.paths import ZOO

LEAVER = str(ZOO / "kernel_leftover.py")
#: The opponent's time limit for a bid or a plan, and the CPU seconds of its own it spins in each.
LIMIT, SPIN = 4.0, 0.9

VICTIM = '''
import time

from apdp import Agent


def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


class Victim(Agent):
    def bid(self, task):
        spin(self.param("spin", 0.0))
        return None

    def plan(self, vehicles, tasks):
        spin(self.param("spin", 0.0))
        return [[] for _ in vehicles]
'''

#: When the leaver leaves work in the kernel (at its first bid, or at its plan: after its last call,
#: on its opponent's plan), and whether it plays first.
CASES = {"bid-first": ("bid", True), "bid-second": ("bid", False), "plan-first": ("plan", True)}


@pytest.mark.parametrize("case", list(CASES))
def test_work_left_in_the_kernel_at_a_pause_costs_its_opponent_nothing(tmp_path: Path, case: str) -> None:
    when, first = CASES[case]
    victim = tmp_path / "victim.py"
    victim.write_text(VICTIM)
    agents = [LEAVER, str(victim)] if first else [str(victim), LEAVER]
    leaver = 0 if first else 1
    leaves = {"bids": 1} if when == "bid" else {"bids": 0, "plan": True}
    scenario = fast_scenario(tasks=2, timeouts={"setup": 60.0, "bid": LIMIT, "plan": LIMIT},
                             agents={"victim": {"spin": SPIN}, "kernel_leftover": leaves})
    with core_for_a_match():
        record = play_match(scenario, agents, seed=1).to_json()
    assert f"left 16 walks at {when}" in record["output"][leaver], record["output"][leaver][-500:]
    faults = {f["agent"]: f for f in record["result"]["faults"]}
    assert 1 - leaver not in faults, faults  # its opponent's calls never timed out
    assert leaver in faults, "the leaver was not faulted"
    assert faults[leaver]["kind"] == "timeout" and "ran on after it was paused" in faults[leaver]["message"], faults
    assert record["result"]["winner"] == 1 - leaver
    cpu = record["timing"]["agents"][leaver]["cpu"]  # what it used while paused is in its own figures
    assert (cpu["bid"] + cpu["auction_result"] if when == "bid" else cpu["plan"]) > RAN_ON_LIMIT, cpu
    assert verify_record(record) == []


def test_an_agent_that_leaves_work_running_is_waited_for_before_its_opponents_calls(tmp_path: Path) -> None:
    """It leaves some 0.1 s of walks at each of its first three bids: the first run on its opponent's
    bid (extending it, if it had to), and find it out; the next two are waited for before its
    opponent's bids, on nobody's time. Nobody is faulted, and the record says how long it was waited for."""
    victim = tmp_path / "victim.py"
    victim.write_text(VICTIM)
    scenario = fast_scenario(tasks=4, timeouts={"setup": 60.0, "bid": LIMIT, "plan": LIMIT},
                             agents={"victim": {"spin": 0.05},
                                     "kernel_leftover": {"gib": 3, "threads": 4, "bids": 3}})
    with core_for_a_match():
        record = play_match(scenario, [LEAVER, str(victim)], seed=1).to_json()
    assert "walks at bid 3" in record["output"][0], record["output"][0][-500:]
    assert record["result"]["faults"] == []
    leaver, opponent = record["timing"]["agents"]
    assert leaver.get("settled", 0.0) > 0, leaver
    assert "settled" not in opponent, opponent  # it left nothing running: never waited for
    assert verify_record(record) == []


def test_a_thread_that_waits_in_the_kernel_for_good_does_not_stall_the_match(tmp_path: Path) -> None:
    """The leaver is found out at its first bid, so it is settled before each of its opponent's calls;
    a thread of its waits in the kernel for good (a vfork's parent: its pause does not stop it). It
    uses no CPU, so it is at rest: each settle ends in a moment, not after LONGEST_SETTLE (10 s)."""
    victim = tmp_path / "victim.py"
    victim.write_text(VICTIM)
    scenario = fast_scenario(tasks=4, timeouts={"setup": 60.0, "bid": LIMIT, "plan": LIMIT},
                             agents={"victim": {"spin": 0.05},
                                     "kernel_leftover": {"gib": 3, "threads": 4, "bids": 1, "hold": True}})
    with core_for_a_match():
        record = play_match(scenario, [LEAVER, str(victim)], seed=1).to_json()
    assert "holding" in record["output"][0] and "walks at bid 1" in record["output"][0], record["output"][0][-500:]
    assert record["result"]["faults"] == []
    leaver = record["timing"]["agents"][0]
    assert leaver.get("settled", 0.0) < LONGEST_SETTLE / 2, leaver  # a stall is 10 s a settle, several a match
    assert verify_record(record) == []

"""CPU seconds per agent and phase, read by the referee from /proc (user + system, waited-for
children included). The agents burn CPU time, not wall time (they spin on their own CPU clock), so
the figures do not depend on the machine's load; the calls' time limits are generous so that a busy
machine cannot turn a spin into a timeout. What the cost of a reading is: bench/match_overhead.py."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from apdp.sandbox import cgroup
from apdp.sandbox.cpu import CpuMeter
from tests.matches import fast_scenario

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no /proc")

AGENT = '''
import os
import time

from apdp import Agent


def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


class Cpuhog(Agent):
    def bid(self, task):
        if self.param("mode", "") == "spin_bid" and task.id < 5:
            spin(0.1)  # 0.5 s over the first five bids
        if self.param("mode", "") == "short_bids":
            spin(0.0003)  # well under a millisecond each: the referee does not read these bids one by one
        if self.param("mode", "") == "spin_then_hang":
            spin(0.3)
            time.sleep(60)  # killed at the bid's time limit
        return None

    def plan(self, vehicles, tasks):
        mode = self.param("mode", "")
        if mode == "sleep_plan":
            time.sleep(0.5)
        elif mode == "child_plan":
            pid = os.fork()
            if pid == 0:
                spin(0.5)
                os._exit(0)
            os.waitpid(pid, 0)
        elif mode == "unwaited_child_plan":  # a child that exits before the plan ends, never waited for
            read_end, write_end = os.pipe()
            if os.fork() == 0:
                spin(0.5)
                os.write(write_end, b"x")
                os._exit(0)
            os.close(write_end)
            os.read(read_end, 1)
            time.sleep(0.05)  # its exit
        return [[] for _ in vehicles]
'''


def play(tmp_path: Path, mode: str, tasks: int = 6) -> dict[str, Any]:
    agent = tmp_path / "cpuhog.py"
    agent.write_text(AGENT)
    scenario = fast_scenario(
        tasks=tasks, timeouts={"setup": 10.0, "bid": 10.0, "plan": 10.0}, agents={"cpuhog": {"mode": mode}}
    )
    record = play_match(scenario, [str(agent), "template"], seed=3).to_json()
    assert record["result"]["faults"] == []
    assert verify_record(record) == []
    cpu: dict[str, float] = record["timing"]["agents"][0]["cpu"]
    assert sorted(cpu) == ["auction_result", "bid", "plan", "setup"]
    return cpu


def test_cpu_spent_in_bids_is_counted_in_bid(tmp_path: Path) -> None:
    cpu = play(tmp_path, "spin_bid")
    assert cpu["bid"] >= 0.3
    assert cpu["setup"] < 0.25 and cpu["plan"] < 0.2 and cpu["auction_result"] < 0.2


def test_the_cpu_of_short_bids_is_counted_in_the_auctions_not_in_the_plan(tmp_path: Path) -> None:
    """A request under a millisecond is not read: its CPU counts to the next reading. That is the
    auctions' end (bid) or, when a later request takes longer (as on a busy machine), the reading of
    its first call, the previous auction's result: never the plan."""
    cpu = play(tmp_path, "short_bids", tasks=150)  # 45 ms of CPU in bids of 0.3 ms, 4 or more 10 ms ticks
    assert cpu["bid"] + cpu["auction_result"] >= 0.02
    assert cpu["plan"] < 0.015  # one tick at most: the plan itself does nothing


def test_sleeping_is_not_cpu(tmp_path: Path) -> None:
    cpu = play(tmp_path, "sleep_plan")
    assert cpu["plan"] < 0.2


def test_a_waited_for_child_is_counted(tmp_path: Path) -> None:
    cpu = play(tmp_path, "child_plan")
    assert cpu["plan"] >= 0.3


@pytest.mark.skipif(cgroup.cpu_accounting() is None, reason="no group counts an agent's CPU for this user")
def test_a_group_counts_every_process_an_agent_started(tmp_path: Path) -> None:
    """Its group counts the CPU of a child that is gone, which it never waited for (its process's own
    figures count a child once waited for)."""
    cpu = play(tmp_path, "unwaited_child_plan")
    assert cpu["plan"] >= 0.3


def test_a_killed_agent_keeps_its_cpu(tmp_path: Path) -> None:
    """Its first bid spins 0.3 s of CPU (done within the limit even on a busy machine: 6% of a core
    would do), then hangs until the referee kills it: the CPU was read just before the kill."""
    agent = tmp_path / "spinner.py"
    agent.write_text(AGENT.replace("class Cpuhog", "class Spinner"))
    scenario = fast_scenario(tasks=3, timeouts={"setup": 10.0, "bid": 5.0, "plan": 10.0},
                             agents={"spinner": {"mode": "spin_then_hang"}})
    record = play_match(scenario, [str(agent), "template"], seed=3).to_json()
    assert [(f["kind"], f["phase"]) for f in record["result"]["faults"]] == [("timeout", "bid")]
    assert record["timing"]["agents"][0]["cpu"]["bid"] >= 0.2


def test_verify_accepts_records_without_cpu(tmp_path: Path) -> None:
    record = play_match(fast_scenario(tasks=2), ["template", "template"], seed=1).to_json()
    for agent in record["timing"]["agents"]:
        agent.pop("cpu")
    assert verify_record(record) == []


def test_a_meter_keeps_its_latest_reading_once_the_process_is_gone() -> None:
    go_read, go_write = os.pipe()
    done_read, done_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        os.read(go_read, 1)
        end = time.process_time() + 0.2
        while time.process_time() < end:
            pass
        os.write(done_write, b"x")
        time.sleep(30)
        os._exit(0)
    for fd in (go_read, done_write):
        os.close(fd)
    meter = CpuMeter.open(pid)
    assert meter is not None
    try:
        os.write(go_write, b"x")
        assert os.read(done_read, 1) == b"x"  # the child has spun 0.2 s of CPU since the first reading
        meter.sample()
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(go_write)
        os.close(done_read)
    assert meter.take() >= 0.15  # the process is gone: its latest reading stays
    meter.close()
    assert CpuMeter.open(pid) is None

"""CPU seconds per agent and phase, read by the referee from /proc (user + system, waited-for
children included). Margins are wide: CPU time does not depend on the machine's load, but the
calls' time limits are generous so that a busy machine cannot turn a spin into a timeout."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from apdp.check.verify import verify_record
from apdp.referee.match import play_match
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
        return [[] for _ in vehicles]
'''


def play(tmp_path: Path, mode: str, tasks: int = 6) -> dict[str, Any]:
    agent = tmp_path / "cpuhog.py"
    agent.write_text(AGENT)
    scenario = fast_scenario(
        tasks=tasks, timeouts={"setup": 10.0, "bid": 10.0, "plan": 10.0}, agents={"cpuhog": {"mode": mode}}
    )
    record = play_match(scenario, [str(agent), "template"], seed=3)
    assert record["result"]["faults"] == []
    assert verify_record(record) == []
    cpu: dict[str, float] = record["timing"]["agents"][0]["cpu"]
    assert sorted(cpu) == ["auction_result", "bid", "plan", "setup"]
    return cpu


def test_cpu_spent_in_bids_is_counted_in_bid(tmp_path: Path) -> None:
    cpu = play(tmp_path, "spin_bid")
    assert cpu["bid"] >= 0.3
    assert cpu["setup"] < 0.25 and cpu["plan"] < 0.2 and cpu["auction_result"] < 0.2


def test_the_cpu_of_short_bids_is_counted_in_bid_not_in_the_plan(tmp_path: Path) -> None:
    cpu = play(tmp_path, "short_bids", tasks=150)  # ~50 ms of bids, a few 10 ms ticks
    assert cpu["bid"] >= 0.02
    assert cpu["plan"] < 0.015  # one tick at most: the plan itself does nothing


def test_sleeping_is_not_cpu(tmp_path: Path) -> None:
    cpu = play(tmp_path, "sleep_plan")
    assert cpu["plan"] < 0.2


def test_a_waited_for_child_is_counted(tmp_path: Path) -> None:
    cpu = play(tmp_path, "child_plan")
    assert cpu["plan"] >= 0.3


def test_a_killed_agent_keeps_its_cpu(tmp_path: Path) -> None:
    agent = tmp_path / "spinner.py"
    agent.write_text(AGENT.replace("class Cpuhog", "class Spinner").replace("spin(0.1)", "spin(60)"))
    scenario = fast_scenario(tasks=3, timeouts={"setup": 10.0, "bid": 1.0, "plan": 10.0},
                             agents={"spinner": {"mode": "spin_bid"}})
    record = play_match(scenario, [str(agent), "template"], seed=3)
    assert [(f["kind"], f["phase"]) for f in record["result"]["faults"]] == [("timeout", "bid")]
    assert record["timing"]["agents"][0]["cpu"]["bid"] > 0.2  # read just before the kill


def test_verify_accepts_records_without_cpu(tmp_path: Path) -> None:
    record = play_match(fast_scenario(tasks=2), ["template", "template"], seed=1)
    for agent in record["timing"]["agents"]:
        agent.pop("cpu")
    assert verify_record(record) == []


def test_a_reading_is_cheap_and_ends_with_the_process() -> None:
    pid = os.fork()
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    meter = CpuMeter.open(pid)
    assert meter is not None
    started = time.perf_counter()
    for _ in range(1000):
        meter.sample()
    per_reading = (time.perf_counter() - started) / 1000
    assert per_reading < 1e-3
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    assert meter.take() >= 0.0  # the process is gone: the latest reading stays
    meter.close()
    assert CpuMeter.open(pid) is None

"""How a call's time limit is extended by the CPU its paused opponent used (issue 32, point 11), and
how an agent that left work running while paused is waited for before its opponent's calls, read
on meters the test moves by hand: no timing decides these tests (the match-level test in
``test_paused_cpu`` plays it with wide margins)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from typing import cast

from apdp.sandbox.cpu import CpuMeter
from apdp.sandbox.paused import (
    LONGEST_EXTENSION,
    LONGEST_SETTLE,
    RAN_ON_LIMIT,
    REST_SPAN,
    SUSPECT_CPU,
    PausedCpu,
    ThreadsAtRest,
)
from apdp.sandbox.process import AgentProcess
from apdp.scenario import Limits


class HandMeter:
    """A CPU meter that reads what the test set."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.latest = 0.0

    def sample(self) -> float:
        self.latest = self.seconds
        return self.latest


def playing_and_paused() -> tuple[AgentProcess, AgentProcess, HandMeter]:
    """An agent in a call and its opponent, paused, on a meter the test moves."""
    playing, paused = AgentProcess(Limits()), AgentProcess(Limits())
    meter = HandMeter()
    paused._paused_cpu = PausedCpu(cast(CpuMeter, meter))
    paused._paused_cpu.paused()
    paused._paused = True
    playing.bystanders = [paused]
    return playing, paused, meter


def test_a_call_is_extended_by_what_its_paused_opponent_used_and_only_by_that() -> None:
    playing, _, meter = playing_and_paused()
    assert not playing._extend()  # it used nothing: the limit stands
    meter.seconds = 0.8
    assert playing._extend()
    assert abs(playing._extension - 0.8) < 1e-9
    assert not playing._extend()  # the same 0.8 s is given once
    meter.seconds = 1.1
    assert playing._extend()
    assert abs(playing._extension - 1.1) < 1e-9


def test_an_opponent_that_runs_is_no_reason_to_extend() -> None:
    playing, paused, meter = playing_and_paused()
    assert paused._paused_cpu is not None
    meter.seconds = 0.3
    assert paused._paused_cpu.resumed() == 0.3  # resumed: what it uses now is its own call's
    paused._paused = False
    meter.seconds = 5.0
    assert not playing._extend()
    assert playing._extension == 0.0


def test_the_extension_has_a_ceiling() -> None:
    playing, _, meter = playing_and_paused()
    meter.seconds = 10 * LONGEST_EXTENSION
    assert playing._extend()
    assert playing._extension == LONGEST_EXTENSION
    meter.seconds += 1.0
    assert not playing._extend()


def test_what_it_used_while_paused_is_told_when_it_resumes() -> None:
    _, paused, meter = playing_and_paused()
    assert paused._paused_cpu is not None
    meter.seconds = RAN_ON_LIMIT + 0.25
    assert paused._paused_cpu.taken() == RAN_ON_LIMIT + 0.25  # given to a call: still its own use
    assert paused._paused_cpu.resumed() == RAN_ON_LIMIT + 0.25
    assert paused._paused_cpu.resumed() is None  # not paused any more


class ScriptedMeter(HandMeter):
    """A meter whose readings go up by the given steps, one step a reading, then stay."""

    def __init__(self, steps: list[float]) -> None:
        super().__init__()
        self.steps = list(steps)
        self.readings = 0

    def sample(self) -> float:
        self.readings += 1
        if self.steps:
            self.seconds += self.steps.pop(0)
        return super().sample()


def paused_on(meter: HandMeter, used: float) -> AgentProcess:
    """An agent that used ``used`` CPU seconds in a pause, told at its resume, now paused again."""
    agent = AgentProcess(Limits())
    agent._cpu = cast(CpuMeter, type("Exact", (), {"resolution": 0.0})())
    agent._paused_cpu = PausedCpu(cast(CpuMeter, meter))
    agent._paused_cpu.paused()
    agent._paused = True
    meter.seconds += used
    assert agent.ran_on() is None  # under the fault's limit
    agent._paused_cpu.paused()
    agent._settled = False
    return agent


def test_an_agent_that_left_nothing_running_is_never_waited_for() -> None:
    meter = ScriptedMeter([])
    agent = paused_on(meter, SUSPECT_CPU / 2)
    before = meter.readings
    agent.settle()
    assert meter.readings == before  # not even read: a clean agent costs a call nothing
    assert agent.settled == 0.0


def scripted(answers: list[bool]) -> Callable[[], bool]:
    """A ``stopped()`` that answers as given, then True."""
    return lambda: answers.pop(0) if answers else True


def test_an_agent_that_left_work_running_is_waited_for_until_its_threads_stop() -> None:
    meter = ScriptedMeter([])
    agent = paused_on(meter, 2 * SUSPECT_CPU)
    assert agent._paused_cpu is not None
    meter.steps = [0.0, 0.004, 0.003, 0.002, 0.0]  # the pause's reading, then work while waited for
    answers = [False, False, False]
    agent._paused_cpu.settle(scripted(answers))
    assert answers == [] and agent.settled > 0  # waited until its threads stopped
    playing = AgentProcess(Limits())
    playing.bystanders = [agent]
    assert not playing._extend()  # what it used while it was waited for was no call's time


def test_before_a_plan_every_paused_agent_is_given_the_core_once() -> None:
    meter = ScriptedMeter([])
    agent = paused_on(meter, 0.0)  # never found out
    agent._pid = 1 << 30  # no such process: its threads are gone
    before = meter.readings
    agent.settle(always=True)  # one short wait, and it counts as no wait for it
    assert meter.readings == before + 2
    assert agent.settled == 0.0
    agent.settle(always=True)
    assert meter.readings == before + 2  # once a pause


def test_an_agent_that_runs_on_is_waited_for_past_its_fault_but_not_for_ever() -> None:
    meter = ScriptedMeter([])
    agent = paused_on(meter, 2 * SUSPECT_CPU)
    assert agent._paused_cpu is not None
    meter.steps = [0.0] + [RAN_ON_LIMIT / 2] * 4
    agent._paused_cpu.settle(scripted([False] * 4))  # past its limit, then its threads stop
    assert meter.steps == []  # waited for to the end: the next call starts on a quiet core
    fault = agent.ran_on()
    assert fault is not None and fault.ran_on  # and it ran on: its fault, told at its resume
    agent._paused_cpu.paused()
    meter.steps = [0.0] + [LONGEST_SETTLE / 4] * 8  # it would run on and on
    agent._paused_cpu.settle(lambda: False)
    assert len(meter.steps) == 3  # no longer than LONGEST_SETTLE of its CPU


def test_a_process_is_at_rest_once_stopped_or_asleep_without_using_the_core() -> None:
    """Stopped: at rest at once. Asleep in the kernel (a vfork's parent whose child its pause stopped,
    say): at rest once it is seen to have used no CPU for REST_SPAN. Running: never."""
    sleeper = subprocess.Popen(["sleep", "30"])
    spinner = subprocess.Popen(["python3", "-c", "while True: pass"])
    try:
        deadline = time.monotonic() + 10
        while "S" not in _state(sleeper.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        asleep = ThreadsAtRest(None, sleeper.pid)
        assert not asleep()  # first seen asleep: it may be between the steps of a call (a read from disk)
        time.sleep(REST_SPAN)
        assert asleep()  # and used nothing for a while since
        while _cpu_ticks(spinner.pid) < 5 and time.monotonic() < deadline:  # spinning, past its start
            time.sleep(0.01)
        running = ThreadsAtRest(None, spinner.pid)
        looks = []
        for _ in range(5):
            looks.append(running())
            time.sleep(0.001)
        assert looks == [False] * 5
        os.kill(spinner.pid, signal.SIGSTOP)
        while "T" not in _state(spinner.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ThreadsAtRest(None, spinner.pid)()  # stopped: at once
    finally:
        for child in (sleeper, spinner):
            child.kill()
            child.wait()
    assert ThreadsAtRest(None, sleeper.pid)()  # gone


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def _cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_a_meter_in_clock_ticks_needs_more_than_a_tick_to_suspect() -> None:
    meter = ScriptedMeter([])
    agent = AgentProcess(Limits())
    agent._cpu = cast(CpuMeter, type("Ticks", (), {"resolution": 0.01})())
    agent._paused_cpu = PausedCpu(cast(CpuMeter, meter))
    agent._paused_cpu.paused()
    agent._paused = True
    meter.seconds = 0.01  # a tick of its own last call, read late
    assert agent.ran_on() is None
    assert not agent._suspect

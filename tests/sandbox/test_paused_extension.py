"""How a call's time limit is extended by the CPU its paused opponent used (issue 32, point 11),
read on meters the test moves by hand: no timing decides these tests (the match-level test in
``test_paused_cpu`` plays it with wide margins)."""

from __future__ import annotations

from typing import cast

from apdp.sandbox.cpu import CpuMeter
from apdp.sandbox.paused import LONGEST_EXTENSION, RAN_ON_LIMIT, PausedCpu
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

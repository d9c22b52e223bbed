"""The traceback a fault keeps starts at the agent's own code (issue 34): the worker's frames that call
into the agent (``apdp/sandbox/worker.py``) are left out, the agent's frames, the frames of apdp's
code it called and the exception's line are kept. The worker answers here in this process, as it does
in an agent's process."""

from __future__ import annotations

import os

from apdp import Agent
from apdp.game.task import Task
from apdp.messages.calls import BidCall
from apdp.messages.replies import AgentFailed
from apdp.sandbox import worker
from apdp.sandbox.worker import ProcessLimits, Session, agent_traceback

TASK = Task(0, "Lyon", "Marseille", 5.0)


class Raiser(Agent):
    def bid(self, task: Task) -> float | None:
        return self.helper()

    def helper(self) -> float:
        raise RuntimeError("the agent's own error")


class BadParameter(Agent):
    def bid(self, task: Task) -> float | None:
        return self.param("spin", 0.0)  # apdp's code raises: "spin" is no float


def failure(agent: Agent) -> AgentFailed:
    session = Session(ProcessLimits(2**30, 2**20, os.devnull), [], "")
    session.agent = agent
    session.agent_file = __file__
    reply = session.answer(BidCall(TASK, 1.0))
    assert isinstance(reply, AgentFailed) and reply.traceback is not None, reply
    return reply


def frames(traceback: str) -> list[str]:
    """Each frame's 'File ..., in name' line."""
    return [line.strip() for line in traceback.splitlines() if line.startswith('  File "')]


def test_a_traceback_starts_at_the_agents_frame_and_ends_with_its_exception() -> None:
    traceback = failure(Raiser()).traceback
    assert traceback is not None
    assert traceback.startswith("Traceback (most recent call last):\n"), traceback
    lines = frames(traceback)
    assert [line.split(", in ")[-1] for line in lines] == ["bid", "helper"], traceback
    assert all(f'"{__file__}"' in line for line in lines), traceback
    assert worker.__file__ not in traceback and "worker.py" not in traceback
    assert traceback.rstrip().endswith("RuntimeError: the agent's own error"), traceback


def test_apdps_code_the_agent_called_stays_after_the_agents_frame() -> None:
    agent = BadParameter()
    agent.params = {"spin": "fast"}
    traceback = failure(agent).traceback
    assert traceback is not None
    lines = frames(traceback)
    assert __file__ in lines[0] and lines[0].endswith(", in bid"), traceback
    assert "apdp/game/agent.py" in lines[1] and lines[1].endswith(", in param"), traceback
    assert "apdp/game/params.py" in lines[-1] and lines[-1].endswith(", in read_param"), traceback
    assert "worker.py" not in traceback
    assert traceback.rstrip().endswith("ValueError: parameter 'spin' must be a float, got 'fast'"), traceback


def test_an_exception_with_no_frame_outside_the_worker_keeps_them_all() -> None:
    namespace = {"__name__": worker.__name__, "agent_traceback": agent_traceback}
    exec(
        "def fail():\n"
        "    try:\n"
        "        raise ValueError('the worker itself')\n"
        "    except ValueError as exc:\n"
        "        return agent_traceback(exc)\n",
        namespace,
    )
    traceback = namespace["fail"]()
    assert frames(traceback)[-1].endswith(", in fail") and "ValueError: the worker itself" in traceback

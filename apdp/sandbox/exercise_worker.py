"""The worker's side of an exercise agent (reactive, deliberative, centralized), in the agent's own
process: sets the agent up from :class:`~apdp.messages.exercise_calls.ExerciseSetupCall` and answers
its calls, as :mod:`apdp.sandbox.worker` does for an auction agent (which calls in here).

A Python agent's class is the file's subclass of the exercise's agent class; an agent program (a
Logist agent through the Java host, say) is sent each call as ``apdp-agent/1`` JSON and its reply
comes back as it is. What an agent returns becomes a reply here, or ``{"bad": ...}`` saying what is
wrong with it; its exception is raised to the worker, which reports it as the agent's fault.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from apdp.agents.discovery import AgentLoadError, load_exercise_agent_class
from apdp.agents.program import ProgramError, is_program, read_program
from apdp.game.deadline import Deadline
from apdp.game.exercise_agent import CentralizedAgent, DeliberativeAgent, ExerciseAgent, ReactiveAgent
from apdp.messages.exercise_calls import (
    ActionCall,
    ExerciseCall,
    ExerciseSetupCall,
    FleetPlanCall,
    PlanCancelledCall,
    VehiclePlanCall,
)
from apdp.messages.exercise_replies import action_reply, route_reply
from apdp.messages.replies import Ack, AgentFailed, NotAValue, Reply, plans_reply
from apdp.messages.setup import set_up
from apdp.sandbox.program_agent import ProgramAgent

#: An exercise agent as the worker holds it: a Python agent, or an agent program.
ExerciseHeld = ExerciseAgent | ProgramAgent


def setup_exercise(call: ExerciseSetupCall, started: ProgramAgent | None,
                   deadline_for: Callable[[float], Deadline]) -> ExerciseHeld:
    """The agent of ``call.path``, set up (its ``setup`` called, or the call relayed to its program);
    AgentLoadError when its file cannot be loaded or defines no agent of the exercise."""
    path = Path(call.path)
    if is_program(path):
        program = started
        if program is None:
            try:
                program = ProgramAgent(read_program(path), call.seed)
            except ProgramError as exc:
                raise AgentLoadError(str(exc)) from None
            program.start()
        program.relay(call)
        return program
    agent = load_exercise_agent_class(path, call.exercise)()
    set_up(agent, call, deadline_for(call.timeouts["setup"]))
    return agent


def _not_a_value(reply: object) -> Reply:
    return NotAValue(reply) if isinstance(reply, str) else reply  # type: ignore[return-value]


def answer_exercise(agent: ExerciseHeld, call: ExerciseCall, deadline_for: Callable[[float], Deadline]) -> Reply:
    """The reply of ``agent`` to one of its exercise's calls (not its setup)."""
    if isinstance(call, ExerciseSetupCall):
        return AgentFailed("exception", "setup twice")
    if isinstance(agent, ProgramAgent):
        return agent.relay(call)
    agent.deadline = deadline_for(call.timeout)
    if isinstance(call, ActionCall) and isinstance(agent, ReactiveAgent):
        return _not_a_value(action_reply(agent.act(call.vehicle, call.task)))
    if isinstance(call, VehiclePlanCall) and isinstance(agent, DeliberativeAgent):
        return _not_a_value(route_reply(agent.plan(call.vehicle, list(call.tasks))))
    if isinstance(call, PlanCancelledCall) and isinstance(agent, DeliberativeAgent):
        agent.plan_cancelled(call.vehicle, list(call.vehicle.carried))
        return Ack()
    if isinstance(call, FleetPlanCall) and isinstance(agent, CentralizedAgent):
        return plans_reply(agent.plan(list(call.vehicles), list(call.tasks)))
    return AgentFailed("exception", f"a {agent.exercise} agent was sent {call.name!r}")

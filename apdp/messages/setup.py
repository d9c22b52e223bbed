"""What a setup call hands an agent before its ``setup``: the same for the auction's agents and the
exercises', whether apdp's worker or the reference host of agent programs sets them up."""

from __future__ import annotations

from typing import overload

import numpy as np

from apdp.game.agent import Agent
from apdp.game.deadline import Deadline
from apdp.game.exercise_agent import ExerciseAgent
from apdp.messages.calls import SetupCall
from apdp.messages.exercise_calls import ExerciseSetupCall


@overload
def set_up(agent: Agent, call: SetupCall, deadline: Deadline) -> None: ...
@overload
def set_up(agent: ExerciseAgent, call: ExerciseSetupCall, deadline: Deadline) -> None: ...
def set_up(agent: Agent | ExerciseAgent, call: SetupCall | ExerciseSetupCall, deadline: Deadline) -> None:
    """Give ``agent`` what ``call`` tells it (its world, company, index, parameters, limits and a random
    generator seeded by the referee) and the deadline of its setup, then call its ``setup``."""
    agent.topology, agent.company = call.topology, call.company
    agent.distribution = call.distribution  # type: ignore[assignment]  # the overloads pair them
    agent.agent_id, agent.agents = call.agent_id, call.agents
    agent.params, agent.timeouts = dict(call.params), dict(call.timeouts)
    agent.rng = np.random.default_rng(call.seed)
    agent.deadline = deadline
    agent.setup(call.topology, call.distribution, call.company)  # type: ignore[arg-type]

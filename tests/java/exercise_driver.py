"""A Java exercise agent driven by apdp's exercise round (:class:`apdp.exercises.round.Round`) through
the Java host, outside the sandbox: the seats' calls become the host's JSON lines, its replies the
seats' actions. For the tests of the host's exercise calls (what the agent is handed at each call,
its plans, its faults), apart from the referee's sandboxed round.

Each call sends the vehicle as the round has it now (``id``, ``city``, ``carried``, ``delivered``:
the tasks it delivered since its task set was last set, ``reward``, ``distance_units``) and, to a
deliberative or centralized agent, the task set it may pick up from.
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from apdp.agents.program import read_program
from apdp.exercises.centralized import CentralizedPlanCall, CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration
from apdp.exercises.deliberative import CancelCall, DeliberativeSeat, PlanCall
from apdp.exercises.distribution import TaskStream
from apdp.exercises.reactive import ActCall, ReactiveSeat
from apdp.exercises.round import ReactiveEnd, Round, Seat
from apdp.exercises.vehicle import VehicleState
from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task


class HostFault(Exception):
    """The host answered a call with an error (the agent's fault)."""


def task_json(task: Task) -> dict[str, Any]:
    """A task as the protocol's JSON."""
    return {"id": task.id, "pickup": task.pickup, "delivery": task.delivery, "weight": task.weight,
            "reward": task.reward}


def setup_json(configuration: ExerciseConfiguration, agent: int, params: dict[str, str]) -> dict[str, Any]:
    """The setup call of agent ``agent`` of ``configuration`` (its company's vehicles, the distribution
    as the platform hands it: each pair's raw probability, reward and weight, each city's no-task
    probability)."""
    stream = TaskStream(configuration)
    cities = stream.cities
    pairs = []
    for i, a in enumerate(cities):
        for j, b in enumerate(cities):
            if i != j:
                pairs.append({"pickup": a, "delivery": b, "probability": stream.probabilities[i][j],
                              "platform_probability": stream.matrices.probability[i][j],
                              "weight": stream.matrices.weight[i][j], "reward": stream.matrices.reward[i][j]})
    company = configuration.companies[agent]
    vehicles = [{"name": v.name, "home": v.home, "capacity": v.capacity, "cost_per_km": v.cost_per_km,
                 "speed": v.speed / 1000} for v in company.vehicles]
    timeouts = {k: ms / 1000 for k, ms in configuration.timeouts_ms.items()}
    return {"type": "setup", "protocol": "apdp-agent/1", "agent_id": agent, "agents": 1, "seed": 0,
            "params": params, "timeouts": timeouts, "rules": "logist",
            "topology": configuration.network.to_json(),
            "distribution": {"pairs": pairs, "no_task": list(stream.no_task)},
            "company": {"name": company.name, "vehicles": vehicles}}


def installed_params(agents: Path, name: str) -> dict[str, str]:
    """The parameters ``apdp logist import`` recorded for agent ``name``."""
    path = agents / "params.toml"
    table = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return {k: str(v) for k, v in table.get(name, {}).items()}


class JavaExerciseAgent:
    """An installed Java agent's program, answering one round's calls (the seats' controller)."""

    def __init__(self, folder: Path, workdir: Path) -> None:
        program = read_program(folder)
        workdir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "APDP_READY_LINE": "1", "APDP_AGENT_DIR": str(folder)}
        self.process = subprocess.Popen(list(program.command), cwd=workdir, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.round: Round | None = None
        self.index = 0
        ready = self._line()
        assert json.loads(ready) == {"ready": "apdp-agent/1"}, ready

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise HostFault(f"the host ended: {self.output()[-2000:]}")
        return line

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request; its reply (HostFault for an error reply)."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self._line())
        if "error" in reply:
            raise HostFault(reply["error"])
        return dict(reply)

    def output(self) -> str:
        """What the agent printed (the host's standard error), once it has ended."""
        self.close()
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=30)

    # ---- the seats' calls ----

    def _vehicle(self, agent: int, vehicle: int) -> dict[str, Any]:
        assert self.round is not None
        state: VehicleState = self.round.agents[agent].vehicles[vehicle]
        return {"id": state.id, "city": state.city, "carried": [task_json(t) for t in sorted(
            state.carried.values(), key=lambda t: t.id)], "delivered": len(state.delivered),
            "reward": state.reward, "distance_units": state.units}

    def _tasks(self, agent: int) -> list[dict[str, Any]]:
        assert self.round is not None
        return [task_json(t) for t in sorted(self.round.agents[agent].tasks.values(), key=lambda t: t.id)]

    def act(self, call: ActCall) -> Action:
        reply = self.request({"type": "act", "vehicle": self._vehicle(call.agent, call.vehicle.id),
                              "task": None if call.task is None else task_json(call.task)})
        return action(reply["action"])

    def plan(self, call: PlanCall | CentralizedPlanCall) -> Any:
        if isinstance(call, CentralizedPlanCall):
            reply = self.request({"type": "plan", "vehicles": [self._vehicle(call.agent, v.id) for v in call.vehicles],
                                  "tasks": self._tasks(call.agent)})
            return [[action(a) for a in plan] for plan in reply["plans"]]
        reply = self.request({"type": "plan", "vehicle": self._vehicle(call.agent, call.vehicle.id),
                              "tasks": self._tasks(call.agent)})
        return [action(a) for a in reply["plan"]]

    def plan_cancelled(self, call: CancelCall) -> None:
        self.request({"type": "plan_cancelled", "vehicle": self._vehicle(call.agent, call.vehicle.id),
                      "tasks": self._tasks(call.agent)})


def action(value: Sequence[Any]) -> Action:
    """An action of the protocol's JSON."""
    kind, what = value
    if kind == "move":
        return Move(what)
    return Pickup(int(what)) if kind == "pickup" else Deliver(int(what))


def play_round(configuration: ExerciseConfiguration, folders: Sequence[Path], kinds: Sequence[str],
               workdir: Path, params: Sequence[dict[str, str]], *, end: ReactiveEnd | None = None,
               ) -> tuple[Round, list[str]]:
    """Play one round of ``configuration`` with the Java agents of ``folders`` (agent i of kind
    ``kinds[i]`` runs company i): the round and what each agent printed."""
    agents = [JavaExerciseAgent(folder, workdir / f"agent{i}") for i, folder in enumerate(folders)]
    try:
        for i, agent in enumerate(agents):
            agent.request(setup_json(configuration, i, params[i]))
        seats: list[Seat] = []
        for agent, kind in zip(agents, kinds, strict=True):
            seats.append(ReactiveSeat(agent) if kind == "reactive" else DeliberativeSeat(agent)
                         if kind == "deliberative" else CentralizedSeat(agent))
        round_ = Round(configuration, seats, [f.name for f in folders], end=end)
        for agent in agents:
            agent.round = round_
        round_.run()
    finally:
        outputs = [agent.output() for agent in agents]
    return round_, outputs

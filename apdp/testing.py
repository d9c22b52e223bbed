"""The check an agent must pass before it enters a tournament, for students and for the LLM harness.

``check_agent`` imports the agent in its sandbox, plays it against itself, then against two baseline
agents on two networks (on one of them as the second company), and returns a :class:`CheckReport`
of every problem by class: import errors, timeouts with their phase, exceptions with their
traceback, bad bids, undelivered tasks, capacity exceeded, other invalid plans, memory and crashes.
``report.text()`` is written to be read by a person or pasted back to a model.

From pytest::

    from apdp.testing import assert_agent_ok

    def test_my_agent() -> None:
        assert_agent_ok("agents/me.py")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apdp.company import Vehicle
from apdp.discovery import AgentNotFound, AgentSource, find_agent
from apdp.errors import UserError
from apdp.plan import check_plans, plans_from_json
from apdp.scenario import Scenario, load_scenario
from apdp.task import Task
from apdp.topology import load_topology

#: Problem classes in the order the report lists them, with their titles and a hint on the fix.
CATEGORIES: dict[str, tuple[str, str]] = {
    "import": (
        "Import errors",
        "the file must import cleanly and define exactly one subclass of apdp.Agent",
    ),
    "timeout": (
        "Timeouts",
        "every call must return before its time limit: watch self.deadline.remaining() in every "
        "loop and keep a safety margin",
    ),
    "exception": ("Exceptions", "the agent raised; a method must never raise"),
    "bad_bid": ("Bad bids", "a bid must be a finite number >= 0, or None to abstain"),
    "undelivered": (
        "Undelivered tasks",
        "every task passed to plan() must be picked up and delivered exactly once, by one vehicle",
    ),
    "capacity": (
        "Capacity exceeded",
        "the load of a vehicle (sum of the weights on board) must never exceed its capacity",
    ),
    "invalid_plan": (
        "Other invalid plans",
        "plans must follow roads, pick up before delivering, in the right cities, only won tasks, one plan per vehicle",
    ),
    "memory": ("Out of memory", "the agent used more memory than its limit"),
    "process_died": ("Crashes", "the agent's process died (it must not exit or kill itself)"),
}

DEFAULT_OPPONENTS = ("naive", "honest")
DEFAULT_TOPOLOGIES = ("france", "switzerland")
#: Played instead of a missing baseline.
FALLBACK_OPPONENT = "template"


@dataclass(frozen=True, slots=True)
class CheckConfig:
    """What the check plays: opponents, networks, tasks per match, seed and time limits.

    ``timeouts`` overrides the scenario's (keys ``setup``, ``bid``, ``plan``, in seconds);
    ``scenario`` is a base scenario file (None: the defaults).
    """

    opponents: tuple[str, ...] = DEFAULT_OPPONENTS
    topologies: tuple[str, ...] = DEFAULT_TOPOLOGIES
    tasks: int = 20
    seed: int = 1
    timeouts: Mapping[str, float] = field(default_factory=dict)
    scenario: str | Path | None = None

    def scenario_for(self, topology: str) -> Scenario:
        """The scenario of the check's matches on ``topology``."""
        overrides: dict[str, Any] = {"topology": topology, "tasks": self.tasks, "seed": self.seed}
        for key, value in self.timeouts.items():
            if key not in ("setup", "bid", "plan"):
                raise UserError(f"unknown time limit {key!r}; use setup, bid or plan")
            overrides[f"timeouts.{key}"] = value
        return load_scenario(self.scenario, overrides)


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One match of the check, seen from the checked agent (its seats are ``seats``)."""

    label: str
    topology: str
    opponent: str | None
    seats: tuple[int, ...]
    profit: tuple[float, ...]
    won_tasks: tuple[int, ...]
    winner: int | None
    faults: tuple[Mapping[str, Any], ...]
    record: Mapping[str, Any] = field(repr=False)

    @property
    def own_faults(self) -> list[Mapping[str, Any]]:
        """Faults of the checked agent."""
        return [f for f in self.faults if f["agent"] in self.seats]

    @property
    def result(self) -> str:
        """``fault``, ``won``, ``lost`` or ``draw`` for the checked agent (self-play: ``played``)."""
        if self.own_faults:
            return "fault"
        if self.opponent is None:
            return "played"
        if self.winner is None:
            return "draw"
        return "won" if self.winner in self.seats else "lost"

    def summary(self) -> str:
        """One line: the result, profits and tasks won."""
        if self.result == "fault":
            kinds = sorted({str(f["kind"]) for f in self.own_faults})
            return f"{self.label}: FAULT ({', '.join(kinds)})"
        parts = []
        for i, (p, n) in enumerate(zip(self.profit, self.won_tasks, strict=True)):
            who = "checked agent" if i in self.seats else (self.opponent or "?")
            if self.opponent is None:
                who = f"company {i}"
            parts.append(f"{who} profit {p:.0f} with {n} tasks")
        return f"{self.label}: {self.result}, " + "; ".join(parts)


@dataclass(slots=True)
class Problem:
    """One distinct problem: its class, phase, task, message, traceback and where it happened."""

    category: str
    phase: str | None
    task: int | None
    message: str
    traceback: str | None = None
    matches: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The problem as a JSON object."""
        return {
            "category": self.category,
            "phase": self.phase,
            "task": self.task,
            "message": self.message,
            "traceback": self.traceback,
            "matches": list(self.matches),
        }


@dataclass(slots=True)
class CheckReport:
    """The outcome of ``check_agent``: ``ok`` when every match ran without a fault of the agent."""

    agent: str
    path: Path
    config: CheckConfig
    matches: list[MatchOutcome] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the agent loaded and no match saw a fault of it."""
        return not self.problems and bool(self.matches)

    def by_category(self) -> dict[str, list[Problem]]:
        """Problems grouped by class, in report order (classes without problems left out)."""
        out: dict[str, list[Problem]] = {}
        for category in CATEGORIES:
            found = [p for p in self.problems if p.category == category]
            if found:
                out[category] = found
        return out

    def scores_text(self) -> str:
        """One line per match with results and profits."""
        return "\n".join(f"- {m.summary()}" for m in self.matches)

    def text(self, max_per_category: int = 6, traceback_lines: int = 25) -> str:
        """The report as plain text, to read or to paste back to a model."""
        c = self.config
        match_faults = sum(1 for m in self.matches if m.own_faults)
        if self.ok:
            head = f"PASSED: no faults in {len(self.matches)} matches"
        elif not self.matches:
            head = "FAILED: no match could be played"
        else:
            head = (
                f"FAILED: {len(self.problems)} distinct problem(s), faults in {match_faults} of "
                f"{len(self.matches)} matches"
            )
        scenario = c.scenario_for(c.topologies[0]) if c.topologies else None
        limits = ""
        if scenario is not None:
            t = scenario.timeouts
            limits = f"; time limits: setup {t.setup:g} s, bid {t.bid:g} s, plan {t.plan:g} s"
        lines = [
            f"Check of agent {self.agent!r} ({self.path}): {head}.",
            f"Matches ({c.tasks} tasks each, seed {c.seed}{limits}):",
        ]
        lines += [f"- {m.summary()}" for m in self.matches] or ["- none"]
        for note in self.notes:
            lines.append(f"Note: {note}")
        for category, problems in self.by_category().items():
            title, hint = CATEGORIES[category]
            lines += ["", f"{title} ({len(problems)}): {hint}."]
            for n, p in enumerate(problems[:max_per_category], start=1):
                where = []
                if p.phase:
                    where.append(f"in {p.phase}")
                if p.task is not None:
                    where.append(f"on task {p.task}")
                prefix = " ".join(where)
                seen = ", ".join(p.matches[:4]) + (" ..." if len(p.matches) > 4 else "")
                seen = f" [{seen}]" if seen else ""
                lines.append(f"{n}. {prefix + ': ' if prefix else ''}{p.message}{seen}")
                if p.traceback:
                    tb = p.traceback.rstrip("\n").splitlines()
                    if len(tb) > traceback_lines:
                        tb = ["...", *tb[-traceback_lines:]]
                    lines += [f"   {line}" for line in tb]
            if len(problems) > max_per_category:
                lines.append(f"... and {len(problems) - max_per_category} more like these")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (matches summarised, problems in full)."""
        return {
            "agent": self.agent,
            "path": str(self.path),
            "ok": self.ok,
            "matches": [
                {
                    "label": m.label,
                    "topology": m.topology,
                    "opponent": m.opponent,
                    "seats": list(m.seats),
                    "profit": list(m.profit),
                    "won_tasks": list(m.won_tasks),
                    "winner": m.winner,
                    "result": m.result,
                }
                for m in self.matches
            ],
            "problems": [p.to_json() for p in self.problems],
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        return self.text()


class AgentCheckFailed(AssertionError):
    """Raised by ``assert_agent_ok``; its message is the report's text."""


MatchCallback = Callable[[MatchOutcome], None]


def check_agent(
    agent: str | Path,
    config: CheckConfig | None = None,
    *,
    on_match: MatchCallback | None = None,
) -> CheckReport:
    """Check an agent (a name or a path to a ``.py`` file) and report every problem found.

    Plays self-play on the first network, then each opponent on each network (the agent is the
    first company on the first network and the second company on the others). A missing baseline
    is replaced by the template agent, with a note. Stops after the first match when the agent
    cannot even be imported. ``on_match`` is called as each match ends.
    """
    config = config or CheckConfig()
    if not config.topologies:
        raise UserError("the check needs at least one network")
    source = find_agent(str(agent))
    report = CheckReport(source.name, source.path, config)
    if not _compiles(source.path, report):
        return report
    opponents = _resolve_opponents(config.opponents, report.notes)
    games: list[tuple[str, str, AgentSource | None, int]] = [
        (f"self-play on {config.topologies[0]}", config.topologies[0], None, 0)
    ]
    for opponent in opponents:
        for k, topology in enumerate(config.topologies):
            seat = 0 if k == 0 else 1
            label = f"vs {opponent.name} on {topology} as company {seat}"
            games.append((label, topology, opponent, seat))
    from apdp.match import play_match  # the referee; imported late to keep this module light

    for label, topology, other, seat in games:
        scenario = config.scenario_for(topology)
        agents: list[str | AgentSource]
        seats: tuple[int, ...]
        if other is None:
            agents, seats = [source, source], (0, 1)
        else:
            agents = [source, other] if seat == 0 else [other, source]
            seats = (seat,)
        record = play_match(scenario, agents)
        outcome = _outcome(label, topology, other.name if other else None, seats, record)
        report.matches.append(outcome)
        _collect(report, outcome)
        if on_match is not None:
            on_match(outcome)
        if any(p.category == "import" for p in report.problems):
            report.notes.append("the agent could not be imported, so the other matches were skipped")
            break
    return report


def assert_agent_ok(agent: str | Path, config: CheckConfig | None = None) -> CheckReport:
    """Check an agent and raise AgentCheckFailed (an AssertionError) with the report when it fails."""
    report = check_agent(agent, config)
    if not report.ok:
        raise AgentCheckFailed(report.text())
    return report


def _compiles(path: Path, report: CheckReport) -> bool:
    """A syntax check without running the agent's code (the import itself runs in the sandbox)."""
    try:
        source = path.read_text(encoding="utf-8")
        compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        report.problems.append(
            Problem("import", "setup", None, f"{path.name}: syntax error at line {exc.lineno}: {exc.msg}")
        )
        return False
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        report.problems.append(Problem("import", "setup", None, f"{path}: cannot read: {exc}"))
        return False
    return True


def _resolve_opponents(names: Sequence[str], notes: list[str]) -> list[AgentSource]:
    found: list[AgentSource] = []
    missing: list[str] = []
    for name in names:
        try:
            found.append(find_agent(name))
        except AgentNotFound:
            missing.append(name)
    for name in missing:
        try:
            fallback = find_agent(FALLBACK_OPPONENT)
        except AgentNotFound:
            notes.append(f"opponent {name!r} is not available; its matches were skipped")
            continue
        if any(f.path == fallback.path for f in found):
            notes.append(f"opponent {name!r} is not available; its matches were skipped")
            continue
        notes.append(f"opponent {name!r} is not available; played {fallback.name!r} instead")
        found.append(fallback)
    return found


def _outcome(
    label: str, topology: str, opponent: str | None, seats: tuple[int, ...], record: Mapping[str, Any]
) -> MatchOutcome:
    result = record["result"]
    agents = len(record["agents"])
    won = [0] * agents
    for auction in record["auctions"]:
        if auction["winner"] is not None:
            won[auction["winner"]] += 1
    return MatchOutcome(
        label=label,
        topology=topology,
        opponent=opponent,
        seats=seats,
        profit=tuple(float(p) for p in result["profit"]),
        won_tasks=tuple(won),
        winner=result["winner"],
        faults=tuple(result["faults"]),
        record=record,
    )


def _collect(report: CheckReport, outcome: MatchOutcome) -> None:
    """Add the checked agent's faults in ``outcome`` to the report, merging repeats."""
    for fault in outcome.own_faults:
        for problem in _problems_of(fault, outcome.record):
            same = next(
                (
                    p
                    for p in report.problems
                    if (p.category, p.phase, p.message) == (problem.category, problem.phase, problem.message)
                ),
                None,
            )
            if same is None:
                report.problems.append(problem)
                same = problem
            if outcome.label not in same.matches:
                same.matches.append(outcome.label)


def _problems_of(fault: Mapping[str, Any], record: Mapping[str, Any]) -> list[Problem]:
    """The problems one fault stands for (an invalid plan splits into its violations)."""
    kind = str(fault["kind"])
    phase = fault.get("phase")
    task = fault.get("task")
    message = str(fault.get("message", ""))
    tb = fault.get("traceback")
    if kind == "exception" and phase == "setup" and not tb:
        return [Problem("import", phase, task, message)]
    if kind == "invalid_plan":
        violations = _violations(int(fault["agent"]), record)
        if violations:
            return [Problem(_violation_category(v), "plan", None, v) for v in violations]
        return [Problem("invalid_plan", "plan", None, message)]
    category = kind if kind in CATEGORIES else "exception"
    return [Problem(category, phase, task, message, tb if isinstance(tb, str) else None)]


def _violation_category(message: str) -> str:
    if "never delivered" in message or "never picked up" in message:
        return "undelivered"
    if "capacity" in message:
        return "capacity"
    return "invalid_plan"


def _violations(agent: int, record: Mapping[str, Any]) -> list[str]:
    """The plan violations of ``agent``, re-checked from the record (empty if it has no plans)."""
    try:
        plans = record["plans"][agent]
        if plans is None:
            return []
        topology = load_topology(record["topology"])
        tasks = {t["id"]: Task(t["id"], t["pickup"], t["delivery"], t["weight"]) for t in record["tasks"]}
        winners = {a["task"]: a["winner"] for a in record["auctions"]}
        won = [t for tid, t in tasks.items() if winners.get(tid) == agent]
        known = {tid: t for tid, t in tasks.items() if winners.get(tid) is not None}
        vehicles = [
            Vehicle(v["name"], v["home"], float(v["capacity"]), float(v["cost_per_km"]))
            for v in record["companies"][agent]["vehicles"]
        ]
        return [str(v) for v in check_plans(topology, vehicles, plans_from_json(plans), won, known)]
    except (KeyError, IndexError, TypeError, ValueError, UserError):
        return []

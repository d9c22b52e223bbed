"""The report of the agent check: each match's outcome and every problem, sorted by class.

A fault of the checked agent becomes one problem (an invalid plan one per kind of mistake in it: seven
tasks delivered in the wrong city are one mistake, shown once with how often it happened); repeats
across matches are merged. ``CheckReport.text()`` is written to be read by a person or pasted back
to a model; ``to_json()`` is the same for programs.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apdp.game.plan import Violation
from apdp.referee.record_format import MatchRecord, RecordFault, RecordViolation

if TYPE_CHECKING:
    from apdp.check.config import CheckConfig

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
    "bad_bid": ("Bad bids", "a bid must be a number from 0 to 1e12, or None to abstain"),
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
    "bad_reply": (
        "Malformed replies",
        "the agent's process sent the referee a message apdp's worker never sends: do not write to "
        "the referee's socket or replace apdp's worker",
    ),
    "borrowed": (
        "Borrowed solvers",
        "an exercise's agent must solve it itself: do not import apdp's own solvers or scores "
        "(apdp.exercises, apdp.baselines, apdp.check), which it is measured against",
    ),
    "reproducibility": (
        "Not reproducible",
        "the same seed must give the same match: use self.rng for all randomness, never the random "
        "module, numpy.random or the clock, and bound searches by iterations, not only by time",
    ),
}


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
    faults: tuple[RecordFault, ...]
    record: MatchRecord = field(repr=False)

    @property
    def own_faults(self) -> list[RecordFault]:
        """Faults of the checked agent."""
        return [f for f in self.faults if f.agent in self.seats]

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
            kinds = sorted({f.kind for f in self.own_faults})
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
        """The problem as a JSON object: its fields."""
        return asdict(self)


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


def outcome_of(
    label: str, topology: str, opponent: str | None, seats: tuple[int, ...], record: MatchRecord
) -> MatchOutcome:
    """The outcome of one match of the check for the agent sitting in ``seats``."""
    result = record.result
    won = [0] * len(record.agents)
    for auction in record.auctions:
        if auction.winner is not None:
            won[auction.winner] += 1
    return MatchOutcome(
        label=label,
        topology=topology,
        opponent=opponent,
        seats=seats,
        profit=tuple(float(p) for p in result.profit),
        won_tasks=tuple(won),
        winner=result.winner,
        faults=tuple(result.faults),
        record=record,
    )


def collect(report: CheckReport, outcome: MatchOutcome) -> None:
    """Add the checked agent's faults in ``outcome`` to the report, merging repeats."""
    for fault in outcome.own_faults:
        for problem in problems_of(fault):
            same = next(
                (
                    p
                    for p in report.problems
                    if (p.category, p.phase, _mistake(p.message)) == (problem.category, problem.phase,
                                                                       _mistake(problem.message))
                ),
                None,
            )
            if same is None:
                report.problems.append(problem)
                same = problem
            if outcome.label not in same.matches:
                same.matches.append(outcome.label)


def problems_of(fault: RecordFault) -> list[Problem]:
    """The problems one fault stands for (an invalid plan splits into its violations)."""
    kind, phase, task, message, tb = fault.kind, fault.phase, fault.task, fault.message, fault.traceback
    if fault.import_error:
        return [Problem("import", phase, task, message)]
    if kind == "invalid_plan":
        violations = [_violation_text(v) for v in fault.violations or []]
        if violations:
            total = _count_of(message, len(violations))
            kinds: dict[str, list[str]] = {}
            for v in violations:
                kinds.setdefault(_mistake(v), []).append(v)
            problems = []
            for examples in kinds.values():
                more = total - len(violations) if len(kinds) == 1 else 0  # the record keeps the first ones only
                times = len(examples) + more
                shown = examples[0] + (f" (and {times - 1} more like it in this plan)" if times > 1 else "")
                problems.append(Problem(_violation_category(examples[0]), "plan", None, shown))
            return problems
        return [Problem("invalid_plan", "plan", None, message)]
    category = kind if kind in CATEGORIES else "exception"
    return [Problem(category, phase, task, message, tb if isinstance(tb, str) else None)]


#: What makes two violations the same mistake: their words, with what names a place, a task or a
#: number left out (``vehicle 0, action 5: task 3 delivered in Paris, not in Lyon`` is ``task #
#: delivered in #, not in #``).
_SPECIFICS = (
    (re.compile(r"^vehicle \d+(, action \d+)?: "), ""),
    (re.compile(r" (in|from|to) [^,;]+?(?=(, not in | to | follows |$))"), r" \1 #"),
    (re.compile(r"'[^']*'"), "#"),
    (re.compile(r"\d+(\.\d+)?"), "#"),
)


def _mistake(message: str) -> str:
    """The kind of mistake a plan problem's message stands for (see :data:`_SPECIFICS`); other
    messages are their own kind. A count added to an example ("(and 6 more ...)") is left out."""
    kind = message.split(" (and ", 1)[0]
    for pattern, placeholder in _SPECIFICS:
        kind = pattern.sub(placeholder, kind)
    return kind


def _count_of(message: str, kept: int) -> int:
    """How many violations an invalid plan's fault message counts (``7 violation(s): ...``)."""
    head = message.split(" ", 1)[0]
    return int(head) if head.isdigit() and int(head) >= kept else kept


def _violation_text(v: RecordViolation) -> str:
    return str(Violation(v.vehicle, v.action, v.task, v.message))


def _violation_category(message: str) -> str:
    if "never delivered" in message or "never picked up" in message:
        return "undelivered"
    if "capacity" in message:
        return "capacity"
    return "invalid_plan"

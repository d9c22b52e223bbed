"""The check (the gate) an agent must pass before it enters a tournament: ``check_agent`` and
``assert_agent_ok``, which students and the LLM harness import from :mod:`apdp.testing` (what it
plays and what it reports are described there)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from apdp.agents.discovery import AgentNotFound, AgentSource, find_agent
from apdp.check.config import FALLBACK_OPPONENT, CheckConfig
from apdp.check.report import CheckReport, MatchOutcome, Problem, collect, outcome_of
from apdp.check.reproducibility import irreproducible_message, likely_causes, record_difference
from apdp.errors import UserError
from apdp.referee.record_format import MatchRecord


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

    Plays self-play on the first network twice (a different record the second time is a problem
    of class ``reproducibility``, with the likely cause), then each opponent on each network (the
    agent is the first company on the first network and the second company on the others). A missing baseline
    is replaced by the template agent, with a note. Stops after the first match when the agent
    cannot even be imported. ``on_match`` is called as each match ends.
    """
    config = config or CheckConfig()
    if not config.topologies:
        raise UserError("the check needs at least one network")
    source = find_agent(str(agent))
    report = CheckReport(source.name, source.path, config)
    opponents = _resolve_opponents(config.opponents, report.notes)
    games: list[tuple[str, str, AgentSource | None, int]] = [
        (f"self-play on {config.topologies[0]}", config.topologies[0], None, 0)
    ]
    for opponent in opponents:
        for k, topology in enumerate(config.topologies):
            seat = 0 if k == 0 else 1
            label = f"vs {opponent.name} on {topology} as company {seat}"
            games.append((label, topology, opponent, seat))
    from apdp.referee.match import play_match  # the referee; imported late to keep this module light
    from apdp.sandbox.exposure import check_private
    from apdp.secret import secret_file_path

    check_private([source.path, *(o.path for o in opponents)], [(secret_file_path(), "your secret file")],
                  [(config.scenario, "the check's scenario")])

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
        outcome = outcome_of(label, topology, other.name if other else None, seats, record)
        report.matches.append(outcome)
        collect(report, outcome)
        if other is None and not outcome.own_faults:
            _replay(report, source, label, play_match(scenario, agents), record)
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


def _replay(report: CheckReport, source: AgentSource, label: str, again: MatchRecord, first: MatchRecord) -> None:
    """Add a problem when the replay ``again`` of the match ``first`` gave another record."""
    difference = record_difference(first.to_json(), again.to_json())
    if difference is None:
        return
    try:
        causes = likely_causes(source.path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        causes = []
    report.problems.append(
        Problem("reproducibility", None, None, irreproducible_message(difference, causes), matches=[label])
    )


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

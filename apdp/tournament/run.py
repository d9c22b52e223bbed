"""Running a tournament: the schedule, minus what the store already holds, over the workers.

This module wires the parts together (store writer, log, progress bar as observers of the runner);
none of them knows the others.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from apdp.agents.discovery import registry_params
from apdp.agents.identity import agent_identity
from apdp.referee.record_format import MatchRecord
from apdp.sandbox.exposure import check_private
from apdp.tournament.config import TournamentConfig
from apdp.tournament.events import Broadcast, TournamentEvents
from apdp.tournament.executor import PlayFunction, Workers
from apdp.tournament.logs import LogEvents, RunLog
from apdp.tournament.play import PlayMatch, worker_start
from apdp.tournament.schedule import MatchSpec, double_round_robin
from apdp.tournament.store import ResultsStore, StoreWriter

if TYPE_CHECKING:  # loaded when a run uses them: a quiet local run needs neither
    from apdp.tournament.ray_executor import RayCluster, RaySession


@dataclass
class RunSummary(TournamentEvents):
    """What a run did; it counts the events it is sent."""

    total: int = 0
    skipped: int = 0
    played: int = 0
    faulted: int = 0
    errors: int = 0
    seconds: float = 0.0
    error_messages: list[str] = field(default_factory=list)

    def on_start(self, total: int, done: int) -> None:
        self.total, self.skipped = total, done

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        self.played += 1

    def on_match_faulted(self, match: MatchSpec, record: MatchRecord) -> None:
        self.faulted += 1

    def on_match_error(self, match: MatchSpec, record: MatchRecord) -> None:
        self.errors += 1
        self.error_messages.append(f"{match.match_id}: {record.referee_error}")


def schedule_of(config: TournamentConfig) -> list[MatchSpec]:
    """Every match of the configured tournaments."""
    return double_round_robin(config.agents, config.topologies, config.seed, config.repeat)


def run_tournament(
    config: TournamentConfig,
    out: str | Path,
    *,
    jobs: int,
    progress: bool = True,
    play: PlayFunction | None = None,
    observers: Sequence[TournamentEvents] = (),
    secret: bytes | None = None,
    ray: RayCluster | None = None,
    grow: bool = False,
) -> RunSummary:
    """Play the tournament into the store of ``out``, skipping the matches already stored.

    ``play`` replaces the real match (tests); ``observers`` get every event after the store.
    ``secret`` is the tournament's secret: None keeps the store's (a new store makes one); a secret
    given replays a published tournament, and a store holding another secret is refused.
    ``ray``: play on a Ray cluster (:mod:`apdp.tournament.ray_executor`) instead of ``jobs`` local
    worker processes, connected before anything is written; the stored results are the same.
    ``grow``: a store of fewer agents, networks or tournaments takes this configuration and keeps its
    matches (:meth:`ResultsStore.create_or_resume`); only the new matches are played.
    """
    if ray is None or play is not None:
        return _run(config, Path(out), jobs, progress, play, observers, secret, None, grow)
    from apdp.tournament.ray_executor import connected

    with connected(ray) as session:
        return _run(config, Path(out), jobs, progress, play, observers, secret, session, grow)


def _run(
    config: TournamentConfig,
    out: Path,
    jobs: int,
    progress: bool,
    play: PlayFunction | None,
    observers: Sequence[TournamentEvents],
    secret: bytes | None,
    ray: RaySession | None,
    grow: bool = False,
) -> RunSummary:
    check_private(config.agent_paths, [(out, "--out")])  # out of every agent's reach
    store = ResultsStore.create_or_resume(out, config.to_json(), secret, grow=grow)
    secret = store.secret()
    assert secret is not None  # create_or_resume stores one
    try:
        # each agent's identity as it plays now (the store keeps those of the first run)
        identities = {
            name: agent_identity(name, path) for name, path in zip(config.agents, config.agent_paths, strict=True)
        } if config.agent_paths else {}
        if identities:
            store.add_identities(identities)
        schedule = schedule_of(config)
        done = store.finished_keys()
        todo = [m for m in schedule if m.match_id not in done]
        summary = RunSummary()
        run_log = RunLog(out)
        with contextlib.ExitStack() as stack:
            workers = None
            if ray is None:  # started before this process starts a thread (the log's, the bar's): forked
                from apdp.sandbox.zygote_link import Zygote

                workers = stack.enter_context(Workers(
                    jobs, worker_start, (run_log.queue, run_log.level, Zygote.get().zygote_requests())
                ))
            stack.enter_context(run_log)
            listeners: list[TournamentEvents] = [StoreWriter(store), summary, LogEvents()]
            if progress:
                from apdp.tournament.progress_lines import ProgressLines
                from apdp.tournament.terminal import is_terminal

                if is_terminal(sys.stderr):  # the bar draws nowhere else: off a terminal rich is not even loaded
                    from apdp.tournament.progress import ProgressBar

                    listeners.append(ProgressBar(agents=config.agents, stored=store.matches))
                listeners.append(ProgressLines())  # off a terminal, where the bar draws nothing
            events = Broadcast([*listeners, *observers])
            started = time.perf_counter()
            events.on_start(len(schedule), len(schedule) - len(todo))
            interrupted = True
            try:
                if workers is None:
                    assert ray is not None
                    ray.play(todo, config, secret, identities, events)
                else:
                    workers.play(
                        todo,
                        play or PlayMatch(
                            config.scenario, dict(zip(config.agents, config.agent_paths, strict=True)), secret,
                            identities, registry_params(),
                        ),
                        events,
                    )
                interrupted = False
            finally:
                summary.seconds = time.perf_counter() - started
                events.on_end(interrupted)
        return summary
    finally:
        store.close()

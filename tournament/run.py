"""Running a tournament: the schedule, minus what the store already holds, over the workers.

This module wires the parts together (store writer, log, progress bar as observers of the runner);
none of them knows the others.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apdp.discovery import AgentSource, registry_params
from apdp.identity import agent_identity
from apdp.scenario import Scenario
from tournament.config import TournamentConfig
from tournament.events import Broadcast, Record, TournamentEvents
from tournament.executor import PlayFunction, run_matches
from tournament.logs import LogEvents, RunLog, worker_logging
from tournament.progress import ProgressBar
from tournament.progress_lines import ProgressLines
from tournament.ray_executor import RayCluster, RaySession
from tournament.schedule import MatchSpec, double_round_robin
from tournament.store import ResultsStore, StoreWriter


@dataclass(frozen=True)
class PlayMatch:
    """Plays one scheduled match in a worker: the base scenario on the match's network and seed.

    ``paths`` maps an agent's name to its file: the match gets both, so that a worker plays exactly
    the files the parent resolved (and hashed into the configuration), whatever its search path.
    ``key`` is the tournament's secret key (from its store), which the match's streams derive from.
    """

    scenario: Scenario
    paths: Mapping[str, str]
    key: bytes = field(repr=False)
    #: each agent's identity and the agents' parameter files, as the parent read them (None: the
    #: worker reads them)
    identities: Mapping[str, dict[str, Any]] | None = None
    registry: dict[str, dict[str, Any]] | None = None

    def __call__(self, match: MatchSpec) -> Record:
        from apdp.match import play_match  # imported in the worker, where it runs

        scenario = self.scenario.model_copy(update={"topology": match.topology, "seed": match.seed})
        agents = [AgentSource(name, Path(self.paths[name])) for name in match.agents]
        identities = None if self.identities is None else [self.identities[name] for name in match.agents]
        return play_match(scenario, agents, seed=match.seed, key=self.key, identities=identities,
                          registry=self.registry)


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

    def on_match_finished(self, match: MatchSpec, record: Record) -> None:
        self.played += 1

    def on_match_faulted(self, match: MatchSpec, record: Record) -> None:
        self.faulted += 1

    def on_match_error(self, match: MatchSpec, message: str) -> None:
        self.errors += 1
        self.error_messages.append(f"{match.key}: {message}")


def _worker_start(queue: Any, level: int) -> None:
    """A worker's first steps: its log goes to the run's, and its zygote starts at once (it loads
    apdp in a fresh interpreter while the worker waits for its first match)."""
    from apdp.sandbox.process import Zygote

    worker_logging(queue, level)
    Zygote.get()


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
    key: bytes | None = None,
    ray: RayCluster | None = None,
) -> RunSummary:
    """Play the tournament into the store of ``out``, skipping the matches already stored.

    ``play`` replaces the real match (tests); ``observers`` get every event after the store.
    ``key`` is the tournament's secret key: None keeps the store's (a new store makes one); a key
    given replays a published tournament, and a store holding another key is refused.
    ``ray``: play on a Ray cluster (:mod:`tournament.ray_executor`) instead of ``jobs`` local
    worker processes, connected before anything is written; the stored results are the same.
    """
    if ray is None or play is not None:
        return _run(config, Path(out), jobs, progress, play, observers, key, None)
    from tournament.ray_executor import connected

    with connected(ray) as session:
        return _run(config, Path(out), jobs, progress, play, observers, key, session)


def _run(
    config: TournamentConfig,
    out: Path,
    jobs: int,
    progress: bool,
    play: PlayFunction | None,
    observers: Sequence[TournamentEvents],
    key: bytes | None,
    ray: RaySession | None,
) -> RunSummary:
    store = ResultsStore.create_or_resume(out, config.to_json(), key)
    secret = store.key()
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
        todo = [m for m in schedule if m.key not in done]
        summary = RunSummary()
        with RunLog(out) as run_log:
            listeners: list[TournamentEvents] = [StoreWriter(store), summary, LogEvents()]
            if progress:
                listeners.append(ProgressBar(agents=config.agents, stored=store.matches))
                listeners.append(ProgressLines())  # off a terminal, where the bar draws nothing
            events = Broadcast([*listeners, *observers])
            started = time.perf_counter()
            events.on_start(len(schedule), len(schedule) - len(todo))
            interrupted = True
            try:
                if ray is not None:
                    ray.play(todo, config, secret, identities, events)
                else:
                    run_matches(
                        todo,
                        play or PlayMatch(
                            config.scenario, dict(zip(config.agents, config.agent_paths, strict=True)), secret,
                            identities, registry_params(),
                        ),
                        events,
                        jobs=jobs,
                        initializer=_worker_start,
                        initargs=(run_log.queue, run_log.level),
                    )
                interrupted = False
            finally:
                summary.seconds = time.perf_counter() - started
                events.on_end(interrupted)
        return summary
    finally:
        store.close()

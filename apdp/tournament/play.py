"""What a tournament's worker process does: get its zygote, then play the matches it is handed.

The fork server loads this module (and the referee, :mod:`apdp.referee.match`) before it forks any worker;
it is kept apart from :mod:`apdp.tournament.run` so that the workers do not load what only the parent
uses (the store, the progress bar, the Ray executor).
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apdp.agents.discovery import AgentSource
from apdp.referee.record_format import MatchRecord
from apdp.sandbox.cores import pin_to_core, take_core
from apdp.scenario import Scenario
from apdp.tournament.log_channel import LogSender
from apdp.tournament.logs import worker_logging
from apdp.tournament.schedule import MatchSpec


@dataclass(frozen=True)
class PlayMatch:
    """Plays one scheduled match in a worker: the base scenario on the match's network and seed.

    ``paths`` maps an agent's name to its file: the match gets both, so that a worker plays exactly
    the files the parent resolved (and hashed into the configuration), whatever its search path.
    ``secret`` is the tournament's secret (from its store), which the match's streams derive from.
    """

    scenario: Scenario
    paths: Mapping[str, str]
    secret: bytes = field(repr=False)
    #: each agent's identity and the agents' parameter files, as the parent read them (None: the
    #: worker reads them)
    identities: Mapping[str, dict[str, Any]] | None = None
    registry: dict[str, dict[str, Any]] | None = None

    def __call__(self, match: MatchSpec) -> MatchRecord:
        return play_scheduled(self.scenario, match, self.paths, self.secret, self.identities, self.registry)


def play_scheduled(
    scenario: Scenario,
    match: MatchSpec,
    paths: Mapping[str, str | Path],
    secret: bytes,
    identities: Mapping[str, dict[str, Any]] | None = None,
    registry: dict[str, dict[str, Any]] | None = None,
) -> MatchRecord:
    """Play one scheduled match: the base ``scenario`` on the match's network and seed, each agent
    from its file in ``paths``. The one way a match of a tournament is played, by a local worker
    (:class:`PlayMatch`) and by a Ray task (:func:`apdp.tournament.ray_executor.play_sent`) alike."""
    from apdp.referee.match import play_match  # imported in the worker, where it runs

    on_network = scenario.model_copy(update={"topology": match.topology, "seed": match.seed})
    agents = [AgentSource(name, Path(paths[name])) for name in match.agents]
    played_as = None if identities is None else [identities[name] for name in match.agents]
    return play_match(on_network, agents, seed=match.seed, secret=secret, identities=played_as, registry=registry)


def worker_start(queue: LogSender, level: int, zygote_requests: socket.socket | None) -> None:
    """A worker's first steps: its log goes to the run's; it gets its zygote at once, a fork of the
    run's zygote through ``zygote_requests`` (already loaded), else one of its own (a fresh interpreter that
    loads apdp while the worker waits for its first match); and it takes a free core of the machine
    for its lifetime (:mod:`apdp.sandbox.cores`), if there is one, for itself and its zygote."""
    from apdp.sandbox.zygote_link import Zygote

    worker_logging(queue, level)
    zygote = None if zygote_requests is None else Zygote.adopt(zygote_requests)
    if zygote is None:
        zygote = Zygote.get()
    if zygote_requests is not None:
        zygote_requests.close()
    core = take_core()
    if core is not None:
        pin_to_core(core, zygote)

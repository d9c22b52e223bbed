"""The double all-play-all schedule: every pair meets twice, companies swapped, same task sequence.

Every match's seed is drawn here, in the parent, before any work is handed out, from the tournament
seed, the network and the pair's names only. Outcomes therefore do not depend on the job count, the
order in which matches run, a resume, or the order in which ``--agents`` lists the field.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One match of a tournament: network, seeds and agents in company order."""

    topology: str
    tournament_seed: int
    seed: int
    agents: tuple[str, ...]

    @property
    def match_id(self) -> str:
        """A name unique within a store: ``topology/tournament seed/agent0/agent1``."""
        return "/".join((self.topology, str(self.tournament_seed), *self.agents))


def _stable_hash(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def match_seed(topology: str, tournament_seed: int, pair: Sequence[str]) -> int:
    """The seed shared by both legs of ``pair`` in one tournament (a number in [0, 2**63))."""
    a, b = sorted(pair)
    sequence = np.random.SeedSequence(
        entropy=tournament_seed,
        spawn_key=(_stable_hash(topology), _stable_hash(a), _stable_hash(b)),
    )
    return int(sequence.generate_state(1, dtype=np.uint64)[0]) >> 1


def tournament_seeds(seed: int, repeat: int) -> list[int]:
    """The seeds of ``repeat`` tournaments on one network: ``seed``, ``seed + 1``, ...

    So ``--seed 1`` replays the second tournament of ``--seed 0 --repeat 2``.
    """
    return [seed + r for r in range(repeat)]


def double_round_robin(
    agents: Sequence[str], topologies: Sequence[str], seed: int, repeat: int
) -> list[MatchSpec]:
    """Every match of ``repeat`` double all-play-all tournaments on each network.

    Both legs of a pair are adjacent: ``(a, b)`` then ``(b, a)`` with the same seed.
    """
    schedule: list[MatchSpec] = []
    for topology in topologies:
        for t_seed in tournament_seeds(seed, repeat):
            for a, b in itertools.combinations(agents, 2):
                s = match_seed(topology, t_seed, (a, b))
                schedule.append(MatchSpec(topology, t_seed, s, (a, b)))
                schedule.append(MatchSpec(topology, t_seed, s, (b, a)))
    return schedule

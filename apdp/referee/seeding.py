"""Keyed seeds: a match's random streams come from a secret, so no agent can recover them.

A match's task stream, its tie-breaks and each agent's generator are seeded with independent
HMAC-SHA256 derivations of the secret and public labels (the purpose, the match seed, the agent's
index). Knowing the match seed and this source code is therefore not enough to predict the tasks or
another agent's generator, whether from one's own generator or from the tasks already auctioned.
The task stream depends on the secret and the match seed only, so both legs of a pair see the same
tasks. Tournaments keep their secret in their results store; ``apdp match`` uses a per-user secret file.
"""

from __future__ import annotations

import hashlib
import hmac
import json


def derive(secret: bytes, *labels: str | int) -> int:
    """HMAC-SHA256 of ``labels`` under ``secret``, as a 256-bit integer (SeedSequence entropy).

    The labels are encoded as a JSON list, so distinct label tuples never collide.
    """
    message = json.dumps(list(labels), separators=(",", ":")).encode("utf-8")
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest(), "big")


def task_seed(secret: bytes, seed: int) -> int:
    """Seed of the task stream of the match ``seed``: the same for both legs of a pair."""
    return derive(secret, "tasks", seed)


def tie_seed(secret: bytes, seed: int) -> int:
    """Seed of the tie-breaks of the match ``seed``."""
    return derive(secret, "ties", seed)


def agent_seed(secret: bytes, seed: int, index: int) -> int:
    """Seed of the generator of agent ``index`` (its company index) in the match ``seed``."""
    return derive(secret, "agent", index, seed)



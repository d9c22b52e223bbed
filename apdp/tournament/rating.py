"""Bradley-Terry ratings on the Elo scale, with 95% confidence intervals by bootstrap over matches.

P(i beats j) = p_i / (p_i + p_j); a draw counts half a win to each side. Strengths are fitted by
Hunter's MM algorithm with a weak prior (one virtual draw between every pair that met) so that an
unbeaten or winless agent still gets a finite rating. Ratings are ``1500 + 400 * log10(p_i)`` with
the mean log-strength at zero, so 400 points is 10:1 odds. The intervals resample the matches with
replacement from a fixed seed: the same results always give the same report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from apdp.tournament.choices import RESAMPLES
from apdp.tournament.percentile import percentiles

#: Virtual games (half won by each side) added between every pair of agents that met.
PRIOR_GAMES = 1.0
#: Bootstrap resamples of the matches (by default: ``apdp report --resamples``).
BOOTSTRAP = RESAMPLES
#: Seed of the bootstrap generator.
BOOTSTRAP_SEED = 0
#: Cells of the win matrices of the resamples fitted together (bounds the memory: 8 bytes each).
_BATCH_CELLS = 1 << 20
#: Matches drawn at once by the resamples (a few in the cache).
_DRAW_CELLS = 1 << 16

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Rating:
    """An agent's rating and its 95% confidence interval."""

    rating: float
    low: float
    high: float


def _fit(
    wins: FloatArray,
    iterations: int = 1000,
    tolerance: float = 1e-10,
    start: FloatArray | None = None,
) -> FloatArray:
    """Elo-scale ratings from ``wins[..., i, j]`` (i's score against j), prior already included.

    Leading axes hold independent fits (the bootstrap's resamples), run together until all converge.
    """
    games = wins + np.swapaxes(wins, -1, -2)
    total_wins = wins.sum(axis=-1)
    shape = wins.shape[:-1]
    strength = np.ones(shape) if start is None else np.broadcast_to(10.0 ** ((start - 1500.0) / 400.0), shape)
    # One array for the pairs' terms, reused: a new one each iteration (800 kB for 1000 resamples of
    # 10 agents) would be a fresh mapping of memory, its pages faulted in every time.
    terms = np.empty_like(games)
    logs = np.log(strength)
    for _ in range(iterations):
        np.add(strength[..., :, None], strength[..., None, :], out=terms)
        np.divide(games, terms, out=terms)
        denominators = terms.sum(axis=-1)
        updated = np.where(denominators > 0, total_wins / np.maximum(denominators, 1e-300), 1.0)
        updated = np.maximum(updated, 1e-300)
        updated /= np.exp(np.mean(np.log(updated), axis=-1, keepdims=True))
        updated_logs = np.log(updated)
        done = np.max(np.abs(updated_logs - logs)) < tolerance
        strength, logs = updated, updated_logs
        if done:
            break
    tens = np.log10(strength)
    return np.asarray(1500.0 + 400.0 * (tens - tens.mean(axis=-1, keepdims=True)), dtype=np.float64)


def _win_matrix(
    n: int, first: npt.NDArray[np.intp], second: npt.NDArray[np.intp], score: FloatArray,
    weights: FloatArray,
) -> FloatArray:
    wins = np.bincount(first * n + second, weights=weights * score, minlength=n * n)
    wins += np.bincount(second * n + first, weights=weights * (1.0 - score), minlength=n * n)
    return np.asarray(wins.reshape(n, n), dtype=np.float64)


def _resampled_win_matrices(
    n: int, first: npt.NDArray[np.intp], second: npt.NDArray[np.intp], score: FloatArray,
    rng: np.random.Generator, count: int,
) -> FloatArray:
    """The win matrices of ``count`` resamples of the matches, drawn from ``rng``: each draws
    ``len(score)`` matches with replacement, as :func:`_win_matrix` of its draw counts would give.

    The resamples are drawn in one call (numpy's generator gives the same numbers as one call per
    resample) and counted together; every sum is exact (of halves and whole numbers), so the order
    of its terms changes nothing.
    """
    m = len(score)
    rows = np.arange(count, dtype=np.intp)[:, None]
    drawn = rng.integers(0, m, (count, m))
    draws = np.bincount((rows * m + drawn).ravel(), minlength=count * m).reshape(count, m).astype(np.float64)
    cells = rows * (n * n)
    wins = np.bincount((cells + (first * n + second)).ravel(), weights=(draws * score).ravel(), minlength=count * n * n)
    wins += np.bincount((cells + (second * n + first)).ravel(), weights=(draws * (1.0 - score)).ravel(),
                        minlength=count * n * n)
    return np.asarray(wins.reshape(count, n, n), dtype=np.float64)


#: What the rating numbers mean, in one line (reports print it under the ratings).
SCALE = (
    "ratings: Bradley-Terry strengths on the Elo scale: the field averages 1500 and 400 points more "
    "means 10:1 odds of winning a match (a draw counts half); 95% CI by bootstrap over matches"
)


def bradley_terry_samples(
    n: int,
    first: Sequence[int],
    second: Sequence[int],
    score: Sequence[float],
    *,
    bootstrap: int = BOOTSTRAP,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[list[Rating], FloatArray]:
    """Ratings of agents ``0..n-1`` from matches ``first[k]`` vs ``second[k]``, and the bootstrap
    ratings behind their intervals (one row per resample, one column per agent; no rows without
    matches or resamples), for intervals of figures derived from ratings.

    ``score[k]`` is the first agent's result: 1 win, 0.5 draw, 0 loss.
    """
    a = np.asarray(first, dtype=np.intp)
    b = np.asarray(second, dtype=np.intp)
    s = np.asarray(score, dtype=np.float64)
    m = len(s)
    met = _win_matrix(n, a, b, np.full(m, 0.5), np.ones(m)) > 0
    prior = np.where(met | met.T, PRIOR_GAMES / 2, 0.0)
    point = _fit(_win_matrix(n, a, b, s, np.ones(m)) + prior)
    if m == 0 or bootstrap <= 0:
        return [Rating(float(r), float(r), float(r)) for r in point], np.empty((0, n))
    rng = np.random.default_rng(seed)
    samples = np.empty((bootstrap, n))
    chunk = max(1, min(bootstrap, _BATCH_CELLS // (n * n)))  # resamples fitted at once
    drawn_at_once = max(1, _DRAW_CELLS // m)  # resamples drawn at once (bounds the draws' memory)
    for begin in range(0, bootstrap, chunk):
        batch = np.empty((min(chunk, bootstrap - begin), n, n))
        for k in range(0, len(batch), drawn_at_once):
            part = batch[k : k + drawn_at_once]
            part[:] = _resampled_win_matrices(n, a, b, s, rng, len(part)) + prior
        # 1e-7 in log-strength is far below a hundredth of an Elo point
        samples[begin : begin + len(batch)] = _fit(batch, tolerance=1e-7, start=point)
    low, high = percentiles(samples, [2.5, 97.5])
    ratings = [Rating(float(r), float(lo), float(hi)) for r, lo, hi in zip(point, low, high, strict=True)]
    return ratings, samples

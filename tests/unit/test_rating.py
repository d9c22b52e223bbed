"""The ratings' bootstrap computed at once gives the numbers of its plain definition, to the last
bit: the resamples drawn together are those drawn one by one, the fit reusing its arrays is the
plain iteration, and the intervals' percentiles are numpy's."""

from __future__ import annotations

import numpy as np
import pytest

from apdp.tournament.percentile import percentiles
from apdp.tournament.rating import _fit, _resampled_win_matrices, _win_matrix, bradley_terry_samples


def matches(n: int, m: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``m`` random matches between agents ``0..n-1``: first, second, the first's score."""
    rng = np.random.default_rng(seed)
    first = rng.integers(0, n, m)
    second = (first + rng.integers(1, n, m)) % n
    return first, second, rng.choice([0.0, 0.5, 1.0], m)


@pytest.mark.parametrize(("n", "m", "count"), [(2, 1, 5), (3, 6, 40), (10, 90, 25), (5, 1000, 7)])
def test_resamples_drawn_together_are_those_drawn_one_by_one(n: int, m: int, count: int) -> None:
    first, second, score = matches(n, m, seed=n + m)
    together, one_by_one = np.random.default_rng(7), np.random.default_rng(7)
    batch = _resampled_win_matrices(n, first, second, score, together, count)
    for k in range(count):
        weights = np.bincount(one_by_one.integers(0, m, m), minlength=m).astype(np.float64)
        assert np.array_equal(batch[k], _win_matrix(n, first, second, score, weights))
    assert together.bit_generator.state == one_by_one.bit_generator.state  # the next draws are the same too


def plain_fit(wins: np.ndarray, tolerance: float, start: np.ndarray) -> np.ndarray:
    """The MM iteration as _fit defines it, a new array for every step."""
    games = wins + np.swapaxes(wins, -1, -2)
    total_wins = wins.sum(axis=-1)
    strength = np.broadcast_to(10.0 ** ((start - 1500.0) / 400.0), wins.shape[:-1])
    for _ in range(1000):
        denominators = (games / (strength[..., :, None] + strength[..., None, :])).sum(axis=-1)
        updated = np.where(denominators > 0, total_wins / np.maximum(denominators, 1e-300), 1.0)
        updated = np.maximum(updated, 1e-300)
        updated /= np.exp(np.mean(np.log(updated), axis=-1, keepdims=True))
        done = np.max(np.abs(np.log(updated) - np.log(strength))) < tolerance
        strength = updated
        if done:
            break
    logs = np.log10(strength)
    return np.asarray(1500.0 + 400.0 * (logs - logs.mean(axis=-1, keepdims=True)))


@pytest.mark.parametrize(("n", "m"), [(3, 6), (10, 90), (7, 30)])
def test_the_fit_is_the_plain_iteration(n: int, m: int) -> None:
    first, second, score = matches(n, m, seed=m)
    batch = _resampled_win_matrices(n, first, second, score, np.random.default_rng(0), 200) + 0.5
    start = _fit(_win_matrix(n, first, second, score, np.ones(m)) + 0.5)
    assert np.array_equal(_fit(batch, tolerance=1e-7, start=start), plain_fit(batch, 1e-7, start))


@pytest.mark.parametrize("shape", [(1,), (2,), (7,), (40, 3), (1000, 10), (999, 2), (101,)])
def test_percentiles_are_numpys(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(shape) * 1000 + shape[0])
    # values of many magnitudes: interpolating from the wrong neighbour would show in the last bits
    values = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    values[: shape[0] // 3] = values[0]  # ties
    qs = [0.0, 2.5, 97.5, 100.0, *np.linspace(0.1, 99.9, 200)]
    assert np.array_equal(percentiles(values, qs), np.percentile(values, qs, axis=0))


def test_the_intervals_are_the_percentiles_of_the_resamples() -> None:
    first, second, score = matches(6, 60, seed=3)
    ratings, samples = bradley_terry_samples(6, list(first), list(second), list(score), bootstrap=300)
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    assert [r.low for r in ratings] == list(low) and [r.high for r in ratings] == list(high)

"""Percentiles of bootstrap samples, for the reports' 95% intervals, without ``np.percentile``.

``np.percentile`` loads ``numpy.ma`` on its first call (about 10 ms of every report, a tenth of
what a short tournament's report costs); :func:`percentiles` gives the same numbers, to the last
bit, by the same definition: numpy's default ``linear`` method (type 7 of Hyndman and Fan), the
value at the fractional rank ``(count - 1) * q / 100`` of the sorted values, interpolated between
its two neighbours the way numpy's ``_lerp`` does (from the lower one when the fraction is under a
half, back from the upper one otherwise).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def percentiles(values: npt.ArrayLike, qs: Sequence[float]) -> FloatArray:
    """The ``qs`` percentiles (0 to 100) of ``values`` along its first axis, one row per ``q``
    (a 1-D ``values`` gives one number per ``q``); equal to ``np.percentile(values, qs, axis=0)``
    for values without NaN."""
    data = np.sort(np.asarray(values, dtype=np.float64), axis=0)
    count = len(data)
    if count == 0:
        raise ValueError("percentiles of no values")
    rows = []
    for q in qs:
        rank = (count - 1) * (q / 100)
        below = min(math.floor(rank), count - 1)
        fraction = rank - below
        low, high = data[below], data[min(below + 1, count - 1)]
        step = high - low
        rows.append(high - step * (1 - fraction) if fraction >= 0.5 else low + step * fraction)
    return np.asarray(rows, dtype=np.float64)

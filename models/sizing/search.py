"""Vectorized searches for the smallest count that meets a monotone requirement.

Host counts are found by bisection over all candidates at once: performance
never falls with more hosts (a property the models' tests hold), so the
smallest feasible count is well defined and found in log2(limit) evaluations.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


def smallest_meeting(
    ok: Callable[[IntArray], BoolArray], low: IntArray, limit: int
) -> tuple[IntArray, BoolArray]:
    """Per element, the smallest n in [low, limit] with ok(n); returns (n, reachable).

    `ok` takes an array of counts (one per element) and returns which of them meet
    the requirement. Where even `limit` fails, n is `limit` and reachable is False.
    """
    lo = np.asarray(low, dtype=np.int64).copy()
    hi = np.full_like(lo, limit)
    lo = np.minimum(lo, hi)
    reachable = ok(hi)
    already = ok(lo)
    result = np.where(already, lo, hi)
    todo = reachable & ~already  # invariant: ok(hi) and not ok(lo)
    while np.any(todo & (hi - lo > 1)):
        mid = (lo + hi) // 2
        good = ok(mid)
        hi = np.where(todo & good, mid, hi)
        lo = np.where(todo & ~good, mid, lo)
        todo &= hi - lo > 1
    result = np.where(already, result, hi)
    return result, reachable | already

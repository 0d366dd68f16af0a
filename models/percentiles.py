"""Percentiles exactly as `np.percentile` computes them (default "linear" method), without its start-up cost.

In numpy 2.x every `np.percentile` call goes through `np.unique`, whose first call imports `numpy.ma`
(0.1-0.15 s, more than the sizing it serves in a `refarch size` process). The arithmetic below is numpy's own
(`numpy/lib/_function_base_impl.py`: `_quantile`, `_get_indexes`, `_get_gamma`, `_lerp`), step for step,
so the values are the same bits (NaN where numpy gives NaN); tests/models/test_percentiles.py holds it equal on
random and edge inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray


def percentiles(a: ArrayLike, q: float | ArrayLike, axis: int | None = None) -> Any:
    """`np.percentile(a, q, axis)` for real `a`: the q-th percentiles (0-100) along `axis` (None: all values).

    >>> percentiles([[10, 7, 4], [3, 2, 1]], 50, axis=0)
    array([6.5, 4.5, 2.5])
    >>> float(percentiles([1.0, 2.0, 3.0, 4.0], 10.0))
    1.3
    """
    arr = np.array(a, copy=True)
    if arr.dtype.kind not in "fiub":
        raise TypeError("percentiles() takes real numbers")
    if axis is None:
        arr = arr.ravel()
        axis = 0
    # The sampled axis last and contiguous: partitioning along it is several times faster than numpy's
    # strided axis 0, and the order statistics at the kth positions are the same values either way.
    arr = np.ascontiguousarray(np.moveaxis(arr, axis, -1))
    weak_q = type(q) in (int, float)
    quantiles = np.true_divide(q, 100, out=...)
    if np.any(quantiles < 0) or np.any(quantiles > 1):
        raise ValueError("Percentiles must be in the range [0, 100]")
    n = arr.shape[-1]
    virtual = np.asanyarray((n - 1) * quantiles)
    prev = np.floor(virtual, out=...)
    nxt = np.add(prev, 1, out=...)
    above = virtual >= n - 1
    prev[above] = -1
    nxt[above] = -1
    below = virtual < 0
    prev[below] = 0
    nxt[below] = 0
    if arr.dtype.kind == "f":
        nans = np.isnan(virtual)
        prev[nans] = -1
        nxt[nans] = -1
    prev_i, next_i = prev.astype(np.intp), nxt.astype(np.intp)
    having_nans = np.isnan(arr).any(axis=-1) if arr.dtype.kind == "f" else None
    # The order statistics at the needed positions, one position at a time, each partition on what lies above
    # the previous one: numpy's single call with several kth is several times slower than these (numpy 2.4).
    start = 0
    for k in sorted({int(i) % n for i in (*prev_i.ravel(), *next_i.ravel())}):
        arr[..., start:].partition(k - start, axis=-1)
        start = k + 1
    lower, upper = _at(arr, prev_i), _at(arr, next_i)
    gamma: Any = np.asanyarray(np.asanyarray(virtual - prev_i), dtype=virtual.dtype)
    gamma = float(gamma) if weak_q else gamma.reshape(virtual.shape + (1,) * (arr.ndim - 1))
    diff = upper - lower
    result = np.add(lower, diff * gamma, out=...)
    np.subtract(upper, diff * (1 - gamma), out=result, where=np.asarray(gamma) >= 0.5, casting="unsafe",
                dtype=type(result.dtype))
    if result.ndim == 0:
        result = result[()]
    if having_nans is not None and np.any(having_nans):  # numpy gives NaN for a slice holding one
        if np.ndim(result) == 0:
            result = np.float64(np.nan)
        else:
            np.copyto(result, np.nan, where=having_nans)
    return result


def _at(arr: NDArray[Any], idx: NDArray[np.intp]) -> NDArray[Any]:
    """`arr[..., idx]` with idx's axes first: numpy's `arr[idx]` when the sampled axis is its axis 0."""
    out = arr[..., idx]
    return np.moveaxis(out, tuple(range(arr.ndim - 1, out.ndim)), tuple(range(idx.ndim)))

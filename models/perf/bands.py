"""The rules every throughput model shares for its band and its memory fit, written once.

* Extrapolation: a model calibrated at one point widens its band with the distance from it. Each input's
  distance is |log2(value / calibrated value)| (doublings); the distances add in quadrature, and each
  doubling adds `per_doubling` relative standard deviation (`extrapolation_sd`). PostgreSQL TPS
  (`models.perf.pg_tps`) and SAP IQ (`models.perf.sap_iq`) both use it, each with its own per-doubling
  figure in its calibration file.
* Memory fit: the share of the data a cache does not hold (`miss_share`), uniform access.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def doublings(value: float, calibrated: float) -> float:
    """|log2(value / calibrated)|: how many doublings (or halvings) `value` lies from the calibration point.

    >>> doublings(8.0, 2.0), doublings(1.0, 4.0), doublings(3.0, 3.0)
    (2.0, 2.0, 0.0)
    """
    return abs(math.log2(value / calibrated))


def distance(dists: Iterable[float]) -> float:
    """The distances in each dimension added in quadrature (doublings).

    >>> distance([3.0, 4.0]), distance([])
    (5.0, 0.0)
    """
    return math.sqrt(sum(d * d for d in dists))


def extrapolation_sd(per_doubling: float, dists: Iterable[float]) -> float:
    """The extrapolation part of a relative sd: `per_doubling` per doubling of distance, in quadrature
    (0 at the calibration point).

    >>> round(extrapolation_sd(0.10, [2.0, 0.0]), 3), extrapolation_sd(0.10, [0.0])
    (0.2, 0.0)
    """
    return per_doubling * distance(dists)


def miss_share(cache_gib: float, working_set_gib: float) -> float:
    """Share of reads that miss the cache: the working set not held in it (uniform access).

    >>> miss_share(4.0, 3.0), miss_share(4.0, 8.0), miss_share(4.0, 32.0)
    (0.0, 0.5, 0.875)
    """
    if working_set_gib <= 0:
        return 0.0
    return min(1.0, max(0.0, 1.0 - cache_gib / working_set_gib))

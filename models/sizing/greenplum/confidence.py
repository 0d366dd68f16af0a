"""One estimate: the performance targets are met on the estimate the design reports.

The host search runs on point predictions (fast, over every candidate); the design then reports
Monte Carlo P10/P50/P90. Sizing on one and reporting the other let a design "meet" 600 s on the
point prediction and miss it at P50. Here the chosen candidates are settled on the reported
estimate at the scenario's confidence (`targets.confidence`): P50 by default, P90 when asked
(a time then has to hold at its 90th percentile, a rate at its 10th: nine designs in ten meet
it). The quantiles come from the same seeded parameter draw as the reported ranges, so the
value checked is exactly the value shown (`metrics.at_confidence`); here, whether each target is met on them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from models.scenario import GreenplumAnalytics, GreenplumOltp, Targets
from models.vocabulary import TARGETS

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
GpWorkload = GreenplumAnalytics | GreenplumOltp


def meets(workload: GpWorkload, targets: Targets, values: dict[str, FloatArray]) -> dict[str, NDArray[np.bool_]]:
    """Per performance target: met by each row of `values`."""
    out: dict[str, NDArray[np.bool_]] = {}
    for name, target in TARGETS.items():
        want = targets.limit(name, workload)
        if want is None or target.metric not in values:
            continue
        v = values[target.metric]
        out[name] = v >= want if target.bound == "min" else v <= want
    return out

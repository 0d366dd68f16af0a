"""One estimate: the performance targets are met on the estimate the design reports.

The host search runs on point predictions (fast, over every candidate); the design then reports
Monte Carlo P10/P50/P90. Sizing on one and reporting the other let a design "meet" 600 s on the
point prediction and miss it at P50. Here the chosen candidates are settled on the reported
estimate at the scenario's confidence (`targets.confidence`): P50 by default, P90 when asked
(a time then has to hold at its 90th percentile, a rate at its 10th: nine designs in ten meet
it). The quantiles come from the same seeded parameter draw as the reported ranges, so the
value checked is exactly the value shown.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from models.percentiles import percentiles
from models.perf import scan_load, scan_load_estimates
from models.scenario import GreenplumAnalytics, GreenplumOltp, Targets
from models.sizing.greenplum.metrics import GpContext, report_seconds
from models.sizing.targets import percentile
from models.vocabulary import TARGETS

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
GpWorkload = GreenplumAnalytics | GreenplumOltp


def at_confidence(
    workload: GpWorkload, ctx: GpContext, hosts: IntArray, etl: IntArray, confidence: str,
    only: frozenset[str] | None = None,
) -> dict[str, FloatArray]:
    """Every estimate of one candidate (`ctx` of one) at each host count, at the confidence percentile.

    `only` names the analytics metrics wanted (a host search probes its targets' metrics alone; each
    metric is computed on its own from the same draw, so a subset holds the same values)."""
    h = np.asarray(hosts, dtype=float).reshape(-1, 1)
    e = np.maximum(np.asarray(etl, dtype=float), 1).reshape(-1, 1)
    if isinstance(workload, GreenplumOltp):
        from models.perf import gp_oltp  # OLTP only: analytics sizing never loads it

        # `gp_oltp.predict_tps`'s estimate at the percentile, from the cluster's curve (each count computed once)
        tps = gp_oltp.curve(workload.mix, float(workload.clients), float(ctx.coordinator_cores[0]),
                                  float(ctx.segment_cores[0]), percentile("tps", confidence))
        return {"tps": tps.at(np.asarray(hosts, dtype=np.int64).ravel())}
    shape = replace(ctx.with_counts(h, e))
    params = scan_load_estimates.sampled_params()
    out = {}
    if only is None or "full_scan_s" in only:
        out["full_scan_s"] = scan_load.full_scan_seconds(shape, ctx.data_on_disk_tb, params).value
    if only is None or "load_tb_per_hour" in only:
        out["load_tb_per_hour"] = scan_load.load_tb_per_hour(shape, params).value
    if only is None or "queries_per_hour" in only or "report_s" in only:
        out["queries_per_hour"] = scan_load.queries_per_hour(
            shape, ctx.data_on_disk_tb, ctx.running(workload), workload.scan_fraction_pct / 100.0, params
        ).value
        out["report_s"] = report_seconds(out["queries_per_hour"], workload.concurrent_queries)
    return {k: percentiles(np.asarray(v, dtype=float), percentile(k, confidence), axis=1) for k, v in out.items()}


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

"""A Greenplum candidate settled on the estimate it reports: hosts grown until every target holds at the
scenario's confidence, or to where more hosts stop helping when a target is out of reach."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from models.perf import gp_oltp
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform, Targets
from models.sizing import confidence, metrics, mirroring
from models.sizing.candidates import Candidates, NetworkChoice
from models.sizing.greenplum import (
    MAX_ETL_HOSTS,
    MAX_SEGMENT_HOSTS,
    Evaluated,
    GpWorkload,
    capacity_per_host,
    evaluate,
    min_hosts,
    mirror_policy,
    needed_tb,
    pick,
    primaries_per_host,
)
from models.vocabulary import METRICS, TARGETS

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


def smallest_from(ok: Callable[[IntArray], BoolArray], start: int, limit: int, batch: int = 64) -> tuple[int, bool]:
    """The smallest count n in [start, limit] with ok(n) (monotone), probing `batch` counts at a time.

    >>> smallest_from(lambda h: h >= 70, 10, 1000)
    (70, True)
    >>> smallest_from(lambda h: h >= 5000, 10, 1000)
    (1000, False)
    """
    lo = max(int(start), 0)
    while lo <= limit:
        pts = np.arange(lo, min(lo + batch, limit + 1), dtype=np.int64)
        good = np.asarray(ok(pts), dtype=bool)
        if np.any(good):
            return int(pts[int(np.argmax(good))]), True
        lo = int(pts[-1]) + 1
        batch *= 2  # far away: widen the window (the probes are vectorized)
    return limit, False


def settle(
    workload: GpWorkload,
    targets: Targets,
    c1: Candidates,
    net: NetworkChoice,
    utilization: float,
    extra_memory_price: float,
    platform: Platform | None,
    start_hosts: int,
) -> Evaluated:
    """Candidate `c1` (one) sized on the estimate it reports, at the scenario's confidence.

    Hosts grow from `start_hosts` (the point-prediction answer) until every performance target
    holds at the confidence percentile; ETL hosts likewise for the load target. The result's
    metrics are those percentile values and `meets` is judged on them.
    """
    primaries, vms = primaries_per_host(workload, c1, platform)
    ctx = metrics.GpContext.of(workload, c1, primaries, vms, net, needed_tb(workload))
    conf = targets.confidence
    perf_targets = confidence.meets(workload, targets, confidence.at_confidence(
        workload, ctx, np.array([start_hosts]), np.array([MAX_ETL_HOSTS]), conf))

    hosts, out_of_reach = _reachable_hosts(workload, targets, c1, ctx, vms, start_hosts, perf_targets)
    etl = 0
    if targets.min_load_tb_per_hour is not None and isinstance(workload, GreenplumAnalytics):
        want = targets.min_load_tb_per_hour

        def etl_ok(e: IntArray) -> BoolArray:
            vals = confidence.at_confidence(workload, ctx, np.full(e.shape, hosts), e, conf)
            return vals["load_tb_per_hour"] >= want

        etl, _ = smallest_from(etl_ok, 1, MAX_ETL_HOSTS)
    ev = evaluate(workload, targets, c1, net, utilization, extra_memory_price, fixed_hosts=hosts, platform=platform,
                  fixed_etl=etl)
    vals = confidence.at_confidence(workload, ctx, np.array([hosts]), np.array([etl]), conf)
    meets = dict(ev.meets)
    meets.update(confidence.meets(workload, targets, vals))
    return dataclasses.replace(ev, metrics={k: np.asarray(v, dtype=float) for k, v in vals.items()}, meets=meets,
                               out_of_reach=out_of_reach)


PLATEAU = 0.01  # within 1 % of the best value any host count gives: more hosts stop helping


def _reachable_hosts(
    workload: GpWorkload,
    targets: Targets,
    c1: Candidates,
    ctx: metrics.GpContext,
    vms: IntArray,
    start_hosts: int,
    perf_targets: dict[str, BoolArray],
) -> tuple[int, dict[str, tuple[float, str]]]:
    """Hosts meeting every reachable target at the confidence; targets out of reach do not grow the cluster.

    A target that even MAX_SEGMENT_HOSTS cannot meet sizes the cluster only up to where its metric
    stops improving (within 1 % of its best, e.g. a coordinator-bound OLTP cluster); where it keeps
    improving with hosts it adds none: the design stays at what capacity and the reachable targets
    need, and the warning states the best value and the resource that binds.
    """
    conf = targets.confidence
    floor = int(np.maximum(
        np.ceil(needed_tb(workload) / np.maximum(capacity_per_host(workload, c1), 1e-12)),
        min_hosts(workload, primaries_per_host(workload, c1)[0] // vms),
    )[0])
    floor = min(max(floor, 1), MAX_SEGMENT_HOSTS)
    if not perf_targets:
        return max(start_hosts, floor) if start_hosts < MAX_SEGMENT_HOSTS else floor, {}
    big = MAX_ETL_HOSTS

    def values(h: IntArray) -> dict[str, FloatArray]:
        return confidence.at_confidence(workload, ctx, h, np.full(h.shape, big), conf)

    at_max = values(np.array([MAX_SEGMENT_HOSTS]))
    met_at_max = confidence.meets(workload, targets, at_max)
    start = start_hosts if start_hosts < MAX_SEGMENT_HOSTS else floor
    reachable = [n for n, m in met_at_max.items() if bool(m[0])]
    need = max(floor, start) if len(reachable) == len(met_at_max) else floor
    out: dict[str, tuple[float, str]] = {}
    if reachable:
        def ok(h: IntArray) -> BoolArray:
            met = confidence.meets(workload, targets, values(h))
            res = np.ones(h.shape, dtype=bool)
            for n in reachable:
                res &= met[n]
            return res

        need = max(need, smallest_from(ok, need, MAX_SEGMENT_HOSTS)[0])
    for name in (n for n in met_at_max if n not in reachable):
        metric = TARGETS[name].metric
        best = float(at_max[metric][0])
        higher = METRICS[metric].better == "higher"

        def near(h: IntArray, metric: str = metric, best: float = best, higher: bool = higher) -> BoolArray:
            v = values(h)[metric]
            return v >= best * (1 - PLATEAU) if higher else v <= best * (1 + PLATEAU)

        plateau, _ = smallest_from(near, floor, MAX_SEGMENT_HOSTS)
        if plateau <= MAX_SEGMENT_HOSTS // 2:
            need = max(need, plateau)
        out[name] = (best, _binding_at(workload, ctx, MAX_SEGMENT_HOSTS))
    policy = mirror_policy(workload)
    hosts = int(mirroring.round_hosts(policy, np.array([need]), vms[:1], workload.mirror_block_hosts)[0])
    return min(hosts, MAX_SEGMENT_HOSTS), out


def _binding_at(workload: GpWorkload, ctx: metrics.GpContext, hosts: int) -> str:
    """The resource that binds the main metric at `hosts` (point prediction)."""
    h = np.array([hosts], dtype=np.int64)
    if isinstance(workload, GreenplumOltp):
        pred = gp_oltp.predict_tps(workload.mix, workload.clients, float(ctx.coordinator_cores[0]), float(hosts),
                                   float(ctx.segment_cores[0]), n=0)
        return str(np.asarray(pred.binding_resource).ravel()[0])
    code = int(metrics.gp_point(workload, ctx, h, np.full(1, MAX_ETL_HOSTS))["binding"][0])
    return metrics.binding_name(code)


def pick_settled(
    workload: GpWorkload,
    targets: Targets,
    ev: Evaluated,
    net: NetworkChoice,
    utilization: float,
    extra_memory_price: FloatArray,
    platform: Platform | None,
    most: int = 256,
) -> tuple[int, Evaluated, bool]:
    """The cheapest candidate once settled on the reported estimate: (index, its settled evaluation, feasible).

    Settling only adds hosts, so a candidate's point capex is a lower bound of its settled capex:
    candidates are settled cheapest first until the next one's lower bound is no cheaper than the
    best settled design (`size` and `optimize` both pick this way, so they agree to the cent).
    """
    c = ev.candidates
    feasible = ev.feasible
    if not np.any(feasible):
        i, _ = pick(ev)
        one = settle(workload, targets, c.take(np.array([i])), net, utilization, float(extra_memory_price[i]),
                     platform, int(ev.segment_hosts[i]))
        return i, one, False
    idx = np.flatnonzero(feasible)
    order = idx[np.lexsort((c.drives_per_host[idx], ev.segment_hosts[idx], ev.capex[idx]))]
    best: tuple[int, Evaluated] | None = None
    fallback: tuple[int, Evaluated] | None = None
    for i in order[:most]:
        if best is not None and ev.capex[i] >= best[1].capex[0]:
            break
        one = settle(workload, targets, c.take(np.array([i])), net, utilization, float(extra_memory_price[i]),
                     platform, int(ev.segment_hosts[i]))
        if bool(one.feasible[0]):
            if best is None or one.capex[0] < best[1].capex[0]:
                best = (int(i), one)
        elif fallback is None:
            fallback = (int(i), one)
    if best is not None:
        return best[0], best[1], True
    assert fallback is not None
    return fallback[0], fallback[1], False

"""Greenplum sizing (analytics and OLTP): candidates in, the cheapest design meeting every target out.

`evaluate` works on arrays of candidates (see `candidates.py`) and is the single
code path behind `size` and the optimizer.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.perf import gp_oltp
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform, Targets
from models.sizing import confidence, metrics, mirroring, segments
from models.sizing.candidates import Candidates, NetworkChoice
from models.sizing.rules import (
    RULES,
    coordinator_count,
    coordinator_drive_count,
    data_needed_tb,
    user_data_capacity_tb,
)
from models.sizing.search import Probe, smallest_meeting
from models.vocabulary import CAPACITY, METRICS, RAID_LEVELS, TARGETS, MirrorPolicy, targets_for

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

MAX_SEGMENT_HOSTS = 1000  # beyond any Greenplum cluster in production; past this a target is out of reach
MAX_ETL_HOSTS = 64
# OLTP has clients, not report queries: it takes the tier of any count above the Type 1 threshold
OLTP_AS_CONCURRENCY = 10**6

GpWorkload = GreenplumAnalytics | GreenplumOltp


@dataclass(frozen=True)
class Evaluated:
    """The derived design of every candidate, with what it costs and how it performs (P50)."""

    candidates: Candidates
    segment_hosts: IntArray
    etl_hosts: IntArray
    primaries_per_host: IntArray
    vms_per_host: IntArray
    user_capacity_tb: FloatArray  # whole cluster
    capex: FloatArray
    power_w: FloatArray
    rack_u: FloatArray
    metrics: dict[str, FloatArray]
    binding: IntArray
    meets: dict[str, BoolArray]  # per target name: met on the P50 estimate
    # settled designs only: per target out of reach even at MAX_SEGMENT_HOSTS, (best value, binding resource)
    out_of_reach: dict[str, tuple[float, str]] = dataclasses.field(default_factory=dict)

    @classmethod
    def concat(cls, parts: list[Evaluated], candidates: Candidates) -> Evaluated:
        if len(parts) == 1:
            return parts[0]

        def cat(name: str) -> NDArray[Any]:
            return np.concatenate([getattr(p, name) for p in parts])

        return cls(
            candidates=candidates,
            segment_hosts=cat("segment_hosts"),
            etl_hosts=cat("etl_hosts"),
            primaries_per_host=cat("primaries_per_host"),
            vms_per_host=cat("vms_per_host"),
            user_capacity_tb=cat("user_capacity_tb"),
            capex=cat("capex"),
            power_w=cat("power_w"),
            rack_u=cat("rack_u"),
            metrics={k: np.concatenate([p.metrics[k] for p in parts]) for k in parts[0].metrics},
            binding=cat("binding"),
            meets={k: np.concatenate([p.meets[k] for p in parts]) for k in parts[0].meets},
        )

    def take(self, index: IntArray) -> Evaluated:
        """The candidates `index` only (the streamed search keeps one row per reported design).

        Generic over the fields, so a field added later (arrays, dicts of arrays) follows.
        """
        def pick(value: Any) -> Any:
            if isinstance(value, Candidates):
                return value.take(index)
            if isinstance(value, dict):
                return {k: v[index] for k, v in value.items()}
            if isinstance(value, np.ndarray) and value.ndim:
                return value[index]
            return value

        return Evaluated(**{f.name: pick(getattr(self, f.name)) for f in dataclasses.fields(self)})

    @property
    def feasible(self) -> BoolArray:
        ok = np.ones(len(self.candidates), dtype=bool)
        for met in self.meets.values():
            ok &= met
        return ok


def min_data_drives() -> int:
    return int(figure(RULES, "segment_min_data_drives"))


def primaries_per_host(
    workload: GpWorkload, c: Candidates, platform: Platform | None = None
) -> tuple[IntArray, IntArray]:
    """Primary segments and VMs per host for every candidate (see `segments.py`)."""
    sp = segments.plan(workload, c, platform)
    return sp.primaries_per_host, sp.vms_per_host


def capacity_per_host(workload: GpWorkload, c: Candidates) -> FloatArray:
    out = np.zeros(len(c))
    for code, name in enumerate(RAID_LEVELS):
        sel = c.raid_code == code
        if np.any(sel):
            out[sel] = user_data_capacity_tb(c.capacity_tb[sel], c.drives_per_host[sel], name, workload.mirrors)
    return out


def needed_tb(workload: GpWorkload) -> float:
    return data_needed_tb(
        workload.data_tb, workload.growth_pct_per_year, workload.horizon_years, workload.compression_ratio
    )


def mirror_policy(workload: GpWorkload) -> MirrorPolicy | None:
    return workload.mirroring if workload.mirrors else None


def min_hosts(workload: GpWorkload, primaries_per_unit: IntArray | int = 1) -> IntArray:
    """The fewest physical segment hosts the mirroring policy can be built on."""
    return mirroring.min_physical_hosts(mirror_policy(workload), primaries_per_unit, workload.mirror_block_hosts)


def host_costs(c: Candidates, net: NetworkChoice, extra_memory_price: FloatArray) -> tuple[FloatArray, ...]:
    """Price and watts of a segment, coordinator and ETL host of each candidate."""
    seg_price = c.server_price + c.drives_per_host * c.drive_price + net.price_per_host + extra_memory_price
    coord_price = c.server_price + coordinator_drive_count() * c.drive_price + net.price_per_host
    etl_price = seg_price - extra_memory_price
    return seg_price, coord_price, etl_price


def evaluate(
    workload: GpWorkload,
    targets: Targets,
    c: Candidates,
    net: NetworkChoice,
    utilization: float,
    extra_memory_price: FloatArray | float = 0.0,
    fixed_hosts: int | None = None,
    platform: Platform | None = None,
    fixed_etl: int | None = None,
) -> Evaluated:
    n = len(c)
    extra_mem = np.broadcast_to(np.asarray(extra_memory_price, dtype=float), (n,))
    primaries, vms = primaries_per_host(workload, c, platform)
    cap_host = capacity_per_host(workload, c)
    need = needed_tb(workload)
    with np.errstate(divide="ignore", invalid="ignore"):
        h_cap = np.where(cap_host > 0, np.ceil(need / cap_host), MAX_SEGMENT_HOSTS).astype(np.int64)
    h_low = np.maximum(h_cap, min_hosts(workload, primaries // vms))
    ctx = metrics.GpContext.of(workload, c, primaries, vms, net, need)

    perf_ok = _perf_requirement(workload, targets, ctx)
    if fixed_hosts is not None:
        hosts = np.full(n, fixed_hosts, dtype=np.int64)
    else:
        guess = _host_guess(workload, targets, ctx, h_low)
        hosts, _ = smallest_meeting(perf_ok, h_low, MAX_SEGMENT_HOSTS, guess)
        # block mirroring fills whole blocks; more hosts never lower performance, so targets stay met
        hosts = np.minimum(
            mirroring.round_hosts(mirror_policy(workload), hosts, vms, workload.mirror_block_hosts), MAX_SEGMENT_HOSTS
        )
    etl = np.zeros(n, dtype=np.int64)
    if fixed_etl is not None:
        etl = np.full(n, fixed_etl, dtype=np.int64)
    elif targets.min_load_tb_per_hour is not None and isinstance(workload, GreenplumAnalytics):
        wanted_load = targets.min_load_tb_per_hour

        def load_ok(e: IntArray, idx: IntArray) -> BoolArray:
            return metrics.gp_load_tb_per_hour(ctx.take(idx), hosts[idx], e) >= wanted_load

        etl, _ = smallest_meeting(load_ok, np.ones(n, dtype=np.int64), MAX_ETL_HOSTS)
    perf = metrics.gp_point(workload, ctx, hosts, etl)

    seg_price, coord_price, etl_price = host_costs(c, net, extra_mem)
    coordinators = coordinator_count()
    capex = hosts * seg_price + coordinators * coord_price + etl * etl_price
    seg_w = metrics.host_power_w(c, c.drives_per_host, net, utilization)
    coord_w = metrics.host_power_w(c, np.full(n, coordinator_drive_count()), net, utilization * 0.5)
    power = hosts * seg_w + coordinators * coord_w + etl * seg_w
    rack = (hosts + coordinators + etl) * c.rack_u

    meets: dict[str, BoolArray] = {CAPACITY: hosts >= h_cap}
    meets.update(_target_checks(workload, targets, {**perf, "capex": capex, "power_w": power, "rack_u": rack}))
    return Evaluated(
        candidates=c,
        segment_hosts=hosts,
        etl_hosts=etl,
        primaries_per_host=primaries,
        vms_per_host=vms,
        user_capacity_tb=cap_host * hosts,
        capex=capex,
        power_w=power,
        rack_u=rack,
        metrics={k: v for k, v in perf.items() if k != "binding"},
        binding=perf["binding"].astype(np.int64),
        meets=meets,
    )


def _perf_requirement(workload: GpWorkload, targets: Targets, ctx: metrics.GpContext) -> Probe:
    """ok(hosts, idx) for the segment-side performance targets (every one monotone in hosts)."""

    def ok(hosts: IntArray, idx: IntArray) -> BoolArray:
        sub = ctx.take(idx)
        res = np.ones(hosts.shape, dtype=bool)
        if isinstance(workload, GreenplumAnalytics):
            if targets.max_full_scan_s is not None:
                res &= metrics.gp_full_scan_s(sub, hosts) <= targets.max_full_scan_s
            if targets.min_queries_per_hour is not None:
                res &= metrics.gp_queries_per_hour(sub, hosts, workload) >= targets.min_queries_per_hour
            if targets.min_load_tb_per_hour is not None:
                # the segments' write side must keep up; the ETL hosts are sized after
                big = np.full(hosts.shape, MAX_ETL_HOSTS, dtype=np.int64)
                res &= metrics.gp_load_tb_per_hour(sub, hosts, big) >= targets.min_load_tb_per_hour
        else:
            wanted = targets.min_tps or workload.target_tps
            if wanted is not None:
                res &= metrics.gp_tps(sub, hosts, workload) >= wanted
        return res

    return ok


def _host_guess(workload: GpWorkload, targets: Targets, ctx: metrics.GpContext, h_low: IntArray) -> FloatArray | None:
    """Hosts each target needs if performance scaled linearly with hosts from the capacity minimum.

    Scans and loads nearly do (each host brings its own drives, cores and ports); the search
    then checks the real model around this guess.
    """
    guesses: list[FloatArray] = []
    if isinstance(workload, GreenplumAnalytics):
        if targets.max_full_scan_s is not None:
            guesses.append(h_low * metrics.gp_full_scan_s(ctx, h_low) / targets.max_full_scan_s)
        if targets.min_queries_per_hour is not None:
            guesses.append(h_low * targets.min_queries_per_hour / metrics.gp_queries_per_hour(ctx, h_low, workload))
        if targets.min_load_tb_per_hour is not None:
            big = np.full(h_low.shape, MAX_ETL_HOSTS, dtype=np.int64)
            guesses.append(h_low * targets.min_load_tb_per_hour / metrics.gp_load_tb_per_hour(ctx, h_low, big))
    if not guesses:
        return None
    return np.maximum(np.max(np.stack(guesses), axis=0), h_low)


def _target_checks(workload: GpWorkload, targets: Targets, values: dict[str, FloatArray]) -> dict[str, BoolArray]:
    """Per target set for this kind: met on the P50 `values` (estimates and totals by metric name)."""
    out: dict[str, BoolArray] = {}
    for target in targets_for(workload.kind):
        limit = getattr(targets, target.name)
        if target.name == "min_tps" and limit is None and isinstance(workload, GreenplumOltp):
            limit = workload.target_tps  # the workload's own TPS goal stands in for a missing target
        if limit is not None:
            out[target.name] = np.asarray(target.met(values[target.metric], limit))  # type: ignore[arg-type]
    return out


def pick(ev: Evaluated) -> tuple[int, bool]:
    """Index of the cheapest feasible candidate (ties: fewer hosts, fewer drives); else the nearest.

    The nearest design is the one that fails the fewest targets, then the cheapest of those.
    """
    feasible = ev.feasible
    order_keys = (ev.candidates.drives_per_host, ev.segment_hosts, ev.capex)
    if np.any(feasible):
        idx = np.flatnonzero(feasible)
        best = idx[np.lexsort(tuple(k[idx] for k in order_keys))[0]]
        return int(best), True
    misses = np.zeros(len(ev.candidates), dtype=np.int64)
    for met in ev.meets.values():
        misses += ~met
    idx = np.flatnonzero(misses == misses.min())
    best = idx[np.lexsort(tuple(k[idx] for k in order_keys))[0]]
    return int(best), False


def hosts_for(need_tb: float, per_host_tb: float) -> int:
    return math.ceil(need_tb / per_host_tb) if per_host_tb > 0 else MAX_SEGMENT_HOSTS


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

"""A Greenplum candidate settled on the estimate it reports: hosts grown until every target holds at the
scenario's confidence, or to where more hosts stop helping when a target is out of reach."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform, Targets
from models.sizing.greenplum import confidence, metrics, mirroring
from models.sizing.greenplum.bisection import smallest_meeting
from models.sizing.greenplum.candidates import Candidates
from models.sizing.greenplum.context import Fixed, GpWorkload, SearchContext, Start, needed_tb
from models.sizing.greenplum.evaluation import (
    MAX_ETL_HOSTS,
    MAX_SEGMENT_HOSTS,
    MIN_MARGINAL_GAIN,
    Evaluated,
    capacity_per_host,
    evaluate,
    metric_limits,
    min_hosts,
    mirror_policy,
    primaries_per_host,
    stops_helping,
)
from models.vocabulary import TARGETS

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
NEAR = 2  # host counts the settling probes at once before it searches where more hosts stop helping


# A cost per candidate the settled designs are ranked on in place of capex (`tco.approx_tco`); the shortlist's
# points then hold in `ev.capex` a lower bound of it at their hosts or more (`tco.tco_floor`: settling only
# adds hosts, and the cost may fall as hosts are added where the bound does not).
Cost = Callable[[Evaluated], FloatArray]
# How much a candidate's ranked cost grows at least with more segment hosts (the candidate, its point segment and
# ETL hosts, how many of them ETL hosts, the hosts added, the capex and watts they add at least):
# `tco.tco_floor_gain`; capex grows by the capex added.
Gain = Callable[[Candidates, int, int, int, float, float], float]


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


def _bisect(ok: Callable[[IntArray], BoolArray], low: int, limit: int) -> int:
    """The smallest count in [low, limit] with ok (monotone), by bisection: one count per probe (`limit` if none).

    >>> _bisect(lambda h: h >= 70, 10, 1000), _bisect(lambda h: h >= 5000, 10, 1000)
    (70, 1000)
    """
    n, _ = smallest_meeting(lambda h, idx: ok(h), np.array([low], dtype=np.int64), limit)
    return int(n[0])


def settle(sc: SearchContext, c1: Candidates, extra_memory_price: float, start: Start,
           searched: dict[tuple[object, ...], Searched] | None = None, prelude: Prelude | None = None) -> Evaluated:
    """Candidate `c1` (one) sized on the estimate it reports, at the scenario's confidence.

    Hosts grow from `start.hosts` (the point-prediction answer) until every performance target
    holds at the confidence percentile; ETL hosts likewise for the load target. The result's
    metrics are those percentile values and `meets` is judged on them.

    `searched` (one per workload and targets) keeps each host search by what it depends on (the
    candidate's model context, start and floor), so candidates differing only in price (a part listed
    by several vendors, DIMMs added) are searched once and only priced each. `prelude`: `c1`'s row of a
    shortlist's `Prelude` (computed here when not given).
    """
    workload, targets = sc.workload, sc.targets
    pre = prelude if prelude is not None else Prelude.of(workload, c1, sc.platform)
    vms, floor = pre.vms, int(pre.floor[0])
    ctx = _context(sc, c1, pre, start.coordinator)
    key = _search_key(workload, ctx, start.hosts, floor, vms)
    found = searched.get(key) if searched is not None else None
    if found is None:
        found = _search(sc, ctx, vms, start.hosts, floor)
        if searched is not None:
            searched[key] = found
    ev = evaluate(sc, c1, extra_memory_price, Fixed(found.hosts, found.etl_hosts, start.coordinator))
    return settled_on_estimate(workload, targets, ev, found)


def _context(sc: SearchContext, c1: Candidates, pre: Prelude, coordinator: int) -> metrics.GpContext:
    """What the models need of candidate `c1` for its host search (`pre`: its segment plan)."""
    ctx = metrics.GpContext.of(sc.workload, c1, pre.primaries, pre.vms, sc.net, sc.need_tb, platform=sc.platform)
    if sc.coordinators is not None and coordinator >= 0:  # the OLTP coordinator chosen on its own
        ctx = dataclasses.replace(ctx, coordinator_cores=sc.coordinators.cores[[coordinator]])
    return ctx


def least_hosts(sc: SearchContext, c1: Candidates, start: Start, searched: dict[tuple[object, ...], Searched] | None
                = None, prelude: Prelude | None = None, useful: Callable[[int], bool] | None = None) -> int:
    """The fewest segment hosts `settle` can give candidate `c1` in a design meeting every target, at a fraction of
    its cost: the hosts of its search where another candidate ran it (`searched`); else its start (the point
    answer, at least its floor), one more where the start misses a performance target at the confidence (the
    search grows from there, or the design misses that target), rounded up to the mirroring's blocks.

    `useful(hosts)`: whether a bound of `hosts` would serve the caller; where one more host would not, the start is
    taken without checking it (a lower bound all the same)."""
    workload, targets = sc.workload, sc.targets
    pre = prelude if prelude is not None else Prelude.of(workload, c1, sc.platform)
    ctx = _context(sc, c1, pre, start.coordinator)
    floor = int(pre.floor[0])
    found = searched.get(_search_key(workload, ctx, start.hosts, floor, pre.vms)) if searched is not None else None
    if found is not None:
        return found.hosts
    first = max(min(start.hosts, MAX_SEGMENT_HOSTS), floor)

    def rounded(h: int) -> int:
        hosts = mirroring.round_hosts(mirror_policy(workload), np.array([h]), pre.vms[:1], workload.mirror_block_hosts)
        return min(int(hosts[0]), MAX_SEGMENT_HOSTS)

    if useful is not None and not useful(rounded(first + 1)):
        return rounded(first)
    wanted = frozenset(t.metric for n, t in TARGETS.items() if targets.limit(n, workload) is not None)
    vals = metrics.at_confidence(workload, ctx, np.array([first]), np.array([MAX_ETL_HOSTS]), targets.confidence,
                                    only=wanted)
    return rounded(first if bool(_every(confidence.meets(workload, targets, vals), (1,))[0]) else first + 1)


def settled_on_estimate(workload: GpWorkload, targets: Targets, ev: Evaluated, found: Searched) -> Evaluated:
    """`ev` (one candidate, evaluated at the hosts its search `found`) on the estimate it reports: the values at
    the confidence, the targets judged on them, what stays out of reach."""
    _, _, out_of_reach, vals = found
    meets = dict(ev.meets)
    meets.update(confidence.meets(workload, targets, vals))
    return dataclasses.replace(ev, metrics={k: np.array(v, dtype=float) for k, v in vals.items()}, meets=meets,
                               out_of_reach=dict(out_of_reach))


class Searched(NamedTuple):
    """One candidate's host search at the confidence: its segment and ETL hosts, the targets out of reach there
    (value here, binding resource, best value within the host cap, hosts for it) and the values there."""

    hosts: int
    etl_hosts: int
    out_of_reach: dict[str, tuple[float, str, float, int]]
    values: dict[str, FloatArray]


@dataclass(frozen=True)
class Prelude:
    """What settling candidates needs before their host searches, for several at once: primaries and VMs per host
    (the platform's segment plan) and the fewest hosts each may have (`_floors`)."""

    primaries: IntArray
    vms: IntArray
    floor: IntArray

    @classmethod
    def of(cls, workload: GpWorkload, c: Candidates, platform: Platform | None) -> Prelude:
        primaries, vms = primaries_per_host(workload, c, platform)
        return cls(primaries, vms, _floors(workload, c, vms, platform))

    def row(self, j: int) -> Prelude:
        return Prelude(self.primaries[[j]], self.vms[[j]], self.floor[[j]])


def _search_key(workload: GpWorkload, ctx: metrics.GpContext, start_hosts: int, floor: int, vms: IntArray
                ) -> tuple[object, ...]:
    """What a host search depends on besides the workload and targets: the model context, start, floor, VMs.

    An OLTP search reads only the coordinator's and the segment hosts' cores of the context (its TPS model and
    the binding resource; no ETL hosts): candidates differing in drives share it."""
    if isinstance(workload, GreenplumOltp):
        return oltp_search_key(start_hosts, floor, vms, ctx.coordinator_cores, ctx.segment_cores)
    shape = tuple(np.asarray(getattr(ctx.shape, f.name), dtype=float).tobytes()
                  for f in dataclasses.fields(ctx.shape))
    queries = None if ctx.queries is None else ctx.queries.tobytes()  # the admitted reports: memory's, not the shape's
    return (int(start_hosts), floor, int(vms[0]), float(ctx.data_on_disk_tb), ctx.coordinator_cores.tobytes(),
            ctx.segment_cores.tobytes(), shape, queries)


def oltp_search_key(start_hosts: int, floor: int, vms: IntArray, coordinator_cores: FloatArray,
              segment_cores: FloatArray) -> tuple[object, ...]:
    """What an OLTP host search depends on besides the workload and targets (`_search_key`'s OLTP key)."""
    return int(start_hosts), floor, int(vms[0]), coordinator_cores.tobytes(), segment_cores.tobytes()


def _floors(workload: GpWorkload, c: Candidates, vms: IntArray, platform: Platform | None = None) -> IntArray:
    """The fewest hosts each candidate may have: the data's capacity and the segment layout's minimum (both on
    the segment plan without the platform's memory settings: one plan for the two), 1 to MAX_SEGMENT_HOSTS."""
    primaries = primaries_per_host(workload, c)[0]
    floor = np.maximum(
        np.ceil(needed_tb(workload) / np.maximum(capacity_per_host(workload, c, primaries, platform=platform), 1e-12)),
        min_hosts(workload, primaries // vms),
    )
    return np.maximum(np.minimum(floor, MAX_SEGMENT_HOSTS).astype(np.int64), 1)


def _search(sc: SearchContext, ctx: metrics.GpContext, vms: IntArray, start_hosts: int, floor: int) -> Searched:
    """Segment and ETL hosts of one candidate at the scenario's confidence, what stays out of reach, the values."""
    workload, targets = sc.workload, sc.targets
    conf = targets.confidence
    memo: dict[tuple[int, int], dict[str, FloatArray]] = {}

    def at(h: int, e: int) -> dict[str, FloatArray]:
        """Every estimate at one host count, computed once per settle (the search revisits its ends)."""
        if (h, e) not in memo:
            memo[h, e] = metrics.at_confidence(workload, ctx, np.array([h]), np.array([e]), conf)
        return memo[h, e]

    hosts, out_of_reach = _reachable_hosts(sc, ctx, vms, start_hosts, floor, at)
    etl = 0
    if targets.min_load_tb_per_hour is not None and isinstance(workload, GreenplumAnalytics):
        want = targets.min_load_tb_per_hour

        def etl_ok(e: IntArray) -> BoolArray:
            vals = metrics.at_confidence(workload, ctx, np.full(e.shape, hosts), e, conf)
            return vals["load_tb_per_hour"] >= want

        etl, _ = smallest_from(etl_ok, 1, MAX_ETL_HOSTS)
    return Searched(hosts, etl, out_of_reach, at(hosts, etl))


def _reachable_hosts(sc: SearchContext, ctx: metrics.GpContext, vms: IntArray, start_hosts: int, floor: int,
                     at: Callable[[int, int], dict[str, FloatArray]]
                     ) -> tuple[int, dict[str, tuple[float, str, float, int]]]:
    """Hosts meeting every performance target at the confidence, bounded where more hosts stop helping.

    The search grows from `start_hosts` (the point-prediction answer; settling only adds hosts) and
    stops at the fewest hosts meeting every target, or where one more host gains less than
    MIN_MARGINAL_GAIN on every target's metric (a coordinator-bound OLTP plateau, or the linear
    scan's 1/(H+1)), at most MAX_SEGMENT_HOSTS. A target still unmet there is out of reach: the
    design reports the value it reaches and the resource that binds. `at(hosts, etl)`: the estimates there (the
    search's memo).
    """
    workload, targets = sc.workload, sc.targets
    perf_targets = confidence.meets(workload, targets, at(start_hosts, MAX_ETL_HOSTS))
    conf = targets.confidence
    start = max(min(start_hosts, MAX_SEGMENT_HOSTS), floor)
    if not perf_targets:
        return start, {}

    wanted = frozenset(TARGETS[n].metric for n in perf_targets)

    def values(h: IntArray) -> dict[str, FloatArray]:
        vals = metrics.at_confidence(workload, ctx, h, np.full(h.shape, MAX_ETL_HOSTS), conf, only=wanted)
        return {TARGETS[n].metric: vals[TARGETS[n].metric] for n in perf_targets}

    def all_met(h: IntArray) -> BoolArray:
        return _every(confidence.meets(workload, targets, values(h)), h.shape)

    hosts = start
    at_start = at(start, MAX_ETL_HOSTS)
    start_met = _every(confidence.meets(workload, targets, {m: at_start[m] for m in wanted}), (1,))
    if not bool(start_met[0]):  # the point answer falls short at the confidence: grow
        # most fall short by a host or two: one vectorized probe of the next NEAR counts first (a target met
        # there is met, wherever more hosts would stop helping), the stop searched only beyond
        near = min(start + NEAR - 1, MAX_SEGMENT_HOSTS)
        need, found = smallest_from(all_met, start, near, batch=NEAR)
        if found:
            hosts = need
        else:
            limits = metric_limits(workload, targets)
            stop = _bisect(lambda h: stops_helping(values(h), values(h + 1), h, limits), floor, MAX_SEGMENT_HOSTS)
            limit = max(stop, start)
            need, found = smallest_from(all_met, near + 1, limit) if limit > near else (limit, False)
            hosts = need if found else limit
    policy = mirror_policy(workload)
    hosts = min(int(mirroring.round_hosts(policy, np.array([hosts]), vms[:1], workload.mirror_block_hosts)[0]),
                MAX_SEGMENT_HOSTS)
    there = at(hosts, MAX_ETL_HOSTS)
    unmet = [n for n, met in confidence.meets(workload, targets, there).items() if not bool(met[0])]
    binding = _binding_at(workload, ctx, hosts, metric_limits(workload, targets)) if unmet else ""
    cap = at(MAX_SEGMENT_HOSTS, MAX_ETL_HOSTS) if unmet else {}
    return hosts, {n: (float(there[TARGETS[n].metric][0]), binding,
                       *_best_within_cap(n, hosts, float(there[TARGETS[n].metric][0]),
                                         float(cap[TARGETS[n].metric][0]), values))
                   for n in unmet}


def _best_within_cap(name: str, hosts: int, here: float, at_cap: float,
                     values: Callable[[IntArray], dict[str, FloatArray]]) -> tuple[float, int]:
    """The fewest hosts from `hosts` on that come within MIN_MARGINAL_GAIN of the best value of target `name`'s
    metric up to MAX_SEGMENT_HOSTS (the host cap: a plateau reached early, or the cap itself where the metric still
    improves there), with the value there: the pair a DBA can size and get (the cap's own value, printed beside
    the fewer hosts, was up to MIN_MARGINAL_GAIN better than they give)."""
    metric = TARGETS[name].metric
    lower_better = TARGETS[name].bound == "max"
    best = min(here, at_cap) if lower_better else max(here, at_cap)
    if best == here:
        return here, hosts

    def close(h: IntArray) -> BoolArray:
        v = values(h)[metric]
        gap = (v - best) if lower_better else (best - v)
        return np.asarray(gap <= MIN_MARGINAL_GAIN * abs(best))

    fewest = _bisect(close, hosts, MAX_SEGMENT_HOSTS)
    return float(values(np.array([fewest]))[metric][0]), fewest


def _every(met: dict[str, BoolArray], shape: tuple[int, ...]) -> BoolArray:
    """Where every target is met."""
    res = np.ones(shape, dtype=bool)
    for m in met.values():
        res &= m
    return res


def _binding_at(workload: GpWorkload, ctx: metrics.GpContext, hosts: int, limits: dict[str, float]) -> str:
    """The resource that binds the main metric at `hosts` (point prediction).

    OLTP: a segment-side capacity grows with the hosts, so where the search stopped on it, with the TPS asked for
    beyond what the clients give on any hardware (`gp_oltp.client_ceiling_tps`), the clients are what binds; a
    coordinator-bound plateau stays the coordinator's (a bigger one still helps up to the clients' ceiling)."""
    h = np.array([hosts], dtype=np.int64)
    if isinstance(workload, GreenplumOltp):
        from models.perf import gp_oltp  # OLTP only: analytics sizing never loads it

        pred = gp_oltp.predict_tps(workload.mix, workload.clients, float(ctx.coordinator_cores[0]), float(hosts),
                                   float(ctx.segment_cores[0]), n=0, pooled=workload.coordinator_on_segment_host)
        binding = str(np.asarray(pred.binding_resource).ravel()[0])
        beyond = limits.get("tps", 0.0) > float(gp_oltp.client_ceiling_tps(workload.mix, workload.clients))
        return gp_oltp.BINDING_CLIENTS if beyond and binding != gp_oltp.BINDING_COORDINATOR else binding
    code = int(metrics.gp_point(workload, ctx, h, np.full(1, MAX_ETL_HOSTS))["binding"][0])
    return metrics.binding_name(code)

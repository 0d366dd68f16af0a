"""Greenplum sizing (analytics and OLTP): candidates in, the cheapest design meeting every target out.

`evaluate` works on arrays of candidates (see `candidates.py`) and is the single
code path behind `size` and the optimizer.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.perf import cost_power
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform, Targets
from models.sizing.greenplum import confidence, metrics, mirroring, segments
from models.sizing.greenplum import hosts as gp_hosts
from models.sizing.greenplum import part_warnings as gp_part_warnings
from models.sizing.greenplum.bisection import remembered, smallest_meeting
from models.sizing.greenplum.candidates import Candidates
from models.sizing.greenplum.context import Fixed, GpWorkload, SearchContext
from models.sizing.greenplum.coordinator import CoordinatorOptions, on_segment_host
from models.sizing.greenplum.fast.scan_hosts import scan_hosts
from models.sizing.greenplum.hosts import MAX_SEGMENT_HOSTS as MAX_SEGMENT_HOSTS  # moved there; named here as before
from models.sizing.greenplum.hosts import MIN_MARGINAL_GAIN as MIN_MARGINAL_GAIN
from models.sizing.greenplum.hosts import helpful_limit as helpful_limit
from models.sizing.greenplum.hosts import stops_helping as stops_helping
from models.sizing.parts import NetworkChoice
from models.sizing.rules import (
    RULES,
    coordinator_count,
    coordinator_drive_count,
)
from models.vocabulary import CAPACITY, KINDS, METRICS, MirrorPolicy, targets_for

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

MAX_ETL_HOSTS = metrics.MAX_ETL_HOSTS



@dataclass(frozen=True)
class Evaluated:
    """The derived design of every candidate, with what it costs and how it performs (P50)."""

    candidates: Candidates
    segment_hosts: IntArray
    etl_hosts: IntArray
    primaries_per_host: IntArray
    vms_per_host: IntArray
    user_capacity_per_host_tb: FloatArray  # `user_capacity_tb` per segment host
    capex: FloatArray
    power_w: FloatArray
    rack_u: FloatArray
    metrics: Mapping[str, FloatArray]  # `metrics.PointMetrics` for a chunk: some computed when asked for
    binding_code: FloatArray  # `binding`, as the point metrics give it
    meets: dict[str, BoolArray]  # per target name: met on the P50 estimate
    # settled designs only: per target out of reach where more hosts stop helping, (value reached, binding resource)
    out_of_reach: dict[str, tuple[float, str, float, int]] = dataclasses.field(default_factory=dict)
    # per candidate: the coordinator option (`coordinator`) of its design; -1: the segment hosts' server
    coordinator_idx: IntArray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # per candidate: the warnings its parts raise (`gp_part_warnings.count`), and those of them that no host
    # count removes (`gp_part_warnings.fixed`): the recommender prefers fewer before cheaper
    part_warnings: IntArray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    part_warnings_fixed: IntArray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # per candidate: how far it falls short of its targets (`hosts.shortfall_steps`; 0: meets them), so that of
    # designs none of which meets a target the nearest is recommended, not merely the cheapest
    shortfall: IntArray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=np.int64))

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
            user_capacity_per_host_tb=cat("user_capacity_per_host_tb"),
            capex=cat("capex"),
            power_w=cat("power_w"),
            rack_u=cat("rack_u"),
            metrics={k: np.concatenate([p.metrics[k] for p in parts]) for k in parts[0].metrics},
            binding_code=cat("binding_code"),
            meets={k: np.concatenate([p.meets[k] for p in parts]) for k in parts[0].meets},
            coordinator_idx=cat("coordinator_idx"),
            part_warnings=cat("part_warnings"),
            part_warnings_fixed=cat("part_warnings_fixed"),
            shortfall=cat("shortfall"),
        )

    def take(self, index: IntArray) -> Evaluated:
        """The candidates `index` only (the streamed search keeps one row per reported design); generic over the
        fields, so a field added later (arrays, dicts of arrays) follows."""
        def pick(value: Any) -> Any:
            if isinstance(value, Candidates | metrics.PointMetrics):
                return value.take(index)
            if isinstance(value, dict):
                return {k: v[index] for k, v in value.items()}
            if isinstance(value, np.ndarray) and value.ndim:
                return value[index]
            return value

        return Evaluated(**{f.name: pick(getattr(self, f.name)) for f in dataclasses.fields(self)})

    # the cluster's user data and the binding resource's code, found when asked for: the streamed search reads
    # neither but of the few rows it keeps (the same products and conversion as when they were found per chunk)
    @property
    def user_capacity_tb(self) -> FloatArray:
        """User data the whole cluster holds: per host x segment hosts."""
        total: FloatArray = self.user_capacity_per_host_tb * self.segment_hosts
        return total

    @property
    def binding(self) -> IntArray:
        """The binding resource's code (`metrics.binding_name`) per candidate."""
        return np.asarray(self.binding_code, dtype=np.int64)

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


def capacity_per_host(workload: GpWorkload, c: Candidates, primaries: IntArray | None = None, admitted: FloatArray |
                      int | None = None, platform: Platform | None = None, ctx: metrics.GpContext | None = None
                      ) -> FloatArray:
    """User data per host after mirrors, work space (the `admitted` reports, found where None), WAL, catalogs."""
    from models.sizing.greenplum import (
        capacity,  # here, not at the top: keeps this module's import block as i11a edits it
    )

    primaries = primaries_per_host(workload, c, platform)[0] if primaries is None else primaries
    return capacity.candidates_tb(workload, c, primaries, admitted, platform, ctx)  # ctx: once per layout, set


def mirror_policy(workload: GpWorkload) -> MirrorPolicy | None:
    return workload.mirroring if workload.mirrors else None


def min_hosts(workload: GpWorkload, primaries_per_unit: IntArray | int = 1) -> IntArray:
    """The fewest physical segment hosts the mirroring policy can be built on, and at least the OLTP workload's
    `min_segment_hosts` (a cluster already built, or a study's)."""
    least = mirroring.min_physical_hosts(mirror_policy(workload), primaries_per_unit, workload.mirror_block_hosts)
    if not isinstance(workload, GreenplumOltp) or workload.min_segment_hosts is None:
        return least
    return np.maximum(least, workload.min_segment_hosts)


@dataclass(frozen=True)
class CoordinatorHost:
    """Per candidate: the coordinator host's cores, price, average draw and height (one host; two are built)."""

    cores: FloatArray
    price: FloatArray
    watts: FloatArray
    rack_u: FloatArray
    option: int = -1  # the `CoordinatorOptions` index the design records (`Evaluated.coordinator_idx`); -1: none


def same_as_segments(c: Candidates, net: NetworkChoice, utilization: float, option: int = -1,
                     layouts: segments.HostLayouts | None = None) -> CoordinatorHost:
    """A coordinator on the segment hosts' server, with the catalog's RAID-1 pair of the segment drive (`layouts`:
    the candidates' `segments.host_layouts`, when the caller has them)."""
    drives = float(coordinator_drive_count())  # the same for every candidate: no array to build and convert
    price = drives * c.drive_price  # server + drives x drive price + network, summed in that order in one array
    np.add(c.server_price, price, out=price)
    price += net.price_per_host
    return CoordinatorHost(c.cores_total, price, metrics.host_power_w(c, drives, net, utilization * 0.5, layouts),
                           c.rack_u, option)


def option_host(options: CoordinatorOptions, k: int, n: int, net: NetworkChoice, utilization: float
                ) -> CoordinatorHost:
    """Coordinator option `k` for all `n` candidates."""
    server, drive = options.servers[k], options.drives[k]
    drives = coordinator_drive_count()
    watts = cost_power.host_power_w(server.idle_w, server.max_w, utilization * 0.5, drives, drive.watts,
                                    net.nics_per_host, net.nic.watts if net.nic else 0.0)
    return CoordinatorHost(np.full(n, float(server.cores_total)),
                           np.full(n, server.price + drives * drive.price + net.price_per_host),
                           np.full(n, float(watts)), np.full(n, float(server.rack_u)), k)


def evaluate(sc: SearchContext, c: Candidates, extra_memory_price: FloatArray | float = 0.0, fixed: Fixed | None = None,
             layouts: segments.HostLayouts | None = None) -> Evaluated:
    """Every candidate sized (point prediction) in the search context `sc`; with OLTP coordinator options, each
    priced with every option and the cheapest meeting the targets kept (`coordinator`), or the option `fixed` names.
    `fixed`: the host counts taken as given (None: searched). `layouts`: the candidates' `segments.host_layouts`
    where the caller found them (None: found here)."""
    layouts = segments.by_spindles(segments.host_layouts(c) if layouts is None else layouts, c.spinning)
    coordinators = sc.coordinators

    def one(k: int | None) -> Evaluated:
        if k is None or coordinators is None:
            coord = same_as_segments(c, sc.net, sc.utilization, -1 if k is None else k, layouts)
        else:
            coord = option_host(coordinators, k, len(c), sc.net, sc.utilization)
        return _evaluate_with(sc, c, extra_memory_price, fixed, coord, layouts)

    if isinstance(sc.workload, GreenplumOltp) and sc.workload.coordinator_on_segment_host:
        cores, none = on_segment_host(c.cores_total)  # no coordinator host: nothing priced, drawn or racked for it
        return _evaluate_with(sc, c, extra_memory_price, fixed, CoordinatorHost(cores, none, none, none), layouts)
    if not isinstance(sc.workload, GreenplumOltp) or coordinators is None or not len(coordinators):
        return one(None)
    if sc.targets.limit("min_tps", sc.workload) is None:  # no TPS asked for: the segment server coordinates, never less
        return one(None)
    if fixed is not None and fixed.coordinator is not None:
        return one(fixed.coordinator if fixed.coordinator >= 0 else None)
    options = [one(k) for k in range(len(coordinators))]
    # per candidate: feasible before not, then the cheaper, then (none feasible) the higher TPS
    keys = np.stack([np.where(e.feasible, e.capex, np.inf) for e in options])
    tps = np.stack([e.metrics["tps"] for e in options])
    best = np.where(np.isfinite(keys.min(axis=0)), keys.argmin(axis=0), tps.argmax(axis=0))
    merged = Evaluated.concat(options, Candidates(**{
        f.name: np.concatenate([getattr(c, f.name)] * len(options)) for f in dataclasses.fields(Candidates)}))
    return merged.take(best * len(c) + np.arange(len(c)))


def _evaluate_with(sc: SearchContext, c: Candidates, extra_memory_price: FloatArray | float, given: Fixed | None,
                   coord: CoordinatorHost, layouts: segments.HostLayouts | None = None) -> Evaluated:
    workload, targets, net, utilization, platform = sc.workload, sc.targets, sc.net, sc.utilization, sc.platform
    fixed_hosts, fixed_etl = (None, None) if given is None else (given.hosts, given.etl_hosts)
    n = len(c)
    extra_mem = np.broadcast_to(np.asarray(extra_memory_price, dtype=float), (n,))
    # a host but its drive: the segments, the scan's CPU, RAID factors, capacity
    layouts = segments.by_spindles(segments.host_layouts(c), c.spinning) if layouts is None else layouts
    if isinstance(layouts, segments.HostLayouts):  # one drive kind and RAID level per group: once per group
        primaries, vms, off_tier = segments.by_layout(workload, c, platform, layouts)
    else:
        sp = segments.fitted(workload, c, platform, layouts)
        primaries, vms, off_tier = sp.primaries_per_host, sp.vms_per_host, sp.off_tier
    need = sc.need_tb
    ctx = dataclasses.replace(metrics.GpContext.of(workload, c, primaries, vms, net, need, layouts, platform),
                              coordinator_cores=coord.cores)
    cap_host = capacity_per_host(workload, c, primaries, ctx.running(workload), ctx=ctx)
    h_cap = gp_hosts.capacity_hosts(need, cap_host)
    # spread mirroring's fewest hosts follow each design's primaries per segment host; every other policy's is one count
    h_low = np.maximum(h_cap, min_hosts(workload, primaries // vms if mirror_policy(workload) == "spread" else 1))
    hosts, scan_s = (np.full(n, fixed_hosts, dtype=np.int64), None) if fixed_hosts is not None else _segment_hosts(
        workload, targets, ctx, h_low, vms)
    etl, some_etl = _etl_hosts(workload, targets, ctx, hosts, fixed_etl)
    later = _later(workload, targets)
    perf = metrics.gp_point(workload, ctx, hosts, etl, later, scan_s)
    counts = hosts.astype(float)  # the host counts as each product with a float converts them: converted once
    drives = np.asarray(ctx.shape.drives_per_host)  # the float drive counts the scan's model reads
    capex, power, rack = _totals(c, net, utilization, extra_mem, Held(coord, drives, counts, etl if some_etl else None),
                                 layouts)
    meets: dict[str, BoolArray] = {CAPACITY: hosts >= h_cap}
    fixed = gp_part_warnings.fixed(workload, c, layouts) + off_tier  # a flag: 0 or 1 more
    values = {**perf, "capex": capex, "power_w": power, "rack_u": rack}
    meets.update(_target_checks(workload, targets, values))
    return Evaluated(
        candidates=c,
        segment_hosts=hosts,
        etl_hosts=etl,
        primaries_per_host=primaries,
        vms_per_host=vms,
        user_capacity_per_host_tb=cap_host,
        capex=capex,
        power_w=power,
        rack_u=rack,
        metrics=metrics.PointMetrics(
            {k: v for k, v in perf.items() if k != "binding"}, tuple(k for k in metrics.LATER if k in later),
            workload, ctx, hosts, etl,
        ) if later and isinstance(workload, GreenplumAnalytics) else {k: v for k, v in perf.items() if k != "binding"},
        binding_code=perf["binding"],
        meets=meets,
        part_warnings=gp_part_warnings.count(workload, c, counts, need, fixed, ctx.queries),
        part_warnings_fixed=fixed,
        coordinator_idx=np.broadcast_to(np.int64(coord.option), (n,)),  # one value: a read-only view, no column
        shortfall=gp_hosts.shortfall_steps(workload, targets, values),
    )


class Held(NamedTuple):
    """What each design holds besides its parts: the coordinator host, the data drives per host and the segment hosts
    (as floats, as each product with them converts them), and the ETL hosts (None: none)."""

    coord: CoordinatorHost
    drives: FloatArray
    hosts: FloatArray
    etl: IntArray | None


def _totals(c: Candidates, net: NetworkChoice, utilization: float, extra_mem: FloatArray, held: Held,
            layouts: segments.HostLayouts | None = None) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per candidate, the design's capex, average draw and rack units at `hosts` segment hosts and `etl` ETL
    hosts (None: none; `drives` and `hosts`: the counts as floats, as each product below converts them):

        seg_price = server price + drives x drive price + network per host + extra memory
        capex = hosts x seg_price + coordinators x coordinator price + etl x (seg_price - extra memory)
        power = hosts x seg_w + coordinators x coordinator draw + etl x seg_w
        rack = (hosts + etl) x rack_u + coordinators x coordinator rack_u

    Term by term in that order, written into the first array of each sum: the same operations, so the same
    bits, with a third of the temporaries. Without ETL hosts each ETL term is x 0.0, what an integer 0 gives."""
    coord, drives, hosts, etl = held
    coordinators = coordinator_count()
    etl_f: FloatArray | float = 0.0 if etl is None else etl.astype(float)
    seg_price = drives * c.drive_price
    np.add(c.server_price, seg_price, out=seg_price)
    seg_price += net.price_per_host
    seg_price += extra_mem
    capex = hosts * seg_price
    term = np.multiply(coordinators, coord.price)  # each sum's second term, written into this one array in turn
    capex += term
    # Without ETL hosts their terms are x 0.0: +0.0 for the catalog's finite, non-negative prices and watts, and a
    # sum of non-negative terms plus +0.0 is that sum, bit for bit; so they are skipped, two passes each
    if etl is not None:
        np.subtract(seg_price, extra_mem, out=term)
        term *= etl_f
        capex += term
    seg_w = metrics.host_power_w(c, drives, net, utilization, layouts)
    power = hosts * seg_w
    np.multiply(coordinators, coord.watts, out=term)
    power += term
    if etl is not None:
        seg_w *= etl_f  # the segment draw is not needed past this sum
        power += seg_w
    rack = (hosts if etl is None else hosts + etl_f) * c.rack_u  # integer counts: their float sum is exact
    np.multiply(coordinators, coord.rack_u, out=term)
    rack += term
    return capex, power, rack


def _later(workload: GpWorkload, targets: Targets) -> frozenset[str]:
    """The point metrics left for the rows asked for: those no target bounds, unless the main metric."""
    if not isinstance(workload, GreenplumAnalytics):
        return frozenset()
    needed = {t.metric for t in targets_for(workload.kind) if targets.limit(t.name, workload) is not None}
    needed.add(KINDS[workload.kind].main_metric)
    return frozenset(m for m in metrics.LATER if m not in needed)


def _segment_hosts(
    workload: GpWorkload, targets: Targets, ctx: metrics.GpContext, h_low: IntArray, vms: IntArray
) -> tuple[IntArray, FloatArray | None]:
    """Hosts meeting the performance targets (point prediction), bounded where more hosts stop helping; with the
    full-scan seconds there when the closed-form count found them (and nothing moved the count since)."""
    scan_s = gp_hosts.scan_only(workload, targets)
    values = metrics.perf_values(workload, targets, ctx)
    values = values if scan_s else remembered(values)

    def perf_ok(h: IntArray, idx: IntArray) -> BoolArray:
        res = np.ones(h.shape, dtype=bool)
        for met in confidence.meets(workload, targets, values(h, idx)).values():
            res &= met
        return res

    limits = metric_limits(workload, targets)
    seconds: FloatArray | None = None
    if scan_s:  # the full scan alone: the count in closed form where it is exact, the search's elsewhere
        # `helpful_limit` with the seconds in hand; a target is set, so its probe for one is skipped
        hosts, seconds = scan_hosts(ctx.full_scan, h_low, scan_s, MAX_SEGMENT_HOSTS, perf_ok, values, limits)
    else:
        hosts = gp_hosts.search_hosts(perf_ok, h_low, metrics.host_guess(workload, targets, ctx, h_low), values, limits)
    # block mirroring fills whole blocks, past the largest cluster at most there (the searches stay within it);
    # more hosts never lower performance, so targets stay met
    rounded = mirroring.round_hosts(mirror_policy(workload), hosts, vms, workload.mirror_block_hosts)
    return (hosts, seconds) if rounded is hosts else (np.minimum(rounded, MAX_SEGMENT_HOSTS), None)


def _etl_hosts(
    workload: GpWorkload, targets: Targets, ctx: metrics.GpContext, hosts: IntArray, fixed_etl: int | None
) -> tuple[IntArray, bool]:
    """The ETL hosts of each design, and whether any may be non-zero (False: all are 0, known without a pass)."""
    n = len(hosts)
    if fixed_etl is not None:
        return np.full(n, fixed_etl, dtype=np.int64), fixed_etl != 0
    if targets.min_load_tb_per_hour is None or not isinstance(workload, GreenplumAnalytics):
        return np.zeros(n, dtype=np.int64), False
    wanted_load = targets.min_load_tb_per_hour

    def load_ok(e: IntArray, idx: IntArray) -> BoolArray:
        return metrics.gp_load_tb_per_hour(ctx.take(idx), hosts[idx], e) >= wanted_load

    etl, _ = smallest_meeting(load_ok, np.ones(n, dtype=np.int64), MAX_ETL_HOSTS)
    return etl, True


def metric_limits(workload: GpWorkload, targets: Targets) -> dict[str, float]:
    """The limit of each performance target set, by the metric it bounds (e.g. full_scan_s: 600)."""
    out: dict[str, float] = {}
    for target in targets_for(workload.kind):
        limit = targets.limit(target.name, workload)
        if limit is not None and target.metric in METRICS and not target.budget:
            out[target.metric] = float(limit)
    return out


def _target_checks(workload: GpWorkload, targets: Targets, values: dict[str, FloatArray]) -> dict[str, BoolArray]:
    """Per target set for this kind: met on the P50 `values` (estimates and totals by metric name)."""
    out: dict[str, BoolArray] = {}
    for target in targets_for(workload.kind):
        limit = targets.limit(target.name, workload)  # an OLTP workload's target_tps stands in for min_tps
        if limit is not None:
            out[target.name] = np.asarray(target.met(values[target.metric], limit))  # type: ignore[arg-type]
    return out


def pick(ev: Evaluated) -> tuple[int, bool]:
    """Index of the feasible candidate raising the fewest part warnings, then the cheapest (ties: fewer hosts,
    fewer drives); else the nearest.

    The nearest design is the one that fails the fewest targets, then raises the fewest part warnings, then falls
    shortest of the targets (`shortfall`), then the same order.
    """
    feasible = ev.feasible
    order_keys = (ev.candidates.drives_per_host, ev.segment_hosts, ev.capex, ev.shortfall, ev.part_warnings)
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
    """Segment hosts the data needs at `per_host_tb` of user data each (no capacity: out of reach).

    >>> hosts_for(100.0, 7.5), hosts_for(100.0, 0.0) == MAX_SEGMENT_HOSTS
    (14, True)
    """
    return math.ceil(need_tb / per_host_tb) if per_host_tb > 0 else MAX_SEGMENT_HOSTS

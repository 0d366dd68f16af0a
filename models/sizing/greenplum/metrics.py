"""The bridge from candidate arrays to the calibrated performance models in `models.perf`.

Point predictions (median parameters) decide feasibility for every candidate;
`*_ranges` give the P10/P50/P90 of one chosen design by Monte Carlo.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.percentiles import percentiles
from models.perf import cost_power, gp_bands, scan_load, scan_load_estimates
from models.perf.scan_load_fit import default_params
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform, Targets
from models.sizing.greenplum import drive_share, segments
from models.sizing.greenplum.bisection import Values
from models.sizing.greenplum.candidates import Candidates, per_drive_set
from models.sizing.greenplum.fast.scan import FullScan
from models.sizing.parts import NetworkChoice
from models.sizing.targets import percentile
from models.uncertainty import Estimate

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]



def numa_local_of(virtualized: NDArray[np.bool_], vms: IntArray, numa_nodes: FloatArray, sockets: FloatArray
                ) -> FloatArray:
    """1 where each instance's memory is local to its socket: one VM per NUMA node on vSphere, or a single-socket
    host (000 Best Practices; 002); else 0."""
    local: FloatArray = ((virtualized & (vms >= numa_nodes)) | (sockets <= 1)).astype(float)
    return local


def _per_layout(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, primaries: IntArray, vms: IntArray,
                layouts: tuple[IntArray, IntArray], platform: Platform | None
                ) -> tuple[FloatArray, FloatArray | None, tuple[FloatArray, FloatArray] | None]:
    """`GpContext.of`'s NUMA locality, admitted reports and (`segments.HostLayouts`: groups of one RAID level too)
    RAID factors, computed once per group of `layouts` (on the groups' rows) and spread."""
    rep, which = layouts
    raid: tuple[FloatArray, FloatArray] | None = None
    virt, numa = c.virtualized[rep], c.numa_nodes[rep]
    numa_g = numa_local_of(virt, vms[rep], numa, c.sockets[rep])
    one = segments.admitted(workload, c.memory_gib[rep], virt, numa, primaries[rep], platform)
    if isinstance(layouts, segments.HostLayouts):  # the RAID factors are the layout's too
        raid = scan_load.raid_factors(c.raid_code[rep], c.drives_per_host[rep])
    # spread by `take`, the same values as indexing at about half its cost on a chunk
    return (numa_g.take(which), None if one is None else one.take(which),
            None if raid is None else (raid[0].take(which), raid[1].take(which)))


@dataclass(frozen=True)
class GpContext:
    """Everything about a candidate the models need, except the host and ETL counts."""

    shape: scan_load.ClusterShape  # with segment_hosts = 1 and etl_hosts = 1 placeholders
    data_on_disk_tb: float
    coordinator_cores: FloatArray
    segment_cores: FloatArray
    # (one candidate per server, drive count and deployment, each candidate's; `segments.server_layouts` or the finer
    # `segments.host_layouts`): the scan's CPU rate once per group
    layouts: tuple[IntArray, IntArray] | None = None
    # analytics: the reports each candidate's resource group runs at once (the rest queue; `segments.admitted`)
    queries: FloatArray | None = None
    spindles: drive_share.Spindles | None = None  # hard disks' streams (None: no candidate has one)
    cpu_doublings: FloatArray | None = None  # each candidate's CPU's distance from the calibration's (the band)

    @classmethod
    def of(
        cls,
        workload: GreenplumAnalytics | GreenplumOltp,
        c: Candidates,
        primaries: IntArray,
        vms: IntArray,
        net: NetworkChoice,
        data_on_disk_tb: float,
        layouts: tuple[IntArray, IntArray] | None = None,
        platform: Platform | None = None,
    ) -> GpContext:
        n = len(c)
        if layouts is None:
            read_f, write_f = per_drive_set(scan_load.raid_factors, c.raid_code, c.drives_per_host)  # once per set
            numa_local = numa_local_of(c.virtualized, vms, c.numa_nodes, c.sockets)
            queries = segments.admitted(workload, c.memory_gib, c.virtualized, c.numa_nodes, primaries, platform)
        else:  # memory, sockets, VMs and primaries are the layout's: once per layout
            numa_local, queries, raid = _per_layout(workload, c, primaries, vms, layouts, platform)
            read_f, write_f = raid if raid is not None else per_drive_set(scan_load.raid_factors, c.raid_code,
                                                                          c.drives_per_host)
        share = drive_share.scan_share(c, primaries, vms)  # idle volumes, shared spindles: None where neither
        if share is not None:
            read_f = read_f * share
        # the placeholder counts and the line rate, one value for every candidate: read-only broadcasts, not columns
        one_each = np.broadcast_to(1.0, (n,))
        shape = scan_load.ClusterShape(
            segment_hosts=one_each,
            drives_per_host=c.drives_per_host.astype(float),
            drive_seq_read_mb_s=c.seq_read_mb_s,
            drive_seq_write_mb_s=c.seq_write_mb_s,
            raid_read_factor=read_f,
            raid_write_factor=write_f,
            cores_per_host=c.cores_total,
            network_gbps_per_host=np.broadcast_to(float(net.model_gbps_per_host), (n,)),
            virtualized=c.virtualized.astype(float),
            numa_local=numa_local,
            primary_segments_per_host=primaries.astype(float),
            etl_hosts=one_each,
            cpu_generation=c.cpu_generation,
            mirrored=float(workload.mirrors),
            compression_ratio=float(workload.compression_ratio),
        )
        return cls(shape, data_on_disk_tb, c.cores_total, c.cores_total, layouts, queries,
                   drive_share.spindles(c, primaries, vms), c.cpu_doublings)

    @functools.cached_property
    def full_scan(self) -> FullScan:
        return FullScan.of(self.shape, self.data_on_disk_tb, default_params(), self.layouts)

    def take(self, idx: IntArray) -> GpContext:
        """The context of candidates `idx` only (scalars stay scalars)."""
        if idx.size == self.coordinator_cores.size:  # idx is sorted and unique: every candidate, as is
            return self
        def pick(v: Any) -> Any:
            return v[idx] if isinstance(v, np.ndarray) and v.ndim else v

        shape = scan_load.ClusterShape(**{f.name: pick(getattr(self.shape, f.name)) for f in fields(self.shape)})
        queries = None if self.queries is None else self.queries[idx]
        cpu = None if self.cpu_doublings is None else self.cpu_doublings[idx]
        return GpContext(shape, self.data_on_disk_tb, self.coordinator_cores[idx], self.segment_cores[idx],
                         queries=queries, spindles=None if self.spindles is None else self.spindles.take(idx),
                         cpu_doublings=cpu)

    @overload
    def running(self, workload: GreenplumAnalytics) -> FloatArray | int: ...
    @overload
    def running(self, workload: GreenplumAnalytics | GreenplumOltp) -> FloatArray | int | None: ...

    def running(self, workload: GreenplumAnalytics | GreenplumOltp) -> FloatArray | int | None:
        """The reports running at once: those the resource group admits (the workload's where all run); None for
        OLTP."""
        if not isinstance(workload, GreenplumAnalytics):
            return None
        return workload.concurrent_queries if self.queries is None else self.queries

    def cpu(self) -> float:
        """The (first) candidate's CPU distance in doublings from the calibration's, for the band (0 unknown)."""
        return 0.0 if self.cpu_doublings is None else float(np.ravel(self.cpu_doublings)[0])

    def with_counts(self, hosts: IntArray, etl: IntArray | None = None) -> scan_load.ClusterShape:
        etl_arr = self.shape.etl_hosts if etl is None else np.asarray(etl, dtype=float)
        return replace(self.shape, segment_hosts=np.asarray(hosts, dtype=float), etl_hosts=etl_arr)

    def concurrent(self, shape: scan_load.ClusterShape, workload: GreenplumAnalytics) -> scan_load.ClusterShape:
        """`shape` as the reports running at once read it: on hard disks their streams interleave on every disk,
        so each keeps `drive_share.Spindles.concurrent_factor` of the rate one report's scan gets."""
        if self.spindles is None:
            return shape
        factor = self.spindles.concurrent_factor(np.asarray(self.running(workload), dtype=float))
        return replace(shape, raid_read_factor=shape.raid_read_factor * factor)


def gp_full_scan_s(ctx: GpContext, hosts: IntArray, idx: IntArray | None = None) -> FloatArray:
    """Full-scan seconds of the candidates (`idx` of them, when given) at `hosts`: `scan_load.full_scan_seconds`
    with the rates the host count does not change computed once per context (`FullScan`)."""
    every = idx is None or idx.size == ctx.coordinator_cores.size  # as `take`: idx sorted and unique
    return ctx.full_scan.seconds(hosts, None if every else idx)


def gp_load_tb_per_hour(ctx: GpContext, hosts: IntArray, etl: IntArray) -> FloatArray:
    return scan_load.load_tb_per_hour(ctx.with_counts(hosts, etl), default_params()).value


def gp_queries_per_hour(ctx: GpContext, hosts: IntArray, workload: GreenplumAnalytics) -> FloatArray:
    return scan_load.queries_per_hour(
        ctx.concurrent(ctx.with_counts(hosts), workload),
        ctx.data_on_disk_tb,
        ctx.running(workload),
        workload.scan_fraction_pct / 100.0,
        default_params(),
    ).value


SECONDS_PER_HOUR = 3600.0


def report_seconds(queries_per_hour: ArrayLike, concurrent_queries: float) -> FloatArray:
    """One report's time from submission to result while `concurrent_queries` are always submitted and
    `queries_per_hour` complete (Little's law: queue and run time together), s.

    >>> report_seconds([3600.0, 120.0], 20).tolist()
    [20.0, 600.0]
    """
    qph = np.maximum(np.asarray(queries_per_hour, dtype=float), 1e-12)
    out: FloatArray = float(concurrent_queries) * SECONDS_PER_HOUR / qph
    return out


def report_estimate(qph: Estimate, concurrent_queries: float) -> Estimate:
    """The report time's P10/P50/P90 from the query throughput's (the slow end is the low throughput)."""
    p10, p50, p90 = (float(report_seconds(v, concurrent_queries)) for v in (qph.p90, qph.p50, qph.p10))
    return Estimate(p10, p50, p90, "s")


def gp_tps(ctx: GpContext, hosts: IntArray, workload: GreenplumOltp) -> FloatArray:
    from models.perf import gp_oltp  # OLTP only: analytics sizing never loads it

    pred = gp_oltp.predict_tps(
        workload.mix, workload.clients, ctx.coordinator_cores, np.asarray(hosts, dtype=float), ctx.segment_cores, n=0,
        pooled=workload.coordinator_on_segment_host,
    )
    return np.asarray(pred.estimate.p50, dtype=float)


def gp_point(
    workload: GreenplumAnalytics | GreenplumOltp, ctx: GpContext, hosts: IntArray, etl: IntArray,
    later: frozenset[str] = frozenset(), scan_s: FloatArray | None = None,
) -> dict[str, FloatArray]:
    """Point metrics and the binding resource at `hosts` and `etl`; the metrics in `later` (`LATER` ones) left out
    (`PointMetrics` computes them for the rows asked for). `scan_s`: the full-scan seconds at `hosts`
    (`gp_full_scan_s`'s), when the caller has them."""
    if isinstance(workload, GreenplumAnalytics):
        # the rates the host count does not change: once per context
        seconds, binding = ctx.full_scan.point(hosts, scan_s, float)  # the codes as floats, as returned below
        out = {"full_scan_s": seconds}
        for name in LATER:
            if name not in later:
                out[name] = gp_later(workload, ctx, hosts, etl, name)
        out["binding"] = np.asarray(binding, dtype=float)
        return out
    tps = gp_tps(ctx, hosts, workload)
    return {"tps": tps, "binding": np.zeros_like(tps)}


LATER = ("load_tb_per_hour", "queries_per_hour", "report_s")  # analytics point metrics, in the order reported


def gp_later(workload: GreenplumAnalytics, ctx: GpContext, hosts: IntArray, etl: IntArray, name: str) -> FloatArray:
    """One of the `LATER` point metrics of the candidates."""
    if name == "load_tb_per_hour":
        return scan_load.load_tb_per_hour(ctx.with_counts(hosts, np.maximum(etl, 1)), default_params()).value
    if name == "report_s":
        return report_seconds(gp_queries_per_hour(ctx, hosts, workload), workload.concurrent_queries)
    return gp_queries_per_hour(ctx, hosts, workload)


class PointMetrics(Mapping[str, FloatArray]):
    """Point metrics of a chunk of candidates by name: those every candidate needs (a target's, the main
    metric) computed with the chunk, the others (`LATER`: a load or query rate nothing bounds) only when
    asked for, for the rows kept: the streamed search keeps a few rows per chunk, so the rest never pays.
    Each row's value is the same either way (the models work row by row)."""

    def __init__(self, known: dict[str, FloatArray], later: tuple[str, ...], workload: GreenplumAnalytics,
                 ctx: GpContext, hosts: IntArray, etl: IntArray) -> None:
        self._known = known
        self._later = later
        self._order = tuple(k for k in ("full_scan_s", *LATER) if k in known or k in later)
        self._workload, self._ctx, self._hosts, self._etl = workload, ctx, hosts, etl

    def __getitem__(self, key: str) -> FloatArray:
        if key not in self._known:
            if key not in self._later:
                raise KeyError(key)
            self._known[key] = gp_later(self._workload, self._ctx, self._hosts, self._etl, key)
        return self._known[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def take(self, index: IntArray) -> PointMetrics:
        """The rows `index` only, the metrics not yet computed still left for later."""
        def pick(v: Any) -> Any:
            return v[index] if isinstance(v, np.ndarray) and v.ndim else v

        c = self._ctx
        shape = scan_load.ClusterShape(**{f.name: pick(getattr(c.shape, f.name)) for f in fields(c.shape)})
        ctx = GpContext(shape, c.data_on_disk_tb, c.coordinator_cores[index], c.segment_cores[index])
        known = {k: v[index] for k, v in self._known.items()}
        return PointMetrics(known, tuple(k for k in self._later if k not in known), self._workload, ctx,
                            self._hosts[index], self._etl[index])


def binding_name(code: int) -> str:
    return scan_load.BINDING_NAMES[int(code)]


def gp_ranges(
    workload: GreenplumAnalytics | GreenplumOltp, ctx: GpContext, hosts: int, etl: int
) -> tuple[dict[str, Estimate], str]:
    """P10/P50/P90 of every estimate for one design (ctx of a single candidate)."""
    shape = ctx.with_counts(np.array([hosts]), np.array([max(etl, 1)]))
    scalar = scan_load.ClusterShape(
        **{f.name: float(np.asarray(getattr(shape, f.name)).ravel()[0]) for f in fields(shape)}
    )
    if isinstance(workload, GreenplumAnalytics):
        running = float(np.asarray(ctx.running(workload)).ravel()[0])
        sd_scan = float(gp_bands.scan_sd(ctx.cpu(), hosts))
        sd_qph = float(gp_bands.queries_sd(ctx.cpu(), hosts, running))
        scan, binding = scan_load_estimates.estimate_full_scan(scalar, ctx.data_on_disk_tb, spread_sd=sd_scan)
        load, _ = scan_load_estimates.estimate_load(scalar, spread_sd=sd_scan)
        read = float(np.asarray(ctx.concurrent(shape, workload).raid_read_factor).ravel()[0])
        qph, _ = scan_load_estimates.estimate_queries_per_hour(
            replace(scalar, raid_read_factor=read), ctx.data_on_disk_tb, running,
            workload.scan_fraction_pct / 100.0, spread_sd=sd_qph,
        )
        return {"full_scan_s": scan, "load_tb_per_hour": load, "queries_per_hour": qph,
                "report_s": report_estimate(qph, workload.concurrent_queries)}, binding
    from models.perf import gp_oltp  # OLTP only: analytics sizing never loads it

    pred = gp_oltp.predict_tps(
        workload.mix,
        workload.clients,
        float(ctx.coordinator_cores[0]),
        float(hosts),
        float(ctx.segment_cores[0]),
        pooled=workload.coordinator_on_segment_host,
    )
    return {"tps": pred.estimate}, str(pred.binding_resource)


def host_power_w(c: Candidates, drives: IntArray | FloatArray | float, net: NetworkChoice, utilization: float,
                 layouts: tuple[IntArray, IntArray] | None = None) -> FloatArray:
    """`cost_power.host_power_w` of the candidates; `layouts`: (one candidate of each group sharing a server, each
    candidate's group), e.g. `segments.host_layouts`: the server's own draw is found once per group and spread."""
    nic_w = net.nic.watts if net.nic else 0.0
    if layouts is None:
        return cost_power.host_power_w(c.idle_w, c.max_w, utilization, np.asarray(drives, dtype=float), c.drive_w,
                                       net.nics_per_host, nic_w)
    rep, which = layouts
    server_w = cost_power.server_draw_w(c.idle_w[rep], c.max_w[rep], utilization).take(which)
    return cost_power.with_parts_w(server_w, np.asarray(drives, dtype=float), c.drive_w, net.nics_per_host, nic_w)

# The per-metric code of the Greenplum search and report, in one place: a new performance target's metric adds its
# point value (`perf_values`, and the linear guess `host_guess`), its value at the confidence (`at_confidence`)
# and its shortfall in words (`shortfall`) here, beside the models that estimate it (`gp_point`, `gp_ranges`).
MAX_ETL_HOSTS = 64


def perf_values(workload: GreenplumAnalytics | GreenplumOltp, targets: Targets, ctx: GpContext) -> Values:
    """values(hosts, idx): the point value of every performance target's metric (loads with ETL hosts to spare:
    the segments' write side must keep up; the ETL hosts are sized after)."""

    def values(hosts: IntArray, idx: IntArray) -> dict[str, FloatArray]:
        out: dict[str, FloatArray] = {}
        if isinstance(workload, GreenplumAnalytics):
            if targets.max_full_scan_s is not None:
                out["full_scan_s"] = gp_full_scan_s(ctx, hosts, idx)  # no per-probe copy of the context
            if targets.min_queries_per_hour is None and targets.min_load_tb_per_hour is None and \
                    targets.max_report_s is None:
                return out
        sub = ctx.take(idx)
        if isinstance(workload, GreenplumAnalytics):
            if targets.min_queries_per_hour is not None or targets.max_report_s is not None:
                out["queries_per_hour"] = gp_queries_per_hour(sub, hosts, workload)
                out["report_s"] = report_seconds(out["queries_per_hour"], workload.concurrent_queries)
            if targets.min_load_tb_per_hour is not None:
                big = np.full(hosts.shape, MAX_ETL_HOSTS, dtype=np.int64)
                out["load_tb_per_hour"] = gp_load_tb_per_hour(sub, hosts, big)
        elif (targets.min_tps or workload.target_tps) is not None:
            out["tps"] = gp_tps(sub, hosts, workload)
        return out

    return values


def host_guess(workload: GreenplumAnalytics | GreenplumOltp, targets: Targets, ctx: GpContext, h_low: IntArray
               ) -> FloatArray | None:
    """Hosts each target needs if performance scaled linearly with hosts from the capacity minimum.

    Scans and loads nearly do (each host brings its own drives, cores and ports); the search
    then checks the real model around this guess.
    """
    guesses: list[FloatArray] = []
    if isinstance(workload, GreenplumAnalytics):
        if targets.max_full_scan_s is not None:
            guesses.append(h_low * gp_full_scan_s(ctx, h_low) / targets.max_full_scan_s)
        if targets.min_queries_per_hour is not None:
            guesses.append(h_low * targets.min_queries_per_hour / gp_queries_per_hour(ctx, h_low, workload))
        if targets.max_report_s is not None:
            qph = gp_queries_per_hour(ctx, h_low, workload)
            guesses.append(h_low * report_seconds(qph, workload.concurrent_queries) / targets.max_report_s)
        if targets.min_load_tb_per_hour is not None:
            big = np.full(h_low.shape, MAX_ETL_HOSTS, dtype=np.int64)
            guesses.append(h_low * targets.min_load_tb_per_hour / gp_load_tb_per_hour(ctx, h_low, big))
    if not guesses:
        return None
    most = guesses[0] if len(guesses) == 1 else np.max(np.stack(guesses), axis=0)  # one: the max is itself
    return np.maximum(most, h_low)


def at_confidence(
    workload: GreenplumAnalytics | GreenplumOltp, ctx: GpContext, hosts: IntArray, etl: IntArray, confidence: str,
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
                            float(ctx.segment_cores[0]), percentile("tps", confidence),
                            workload.coordinator_on_segment_host)
        return {"tps": tps.at(np.asarray(hosts, dtype=np.int64).ravel())}
    shape = replace(ctx.with_counts(h, e))
    params = scan_load_estimates.sampled_params()
    n = scan_load_estimates.samples_of(params)
    widen = gp_bands.spread(gp_bands.scan_sd(ctx.cpu(), h.ravel()), n)  # the band's extrapolation part (`gp_ranges`)
    out = {}
    if only is None or "full_scan_s" in only:
        out["full_scan_s"] = scan_load.full_scan_seconds(shape, ctx.data_on_disk_tb, params).value / widen
    if only is None or "load_tb_per_hour" in only:
        out["load_tb_per_hour"] = scan_load.load_tb_per_hour(shape, params).value * widen
    if only is None or "queries_per_hour" in only or "report_s" in only:
        running = ctx.running(workload)
        out["queries_per_hour"] = scan_load.queries_per_hour(
            ctx.concurrent(shape, workload), ctx.data_on_disk_tb, running,
            workload.scan_fraction_pct / 100.0, params
        ).value * gp_bands.spread(gp_bands.queries_sd(ctx.cpu(), h.ravel(), np.ravel(running)[:1]), n)
        out["report_s"] = report_seconds(out["queries_per_hour"], workload.concurrent_queries)
    return {k: percentiles(np.asarray(v, dtype=float), percentile(k, confidence), axis=1) for k, v in out.items()}


def shortfall(name: str, values: Mapping[str, FloatArray], i: int, t: Targets) -> str | None:
    """A performance target's shortfall in words at row `i` of `values` (the metrics at the confidence), e.g.
    "full scan 742 s vs 600 s"; None for a target that bounds no performance metric."""
    if name == "max_full_scan_s":
        return f"full scan {values['full_scan_s'][i]:,.0f} s vs {_limit(t.max_full_scan_s)} s"
    if name == "min_load_tb_per_hour":
        return f"load {values['load_tb_per_hour'][i]:,.2f} TB/h vs {t.min_load_tb_per_hour:,.2f}"
    if name == "max_report_s":
        report = float(values["report_s"][i]) if "report_s" in values else float("nan")
        return f"report {report:,.0f} s vs {_limit(t.max_report_s)} s"
    if name == "min_queries_per_hour":
        return f"{values['queries_per_hour'][i]:,.0f} queries/h vs {_limit(t.min_queries_per_hour)}"
    if name == "min_tps":
        return f"{values['tps'][i]:,.0f} TPS" + (f" vs {_limit(t.min_tps)}" if t.min_tps is not None else "")
    return None


def _limit(value: float | None) -> str:
    """A target's limit as stated: whole numbers grouped, a limit below 10 with its decimals (a 0.5 s target is
    not '0 s').

    >>> _limit(600.0), _limit(0.5), _limit(2.25), _limit(1.0), _limit(12_500.4)
    ('600', '0.5', '2.25', '1', '12,500')
    """
    v = float(value or 0.0)
    return f"{v:,.0f}" if abs(v) >= 10 or v.is_integer() else f"{v:.3g}"

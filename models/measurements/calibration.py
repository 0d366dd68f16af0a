"""Sizing on measurements: measured / modelled per resource, the factors and curves a second sizing uses, and
the report of what the measurements changed.

A scenario naming profiles (`platform.measurements`) is sized twice: on the modelled rates, then on the measured
ones (`models.perf.measured`). The measured hosts are taken to be the first design's hosts, and each measured
rate is compared with the modelled rate of that design:

- disk read / write: gpcheckperf's slowest host (MB/s per host over its data directories) against data drives x
  datasheet rate x drive efficiency x RAID factor. The ratio becomes the drives' efficiency factor, so a design
  with another drive count or drive keeps the measured share of its datasheet rate (sequential rates add up
  over a host's data drives; the other rooflines still cap them);
- network: gpcheckperf's median link (one TCP stream between two hosts) against one port's line rate of the
  design's NIC; each port of a design's NIC then carries the measured link rate, up to that NIC's line rate
  (`measured.port_mb_s`, read where a design's interconnect enters the models), whichever NIC the design has;
- memory (stream): checked, not sized on (`STREAM_CHECKED_ONLY` gives why: no model has a memory-bandwidth term,
  and gpcheckperf's single Copy rate per host is a uniformity check, not a host's bandwidth); slow hosts named;
- a sweep standing for a Greenplum OLTP mix (`models.measurements.mixes`: pgbench of the same builtin, TPC-B sort
  of -> tpcb, select only -> select, simple update -> update; else for tpcb a HammerDB TPROC-C sweep as TPM / 60):
  its fitted USL replaces study 004's curve, placed at the capacity ratio of the cluster it ran on: the profile's
  hosts (those gpcheckperf names) on the profile's server with the first design's coordinator; without them the
  first design's cluster. Its P10-P90 takes the runs' interval spread from `--aggregate-interval` logs where the
  profile has them. A sweep that does not place its peak is used and flagged;
- PostgreSQL: a HammerDB TPROC-C (or pgbench) sweep's single-client rate and its peak per logical CPU of the
  profile's server replace study 001's rates per client and per vCPU;
- another processor: a measured core counts as SPECrate2017_int_base-per-core ratio design cores (`cpu_speed_ratio`,
  the benchmark table RVTools right-sizing uses); another drive count: the per-drive share (above).

A ratio is within tolerance when it lies within gpcheckperf's own 0.9 rule (0.9 <= ratio <= 1/0.9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from models.hardware import MB_S_PER_GBPS, HardwareCatalog
from models.measurements.hammerdb import HammerdbSweep
from models.measurements.mixes import HAMMERDB_STANDS_FOR, MixSweep, oltp_sweeps, steadiness
from models.measurements.profile import (
    MeasurementProfile,
    host_rates,
    network_rates,
    no_good_fraction,
    sweeps,
)
from models.perf import gp_oltp
from models.perf.measured import MeasuredCurve, PgRates, ScanFactors
from models.perf.scan_load import raid_factors
from models.perf.scan_load_fit import fitted_params
from models.perf.usl import UslFit, UslFitError, fit_usl
from models.scenario import GreenplumAnalytics, GreenplumOltp, PostgresConsolidation, Scenario
from models.sizing.postgres import model_rates
from models.sizing.result import Design, SizingResult, Warning
from models.vocabulary import OLTP_MIXES, OltpMix


@dataclass(frozen=True, slots=True)
class Resource:
    """One resource, modelled and measured, per host (MB/s) or per link, or the OLTP curve's peak (TPS)."""

    name: str
    unit: str
    modelled: float | None
    measured: float
    source: str
    changes: str  # what the measurement changes in the design's model
    applied: bool = True
    slow: tuple[str, ...] = ()

    @property
    def ratio(self) -> float | None:
        return None if not self.modelled else self.measured / self.modelled

    @property
    def within_tolerance(self) -> bool | None:
        r, f = self.ratio, no_good_fraction()
        return None if r is None else f <= r <= 1.0 / f

    def to_dict(self) -> dict[str, Any]:
        return {"resource": self.name, "unit": self.unit, "modelled": self.modelled, "measured": self.measured,
                "ratio": self.ratio, "within_tolerance": self.within_tolerance, "applied": self.applied,
                "changes": self.changes, "slow_hosts": list(self.slow), "source": self.source}


@dataclass(frozen=True)
class Plan:
    """What the second sizing uses, and the comparison behind it."""

    profiles: tuple[str, ...]
    scan: ScanFactors | None
    oltp: dict[str, MeasuredCurve]
    resources: tuple[Resource, ...]
    pg: PgRates | None = None
    no_good_links: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())


def modelled_rates(design: Design, catalog: HardwareCatalog, drives: int | None = None,
                   drive_id: str | None = None, raid: str | None = None) -> dict[str, float]:
    """The model's per-host disk read and write (MB/s) and one port's line rate (MB/s) of a Greenplum design; with
    `drives` (and `drive_id`) the disk rates of that many of that drive in the design's RAID level and deployment
    (the measured hosts' configuration), else of the design's own."""
    out: dict[str, float] = {}
    p = fitted_params()
    virt = 1.0 + float(p.virt_overhead_seq) if design.deployment != "bare-metal" else 1.0
    drive_id = drive_id or design.drive_id
    n = drives or design.data_drives_per_host
    if drive_id is not None and n:
        drive = catalog.drive(drive_id)
        rf, wf = (float(x) for x in raid_factors(raid or design.raid, n))
        out["disk_read"] = n * drive.seq_read_mb_s * float(p.drive_read_efficiency) * rf / virt
        out["disk_write"] = n * drive.seq_write_mb_s * float(p.drive_write_efficiency) * wf / virt
    if design.nic_id is not None:
        out["network"] = catalog.nic(design.nic_id).speed_gbps * MB_S_PER_GBPS
    return out


def measured_hosts_rates(prof: MeasurementProfile, design: Design, catalog: HardwareCatalog
                         ) -> tuple[dict[str, float], str]:
    """The modelled disk rates of the measured hosts' own configuration and that configuration in words: the
    profile's data drives per host and drive (`measure import --drives N --drive ID`) in the first design's RAID
    level and deployment; what the profile does not say is the first design's, and the words say so."""
    d_id = prof.drive_id if prof.drive_id is not None and prof.drive_id in catalog else None
    n = prof.data_drives or design.data_drives_per_host
    drive = d_id or design.drive_id
    if drive is None or not n:
        return {}, ""
    raid, raid_words = design.raid, "the first design's RAID level"
    try:
        raid_factors(raid, n)
    except ValueError as exc:  # the measured hosts cannot be in the first design's level: their RAID is not said
        raid, raid_words = "none", f"no RAID: {exc}, the measured hosts have {n}"
    words = f"{n} x {_drive_name(catalog, drive)} per host, RAID {raid}"
    if prof.data_drives is None:
        how = (f"the first design's {words}: the profile does not say its hosts' drives (refarch measure import "
               "--drives N --drive ID)")
    elif d_id is None:
        how = (f"the measured hosts' {words} (the drive taken to be the first design's: the profile names none"
               f"{'' if prof.drive_id is None else ' in this catalog'}; {raid_words})")
    else:
        how = f"the measured hosts' {words} ({raid_words})"
    return modelled_rates(design, catalog, n, drive, raid), how


def _drive_name(catalog: HardwareCatalog, drive_id: str) -> str:
    d = catalog.drive(drive_id)
    return f"{d.vendor} {d.model}"


def plan(scenario: Scenario, profiles: Sequence[MeasurementProfile], before: SizingResult,
         catalog: HardwareCatalog) -> Plan:
    """Factors and curves from `profiles` against the first design `before`."""
    names = tuple(p.name for p in profiles)
    gp = isinstance(scenario.workload, GreenplumAnalytics | GreenplumOltp)
    modelled = modelled_rates(before.design, catalog) if gp else {}
    resources: list[Resource] = []
    factors: dict[str, float] = {}
    link_mb_s: float | None = None
    no_good: list[str] = []
    for prof in profiles:
        on, basis = measured_hosts_rates(prof, before.design, catalog) if gp else ({}, "")
        for key, r in host_rates(prof).items():
            if any(x.name == key for x in resources):
                continue  # the first profile naming a resource gives it
            m = on.get(key)
            use = key in ("disk_read", "disk_write") and m is not None
            if use and m:
                factors[key] = r.design_mb_s / m  # the measured share of the drives' modelled rate
            resources.append(Resource(key, "MB/s per host", m, r.design_mb_s, f"{prof.name}: {r.source}",
                                      _change_text(key, use) + (f"; compared on {basis}" if use else ""), use,
                                      r.slow_hosts))
        net = network_rates(prof)
        if net is not None and not any(x.name == "network" for x in resources):
            m = modelled.get("network")
            if m:
                factors["network"] = net.link_mb_s / m
                link_mb_s = net.link_mb_s
            resources.append(Resource("network", "MB/s per link", m, net.link_mb_s, f"{prof.name}: {net.source}",
                                      _change_text("network", bool(m)), bool(m)))
            no_good += [f"{a} -> {b}" for a, b in net.no_good]
    oltp, oltp_resources, notes = _oltp_curves(scenario, profiles, before, catalog)
    pg, pg_resources, pg_notes = _pg_rates(scenario, profiles, catalog, before)
    oltp_resources += pg_resources
    notes += pg_notes
    scan = ScanFactors(factors.get("disk_read", 1.0), factors.get("disk_write", 1.0),
                       link_mb_s) if factors else None
    if not gp and resources:
        notes = (*notes, "this workload kind's model has no per-host disk or network rate: the measured rates are "
                         "reported, not used")
    return Plan(names, scan, oltp, (*resources, *oltp_resources), pg, tuple(no_good), notes)


STREAM_CHECKED_ONLY = (
    "checked only, not sized on: no refarch model has a memory-bandwidth term (the Greenplum scan and load rates per "
    "core are fitted on studies 000 and 002 with the memory traffic inside them; Greenplum OLTP and PostgreSQL on "
    "transaction rates), and gpcheckperf's stream test is a check that memory does not hold the CPU back "
    "(Greenplum Database Utility Guide, gpcheckperf, Description, Memory Bandwidth Test (stream)), read from one "
    "STREAM Copy rate per host whose thread count the output does not give, so not a host's bandwidth to set "
    "against its cores; what it checks here: each host against the fastest (slow hosts named)")


def _change_text(key: str, used: bool) -> str:
    if not used:
        return STREAM_CHECKED_ONLY if key == "memory" else "not used: the design has no such modelled rate"
    return {"disk_read": "drive read efficiency x measured / modelled (scans)",
            "disk_write": "drive write efficiency x measured / modelled (loads)",
            "network": "each port of the design's NIC carries the measured link rate, up to its line rate (scans "
                       "and loads)"}[key]


def _oltp_curves(scenario: Scenario, profiles: Sequence[MeasurementProfile], before: SizingResult,
                 catalog: HardwareCatalog) -> tuple[dict[str, MeasuredCurve], list[Resource], tuple[str, ...]]:
    """The first sweep standing for the scenario's Greenplum OLTP mix (`mixes.oltp_sweeps`: pgbench of the same
    builtin, else for tpcb HammerDB TPROC-C TPM / 60), fitted to the USL with the runs' steadiness as the points'
    uncertainty where the profile has `--aggregate-interval` logs."""
    w = scenario.workload
    if not isinstance(w, GreenplumOltp):
        return {}, [], ()
    for prof in profiles:
        for sweep in oltp_sweeps(prof, w.mix):
            fitted = _fit_sweep(sweep, prof)
            if fitted is None:
                continue
            fit, band = fitted
            ratio, where = _measured_cluster_ratio(w.mix, prof, before, catalog)
            study = gp_oltp.predict_tps(w.mix, w.clients, *_cluster(before, catalog), n=0).estimate.p50
            curve = MeasuredCurve(fit, ratio, f"{prof.name}: {sweep.what} ({', '.join(sweep.sources)})")
            with_measured = _predicted_with(w.mix, curve, w.clients, before, catalog)
            flag = "" if fit.peak_placed else (
                f"; the sweep stops at {fit.max_clients:g} clients before its fitted peak: beyond that the curve "
                "is extrapolated")
            res = Resource("oltp_tps", f"TPS at {w.clients:g} clients on the first design", study, with_measured,
                           curve.source, f"the measured {sweep.what} USL replaces the study's {w.mix} curve "
                           f"({sweep.mapping}), scaled from {where}; {band}{flag}")
            return {w.mix: curve}, [res], ()
    return {}, [], (f"no pgbench sweep of the {w.mix} mix" + (" nor HammerDB TPROC-C sweep" if
                    w.mix == HAMMERDB_STANDS_FOR else " (HammerDB TPROC-C stands for tpcb only)")
                    + " with 3 or more client counts in the profiles: the study's curve stays",)


def _fit_sweep(sweep: MixSweep, prof: MeasurementProfile) -> tuple[UslFit, str] | None:
    """The sweep's USL fit and where its P10-P90 comes from; None for a sweep too short or that does not fit."""
    if len(set(sweep.clients)) < 3:
        return None
    try:
        fit = fit_usl(sweep.clients, sweep.tps, unit="TPS", label=f"{prof.name} {sweep.what}")
        steady = steadiness(prof)
        if steady is None:
            return fit, ("P10-P90 from the fit's residual scatter (no pgbench --aggregate-interval log in the "
                         "profile)")
        rel = max(steady.rel_sd, fit.rms_relative_error)
        fit = fit_usl(sweep.clients, sweep.tps, rel_sd=rel, unit="TPS", label=f"{prof.name} {sweep.what}")
    except UslFitError:
        return None
    return fit, (f"P10-P90 from a {rel:.1%} relative uncertainty per point: the larger of the runs' interval "
                 f"spread ({steady.source}: {steady.rel_sd:.1%} over {steady.intervals} intervals, "
                 f"{number(steady.tps_p10)}-{number(steady.tps_p90)} TPS P10-P90) and the fit's residuals "
                 f"({fit.rms_relative_error:.1%})")


def _pg_rates(scenario: Scenario, profiles: Sequence[MeasurementProfile], catalog: HardwareCatalog,
              before: SizingResult) -> tuple[PgRates | None, list[Resource], tuple[str, ...]]:
    """PostgreSQL's per-client and per-vCPU rates from a HammerDB TPROC-C sweep (TPM / 60: transactions of the
    TPC-C-like mix study 001 ran) or else a pgbench sweep (another mix: said), fitted to the USL: the single-client
    rate is lambda, the per-vCPU rate the peak (or the largest measured count's rate, when the sweep does not
    place its peak) over the logical CPUs of the profile's server."""
    if not isinstance(scenario.workload, PostgresConsolidation):
        return None, [], ()
    for prof in profiles:
        for tool, clients, tps, mix in _pg_sweeps(prof):
            if len(set(clients)) < 3:
                continue
            try:
                fit = fit_usl(clients, tps, unit="TPS", label=f"{prof.name} {mix}")
            except UslFitError:
                continue
            per_vcpu, cpus = None, _logical_cpus(catalog, prof.server_id)
            speed, why = cpu_speed_ratio(catalog, prof.server_id, before.design.server_id)
            if cpus:
                per_vcpu = fit.peak_throughput / cpus / speed  # a design vCPU does 1 / speed measured vCPUs' work
            source = f"{prof.name}: {tool} {mix}"
            per_client_model, per_vcpu_model = model_rates(catalog.server(before.design.server_id))
            rows = [Resource("pg_tps_per_client", "TPS per client", per_client_model, fit.lam, source,
                             f"the measured single-client rate replaces the throughput model's rate per client"
                             f" ({mix})")]
            if per_vcpu is not None:
                rows.append(Resource("pg_tps_per_vcpu", "TPS per vCPU", per_vcpu_model,
                                     per_vcpu, source, f"the sweep's peak over the {cpus} logical CPUs of "
                                     f"{prof.server_id} replaces the throughput model's rate per vCPU"
                                     + (f" ({why})" if why else "")
                                     + ("" if fit.peak_placed else "; the sweep stops before its peak: "
                                        "extrapolated")))
            note = () if cpus else ("the profile names no server: the per-vCPU rate stays study 001's",)
            return PgRates(fit.lam, per_vcpu, source), rows, note
    return None, [], ("no HammerDB or pgbench sweep with 3 or more client counts in the profiles: study 001's "
                      "rates stay",)


def cpu_speed_ratio(catalog: HardwareCatalog, measured_server: str | None, design_server: str
                    ) -> tuple[float, str]:
    """One core of the measured server in cores of the design's: SPECrate2017_int_base per core of each processor
    (`resources/benchmarks/specrate2017_int.json`, SPEC's published results), 1.0 when they are the same processor
    or a score is missing (said)."""
    from models.estate import socket_score

    if measured_server is None or measured_server == design_server:
        return 1.0, ""
    try:
        m, d = catalog.server(measured_server).cpu, catalog.server(design_server).cpu
    except KeyError:
        return 1.0, f"{measured_server} is not in the catalog: a measured core counts as a design core"
    if m.model == d.model:
        return 1.0, ""
    sm, sd = socket_score(m.model), socket_score(d.model)
    if sm is None or sd is None:
        missing = m.model if sm is None else d.model
        return 1.0, f"no SPECrate2017_int_base score for {missing}: a measured core counts as a design core"
    ratio = (sm / m.cores) / (sd / d.cores)
    return ratio, (f"measured on {m.model} ({sm / m.cores:.2f} SPECrate2017_int_base per core), the design's "
                   f"{d.model} {sd / d.cores:.2f}: one measured core = {ratio:.2f} design cores")


def _pg_sweeps(prof: MeasurementProfile) -> list[tuple[str, list[float], list[float], str]]:
    """(tool, clients, TPS, mix) of each sweep: HammerDB first (TPM / 60), then pgbench."""
    out: list[tuple[str, list[float], list[float], str]] = []
    for pf in prof.files:
        data = pf.measurement.data
        if isinstance(data, HammerdbSweep):
            steps = [s for s in data.steps if s.tpm is not None]
            out.append(("HammerDB", [float(s.virtual_users) for s in steps], [float(s.tpm or 0) / 60.0 for s in steps],
                        "TPROC-C"))
    out += [("pgbench", list(s.clients), list(s.throughput), s.mix) for s in sweeps(prof) if s.tool == "pgbench"]
    return out


def _logical_cpus(catalog: HardwareCatalog, server_id: str | None) -> int:
    if server_id is None:
        return 0
    try:
        return catalog.server(server_id).threads_total
    except KeyError:
        return 0


def _cluster(design_result: SizingResult, catalog: HardwareCatalog) -> tuple[float, float, float]:
    """(coordinator cores, segment hosts, cores per segment host) of a design, as the OLTP model takes them."""
    d = design_result.design
    cores = float(catalog.server(d.server_id).cores_total)
    coordinator = next((h.server_id for h in d.hosts if h.role == "coordinator host"), d.server_id)
    return float(catalog.server(coordinator).cores_total), float(d.segment_hosts), cores


def _measured_cluster_ratio(mix: str, prof: MeasurementProfile, before: SizingResult,
                            catalog: HardwareCatalog) -> tuple[float, str]:
    coord, hosts, seg = _cluster(before, catalog)
    where = f"the first design's cluster ({hosts:g} segment hosts)"
    if prof.hosts and prof.server_id is not None:
        try:
            cores = float(catalog.server(prof.server_id).cores_total)
        except KeyError:  # the server was deleted from the catalog since the import
            cores = 0.0
        speed, why = cpu_speed_ratio(catalog, prof.server_id, before.design.server_id)
        if cores > 0:
            hosts, seg = float(len(prof.hosts)), cores * speed  # the coordinator: the first design's
            where = (f"the measured cluster ({len(prof.hosts)} segment hosts of {prof.server_id}, the first design's "
                     "coordinator)" + (f"; {why}" if why else ""))
    return gp_oltp.capacity_ratio(_mix(mix), coord, hosts, seg), where


def _mix(mix: str) -> OltpMix:
    for m in OLTP_MIXES:
        if m == mix:
            return m
    raise ValueError(f"unknown OLTP mix {mix!r}")


def _predicted_with(mix: str, curve: MeasuredCurve, clients: float, before: SizingResult,
                    catalog: HardwareCatalog) -> float:
    from models.perf.measured import measured

    with measured(oltp={mix: curve}):
        return float(gp_oltp.predict_tps(_mix(mix), clients, *_cluster(before, catalog), n=0).estimate.p50)


def report(p: Plan, before: SizingResult, after: SizingResult) -> dict[str, Any]:
    """The `calibration` document of `size --format json`: per resource modelled, measured, ratio, tolerance and
    what it changes; the slow hosts and no-good links; the design before and after."""
    metric = after.main_metric

    def state(r: SizingResult) -> dict[str, Any]:
        est = r.estimates.get(metric)
        return {"segment_hosts": r.design.segment_hosts, "total_hosts": r.design.total_hosts,
                "data_drives_per_host": r.design.data_drives_per_host, "server": r.design.server_id,
                "main_metric": metric, "p50": est.p50 if est else None, "unit": est.unit if est else None,
                "binding_resource": r.binding_resource, "capex": r.totals.capex}

    return {
        "profiles": list(p.profiles),
        "resources": [r.to_dict() for r in p.resources],
        "slow_hosts": {r.name: list(r.slow) for r in p.resources if r.slow},
        "no_good_links": list(p.no_good_links),
        "tolerance": {"low": no_good_fraction(), "high": 1.0 / no_good_fraction()},
        "modelled_design": state(before),
        "measured_design": state(after),
        "notes": list(p.notes),
    }


def number(v: float | None) -> str:
    """A rate for a sentence: thousands separated, three significant digits below 100.

    >>> number(12345.6), number(0.0512), number(None)
    ('12,346', '0.0512', '-')
    """
    if v is None:
        return "-"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def missing(names: Sequence[str], available: Mapping[str, MeasurementProfile]) -> list[tuple[int, str]]:
    """(index, name) of each named profile not available."""
    return [(i, n) for i, n in enumerate(names) if n not in available]


def warnings(doc: dict[str, Any]) -> tuple[Warning, ...]:
    """What the calibration document tells the reader: what changed and why, slow hosts, bad links, short sweeps."""
    field_ = "platform.measurements"
    a, b = doc["modelled_design"], doc["measured_design"]
    changed = [f"segment hosts {a['segment_hosts']} -> {b['segment_hosts']}"]
    if a["data_drives_per_host"] != b["data_drives_per_host"]:  # slow drives may be met with more of them
        changed.append(f"data drives per host {a['data_drives_per_host']} -> {b['data_drives_per_host']}")
    if a.get("capex") is not None and b.get("capex") is not None and a["capex"] != b["capex"]:
        changed.append(f"capex {number(a['capex'])} -> {number(b['capex'])}")
    if a["p50"] is not None and b["p50"] is not None:
        changed.append(f"{a['main_metric']} P50 {number(a['p50'])} -> {number(b['p50'])} {b['unit']}")
    if a["binding_resource"] != b["binding_resource"]:
        changed.append(f"binding resource {a['binding_resource']} -> {b['binding_resource']}")
    used = [r for r in doc["resources"] if r["applied"] and r["ratio"] is not None]
    why = "; ".join(f"{r['resource']} measured {number(r['measured'])} {r['unit']} = {r['ratio']:.2g} x modelled "
                    f"{number(r['modelled'])}" for r in used) or "no measured rate applies to this design's model"
    out = [Warning("measured-design", f"Sized on {', '.join(doc['profiles'])}: {', '.join(changed)}. Why: {why}.",
                   "info", field_)]
    for r in used:
        if not r["within_tolerance"] and r["ratio"] < 1.0:
            out.append(Warning("measured-below-model", f"{r['resource']}: measured {number(r['measured'])} "
                                                       f"{r['unit']}, {r['ratio']:.2g} x the modelled "
                                                       f"{number(r['modelled'])} ({r['source']}); {r['changes']}",
                               "warning", field_))
    for name, hosts in doc["slow_hosts"].items():
        then = ("the design runs at the slowest host's rate" if name != "memory" else
                "memory bandwidth is checked, not sized on: find why before go-live")
        out.append(Warning("measured-slow-hosts", f"{name}: {', '.join(hosts)} below {doc['tolerance']['low']:g} x "
                                                  f"the fastest host; {then}", "warning", field_))
    if doc["no_good_links"]:
        out.append(Warning("measured-no-good-links", f"gpcheckperf calls {', '.join(doc['no_good_links'])} no good "
                                                     "(below 0.9 x the fastest link): fix before go-live; the design "
                                                     "uses the median link", "warning", field_))
    for r in doc["resources"]:
        if r["resource"] == "oltp_tps" and "extrapolated" in r["changes"]:
            out.append(Warning("measured-sweep-short", r["changes"], "warning", field_))
    return tuple(out)

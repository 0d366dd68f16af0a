"""A measurement profile: the files imported under one name, and the rates a design can take from them.

Rules (each stated where a design uses it):
- per-host rates (disk read, disk write, memory stream) are the slowest measured host's: every Greenplum
  segment host holds an equal share of every table, so a scan ends when the slowest host has read its share;
  the mean is shown beside it. A host below `gpcheckperf_no_good_fraction` (0.9, gpcheckperf's own rule for
  links) of the fastest host is named slow;
- the network rate is the median link of the bisection test (gpcheckperf's own central figure), or the median
  host's lesser of Tx and Rx in the full matrix; links gpcheckperf calls "no good" are named, as faults to fix,
  not folded into the design's rate;
- where two gpcheckperf files measure the same test, the newer RESULT is used;
- gpcheckperf's "MB/s" is 2^20 bytes a second; the rates here are MB/s of 10^6 bytes, as the catalog's drives.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from models.calibration_data import figure
from models.measurements.detect import Measurement
from models.measurements.gpcheckperf import MIB_S_TO_MB_S, BandwidthTest, GpcheckperfResult, NetworkTest
from models.measurements.hammerdb import HammerdbSweep
from models.measurements.pgbench import PgbenchAggregateLog, PgbenchSweep

RESOURCES = {"disk write": "disk_write", "disk read": "disk_read", "stream": "memory"}


def no_good_fraction() -> float:
    return figure("vendor_docs", "gpcheckperf_no_good_fraction")


@dataclass(frozen=True, slots=True)
class ProfileFile:
    file_name: str
    imported_at: datetime
    measurement: Measurement

    @property
    def kind(self) -> str:
        return self.measurement.kind

    @property
    def measured_at(self) -> datetime | None:
        data = self.measurement.data
        return data.timestamp if isinstance(data, GpcheckperfResult) else None

    @property
    def hosts(self) -> tuple[str, ...]:
        data = self.measurement.data
        return data.hosts if isinstance(data, GpcheckperfResult) else ()


@dataclass(frozen=True, slots=True)
class MeasurementProfile:
    """Files imported under one name, with the catalog server they were measured on (None: not said)."""

    name: str
    server_id: str | None
    created_at: datetime
    files: tuple[ProfileFile, ...]
    data_drives: int | None = None  # data drives per measured host (None: not said)
    drive_id: str | None = None  # the catalog drive they are (None: not said)

    @property
    def hosts(self) -> tuple[str, ...]:
        return tuple(sorted({h for f in self.files for h in f.hosts}))

    def gpcheckperf(self) -> Iterator[tuple[ProfileFile, GpcheckperfResult]]:
        """The gpcheckperf files, newest RESULT first."""
        found = [(f, f.measurement.data) for f in self.files if isinstance(f.measurement.data, GpcheckperfResult)]
        found.sort(key=lambda fr: fr[1].timestamp, reverse=True)
        yield from found


@dataclass(frozen=True, slots=True)
class HostRates:
    """A per-host rate measured on every host: the design's (the slowest host's), the mean, the slow hosts."""

    resource: str  # disk_read | disk_write | memory
    design_mb_s: float
    fastest_mb_s: float
    mean_mb_s: float | None
    hosts: int | None
    slow_hosts: tuple[str, ...]
    slowest_host: str
    source: str


@dataclass(frozen=True, slots=True)
class NetworkRates:
    mode: str
    link_mb_s: float
    slowest_link_mb_s: float
    no_good: tuple[tuple[str, str], ...]
    source: str


@dataclass(frozen=True, slots=True)
class ThroughputSweep:
    """Throughput at each client (virtual-user) count of one mix: a pgbench sweep or a HammerDB autopilot."""

    tool: str
    mix: str
    unit: str  # TPS (pgbench) | NOPM (HammerDB)
    clients: tuple[float, ...]
    throughput: tuple[float, ...]
    sources: tuple[str, ...]


def host_rates(profile: MeasurementProfile) -> dict[str, HostRates]:
    """Disk read, disk write and memory (stream) rates per host, from the newest gpcheckperf RESULT of each."""
    out: dict[str, HostRates] = {}
    for pf, result in profile.gpcheckperf():
        for test, t in result.tests.items():
            key = RESOURCES[test]
            if key not in out:
                out[key] = _host_rates(key, t, pf.file_name)
    return out


def _host_rates(key: str, t: BandwidthTest, source: str) -> HostRates:
    limit = no_good_fraction() * t.max.mib_s
    if t.per_host:
        slow = tuple(h.host for h in t.per_host if h.mib_s < limit)
        mean = statistics.fmean(h.mib_s for h in t.per_host) * MIB_S_TO_MB_S
    else:  # without -D only the slowest and fastest host are printed
        slow = (t.min.host,) if t.min.mib_s < limit else ()
        mean = None
    return HostRates(key, t.min.mib_s * MIB_S_TO_MB_S, t.max.mib_s * MIB_S_TO_MB_S, mean, t.hosts, slow,
                     t.min.host, source)


def network_rates(profile: MeasurementProfile) -> NetworkRates | None:
    """The newest network test's per-link rate (median link, or median host's min(Tx, Rx) in the matrix)."""
    for pf, result in profile.gpcheckperf():
        if result.network is not None:
            return _network_rates(result.network, pf.file_name)
    return None


def _network_rates(net: NetworkTest, source: str) -> NetworkRates:
    if net.mode == "matrix":
        rx = {h.host: h.mib_s for h in net.rx}
        per_host = [min(h.mib_s, rx.get(h.host, h.mib_s)) for h in net.tx]
        link, slowest = statistics.median(per_host), min(per_host)
    else:
        link, slowest = net.summary["median"], net.summary["min"]
    return NetworkRates(net.mode, link * MIB_S_TO_MB_S, slowest * MIB_S_TO_MB_S, net.no_good, source)


def sweeps(profile: MeasurementProfile) -> list[ThroughputSweep]:
    """One sweep per pgbench transaction type (runs of every pgbench file together) and per HammerDB file."""
    by_mix: dict[str, list[tuple[float, float, str]]] = {}
    out: list[ThroughputSweep] = []
    for pf in profile.files:
        data = pf.measurement.data
        if isinstance(data, PgbenchSweep):
            for run in data.runs:
                by_mix.setdefault(run.mix, []).append((float(run.clients), run.tps, pf.file_name))
        elif isinstance(data, HammerdbSweep):
            steps = [s for s in data.steps if s.nopm is not None]
            if steps:
                out.append(ThroughputSweep("hammerdb", "TPROC-C", "NOPM", tuple(float(s.virtual_users) for s in steps),
                                           tuple(float(s.nopm or 0.0) for s in steps), (pf.file_name,)))
    for mix, points in by_mix.items():
        points.sort()
        out.insert(0, ThroughputSweep("pgbench", mix, "TPS", tuple(p[0] for p in points), tuple(p[1] for p in points),
                                      tuple(dict.fromkeys(p[2] for p in points))))
    return out


def summary(profile: MeasurementProfile) -> dict[str, Any]:
    """The `refarch measure show --format json` document (fits are added by the caller, which runs them)."""
    files = []
    for f in profile.files:
        data = f.measurement.data
        item: dict[str, Any] = {"file": f.file_name, "kind": f.kind, "imported_at": f.imported_at.isoformat(),
                                "measured_at": f.measured_at.isoformat() if f.measured_at else None,
                                "hosts": list(f.hosts)}
        if isinstance(data, PgbenchSweep | HammerdbSweep):
            item["runs"] = len(data.runs) if isinstance(data, PgbenchSweep) else len(data.steps)
        if isinstance(data, PgbenchAggregateLog):
            steady = data.steady_tps()
            deciles = statistics.quantiles(steady, n=10, method="inclusive") if len(steady) >= 2 else None
            item.update(interval_s=data.interval_s, intervals=len(data.intervals), tps=data.tps,
                        latency_ms=data.latency_ms, tps_rel_sd=data.tps_rel_sd,
                        interval_tps_p10_p90=[deciles[0], deciles[-1]] if deciles else None)
        files.append(item)
    net = network_rates(profile)
    return {
        "name": profile.name,
        "server": profile.server_id,
        "data_drives_per_host": profile.data_drives,
        "drive": profile.drive_id,
        "created_at": profile.created_at.isoformat(),
        "hosts": list(profile.hosts),
        "files": files,
        "per_host": {k: _rates_doc(v) for k, v in host_rates(profile).items()},
        "network": None if net is None else {
            "mode": net.mode, "link_mb_s": net.link_mb_s, "slowest_link_mb_s": net.slowest_link_mb_s,
            "no_good_links": [f"{a} -> {b}" for a, b in net.no_good], "source": net.source},
        "sweeps": [{"tool": s.tool, "mix": s.mix, "unit": s.unit, "clients": list(s.clients),
                    "throughput": list(s.throughput), "sources": list(s.sources)} for s in sweeps(profile)],
    }


def _rates_doc(r: HostRates) -> dict[str, Any]:
    return {"design_mb_s": r.design_mb_s, "slowest_host": r.slowest_host, "fastest_mb_s": r.fastest_mb_s,
            "mean_mb_s": r.mean_mb_s, "hosts": r.hosts, "slow_hosts": list(r.slow_hosts), "source": r.source}

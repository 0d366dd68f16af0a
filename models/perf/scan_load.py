"""Greenplum scan / load / analytic-throughput roofline, calibrated on studies 000 and 002.

A Greenplum segment host streams data through four resources in series; the slowest
one sets the pace (a roofline):

    time = work_per_host / min(drives, cpu, network, loader)          [MB / (MB/s)]

Per segment host, in MB/s (H hosts, D data drives, C cores, P primary segments):

    drives  = D x seq_mb_s x drive_efficiency x raid_factor                       / virt
    cpu     = min(parallel, C) x rate_per_core x gen_speedup**gen x core_speed
              x (1 + numa_gain x numa_local)                                      / virt
    network = line_rate / bytes_on_the_wire_per_byte                              / virt
    loader  = etl_hosts x etl_line_rate x loader_efficiency / H       (loads only)
    virt    = 1 + virt_overhead x virtualized

* Full scan (`full_scan_seconds`): work = data_on_disk_tb / H; parallel = P (one scan
  process per primary segment and slice: a single query runs one process per primary,
  which is why study 002 gives low-concurrency systems more primaries); the network
  carries `motion_fraction x (H-1)/H` of the scanned bytes (redistribute motions).
* Load (`load_tb_per_hour`): every byte is written by its primary and its mirror, so the
  drives carry (1 + mirrored) / ratio bytes per loaded byte; on the wire it arrives from
  gpfdist (1), is redistributed to its segment ((H-1)/H) and replicated to the mirror
  (1 / ratio, compressed); parallel = P (each primary parses its share of the gpfdist
  stream) and pays zstd compression per logical MB when the table is compressed. The
  per-core load rate was fitted on mirrored loads, so it includes the mirror's work.
* Compression (`compression_ratio`, logical bytes per byte on disk): drives move bytes on
  disk, while CPU and interconnect move tuples (logical bytes), so a 3:1 table scans no
  faster than 1:1 where the CPU binds, and pays zstd decompression on top (codec speeds
  from the zstd README benchmark, one core; not scaled by CPU generation: conservative
  for newer cores). The studies' tables were uncompressed (000) or compared like with
  like (002's ratios), so the calibration is unchanged.
* Concurrent analytics (`queries_per_hour`): c concurrent queries each scan
  `scan_fraction` of the data; parallel = min(c x P, C); throughput = 3600 x H x rate /
  (scan_fraction x data).

Categorical inputs are numeric arrays so one call evaluates many designs:
`virtualized`, `numa_local`, `mirrored` are 0/1 (or bool) arrays; `cpu_generation` is 0
for the study-000 platform (E5-2470, Greenplum 4.2) and 1 for the study-002 platform
(EPYC Genoa, Greenplum 6.24); values between interpolate geometrically (assumption).

Parameters come from the calibration in `models.perf.scan_load_fit` (`default_params()`)
or from its Monte Carlo samples (`models.perf.scan_load_estimates`); every equation takes
them explicitly, so this module holds the physics only.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure
from models.hardware import MB_S_PER_GBPS
from models.vocabulary import RAID_LEVELS, RAIDS

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]
Num = float | FloatArray  # a scalar or an array that broadcasts against the others

DOCS = "vendor_docs"  # zstd codec speeds (its README benchmark): the CPU cost of compressed tables
GP000 = "gp_vsphere_000"
GP002 = "gp_nvme_ra_002"
STUDY_000 = "000_b2a3159111482e98.txt"
STUDY_002 = "002_feb9b45e1f157a35.txt"

# Unit conversions (not study figures): decimal TB -> MB, hours (Gb/s -> MB/s: models.hardware.MB_S_PER_GBPS).
MB_PER_TB = 1e6
S_PER_HOUR = 3600.0

BINDING_NAMES: tuple[str, ...] = ("drives", "cpu", "network", "loader")
DRIVES, CPU, NETWORK, LOADER = range(4)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class ScanParams:
    """Fitted and derived parameters; each a float, or an array of Monte Carlo samples."""

    drive_read_efficiency: Num  # share of the datasheet sequential read a Greenplum scan gets
    drive_write_efficiency: Num  # share of the datasheet sequential write a load gets
    scan_mb_s_per_core: Num  # MB/s one scan process moves on a study-000 core, physical, not NUMA-local
    load_mb_s_per_core: Num  # MB/s one primary loads (parse, distribute, write + mirror), same footing
    scan_gen_speedup: Num  # per-core scan rate, study-002 platform / study-000 platform
    load_gen_speedup: Num  # per-core load rate, study-002 platform / study-000 platform
    virt_overhead_seq: Num  # response-time overhead of a segment VM, sequential read or write
    virt_overhead_mixed: Num  # same, mixed read/write (concurrent analytics)
    numa_gain_scan: Num  # CPU-rate gain when segment memory is node-local, scans and analytics
    numa_gain_load: Num  # same, loads
    motion_fraction: Num  # share of scanned bytes redistributed over the interconnect
    loader_efficiency: Num  # share of an ETL host's line rate gpfdist delivers

    def as_floats(self) -> dict[str, float]:
        return {k: float(np.mean(v)) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class ClusterShape:
    """A Greenplum segment-host design; every field is a scalar or a broadcastable array.

    `segment_hosts` >= 2 (mirrors live on another host). `drive_seq_*_mb_s` are datasheet
    figures of one data drive; `raid_*_factor` from `raid_factors`; `network_gbps_per_host`
    is the interconnect's aggregate line rate; `virtualized`, `numa_local`, `mirrored` are
    0/1. `numa_local` is 1 when each Greenplum instance's memory is local to its socket:
    a segment VM sized to one NUMA node on vSphere with NUMA enabled (000: "Size
    Greenplum virtual machines to fit on one NUMA node"), or a single-socket host (002:
    single socket "mitigates NUMA overhead"). `cpu_generation` 0 = study-000 platform,
    1 = study-002 platform. `core_speed` scales the per-core rate for a CPU faster or
    slower per core than the calibrated part of its generation (e.g. a clock ratio).
    `etl_gbps_per_host` (NaN, the default, where unset) is the segment hosts' `network_gbps_per_host`.
    Every field survives `float(...)` of one element, so a one-design shape can be rebuilt
    field by field.
    """

    segment_hosts: Num
    drives_per_host: Num
    drive_seq_read_mb_s: Num
    drive_seq_write_mb_s: Num
    raid_read_factor: Num
    raid_write_factor: Num
    cores_per_host: Num
    network_gbps_per_host: Num
    virtualized: Num
    numa_local: Num
    primary_segments_per_host: Num
    etl_hosts: Num
    cpu_generation: Num = 1.0
    core_speed: Num = 1.0
    mirrored: Num = 1.0
    compression_ratio: Num = 1.0  # logical (uncompressed) bytes per byte on disk; 1 = heap/uncompressed
    etl_gbps_per_host: Num = float("nan")  # NaN: as fast as the segment hosts' interconnect

    def replace(self, **changes: Any) -> ClusterShape:
        return replace(self, **changes)


@dataclass(frozen=True)
class RooflineResult:
    """`value` in `unit` (s, TB/h, queries/h); `binding` codes index `binding_names`.

    `rates_mb_s` holds each resource's ceiling per segment host (inf when the resource is
    not involved, e.g. the loader in a scan); `host_mb_s` is their minimum.
    """

    value: FloatArray
    unit: str
    rates: tuple[FloatArray, ...]  # per resource, in `binding_names` order
    host_mb_s: FloatArray
    binding_names: tuple[str, ...] = BINDING_NAMES

    # Computed on first use: the optimizer's host-count search asks only for `value`, millions of
    # times, and stacking the rates to find the binding one cost a fifth of its time.
    @functools.cached_property
    def rates_mb_s(self) -> dict[str, FloatArray]:
        return dict(zip(self.binding_names, np.stack(np.broadcast_arrays(*self.rates)), strict=True))

    @functools.cached_property
    def binding(self) -> IntArray:
        return first_min(self.rates)

    @property
    def seconds(self) -> FloatArray:
        if self.unit != "s":
            raise AttributeError(f"this result is in {self.unit}, not seconds")
        return self.value

    def binding_labels(self) -> NDArray[np.str_]:
        return np.asarray(self.binding_names)[self.binding]


def first_min(rates: tuple[FloatArray, ...]) -> IntArray:
    """Per element, the index of the smallest of `rates`, the first on a tie: `np.argmin` over the stacked rates.

    An argmin along the stacked axis runs a 4-element loop per design (a sixth of a chunk's evaluation);
    running comparisons give the same codes. Where a rate is NaN (argmin takes the first NaN), argmin decides.

    >>> first_min((np.array([3.0, 1.0, 2.0]), np.array([1.0, 1.0, 2.0]), np.array([2.0, 0.5, 2.0]))).tolist()
    [1, 2, 0]
    >>> first_min((np.array([1.0]), np.array([np.nan]))).tolist()
    [1]
    """
    arrays = np.broadcast_arrays(*rates)
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, sent to argmin like a NaN rate
        total = functools.reduce(np.add, arrays)
    if np.isnan(total).any():
        codes: IntArray = np.argmin(np.stack(arrays), axis=0)
        return codes
    best = arrays[0]
    codes = np.zeros(best.shape, dtype=np.intp)
    for k, rate in enumerate(arrays[1:], start=1):
        lower = rate < best  # strictly: a tie keeps the earlier resource
        codes[lower] = k
        best = np.minimum(best, rate)
    return codes


# --------------------------------------------------------------------------- model


def as_array(x: ArrayLike) -> FloatArray:
    return np.asarray(x, dtype=float)


def raid_factors(raid: str | ArrayLike, drives: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Share of the drives' raw streaming bandwidth left for user data: (read, write).

    `raid` is a level name, or an integer array of codes into `RAID_LEVELS` (so an
    optimizer can mix levels in one call); `drives` is the drive count of the set.
    none: (1, 1). raid1 / raid10: reads spread over both copies (1), every write lands
    twice (1/2). raid5 over n drives: a full stripe holds n-1 data strips, so reads get
    (n-1)/n; writes get (n-1)/n divided by the I/O inflation study 002 measured for a
    stripe-aligned set ("less than 1.5x"; 3x when not aligned), which covers the
    read-modify-write cycles partial stripes still cause.
    """
    n = as_array(drives)
    if isinstance(raid, str):
        level = raid.lower().replace("-", "").replace(" ", "")
        level = "none" if level in ("jbod", "raid0") else level
        if level not in RAID_LEVELS:
            raise ValueError(f"unknown RAID level '{raid}' ({', '.join(RAID_LEVELS)})")
        codes = np.full(np.shape(n), RAID_LEVELS.index(level))
    else:
        codes = np.asarray(raid)
        if not np.issubdtype(codes.dtype, np.integer) or (
                codes.size and (codes.min() < 0 or codes.max() >= len(RAID_LEVELS))):
            raise ValueError(f"RAID codes must be integers indexing {RAID_LEVELS}")
    codes, n = np.broadcast_arrays(codes, n)
    is5 = codes == RAID_LEVELS.index("raid5")
    # every level but RAID-5 by a table lookup; RAID-5's share depends on its drive count (its rows only)
    read = np.ones(codes.shape)
    write = np.asarray(_RAID_WRITE[codes])  # a 0-d array for one set (indexing gives a scalar)
    n5 = n[is5]
    if n5.size:
        if n5.min() < 3:
            raise ValueError("RAID-5 needs at least 3 drives")
        data_share = (n5 - 1.0) / n5
        read[is5] = data_share
        write[is5] = data_share / figure(GP002, "raid5_aligned_io_inflation")
    return read, write


# the write share of each level's drives in `RAID_LEVELS` order, RAID-5 aside: every write lands twice when mirrored
_RAID_WRITE = np.array([0.5 if RAIDS[name].mirrored else 1.0 for name in RAID_LEVELS])


def virt_factor(shape: ClusterShape, overhead: Num) -> FloatArray:
    return 1.0 + as_array(overhead) * as_array(shape.virtualized)


def _cpu_rate(
    shape: ClusterShape, parallel: FloatArray, per_core: Num, speedup: Num, numa_gain: Num, codec_mb_s: float = np.inf
) -> FloatArray:
    """Logical (uncompressed) MB/s the busy cores process, the codec's work included.

    Processes beyond the core count only queue (002: primaries "should almost never exceed"
    cores), so more primaries on the same cores add nothing. A compressed table costs each
    core the codec's time per logical MB on top of the tuple work: 1 / (1/rate + 1/codec).
    """
    busy = np.minimum(parallel, as_array(shape.cores_per_host))
    gen_factor = np.power(as_array(speedup), as_array(shape.cpu_generation))
    numa = 1.0 + as_array(numa_gain) * as_array(shape.numa_local)
    per = as_array(per_core) * gen_factor * as_array(shape.core_speed) * numa
    codec = np.where(as_array(shape.compression_ratio) > 1.0, 1.0 / codec_mb_s, 0.0)
    return busy / (1.0 / per + codec)


def _codec(name: str) -> float:
    return figure(DOCS, name)


def _cross_host_share(hosts: FloatArray) -> FloatArray:
    # A redistributed byte stays on its host with probability 1/H.
    return (hosts - 1.0) / hosts


def network_rate(shape: ClusterShape, wire_bytes_per_byte: FloatArray) -> FloatArray:
    line = as_array(shape.network_gbps_per_host) * MB_S_PER_GBPS
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(wire_bytes_per_byte > 0, line / wire_bytes_per_byte, np.inf)


def roofline_result(value: FloatArray, unit: str, rates: tuple[FloatArray, ...], host: FloatArray) -> RooflineResult:
    return RooflineResult(value=value, unit=unit, rates=rates, host_mb_s=host)


def _analytic_rates(
    shape: ClusterShape, parallel: FloatArray, overhead: Num, p: ScanParams
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    virt, drives, cpu = host_free_rates(shape, parallel, overhead, p)
    network = scan_network_rate(shape, as_array(shape.segment_hosts), virt, p)
    loader = np.full_like(cpu, np.inf)
    return drives, cpu, network, loader


def host_free_rates(
    shape: ClusterShape, parallel: FloatArray, overhead: Num, p: ScanParams
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(virt, drives, cpu) of a scan: what does not change with the host count."""
    virt = virt_factor(shape, overhead)
    drives = drive_read_rate(shape, virt, p)
    return virt, drives, scan_cpu_rate(shape, parallel, virt, p)


def scan_cpu_rate(shape: ClusterShape, parallel: FloatArray, virt: FloatArray, p: ScanParams) -> FloatArray:
    """The scan's CPU rate per byte on disk (`host_free_rates`' third)."""
    # Rates per byte on disk. CPU and the interconnect work on tuples, i.e. logical bytes: a
    # byte on disk holds `ratio` of them, and the scan also decompresses them.
    ratio = as_array(shape.compression_ratio)
    decompress = _codec("zstd_decompress_mb_s_per_core")
    cpu = _cpu_rate(shape, parallel, p.scan_mb_s_per_core, p.scan_gen_speedup, p.numa_gain_scan, decompress)
    cpu = cpu / virt / ratio
    return cpu


def drive_read_rate(shape: ClusterShape, virt: FloatArray, p: ScanParams) -> FloatArray:
    drives: FloatArray = as_array(shape.drives_per_host) * as_array(shape.drive_seq_read_mb_s)
    eff, raid = as_array(p.drive_read_efficiency), as_array(shape.raid_read_factor)
    if type(drives) is np.ndarray and all(np.shape(x) in ((), drives.shape) for x in (eff, raid, virt)):
        drives *= eff  # a chunk of designs: the same steps, in order, written into one array
        drives *= raid
        drives /= virt
        return drives
    return drives * eff * raid / virt


def scan_network_rate(shape: ClusterShape, hosts: FloatArray, virt: FloatArray, p: ScanParams) -> FloatArray:
    ratio = as_array(shape.compression_ratio)
    return network_rate(shape, as_array(p.motion_fraction) * _cross_host_share(hosts) * ratio) / virt


def full_scan_seconds(shape: ClusterShape, data_on_disk_tb: ArrayLike, params: ScanParams) -> RooflineResult:
    """Seconds for one query to scan `data_on_disk_tb` (primary copy, as stored) across the cluster.

    t = (data x 1e6 / H) / min(drives, cpu, network), with cpu parallelism = P primaries
    and the sequential-read virtualization overhead. Calibrated on FullScanSQL (000).
    """
    p = params
    rates = _analytic_rates(shape, as_array(shape.primary_segments_per_host), p.virt_overhead_seq, p)
    host = np.minimum(np.minimum(rates[0], rates[1]), rates[2])
    seconds = as_array(data_on_disk_tb) * MB_PER_TB / as_array(shape.segment_hosts) / host
    return roofline_result(seconds, "s", rates, host)


def load_tb_per_hour(shape: ClusterShape, params: ScanParams) -> RooflineResult:
    """Cluster load rate in TB/h from gpfdist external tables.

    rate = H x min(drives_w / (1 + mirrored), cpu(P), line / (1 + (H-1)/H + mirrored),
    etl_hosts x etl_line x loader_efficiency / H) x 3600 / 1e6, with the sequential-write
    virtualization overhead on the segment-host terms. Calibrated on the 1 TB load (000)
    and the 10.6x load ratio (002).
    """
    p = params
    virt = virt_factor(shape, p.virt_overhead_seq)
    hosts = as_array(shape.segment_hosts)
    # Rates per loaded (logical) byte: it reaches the disks compressed, once for the primary and
    # once for the mirror; the primary compresses it; the mirror copy crosses the wire compressed.
    ratio = as_array(shape.compression_ratio)
    copies = 1.0 + as_array(shape.mirrored)
    drives = (
        as_array(shape.drives_per_host)
        * as_array(shape.drive_seq_write_mb_s)
        * as_array(p.drive_write_efficiency)
        * as_array(shape.raid_write_factor)
        * ratio
        / copies
        / virt
    )
    cpu = (
        _cpu_rate(
            shape, as_array(shape.primary_segments_per_host), p.load_mb_s_per_core, p.load_gen_speedup,
            p.numa_gain_load,
            _codec("zstd_compress_mb_s_per_core"),
        )
        / virt
    )
    wire = 1.0 + _cross_host_share(hosts) + as_array(shape.mirrored) / ratio
    network = network_rate(shape, wire) / virt
    etl_gbps = as_array(shape.etl_gbps_per_host)
    etl_gbps = np.where(np.isnan(etl_gbps), as_array(shape.network_gbps_per_host), etl_gbps)
    loader = as_array(shape.etl_hosts) * etl_gbps * MB_S_PER_GBPS * as_array(p.loader_efficiency) / hosts
    host = np.minimum(np.minimum(drives, cpu), np.minimum(network, loader))
    tb_h = hosts * host * S_PER_HOUR / MB_PER_TB
    return roofline_result(tb_h, "TB/h", (drives, cpu, network, loader), host)


def queries_per_hour(
    shape: ClusterShape,
    data_on_disk_tb: ArrayLike,
    concurrent_queries: ArrayLike,
    scan_fraction: ArrayLike,
    params: ScanParams,
) -> RooflineResult:
    """Concurrent analytic throughput: queries/h when `concurrent_queries` run at once.

    Assumptions: a typical report scans `scan_fraction` of the data (000's PartialScanSQL
    scans 1.7 of 8.4 billion rows: `default_scan_fraction()`), costs the CPU what a
    FullScanSQL-style scan costs per byte, and runs one process per primary segment, so
    c queries keep min(c x P, C) cores busy; concurrent queries share the drives and the
    interconnect; analytics see the mixed-I/O virtualization overhead (000: 3 %).

    qph = 3600 x H x min(drives, cpu(min(c P, C)), network) / (scan_fraction x data x 1e6)

    Calibrated on 002's single-stream 5.7x and concurrent (15 streams) 4.2x ratios (flash). The
    sizing lowers the drives' read factor for concurrent streams on spinning drives
    (`models.sizing.greenplum.drive_share`). Not modelled: spills, memory limits, queueing in
    resource groups.
    """
    p = params
    c = np.maximum(as_array(concurrent_queries), 1.0)
    parallel = c * as_array(shape.primary_segments_per_host)
    rates = _analytic_rates(shape, parallel, p.virt_overhead_mixed, p)
    host = np.minimum(np.minimum(rates[0], rates[1]), rates[2])
    work_mb = as_array(scan_fraction) * as_array(data_on_disk_tb) * MB_PER_TB
    qph = S_PER_HOUR * as_array(shape.segment_hosts) * host / work_mb
    return roofline_result(qph, "queries/h", rates, host)


def default_scan_fraction() -> float:
    """Share of the fact data a typical report scans: 000's PartialScanSQL, 1.7 / 8.4 billion rows."""
    return figure(GP000, "partial_scan_fraction")

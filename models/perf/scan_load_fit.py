"""Calibration of the Greenplum scan / load roofline (`models.perf.scan_load`) on studies 000 and 002.

Calibration (every figure read from `resources/calibration/`, none a literal here):

* `gp_vsphere_000` (000_b2a3159111482e98.txt): 4 segment hosts, 2 x 8-core E5-2470,
  16 SATA 7,200 rpm data drives, 2 x 10 GbE, 8 primaries + 8 mirrors per host.
  FullScanSQL times with 1 and 2 VMs per host (points fullscan_*), the 1 TB load times
  (points load_*), 5-6 % virtualization overhead for sequential read/write, 3 % for
  mixed I/O, 2 VMs 11 % / 4 % faster than physical. These fix the reference per-core
  scan and load rates, the NUMA-locality gains and the sequential overhead (least
  squares in log space). The NUMA gain moving the scan 16 % shows the scan was CPU
  (memory-latency) bound, not drive bound: the study says memory latency became "as
  prominent as the speed of the data stream". The scan reads the 8.4 billion-row
  fact table (3.65 TB derived from the load's 1 TB = 2.3 billion rows), not the whole
  6 TB database.
* `gp_nvme_ra_002` (002_feb9b45e1f157a35.txt), Table 2 ratios of a Gen5 server
  (1 x 48-core EPYC 9454P, 8 x PM1743, 400 Gb) over the previous appliance (24 spinning
  disks, dual socket, 10 Gb): synthetic I/O 48x fixes the previous appliance's drive
  rate; the 10.6x load ratio fixes `load_gen_speedup`; the 5.7x single-stream and 4.2x
  concurrent ratios fix `scan_gen_speedup` (one parameter, two points). The network
  guidance (100 GbE recommended, 25 GbE "minimal risk", slower a "significant
  deviation", >= 2 ports) bounds `motion_fraction`.

The study shapes below describe the tested clusters; `default_params()` is the fit and
`param_distributions()` its uncertainty; `models.perf.scan_load_cards` reports the fit as two model cards.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from models.calibration_data import figure, point
from models.fit_cache import disk_cached
from models.hardware import MB_S_PER_GBPS
from models.model_card import Residual
from models.perf import measured
from models.perf.scan_load import (
    GP000,
    GP002,
    MB_PER_TB,
    S_PER_HOUR,
    ClusterShape,
    FloatArray,
    ScanParams,
    as_array,
    default_scan_fraction,
    full_scan_seconds,
    load_tb_per_hour,
    queries_per_hour,
)
from models.uncertainty import QUOTED_RELATIVE_SD, Distribution, PositiveNormal, Triangular

# --------------------------------------------------------------------------- study shapes


def study000_shape(vms_per_host: int) -> ClusterShape:
    """The study-000 segment hosts; `vms_per_host` 0 = physical, else 1, 2 or 4 VMs per host.

    VMs per host >= NUMA nodes puts each VM in one node (000: vSphere's NUMA-aware
    placement of the 2 and 4 VM cases). ASSUMED: 000 gives no drive rate, so its
    7,200 rpm SATA drives stream at the rate 002 implies for the previous appliance's
    spinning drives (`prev_drive_seq_mb_s`); no 000 case is drive bound, so the fit does
    not depend on it.
    """
    drive_mb_s = figure(GP002, "prev_drive_seq_mb_s")
    return ClusterShape(
        segment_hosts=figure(GP000, "segment_hosts"),
        drives_per_host=figure(GP000, "data_drives_per_host"),
        drive_seq_read_mb_s=drive_mb_s,
        drive_seq_write_mb_s=drive_mb_s,
        raid_read_factor=1.0,  # one partition per disk, passed through as RDM: no RAID
        raid_write_factor=1.0,
        cores_per_host=figure(GP000, "cores_per_host"),
        network_gbps_per_host=figure(GP000, "network_gbps_per_host"),
        virtualized=float(vms_per_host > 0),
        numa_local=float(vms_per_host >= figure(GP000, "numa_nodes_per_host")),
        primary_segments_per_host=figure(GP000, "primary_segments_per_host"),
        etl_hosts=figure(GP000, "etl_hosts"),
        cpu_generation=0.0,
        etl_gbps_per_host=figure(GP000, "etl_network_gbps"),
    )


def previous_appliance_shape() -> ClusterShape:
    """Study 002's previous-generation appliance (EMC DCA), as far as the studies describe it.

    002 states 24 spinning disks, dual socket and 10 Gb. ASSUMED (002 does not say): the
    cores, primaries and ports of the study-000 host (dual 8-core socket, 8 primaries,
    2 x 10 Gb, same era and Greenplum 4.x); drives streaming at the rate 002's synthetic
    I/O ratio implies (`prev_drive_seq_mb_s`), reads and writes alike; the 000 cluster size;
    ETL capacity that does not bind (one ETL host per segment host).
    """
    drive_mb_s = figure(GP002, "prev_drive_seq_mb_s")
    hosts = figure(GP000, "segment_hosts")
    return ClusterShape(
        segment_hosts=hosts,
        drives_per_host=figure(GP002, "prev_data_drives_per_host"),
        drive_seq_read_mb_s=drive_mb_s,
        drive_seq_write_mb_s=drive_mb_s,
        raid_read_factor=1.0,  # the derived drive rate already is what the synthetic test saw
        raid_write_factor=1.0,
        cores_per_host=figure(GP000, "cores_per_host"),
        network_gbps_per_host=figure(GP000, "interconnect_ports_per_host") * figure(GP002, "prev_network_port_gbps"),
        virtualized=0.0,
        numa_local=0.0,  # dual socket, bare metal
        primary_segments_per_host=figure(GP000, "primary_segments_per_host"),
        etl_hosts=hosts,
        cpu_generation=0.0,
    )


def gen5_reference_shape() -> ClusterShape:
    """Study 002's Gen5 segment server: 1 x 48 cores, 8 x PM1743 without RAID, 400 Gb.

    ASSUMED (002 does not state the tested segment count): 32 primaries per host, the
    study's Type 3; with it the single-stream and concurrent ratios agree to ~2 % (16
    would leave the single-stream ratio at half of 5.7x). Cluster size and ETL as in
    `previous_appliance_shape`.
    """
    hosts = figure(GP000, "segment_hosts")
    return ClusterShape(
        segment_hosts=hosts,
        drives_per_host=figure(GP002, "gen5_data_drives_per_host"),
        drive_seq_read_mb_s=figure(GP002, "pm1743_seq_read_mb_s"),
        drive_seq_write_mb_s=figure(GP002, "pm1743_seq_write_mb_s"),
        raid_read_factor=1.0,  # 002 does not recommend RAID on this configuration
        raid_write_factor=1.0,
        cores_per_host=figure(GP002, "gen5_cores_per_host"),
        network_gbps_per_host=figure(GP002, "gen5_network_gbps_per_host"),
        virtualized=0.0,
        numa_local=1.0,  # single socket
        primary_segments_per_host=figure(GP002, "seg_tier3_primaries_per_host"),
        etl_hosts=hosts,
        cpu_generation=1.0,
    )


# --------------------------------------------------------------------------- calibration


@dataclass(frozen=True)
class ScanLoadFit:
    """The fitted parameters, their ranges and the residuals against both studies (what the cards report)."""

    params: ScanParams
    distributions: dict[str, Distribution]
    residuals_scan_load: tuple[Residual, ...]
    residuals_dw: tuple[Residual, ...]
    rms_000: float
    rms_002_dw: float


def _fact_tb() -> float:
    return figure(GP000, "fact_table_tb")


def _load_tb() -> float:
    return figure(GP000, "load_tb")


def _load_seconds(shape: ClusterShape, p: ScanParams) -> float:
    return float(_load_tb() / load_tb_per_hour(shape, p).value * S_PER_HOUR)


def _scan_seconds(shape: ClusterShape, p: ScanParams) -> float:
    return float(full_scan_seconds(shape, _fact_tb(), p).value)


def _dw_ratios(p: ScanParams) -> tuple[float, float]:
    # TPC-DS scale factor = raw GB, so SF / 1000 = TB; the data cancels in a ratio anyway.
    data, frac = figure(GP002, "tpcds_scale_factor") / 1000.0, default_scan_fraction()
    old, new = previous_appliance_shape(), gen5_reference_shape()
    out = []
    for streams in (1.0, figure(GP002, "tpcds_streams")):
        q_new = queries_per_hour(new, data, streams, frac, p).value
        q_old = queries_per_hour(old, data, streams, frac, p).value
        out.append(float(q_new / q_old))
    return out[0], out[1]


def _load_ratio(p: ScanParams) -> float:
    return float(
        load_tb_per_hour(gen5_reference_shape(), p).value / load_tb_per_hour(previous_appliance_shape(), p).value
    )


def _synthetic_io_ratio() -> float:
    # Synthetic I/O exercises only the drives: the ratio of the drive ceilings.
    def streaming(s: ClusterShape) -> float:
        return float(as_array(s.drives_per_host) * as_array(s.drive_seq_read_mb_s) * as_array(s.raid_read_factor))

    return streaming(gen5_reference_shape()) / streaming(previous_appliance_shape())


def _seq_overhead_band() -> tuple[float, float, float]:
    """Study 000's sequential vSphere overhead as fractions: (quoted mid, low, high) of "between a 5% to 6% range".

    The mid starts and anchors the fit; the band bounds its distribution.
    """
    vp = point(GP000, "virt_overhead_seq_pct")
    low = (vp.value if vp.low is None else vp.low) / 100.0
    high = (vp.value if vp.high is None else vp.high) / 100.0
    return vp.value / 100.0, low, high


def _start_params() -> ScanParams:
    """Where the fit starts: only the quantities being fitted can bind while fitting.

    Drives at their datasheet rate, no interconnect traffic and generous ETL; the fitted point is
    checked against those ceilings again at the end (`_drive_efficiency_floor`, `_loader_efficiency_floor`).
    """
    return ScanParams(
        drive_read_efficiency=1.0,
        drive_write_efficiency=1.0,
        scan_mb_s_per_core=1.0,
        load_mb_s_per_core=1.0,
        scan_gen_speedup=1.0,
        load_gen_speedup=1.0,
        virt_overhead_seq=_seq_overhead_band()[0],
        virt_overhead_mixed=figure(GP000, "virt_overhead_mixed_pct") / 100.0,
        numa_gain_scan=0.0,
        numa_gain_load=0.0,
        motion_fraction=0.0,
        loader_efficiency=1.0,
    )


def _fit_study000(p0: ScanParams) -> tuple[ScanParams, float]:
    """Per-core scan and load rates, both NUMA gains and the sequential overhead from study 000.

    Five parameters against seven log-space observations: the four scan/load times, the two
    "2 VMs x % faster than physical" statements and the quoted 5-6 % overhead. Returns the
    fitted parameters and the rms log residual (it widens the rates' distributions).
    """
    # Imported here: scipy.optimize costs ~0.5 s to import and only the fit needs it.
    from scipy.optimize import least_squares

    virt_mid = _seq_overhead_band()[0]
    phys, vm1, vm2 = study000_shape(0), study000_shape(1), study000_shape(2)
    t_scan1, t_scan2 = figure(GP000, "fullscan_1vm_s"), figure(GP000, "fullscan_2vm_s")
    t_load1, t_load2 = figure(GP000, "load_1vm_s"), figure(GP000, "load_2vm_s")
    faster_scan = figure(GP000, "fullscan_2vm_faster_than_physical_pct") / 100.0
    faster_load = figure(GP000, "load_2vm_faster_than_physical_pct") / 100.0

    def p000(x: FloatArray) -> ScanParams:
        return replace(
            p0,
            scan_mb_s_per_core=float(np.exp(x[0])),
            numa_gain_scan=float(x[1]),
            load_mb_s_per_core=float(np.exp(x[2])),
            numa_gain_load=float(x[3]),
            virt_overhead_seq=float(x[4]),
        )

    def res000(x: FloatArray) -> FloatArray:
        p = p000(x)
        s0, s1, s2 = (_scan_seconds(s, p) for s in (phys, vm1, vm2))
        l0, l1, l2 = (_load_seconds(s, p) for s in (phys, vm1, vm2))
        return np.log(
            [
                s1 / t_scan1,
                s2 / t_scan2,
                l1 / t_load1,
                l2 / t_load2,
                (s2 / s0) / (1.0 - faster_scan),
                (l2 / l0) / (1.0 - faster_load),
                (1.0 + x[4]) / (1.0 + virt_mid),
            ]
        )

    # Closed-form start: 1 VM per host CPU bound on P primaries, the 2 VM gain all NUMA.
    per_process = 1.0 / (as_array(vm1.segment_hosts) * as_array(vm1.primary_segments_per_host))
    x0 = np.array(
        [
            np.log(_fact_tb() * MB_PER_TB * per_process / t_scan1 * (1.0 + virt_mid)),
            t_scan1 / t_scan2 - 1.0,
            np.log(_load_tb() * MB_PER_TB * per_process / t_load1 * (1.0 + virt_mid)),
            t_load1 / t_load2 - 1.0,
            virt_mid,
        ]
    )
    # Bounds are physical: gains and overheads between 0 and +100 % / +50 %.
    fit000 = least_squares(res000, x0, bounds=([-np.inf, 0, -np.inf, 0, 0], [np.inf, 1, np.inf, 1, 0.5]))
    return p000(fit000.x), float(np.sqrt(np.mean(fit000.fun**2)))


def _fit_generation_speedups(p1: ScanParams) -> tuple[ScanParams, float]:
    """Study 002's Gen5-over-previous-appliance speedups, with the previous appliance as the baseline.

    The scan speedup is one parameter for two ratios (single stream and concurrent), so its rms log
    residual is a real check and is returned; the load speedup is fixed exactly by the load ratio.
    """
    from scipy.optimize import least_squares

    r_single, r_conc = figure(GP002, "ratio_single_stream"), figure(GP002, "ratio_concurrent")
    r_load = figure(GP002, "ratio_load")

    def res_dw(x: FloatArray) -> FloatArray:
        single, conc = _dw_ratios(replace(p1, scan_gen_speedup=float(np.exp(x[0]))))
        return np.log([single / r_single, conc / r_conc])

    fit_dw = least_squares(res_dw, np.array([0.0]))
    rms_dw = float(np.sqrt(np.mean(fit_dw.fun**2)))
    p2 = replace(p1, scan_gen_speedup=float(np.exp(fit_dw.x[0])))
    fit_load = least_squares(
        lambda x: np.log([_load_ratio(replace(p2, load_gen_speedup=float(np.exp(x[0])))) / r_load]), np.array([0.0])
    )
    return replace(p2, load_gen_speedup=float(np.exp(fit_load.x[0]))), rms_dw


def _motion_fraction_band(p: ScanParams) -> tuple[float, float]:
    """(low, high) share of the analytic stream that crosses the interconnect, from 002's network guidance.

    2 x 25 Gb ports carry the Gen5 host's all-core analytic rate "with minimal risk" (the upper end,
    and the mode: conservative); 2 x 10 Gb would be "a significant deviation" (the network then
    binds: the lower end).
    """
    gen5 = gen5_reference_shape()
    all_core = float(
        queries_per_hour(gen5, 1.0, figure(GP002, "tpcds_streams"), 1.0, p).rates_mb_s["cpu"]
    )  # MB/s per host with every core busy
    ports = figure(GP002, "network_min_ports")
    m_high = ports * figure(GP002, "network_port_min_gbps") * MB_S_PER_GBPS / all_core
    m_low = ports * figure(GP002, "prev_network_port_gbps") * MB_S_PER_GBPS / all_core
    return float(m_low), float(m_high)


def _drive_efficiency_floor(p: ScanParams) -> float:
    """The lowest drive efficiency that still sustains study 000's 2 VM scan.

    The 000 drives (same class as the previous appliance's) must have sustained it, and the NUMA
    gain shows that scan was not drive bound.
    """
    vm2 = study000_shape(2)
    t_scan2 = figure(GP000, "fullscan_2vm_s")
    vm2_rate = as_array(_fact_tb()) * MB_PER_TB / as_array(vm2.segment_hosts) / t_scan2 * (1.0 + p.virt_overhead_seq)
    drive_raw = float(as_array(vm2.drives_per_host) * as_array(vm2.drive_seq_read_mb_s))
    return min(1.0, float(vm2_rate / drive_raw))


def _loader_efficiency_floor() -> float:
    """The share of its line rate the single ETL VM (2 x 10 Gb) used to serve study 000's 2 VM load
    without binding: the lowest loader efficiency consistent with it."""
    served = _load_tb() * MB_PER_TB / figure(GP000, "load_2vm_s")
    etl_line = figure(GP000, "etl_hosts") * figure(GP000, "etl_network_gbps") * MB_S_PER_GBPS
    return float(min(1.0, served / etl_line))


def _distributions(
    params: ScanParams, rms_000: float, rms_dw: float, motion: tuple[float, float]
) -> dict[str, Distribution]:
    """Each parameter's uncertainty around the fitted point (the rules are in `param_distributions`)."""
    q = QUOTED_RELATIVE_SD
    _, virt_pt_low, virt_pt_high = _seq_overhead_band()
    eff_low, loader_low = _drive_efficiency_floor(params), _loader_efficiency_floor()
    m_low, m_high = motion

    def rel_sd(*extra: float) -> float:
        return float(np.sqrt(q**2 + sum(e**2 for e in extra)))

    ratio_sd = float(np.sqrt(2.0)) * q  # a ratio of two quoted measurements
    return {
        "drive_read_efficiency": Triangular(eff_low, 1.0, 1.0),
        "drive_write_efficiency": Triangular(eff_low, 1.0, 1.0),
        "scan_mb_s_per_core": PositiveNormal(
            float(params.scan_mb_s_per_core), float(params.scan_mb_s_per_core) * rel_sd(rms_000)
        ),
        "load_mb_s_per_core": PositiveNormal(
            float(params.load_mb_s_per_core), float(params.load_mb_s_per_core) * rel_sd(rms_000)
        ),
        "scan_gen_speedup": PositiveNormal(
            float(params.scan_gen_speedup), float(params.scan_gen_speedup) * float(np.hypot(ratio_sd, rms_dw))
        ),
        "load_gen_speedup": PositiveNormal(float(params.load_gen_speedup), float(params.load_gen_speedup) * ratio_sd),
        "virt_overhead_seq": Triangular(
            virt_pt_low, float(np.clip(params.virt_overhead_seq, virt_pt_low, virt_pt_high)), virt_pt_high
        ),
        "virt_overhead_mixed": PositiveNormal(float(params.virt_overhead_mixed), float(params.virt_overhead_mixed) * q),
        "numa_gain_scan": PositiveNormal(float(params.numa_gain_scan), (1.0 + float(params.numa_gain_scan)) * ratio_sd),
        "numa_gain_load": PositiveNormal(float(params.numa_gain_load), (1.0 + float(params.numa_gain_load)) * ratio_sd),
        "motion_fraction": Triangular(float(m_low), float(m_high), float(m_high)),
        "loader_efficiency": Triangular(loader_low, 1.0, 1.0),
    }


@disk_cached
def _fit() -> ScanLoadFit:
    """Fit the roofline in three steps, each on the studies that pin it, then set the parameters' ranges."""
    p1, rms_000 = _fit_study000(_start_params())
    p3, rms_dw = _fit_generation_speedups(p1)
    motion = _motion_fraction_band(p3)
    params = replace(p3, motion_fraction=motion[1])
    return ScanLoadFit(
        params=params,
        distributions=_distributions(params, rms_000, rms_dw, motion),
        residuals_scan_load=_scan_load_residuals(params),
        residuals_dw=_dw_residuals(params),
        rms_000=rms_000,
        rms_002_dw=rms_dw,
    )


def _scan_load_residuals(p: ScanParams) -> tuple[Residual, ...]:
    phys, vm1, vm2 = study000_shape(0), study000_shape(1), study000_shape(2)
    scan = {k: _scan_seconds(s, p) for k, s in (("phys", phys), ("vm1", vm1), ("vm2", vm2))}
    load = {k: _load_seconds(s, p) for k, s in (("phys", phys), ("vm1", vm1), ("vm2", vm2))}
    interleaved_2vm = replace(vm2, numa_local=0.0)  # memory interleaved: no locality
    interleaved_1vm = replace(vm1, numa_local=0.0)

    def r(pid: str, predicted: float, dataset: str = GP000) -> Residual:
        return _residual(dataset, pid, predicted)

    return (
        r("fullscan_1vm_s", scan["vm1"]),
        r("fullscan_2vm_s", scan["vm2"]),
        r("load_1vm_s", load["vm1"]),
        r("load_2vm_s", load["vm2"]),
        r("fullscan_physical_from_2vm_s", scan["phys"]),
        r("fullscan_physical_from_overhead_s", scan["phys"]),
        r("load_physical_from_2vm_s", load["phys"]),
        r("load_physical_from_overhead_s", load["phys"]),
        r("numa_load_1vm_interleaved_ratio", _load_seconds(interleaved_1vm, p) / load["vm1"]),
        r("numa_load_2vm_interleaved_ratio", _load_seconds(interleaved_2vm, p) / load["vm1"]),
        r("ratio_synthetic_io", _synthetic_io_ratio(), GP002),
        r("ratio_load", _load_ratio(p), GP002),
    )


def _dw_residuals(p: ScanParams) -> tuple[Residual, ...]:
    single, conc = _dw_ratios(p)
    return (_residual(GP002, "ratio_single_stream", single), _residual(GP002, "ratio_concurrent", conc))


def _residual(dataset: str, pid: str, predicted: float) -> Residual:
    # Qualified "<dataset>/<point id>": a card cites points of two datasets.
    pt = point(dataset, pid)
    return Residual(f"{dataset}/{pid}", pt.value, float(predicted), pt.unit)


def default_params() -> ScanParams:
    """Parameters fitted on the calibration data (cached: the fit runs once per process), with the measured
    factors of `models.perf.measured` applied inside a sizing on measurements."""
    return measured.applied(fitted_params())


def fitted_params() -> ScanParams:
    """The fitted parameters as calibrated on the studies, never with measured factors (for caches)."""
    return _fit().params


def param_distributions() -> dict[str, Distribution]:
    """Uncertainty of each parameter.

    Fitted rates: normal, sd = the 5 % read-precision band of a quoted figure combined
    with the fit's rms log residual (ratios of two measurements: sqrt(2) x 5 %).
    Virtualization overhead: the study's 5-6 % range. Drive efficiency: from the lowest
    value that still sustains 000's 2 VM scan up to the datasheet rate. Loader: from the
    share of the ETL VM's line rate 000's load used up to the line rate. Motion fraction:
    the band 002's network guidance allows (mode at the conservative end).
    """
    return dict(_fit().distributions)


def calibration() -> ScanLoadFit:
    """The whole fit: parameters, distributions, residuals and rms (cached like `default_params`)."""
    return _fit()

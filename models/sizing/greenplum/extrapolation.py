"""Where a Greenplum design leaves what the studies measured: one "extrapolated" warning listing every input outside
the studies' range, each with its field and the range (`MeasuredRange`), as SAP IQ's warning says it for study 003.

The ranges are the studies' own figures (resources/calibration): analytics on study 000 (4 segment hosts of 16 cores,
8 primaries each, 7,200 rpm disks, a 6 TB database, one query at a time) and study 002 (48-core hosts, the reference
architecture's 8 to 32 primaries per host, PCIe Gen5 NVMe against the previous appliance's disks, 1 or 15 query
streams); OLTP on study 004 (4 segment hosts of 1 primary, 10 to 200 clients; its 192-core environment ran 18
segments). A dimension a study does not state (study 004's cores and disks, study 002's segment hosts and segments)
is not judged on it.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from models.calibration_data import figure, point
from models.hardware import Drive
from models.percent import percent
from models.perf import gp_bands
from models.references import reference_for
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing.result import SCENARIO_WIDE, SizingResult, TargetCheck, Warning
from models.sizing.targets import estimate_at
from models.vocabulary import METRICS, target_words
from models.warning_codes import MeasuredRange

GP000 = "gp_vsphere_000"
GP002 = "gp_nvme_ra_002"
GP004 = "gp6_oltp_004"
MEDIA_WORDS = {"hdd": "spinning disks", "ssd": "SAS/SATA solid-state drives", "nvme": "NVMe drives"}
MEASURED_MEDIA = ("hdd", "nvme")  # study 000's 7,200 rpm SATA disks, study 002's PCIe Gen5 NVMe


def _span(*values: float) -> tuple[float, float]:
    return min(values), max(values)


def _outside(name: str, field: str | None, value: float, span: tuple[float, float], unit: str) -> MeasuredRange | None:
    low, high = span
    return None if low - 1e-9 <= value <= high + 1e-9 else MeasuredRange(name, field, value, low, high, unit)


def _doublings(r: MeasuredRange) -> float:
    """How far outside its range an input lies, in doublings (the band models' distance)."""
    edge = r.low if r.value < r.low else r.high
    return abs(math.log2(max(r.value, 1e-12) / max(edge, 1e-12)))


def analytics_ranges(w: GreenplumAnalytics, result: SizingResult, drive: Drive | None) -> list[MeasuredRange]:
    """The analytics inputs outside studies 000 and 002.

    Data per primary is study 000's database over its primaries (study 002 states no segment count).
    """
    d = result.design
    seg = next(h for h in d.hosts if h.role == "segment host")
    primaries = d.primary_segments_per_host or 1
    cores = seg.sockets * seg.numa_nodes_per_socket * seg.cores_per_numa_node
    per_primary_000 = figure(GP000, "database_tb") / (figure(GP000, "segment_hosts")
                                                      * figure(GP000, "primary_segments_per_host"))
    found = [
        _outside("segment hosts", None, d.segment_hosts, _span(figure(GP000, "segment_hosts")), ""),
        _outside("cores per segment host", "platform.server_id", cores,
                 _span(figure(GP000, "cores_per_host"), figure(GP002, "gen5_cores_per_host")), ""),
        _outside("primary segments per host", "workload.segment_tier", primaries,
                 _span(figure(GP000, "primary_segments_per_host"), figure(GP002, "seg_tier1_primaries_per_host"),
                       figure(GP002, "seg_tier3_primaries_per_host")), ""),
        _outside("data on disk per primary segment", "workload.data_tb",
                 d.data_needed_tb / max(d.segment_hosts * primaries, 1), _span(per_primary_000), "TB"),
        _outside("queries running at once", "workload.concurrent_queries", w.concurrent_queries,
                 _span(float(point(GP002, "ratio_single_stream").conditions["streams"]),
                       figure(GP002, "tpcds_streams")), ""),
    ]
    if drive is not None:
        found.append(_outside("sequential read per data drive", "platform.drive_id", drive.seq_read_mb_s,
                              _span(figure(GP002, "prev_drive_seq_mb_s"), figure(GP002, "pm1743_seq_read_mb_s")),
                              "MB/s"))
    return [r for r in found if r is not None]


def oltp_ranges(w: GreenplumOltp, result: SizingResult) -> list[MeasuredRange]:
    """The OLTP inputs outside study 004: segment hosts, primaries per host, clients."""
    d = result.design
    found = [
        _outside("segment hosts", None, d.segment_hosts, _span(figure(GP004, "segment_hosts")), ""),
        _outside("primary segments per host", None, d.primary_segments_per_host or 1,
                 _span(figure(GP004, "segments_per_host"), figure(GP004, "env192_segments")), ""),
        _outside("clients", "workload.clients", w.clients,
                 _span(figure(GP004, "clients_min"), figure(GP004, "clients_max")), ""),
    ]
    return [r for r in found if r is not None]


def _title(dataset: str, point_id: str) -> str:
    """The study's title as the reference list prints it (customer text names studies by title)."""
    ref = reference_for(point(dataset, point_id).source.cite())
    return f"\u201c{ref[0].title}\u201d" if ref is not None else point(dataset, point_id).source.cite()


def _media_words(drive: Drive | None) -> str:
    if drive is None or drive.media in MEASURED_MEDIA:
        return ""
    return (f" The data drives are {MEDIA_WORDS[drive.media]}, a kind neither analytics study measured"
            f" ({figure(GP000, 'data_drive_rpm'):g} rpm disks in {_title(GP000, 'data_drive_rpm')}, PCIe Gen5 NVMe"
            f" in {_title(GP002, 'pm1743_seq_read_mb_s')}).")


def extrapolation_warning(w: GreenplumAnalytics | GreenplumOltp, result: SizingResult,
                          drive: Drive | None) -> Warning | None:
    """One info warning naming each input outside the measured range, the farthest first; its field is that
    input's (the scenario-wide mark when the design derives it). None inside every range.

    The text cites the studies; `Warning.ranges` carries the rows for the JSON and the window."""
    rows = analytics_ranges(w, result, drive) if isinstance(w, GreenplumAnalytics) else oltp_ranges(w, result)
    analytics = isinstance(w, GreenplumAnalytics)  # (the line above narrows the type; the rest read the flag)
    media = _media_words(drive) if analytics else ""
    if not rows and not media:
        return None
    rows.sort(key=_doublings, reverse=True)
    listed = "; ".join(f"{r.name} {_num(r.value)}{' ' + r.unit if r.unit else ''} (measured {_range_text(r)})"
                       for r in rows)
    studies = (f"{_title(GP000, 'segment_hosts')} and {_title(GP002, 'gen5_cores_per_host')}"
               if analytics else _title(GP004, "segment_hosts"))
    band = figure(GP000 if analytics else GP004, "band_sd_per_doubling")
    banded = "CPU speed, segment hosts and queries at once" if analytics else "segment hosts and clients"
    text = ((f"Outside what {studies} measured: {listed}." if rows else "") + media
            + f" The estimate is an extrapolation there: its P10-P90 range widens by {percent(band)} relative sd per"
            f" doubling away from the measured points in {banded} (in quadrature; a refarch assumption, not fitted to"
            " any study); the other inputs listed do not widen it, so the range may be too narrow.").strip()
    field = (rows[0].field if rows else "platform.drive_id") or SCENARIO_WIDE
    return Warning("extrapolated", text, "info", field, ranges=tuple(rows))


def _num(value: float) -> str:
    """A figure as the warning prints it: whole numbers with separators, fractions to three significant digits.

    >>> _num(14000.0), _num(4.0), _num(0.030864), _num(97.222)
    ('14,000', '4', '0.0309', '97.2')
    """
    return f"{value:,.0f}" if value >= 1000 or float(value).is_integer() else f"{value:.3g}"


def _range_text(r: MeasuredRange) -> str:
    return _num(r.low) if r.low == r.high else f"{_num(r.low)}-{_num(r.high)}"


Z90 = NormalDist().inv_cdf(0.9)  # the standard normal's 90th percentile (not a study figure)
SCAN_BANDED = ("full_scan_s", "load_tb_per_hour")  # the estimates `gp_bands.scan_sd` widens


def p90_band_warning(scenario: Scenario, result: SizingResult, checks: tuple[TargetCheck, ...], cpu: float
                     ) -> Warning | None:
    """Sized at P90 with a target on a scan or load estimate: how far the extrapolation band alone moves the cautious
    end from the median at the design's hosts and `cpu` (doublings from the calibrated processor), against the whole
    range; named as what sets the host count when it is the larger part of the range (in log-variance). None at P50,
    at a calibration point, or without such a target."""
    w, hosts = scenario.workload, result.design.segment_hosts
    picked = [c for c in checks if c.metric in SCAN_BANDED and c.metric in result.estimates]
    if not isinstance(w, GreenplumAnalytics) or scenario.targets.confidence != "P90" or not picked:
        return None
    sd = float(gp_bands.scan_sd(cpu, hosts))
    check = picked[0]
    e = result.estimates[check.metric]
    cautious = estimate_at(e, check.metric, "P90")
    whole = abs(math.log(max(cautious, 1e-12) / max(e.p50, 1e-12)))
    band = Z90 * sd
    if band <= 0 or whole <= 0:
        return None
    unit = METRICS[check.metric].unit
    part = ("the band, more than the studies' measured spread, sets this host count" if band * band >= whole * whole / 2
            else "the studies' measured spread is the larger part, the band adds to it")
    text = (f"Sized at P90: the {target_words(check.target)} target ({_num(check.limit)} {unit}) is met at the"
            f" cautious end of the estimate ({_num(cautious)} {unit}), not its median ({_num(e.p50)} {unit}). At"
            f" {hosts:,} segment hosts the extrapolation band (a refarch assumption, not fitted to any study:"
            f" {percent(figure(GP000, 'band_sd_per_doubling'))} relative sd per doubling away from the studies'"
            f" {_num(figure(GP000, 'segment_hosts'))} segment hosts and calibrated processor) has sd {sd:.2f}, which"
            f" alone puts that end at x{math.exp(band):.2f} of the median, of x{math.exp(whole):.2f} in all: {part}."
            " A P50 design needs fewer hosts; measurements of the customer's own cluster would narrow the band.")
    return Warning("p90-band", text, "warning", "targets.confidence")

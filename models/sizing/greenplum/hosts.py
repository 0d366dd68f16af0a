"""The fewest segment hosts meeting a full-scan target, in closed form where the scan is drive- or CPU-bound.

With the full scan the only performance target, a design's host search asks whether
t(h) = data / h / min(drives, cpu) stays within the limit. Where the interconnect cannot bind at any host count
(`scan_kernel.FullScan.network_never_binds`), t(h) is two correctly rounded divisions, so it never rises with h,
and ceil(data / rate / limit) is the answer or within a host of it: that count and the one below, checked with the
very arithmetic `FullScan.seconds` runs, settle the design. Every other design (the interconnect may bind, or
the check disagrees) goes through `search.smallest_meeting` with the guess the generic search gives it, so each
design's count is the one `greenplum._segment_hosts` has always found (tests/models/sizing/greenplum/test_hosts.py).
`scan_hosts` runs that check, and the helpful-limit check after it, only on the designs a bound on the rounding
leaves open (`_unproven`): most designs of a chunk are settled by the closed form's own few operations.

Where more hosts stop helping (`stops_helping`, `helpful_limit`) lives here too, beside the count it bounds.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.perf.scan_kernel import FullScan
from models.perf.scan_load import MB_PER_TB
from models.scenario import GreenplumAnalytics, GreenplumOltp, Targets
from models.sizing.greenplum.bisection import Probe, Values, smallest_meeting
from models.sizing.rules import RULES
from models.vocabulary import METRICS

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

# the largest cluster sized, and the least one more host must gain to be worth adding (figures with their reasons)
MAX_SEGMENT_HOSTS = int(figure(RULES, "gp_max_segment_hosts"))
MIN_MARGINAL_GAIN = figure(RULES, "gp_min_marginal_gain_per_host")


def scan_only(workload: GreenplumAnalytics | GreenplumOltp, targets: Targets) -> float | None:
    """The full-scan limit (s) when it is the only target the host search checks; else None.

    >>> from models.scenario import Targets
    >>> w = GreenplumAnalytics(data_tb=10, concurrent_queries=5)
    >>> scan_only(w, Targets(max_full_scan_s=600, max_capex=1e6)), scan_only(w, Targets(max_full_scan_s=600,
    ...     min_queries_per_hour=10)), scan_only(w, Targets())
    (600.0, None, None)
    """
    if not isinstance(workload, GreenplumAnalytics) or targets.max_full_scan_s is None:
        return None
    if targets.min_queries_per_hour is not None or targets.min_load_tb_per_hour is not None:
        return None
    return float(targets.max_full_scan_s)


def capacity_hosts(need_tb: float, per_host_tb: FloatArray) -> IntArray:
    """Per design, the segment hosts the data needs at `per_host_tb` of user data each (no capacity: out of reach),
    as `greenplum.hosts_for` gives one: np.where(per_host_tb > 0, ceil(need / per_host_tb), MAX).astype(int64),
    in one array, the largest cluster written only where a design has no capacity.

    >>> capacity_hosts(100.0, np.array([7.5, 0.0, 100.0])).tolist()
    [14, 1000, 1]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        hosts = need_tb / per_host_tb
        np.ceil(hosts, out=hosts)
    if per_host_tb.size and not per_host_tb.min() > 0:  # some none (or NaN): those the largest cluster
        hosts[~(per_host_tb > 0)] = MAX_SEGMENT_HOSTS
    out: IntArray = hosts.astype(np.int64)
    return out


def fewest_hosts(scan: FullScan, low: IntArray, limit_s: float, most: int, ok: Probe
                 ) -> tuple[IntArray, FloatArray, FloatArray]:
    """Per design, `search.smallest_meeting(ok, low, most, guess)[0]` where `ok(h, idx)` is whether `scan`'s
    seconds of designs idx at h hosts are within `limit_s` and the guess is `greenplum._host_guess`'s; with the
    seconds at one host fewer and at that count (what `greenplum.helpful_limit` asks next)."""
    low = np.asarray(low, dtype=np.int64)
    h, at_s, bounded, _, _ = _closed(scan, low, limit_s, most)
    return _settled(scan, None, low, h, at_s, bounded, limit_s, most, ok)


def scan_hosts(scan: FullScan, low: IntArray, limit_s: float, most: int, ok: Probe, values: Values,
               limits: dict[str, float]) -> tuple[IntArray, FloatArray | None]:
    """`fewest_hosts`' counts, each lowered to where more hosts stop helping where one host fewer already does
    (`stops_helping` on the seconds in hand, then `trimmed`): what `greenplum._segment_hosts` gives with the full
    scan its only target; with the seconds at the counts where none was lowered (else None).

    `_unproven` settles most designs with the closed form's few operations; only the rest take the check at the
    count below and `stops_helping` (on their rows alone: the models work row by row, so each design's count is
    the one those steps give it over the whole chunk).
    """
    low = np.asarray(low, dtype=np.int64)
    h, at_s, bounded, frac, peak = _closed(scan, low, limit_s, most)
    rows = _unproven(scan, low, h, at_s, bounded, frac, peak, limit_s, most, limits)
    at = h.astype(np.int64)
    if rows is not None and not rows.size:
        return at, at_s
    if rows is None:  # nothing proven: every row, as they are
        found, below_s, found_s = _settled(scan, None, low, h, at_s, bounded, limit_s, most, ok)
        sub_low = low
    else:
        sub_low = low[rows]
        found, below_s, found_s = _settled(scan, rows, sub_low, h[rows], at_s[rows], bounded[rows], limit_s, most, ok)
    with np.errstate(invalid="ignore", over="ignore"):  # rows at their lowest count: not read
        stopped = stops_helping({"full_scan_s": below_s}, {"full_scan_s": found_s}, found - 1, limits)
    stopped &= found > sub_low
    if rows is None:
        at, at_s, check = found, found_s, np.flatnonzero(stopped)
    else:
        at[rows], at_s[rows], check = found, found_s, rows[stopped]
    hosts = trimmed(values, low, at, check, limits)
    return hosts, (at_s if hosts is at else None)


def _closed(scan: FullScan, low: IntArray, limit_s: float, most: int
            ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, float]:
    """(the closed-form count h within [low, most], the seconds there, the bottom of the range, q - h) as floats,
    q = data / limit / rate before its ceil, and the largest count before the bottom raised any (NaN where a count
    is NaN). Every step writes into its array, no temporaries."""
    # the bottom of the range as the float the bound casts it to (counts are exact in floating point), so the count
    # is compared with it as a float too
    bounded = low.astype(float)
    if low.size and int(low.max()) > most:
        np.minimum(bounded, float(most), out=bounded)
    data_mb = np.asarray(scan.data_on_disk_tb, dtype=float) * MB_PER_TB  # as `FullScan.seconds` computes it
    rate = scan.drives_cpu if np.shape(scan.drives_cpu) == low.shape else np.broadcast_to(scan.drives_cpu, low.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = data_mb / limit_s / rate
        h = closed_form(q)
        peak = float(h.max()) if h.size else 0.0
        if not peak <= most:  # else every count is a number within it already
            np.fmin(h, float(most), out=h)
            peak = min(peak, float(most))
        np.fmax(h, bounded, out=h)  # NaN, inf: the bound
        at_s = data_mb / h
        at_s /= rate
        q -= h  # exact where `_unproven` reads it (Sterbenz: q and h within a factor of 2 there)
    return h, at_s, bounded, q, peak


def _settled(scan: FullScan, rows: IntArray | None, low: IntArray, h: FloatArray, at_s: FloatArray,
             bounded: FloatArray, limit_s: float, most: int, ok: Probe) -> tuple[IntArray, FloatArray, FloatArray]:
    """`fewest_hosts` of designs `rows` (None: all) from their `_closed` figures (those rows' alone)."""
    data_mb = np.asarray(scan.data_on_disk_tb, dtype=float) * MB_PER_TB
    shape = low.shape if rows is None else np.shape(scan.drives_cpu)  # the rows' own, or the chunk's to take them from
    rate: FloatArray = np.broadcast_to(scan.drives_cpu, shape)
    never: BoolArray = np.broadcast_to(scan.network_never_binds, shape)
    if rows is not None:
        rate, never = rate[rows], never[rows]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        below_s = h - 1.0
        np.divide(data_mb, below_s, out=below_s)
        below_s /= rate
    at = h.astype(np.int64)
    passes = at_s <= limit_s
    # t(h) never rises with h on these rows: `at` is the smallest count meeting the limit when the count below
    # misses it (or is below the range), and the largest cluster when even it misses
    settled = h == bounded
    settled |= ~(below_s <= limit_s)
    settled &= passes
    settled |= ~passes & (h == most)
    settled &= never
    rest = np.flatnonzero(~settled)
    if rest.size:
        where = rest if rows is None else rows[rest]  # the designs' own rows in `scan`
        sub_low = low[rest]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            sub_guess = np.maximum(sub_low * scan.seconds(sub_low, where) / limit_s, sub_low)

        def sub_ok(counts: IntArray, idx: IntArray) -> NDArray[np.bool_]:
            return ok(counts, where[idx])

        sub = smallest_meeting(sub_ok, sub_low, most, sub_guess)[0]
        at[rest] = sub
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            at_s[rest], below_s[rest] = scan.seconds(sub, where), scan.seconds(sub - 1, where)
    return at, below_s, at_s


# the unit roundoff of a float64 (half its machine epsilon)
_U = 2.0 ** -53


def _unproven(scan: FullScan, low: IntArray, h: FloatArray, at_s: FloatArray, bounded: FloatArray, frac: FloatArray,
              peak: float, limit_s: float, most: int, limits: dict[str, float]) -> IntArray | None:
    """The rows `_closed`'s count h (and the seconds there) is not proven `scan_hosts`' result for, which it
    leaves as is; None where the chunk's figures leave the bounds below unproven.

    A row is proven where the interconnect never binds, t(h) <= limit, and h is the bottom of its range (nothing
    to lower) or the closed form q = data / limit / rate (rounded twice) has h - 1 < q - margin with 2 <= h <= H,
    H the largest count at which one more host still gains more than MIN_MARGINAL_GAIN. Then t(h - 1) exceeds the
    limit by more than its rounding, so the count below misses it (the check `fewest_hosts` runs), the target is
    unmet at h - 1, and t(h - 1) - t(h) ~ t(h - 1) / h stays above MIN_MARGINAL_GAIN x t(h - 1) through every
    rounding (relative errors of a few units in the last place, against the margins chosen here): one host fewer
    does not stop helping. The figures (data, limit, data / limit) are kept within 1e-200..1e200 (1e-100..1e100)
    so no step under- or overflows: each rounding stays within a unit of roundoff.
    """
    if np.ndim(scan.data_on_disk_tb) or np.shape(scan.drives_cpu) != low.shape or not low.size:
        return None  # one data size and a rate per row (the chunk's): else the steps as they are
    data_mb = float(scan.data_on_disk_tb) * MB_PER_TB
    top = _helpful_top(most)
    if (top < 2 or limits.get("full_scan_s") != limit_s or int(low.min()) < 1
            or not (1e-200 <= data_mb <= 1e200 and 1e-200 <= limit_s <= 1e200)
            or not 1e-100 <= data_mb / limit_s <= 1e100):
        return None
    fine = at_s <= limit_s
    fine &= scan.network_never_binds
    inner = frac > -1.0 + 64.0 * _U * top  # q - margin above h - 1: margin / (h - 1) >= 64 units of roundoff
    if not peak <= top:  # else every count above the bottom of its range is within H
        inner &= h <= top
    inner |= h == bounded
    fine &= inner
    return np.zeros(0, dtype=np.int64) if fine.all() else np.flatnonzero(~fine)


@functools.cache
def _helpful_top(most: int) -> int:
    """The largest count h < `most` at which 1/h (a linear scan's gain from one more host, relative) exceeds
    MIN_MARGINAL_GAIN by a relative 1e-9 (far beyond rounding).

    >>> _helpful_top(1000), _helpful_top(150)
    (199, 149)
    """
    if MIN_MARGINAL_GAIN <= 0:
        return most - 1
    if MIN_MARGINAL_GAIN < 1e-50:
        return 0
    return min(most - 1, int(Fraction(1) / (Fraction(MIN_MARGINAL_GAIN) * Fraction(1_000_000_001, 1_000_000_000))))


def closed_form(q: FloatArray) -> FloatArray:
    """The count at which data / h / rate reaches the limit, rounded up, from q = data / limit / rate: right to the
    host or within one (checked); a new array (`_closed` bounds it in place).

    >>> closed_form(np.array([10.0, 1e6 / 100.0 / 3_000.0, np.inf])).tolist()  # rates 1,000, 3,000 and 0 MB/s
    [10.0, 4.0, inf]
    """
    guess: FloatArray = np.ceil(q)
    return guess


def stops_helping(before: dict[str, FloatArray], after: dict[str, FloatArray], hosts: IntArray | None = None,
                  limits: dict[str, float] | None = None) -> BoolArray:
    """Where one more host is not worth adding on any metric.

    A metric stops asking for hosts where its target is met, or where one more host improves it by less
    than MIN_MARGINAL_GAIN of its value and, scaling on as it does there, the target (if any in `limits`)
    would still be out of reach by MAX_SEGMENT_HOSTS. A workload still scaling toward a target it can reach keeps
    growing (a linear scan gains only 1/(H+1) per host, below the threshold past 200 hosts); a plateau
    (a coordinator-bound OLTP, a target far beyond the largest cluster) stops.

    >>> stops_helping({"full_scan_s": np.array([600.0, 600.0])}, {"full_scan_s": np.array([598.0, 590.0])})
    array([ True, False])
    >>> h = np.array([199, 199])  # 742 s, linear: 600 s is reached near 247 hosts, 1 s not within 1,000
    >>> stops_helping({"full_scan_s": np.array([742.0, 742.0])}, {"full_scan_s": np.array([738.3, 738.3])}, h,
    ...               {"full_scan_s": 600.0}).tolist()
    [False, False]
    >>> stops_helping({"full_scan_s": np.array([742.0])}, {"full_scan_s": np.array([738.3])}, h[:1],
    ...               {"full_scan_s": 1.0}).tolist()
    [True]
    """
    res = np.ones(np.shape(next(iter(before.values()), np.ones(1))), dtype=bool)
    for metric, b in before.items():
        higher = METRICS[metric].better == "higher"
        gain = (after[metric] - b) if higher else (b - after[metric])
        with np.errstate(divide="ignore", invalid="ignore"):
            small = ~(gain >= MIN_MARGINAL_GAIN * np.abs(b))
            if limits is None or hosts is None or metric not in limits:
                res &= small
                continue
            short = (limits[metric] / b) if higher else (b / limits[metric])  # > 1 while the target is unmet
            met = short <= 1
            # reachability decides only where the target is unmet and the gain small: computed there alone
            out_of_reach = small & ~met
            rows = np.flatnonzero(out_of_reach)
            if rows.size:
                h, s = np.broadcast_to(hosts, np.shape(b))[rows], np.broadcast_to(short, np.shape(b))[rows]
                # the metric's local scaling with hosts (1 for a linear scan): value ~ hosts ^ -elasticity, held
                # at the current rate it reaches the target at hosts x short ^ (1 / elasticity); a flattening
                # curve only gets there later, so a target beyond MAX_SEGMENT_HOSTS this way is out of reach
                elasticity = gain[rows] / np.abs(b[rows]) * h
                with np.errstate(over="ignore"):  # a nearly flat curve needs "infinitely many" hosts: out of reach
                    needed = np.where(elasticity > 0, h * s ** (1.0 / np.maximum(elasticity, 1e-12)), np.inf)
                out_of_reach[rows] = ~(needed <= MAX_SEGMENT_HOSTS)
        res &= met | out_of_reach
    return res


def helpful_limit(values: Values, low: IntArray, hosts: IntArray, limits: dict[str, float] | None = None,
                  stopped_below: BoolArray | None = None) -> IntArray:
    """Per candidate, the fewest hosts (at least `low`) past which more hosts stop helping (`stops_helping`
    with the targets' `limits`), where that is below `hosts`; elsewhere `hosts` itself. `stopped_below`: where
    more hosts stop helping at `hosts` - 1 (`stops_helping` there), when the caller has it."""
    if len(hosts) == 0 or not values(low[:1], np.zeros(1, dtype=np.int64)):
        return hosts  # no performance target: capacity sizes the cluster
    if stopped_below is not None:
        return trimmed(values, low, hosts, np.flatnonzero(stopped_below & (hosts > low)), limits)
    stopped = _stopped(values, limits)
    above = np.flatnonzero(hosts > low)  # at `low` there is nothing to trim: the model runs on the rest only
    check = above[stopped(hosts[above] - 1, above)] if above.size else above
    return trimmed(values, low, hosts, check, limits)


def trimmed(values: Values, low: IntArray, hosts: IntArray, check: IntArray, limits: dict[str, float] | None
            ) -> IntArray:
    """`hosts`, with the designs `check` (above `low`, where one host fewer already stops helping) at the fewest
    hosts past which more stop helping, as `helpful_limit` gives them; `hosts` itself, not a copy, where `check`
    is empty (the usual case: a scan still gains wherever its target asks for more hosts)."""
    if not check.size:
        return hosts
    stopped = _stopped(values, limits)

    def sub_stopped(h: IntArray, idx: IntArray) -> BoolArray:
        return stopped(h, check[idx])

    out = hosts.copy()
    out[check] = np.minimum(smallest_meeting(sub_stopped, low[check], MAX_SEGMENT_HOSTS)[0], hosts[check])
    return out


def _stopped(values: Values, limits: dict[str, float] | None) -> Probe:
    def stopped(h: IntArray, idx: IntArray) -> BoolArray:
        return stops_helping(values(h, idx), values(h + 1, idx), h, limits)

    return stopped

"""The fewest segment hosts meeting a full-scan target, in closed form where the scan is drive- or CPU-bound.

With the full scan the only performance target, a design's host search asks whether
t(h) = data / h / min(drives, cpu) stays within the limit. Where the interconnect cannot bind at any host count
(`scan_kernel.FullScan.network_never_binds`), t(h) is two correctly rounded divisions, so it never rises with h,
and ceil(data / rate / limit) is the answer or within a host of it: that count and the one below, checked with the
very arithmetic `FullScan.seconds` runs, settle the design. Every other design (the interconnect may bind, or
the check disagrees) goes through `search.smallest_meeting` with the guess the generic search gives it, so each
design's count is the one `greenplum._segment_hosts` has always found (tests/models/sizing/test_gp_hosts.py).

Where more hosts stop helping (`stops_helping`, `helpful_limit`) lives here too, beside the count it bounds.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.perf.scan_kernel import FullScan
from models.perf.scan_load import MB_PER_TB
from models.scenario import GreenplumAnalytics, GreenplumOltp, Targets
from models.sizing.rules import RULES
from models.sizing.search import Probe, Values, smallest_meeting
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


def fewest_hosts(scan: FullScan, low: IntArray, limit_s: float, most: int, ok: Probe
                 ) -> tuple[IntArray, FloatArray, FloatArray]:
    """Per design, `search.smallest_meeting(ok, low, most, guess)[0]` where `ok(h, idx)` is whether `scan`'s
    seconds of designs idx at h hosts are within `limit_s` and the guess is `greenplum._host_guess`'s; with the
    seconds at one host fewer and at that count (what `greenplum.helpful_limit` asks next)."""
    low = np.asarray(low, dtype=np.int64)
    # the bottom of the range as the float the bound below casts it to (counts are exact in floating point), so
    # the count is compared with it as a float too; every step writes into the count's array, no temporaries
    bounded = np.minimum(low, float(most))
    data_mb = np.asarray(scan.data_on_disk_tb, dtype=float) * MB_PER_TB  # as `FullScan.seconds` computes it
    rate = np.broadcast_to(scan.drives_cpu, low.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        h = closed_form(data_mb, limit_s, rate)
        np.fmin(h, float(most), out=h)
        np.fmax(h, bounded, out=h)  # NaN, inf: the bound
        at_s = data_mb / h
        at_s /= rate
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
    settled &= np.broadcast_to(scan.network_never_binds, low.shape)
    rest = np.flatnonzero(~settled)
    if rest.size:
        sub_low = low[rest]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            sub_guess = np.maximum(sub_low * scan.seconds(sub_low, rest) / limit_s, sub_low)

        def sub_ok(counts: IntArray, idx: IntArray) -> NDArray[np.bool_]:
            return ok(counts, rest[idx])

        sub = smallest_meeting(sub_ok, sub_low, most, sub_guess)[0]
        at[rest] = sub
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            at_s[rest], below_s[rest] = scan.seconds(sub, rest), scan.seconds(sub - 1, rest)
    return at, below_s, at_s


def closed_form(data_mb: FloatArray, limit_s: float, rate: FloatArray) -> FloatArray:
    """The count at which data / h / rate reaches the limit, rounded up: right to the host or within one (checked);
    a new array (`fewest_hosts` bounds it in place).

    >>> closed_form(np.asarray(1e6), 100.0, np.array([1_000.0, 3_000.0, 0.0])).tolist()
    [10.0, 4.0, inf]
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        guess: FloatArray = np.ceil(data_mb / limit_s / rate)
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

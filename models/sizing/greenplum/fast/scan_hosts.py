"""`hosts.search_hosts` where the full scan is the only target: the fewest segment hosts meeting it, in closed
form where the scan is drive- or CPU-bound.

A design's host search asks whether t(h) = data / h / min(drives, cpu) stays within the limit. Where the
interconnect cannot bind at any host count (`scan.FullScan.network_never_binds`), t(h) is two correctly rounded
divisions, so it never rises with h, and ceil(data / rate / limit) is the answer or within a host of it: that count
and the one below, checked with the very arithmetic `FullScan.seconds` runs, settle the design. Every other design
(the interconnect may bind, or the check disagrees) goes through `bisection.smallest_meeting` with the guess the
plain search gives it, so each design's count is the one `hosts.search_hosts` finds
(tests/models/sizing/greenplum/fast/test_scan_hosts.py). `scan_hosts` runs that check, and the helpful-limit check
after it, only on the designs a bound on the rounding leaves open (`_unproven`): most designs of a chunk are settled
by the closed form's own few operations.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from models.perf.scan_load import MB_PER_TB
from models.sizing.greenplum.bisection import Probe, Values, smallest_meeting
from models.sizing.greenplum.fast.scan import FullScan
from models.sizing.greenplum.hosts import MIN_MARGINAL_GAIN, stops_helping, trimmed

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


def scan_hosts(scan: FullScan, low: IntArray, limit_s: float, most: int, ok: Probe, values: Values,
               limits: dict[str, float]) -> tuple[IntArray, FloatArray | None]:
    """`hosts.search_hosts` where the full scan is the only target: per design, the fewest hosts (at least `low`,
    within `most`) at which `ok` holds (`scan`'s seconds within `limit_s`), each lowered to where more hosts stop
    helping where one host fewer already does (`stops_helping` on the seconds in hand, then `trimmed`); with the
    seconds at the counts where none was lowered (else None).

    `_unproven` settles most designs with the closed form's few operations; only the rest take the check at the
    count below and `stops_helping` (on their rows alone: the models work row by row, so each design's count is
    the one those steps give it over the whole chunk).
    """
    low = np.asarray(low, dtype=np.int64)
    cf = _closed(scan, low, limit_s, most)
    h, at_s = cf.h, cf.at_s
    rows = _unproven(scan, low, cf, limits)
    at = h.astype(np.int64)
    if rows is not None and not rows.size:
        return at, at_s
    if rows is None:  # nothing proven: every row, as they are
        found, below_s, found_s = _settled(scan, None, low, cf, ok)
        sub_low = low
    else:
        sub_low = low[rows]
        found, below_s, found_s = _settled(scan, rows, sub_low, cf.take(rows), ok)
    with np.errstate(invalid="ignore", over="ignore"):  # rows at their lowest count: not read
        stopped = stops_helping({"full_scan_s": below_s}, {"full_scan_s": found_s}, found - 1, limits)
    stopped &= found > sub_low
    if rows is None:
        at, at_s, check = found, found_s, np.flatnonzero(stopped)
    else:
        at[rows], at_s[rows], check = found, found_s, rows[stopped]
    hosts = trimmed(values, low, at, check, limits)
    return hosts, (at_s if hosts is at else None)


class Closed(NamedTuple):
    """`_closed`'s figures: the count h within [low, most] and the seconds there, the bottom of the range, q - h
    (`frac`), the largest count before the bottom raised any (`peak`), and the limit and the most hosts they are for."""

    h: FloatArray
    at_s: FloatArray
    bounded: FloatArray
    frac: FloatArray
    peak: float
    limit_s: float
    most: int

    def take(self, rows: IntArray) -> Closed:
        """The figures of designs `rows` (h, the seconds, the bottom of the range; q - h and the peak as they are)."""
        return self._replace(h=self.h[rows], at_s=self.at_s[rows], bounded=self.bounded[rows])


def _closed(scan: FullScan, low: IntArray, limit_s: float, most: int) -> Closed:
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
    return Closed(h, at_s, bounded, q, peak, limit_s, most)


def _settled(scan: FullScan, rows: IntArray | None, low: IntArray, cf: Closed, ok: Probe
             ) -> tuple[IntArray, FloatArray, FloatArray]:
    """Per design of `rows` (None: all), from their `_closed` figures (`cf`: those rows' alone), what
    `bisection.smallest_meeting(ok, low, most, guess)` gives with the plain guess, and the seconds at one host fewer
    and at that count (what the helpful-limit check asks next)."""
    h, at_s, bounded, limit_s, most = cf.h, cf.at_s, cf.bounded, cf.limit_s, cf.most
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


def _unproven(scan: FullScan, low: IntArray, cf: Closed, limits: dict[str, float]) -> IntArray | None:
    """The rows `_closed`'s count h (and the seconds there) is not proven `scan_hosts`' result for, which it
    leaves as is; None where the chunk's figures leave the bounds below unproven.

    A row is proven where the interconnect never binds, t(h) <= limit, and h is the bottom of its range (nothing
    to lower) or the closed form q = data / limit / rate (rounded twice) has h - 1 < q - margin with 2 <= h <= H,
    H the largest count at which one more host still gains more than MIN_MARGINAL_GAIN. Then t(h - 1) exceeds the
    limit by more than its rounding, so the count below misses it (the check `_settled` runs), the target is
    unmet at h - 1, and t(h - 1) - t(h) ~ t(h - 1) / h stays above MIN_MARGINAL_GAIN x t(h - 1) through every
    rounding (relative errors of a few units in the last place, against the margins chosen here): one host fewer
    does not stop helping. The figures (data, limit, data / limit) are kept within 1e-200..1e200 (1e-100..1e100)
    so no step under- or overflows: each rounding stays within a unit of roundoff.
    """
    h, at_s, bounded, frac, peak, limit_s, most = cf
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

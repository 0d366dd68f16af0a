"""The fewest segment hosts meeting a full-scan target, in closed form where the scan is drive- or CPU-bound.

With the full scan the only performance target, a design's host search asks whether
t(h) = data / h / min(drives, cpu) stays within the limit. Where the interconnect cannot bind at any host count
(`scan_kernel.FullScan.network_never_binds`), t(h) is two correctly rounded divisions, so it never rises with h,
and ceil(data / rate / limit) is the answer or within a host of it: that count and the one below, checked with the
very arithmetic `FullScan.seconds` runs, settle the design. Every other design (the interconnect may bind, or
the check disagrees) goes through `search.smallest_meeting` with the guess the generic search gives it, so each
design's count is the one `greenplum._segment_hosts` has always found (tests/models/sizing/test_gp_hosts.py).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from models.perf.scan_kernel import FullScan
from models.perf.scan_load import MB_PER_TB
from models.scenario import GreenplumAnalytics, GreenplumOltp, Targets
from models.sizing.search import Probe, smallest_meeting

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


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
    bounded = np.minimum(low, most)
    data_mb = np.asarray(scan.data_on_disk_tb, dtype=float) * MB_PER_TB  # as `FullScan.seconds` computes it
    rate = np.broadcast_to(scan.drives_cpu, low.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        h = np.fmax(np.fmin(closed_form(data_mb, limit_s, rate), float(most)), bounded)  # NaN, inf: the bound
        at_s = data_mb / h / rate
        below_s = data_mb / (h - 1.0) / rate
    at = h.astype(np.int64)
    passes = at_s <= limit_s
    # t(h) never rises with h on these rows: `at` is the smallest count meeting the limit when the count below
    # misses it (or is below the range), and the largest cluster when even it misses
    settled = passes & ((at == bounded) | ~(below_s <= limit_s))
    settled |= ~passes & (at == most)
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
    """The count at which data / h / rate reaches the limit, rounded up: right to the host or within one (checked).

    >>> closed_form(np.asarray(1e6), 100.0, np.array([1_000.0, 3_000.0, 0.0])).tolist()
    [10.0, 4.0, inf]
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        guess: FloatArray = np.ceil(data_mb / limit_s / rate)
    return guess

"""`fast.scan_hosts` is `hosts.search_hosts` (the plain host search: bisection, then the helpful limit) where the
full scan is the only target, count and seconds bit for bit, design by design."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.perf import scan_load_fit as sl_fit
from models.sizing.greenplum import hosts as gp_hosts
from models.sizing.greenplum.fast import scan_hosts as fast
from models.sizing.greenplum.fast.scan import FullScan

MOST = 1000

rows = st.lists(st.tuples(
    st.integers(1, 24),  # data drives per host
    st.sampled_from([90.0, 250.0, 3_000.0, 14_000.0]),  # drive MB/s: spinning to Gen5 NVMe
    st.sampled_from([2.0, 8.0, 48.0, 96.0, 192.0]),  # cores per host
    st.sampled_from([0.0, 1.0]),  # virtualized
    st.sampled_from([1.0, 10.0, 25.0, 100.0, 400.0]),  # interconnect Gb/s: binds or never does
    st.integers(1, 64),  # primaries per host
    st.integers(1, 1_200),  # the fewest hosts capacity and mirroring allow (above the largest cluster too)
), min_size=1, max_size=50)


@settings(max_examples=120, deadline=None)
@given(rows=rows, data_tb=st.sampled_from([0.05, 3.0, 44.0, 700.0, 20_000.0, 2e6]),
       limit_s=st.sampled_from([1.0, 60.0, 600.0, 3_600.0]), ratio=st.floats(1.0, 6.0),
       off=st.sampled_from([0, 0, 1, -1, 2, -2]))
def test_the_closed_form_count_is_the_searchs_count(rows: list[tuple[int, float, float, float, float, int, int]],
                                                    data_tb: float, limit_s: float, ratio: float, off: int) -> None:
    """On random designs (2- to 192-core hosts, a slow interconnect that binds, targets no cluster reaches, lows
    above the largest cluster) `scan_hosts` gives the plain search's count and the model's seconds there; a closed
    form off by a host or two (`off`) is caught by the check and still gives the search's count."""
    drives, mb_s, cores, virt, gbps, primaries, low = (np.array(c) for c in zip(*rows, strict=True))
    low = low.astype(np.int64)
    shape = sl_fit.gen5_reference_shape().replace(
        segment_hosts=np.ones(low.size), drives_per_host=drives.astype(float), drive_seq_read_mb_s=mb_s,
        cores_per_host=cores, virtualized=virt, network_gbps_per_host=gbps,
        primary_segments_per_host=primaries.astype(float), numa_local=1.0 - virt, compression_ratio=ratio)
    scan = FullScan.of(shape, data_tb, sl_fit.default_params())

    def ok(h: np.ndarray, idx: np.ndarray) -> np.ndarray:
        return scan.seconds(h, idx) <= limit_s

    closed_form = fast.closed_form
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fast, "closed_form", lambda *a: closed_form(*a) + off)
        _same(scan, low, limit_s)


def test_designs_no_cluster_serves_get_the_largest_cluster() -> None:
    """A target out of reach of the largest cluster, and a low count beyond it, give what the plain search gives
    (the cluster where more hosts stop helping, or the low count); a target every design meets at once, the low."""
    n = 3
    shape = sl_fit.gen5_reference_shape().replace(segment_hosts=np.ones(n), drives_per_host=np.full(n, 2.0),
                                                  network_gbps_per_host=np.full(n, 400.0))
    scan = FullScan.of(shape, 2e6, sl_fit.default_params())

    _same(scan, np.array([2, 5_000, 2]), 1.0)
    assert _same(scan, np.array([2, 2, 2]), 1e9).tolist() == [2, 2, 2]


def _plain(scan: FullScan, low: np.ndarray, limit_s: float) -> np.ndarray:
    """The plain function `scan_hosts` must equal: `hosts.search_hosts` with the guess the plain evaluation gives
    it (`metrics.host_guess`: the count at which the scan at `low` hosts would meet the limit)."""
    def values(h: np.ndarray, idx: np.ndarray) -> dict[str, np.ndarray]:
        return {"full_scan_s": scan.seconds(h, idx)}

    def ok(h: np.ndarray, idx: np.ndarray) -> np.ndarray:
        return values(h, idx)["full_scan_s"] <= limit_s

    with np.errstate(divide="ignore", invalid="ignore"):
        guess = np.maximum(low * scan.seconds(low) / limit_s, low)
    return gp_hosts.search_hosts(ok, low, guess, values, {"full_scan_s": limit_s})


def _fast(scan: FullScan, low: np.ndarray, limit_s: float) -> tuple[np.ndarray, np.ndarray | None]:
    def values(h: np.ndarray, idx: np.ndarray) -> dict[str, np.ndarray]:
        return {"full_scan_s": scan.seconds(h, idx)}

    def ok(h: np.ndarray, idx: np.ndarray) -> np.ndarray:
        return values(h, idx)["full_scan_s"] <= limit_s

    return fast.scan_hosts(scan, low, limit_s, MOST, ok, values, {"full_scan_s": limit_s})


def _same(scan: FullScan, low: np.ndarray, limit_s: float) -> np.ndarray:
    """Assert `scan_hosts` equals the plain search on these designs; return the counts."""
    expected = _plain(scan, low, limit_s)
    hosts, seconds = _fast(scan, low, limit_s)
    assert hosts.tolist() == expected.tolist()
    if seconds is not None:  # the seconds it hands on are the model's at the count, bit for bit
        assert seconds.tobytes() == scan.seconds(hosts.astype(np.int64)).tobytes()
    return hosts


@settings(max_examples=150, deadline=None)
@given(rows=rows, data_tb=st.sampled_from([0.05, 3.0, 44.0, 700.0, 20_000.0, 2e6]),
       limit_s=st.sampled_from([1.0, 7.0, 60.0, 600.0, 3_600.0]), ratio=st.floats(1.0, 6.0),
       near=st.lists(st.tuples(st.integers(1, 1_100), st.integers(-6, 6)), min_size=1, max_size=50),
       low_near=st.booleans())
def test_the_proven_counts_are_the_steps_counts(rows: list[tuple[int, float, float, float, float, int, int]],
                                               data_tb: float, limit_s: float, ratio: float,
                                               near: list[tuple[int, int]], low_near: bool) -> None:
    """`scan_hosts` gives what the plain search gives, count and seconds bit for bit,
    on random designs and on rates that put the closed form a few units in the last place off a whole count (the
    margin's edge), counts about the MIN_MARGINAL_GAIN threshold (~200) and lows at or near the count; and the
    rows `_unproven` leaves out have the steps' count and seconds (the shortcut's claim, row by row)."""
    drives, mb_s, cores, virt, gbps, primaries, low = (np.array(c) for c in zip(*rows, strict=True))
    n = low.size
    shape = sl_fit.gen5_reference_shape().replace(
        segment_hosts=np.ones(n), drives_per_host=drives.astype(float), drive_seq_read_mb_s=mb_s,
        cores_per_host=cores, virtualized=virt, network_gbps_per_host=gbps,
        primary_segments_per_host=primaries.astype(float), numa_local=1.0 - virt, compression_ratio=ratio)
    scan = FullScan.of(shape, data_tb, sl_fit.default_params())
    # rates at which data / limit / rate is the count k, moved by `ulps` units in the last place
    k, ulps = (np.resize(np.array(c), n) for c in zip(*near, strict=True))
    exact = data_tb * 1e6 / limit_s / k.astype(float)
    rate = exact + ulps * np.spacing(exact)
    scan = dataclasses.replace(scan, drives_cpu=np.where(np.arange(n) % 2 == 0, rate, scan.drives_cpu))
    low = (np.maximum(k + ulps % 3 - 1, 1) if low_near else low).astype(np.int64)
    expected = _plain(scan, low, limit_s)
    assert _same(scan, low, limit_s).tolist() == expected.tolist()
    cf = fast._closed(scan, low, limit_s, MOST)
    h, at_s = cf.h, cf.at_s
    rest = fast._unproven(scan, low, cf, {"full_scan_s": limit_s})
    assert rest is not None
    fine = np.setdiff1d(np.arange(n), rest)
    assert h[fine].tolist() == expected[fine].tolist()
    assert at_s[fine].tobytes() == scan.seconds(h[fine].astype(np.int64), fine).tobytes()


def test_the_shortcut_proves_most_designs_of_a_plain_chunk() -> None:
    """Designs well inside the range (counts 10..150, no interconnect bound, rates off whole counts), and designs
    at the bottom of theirs, are all proven: the shortcut is what runs, and gives the steps' counts."""
    n = 2_000
    rng = np.random.default_rng(7)
    shape = sl_fit.gen5_reference_shape().replace(
        segment_hosts=np.ones(n), drives_per_host=rng.integers(2, 24, n).astype(float),
        drive_seq_read_mb_s=rng.uniform(200.0, 14_000.0, n), network_gbps_per_host=np.full(n, 400.0))
    scan = FullScan.of(shape, 60.0, sl_fit.default_params())
    low = np.where(np.arange(n) % 4 == 0, 300, 2)  # a quarter at a bottom above the count the scan asks for
    cf = fast._closed(scan, low, 600.0, MOST)
    h = cf.h
    rest = fast._unproven(scan, low, cf, {"full_scan_s": 600.0})
    assert rest is not None and rest.size < n // 100
    assert h[low == 2].min() >= 10 and h[low == 2].max() <= 150 and np.all(h[low == 300] == 300)
    assert h.tolist() == _plain(scan, low, 600.0).tolist()
    # data / limit far below any count a rounding bound holds for (1e-143): nothing is claimed, the steps run
    cf = fast._closed(scan, low, 1e150, MOST)
    assert fast._unproven(scan, low, cf, {"full_scan_s": 1e150}) is None

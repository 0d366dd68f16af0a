"""`fast.scan.FullScan` gives what `models.perf.scan_load.full_scan_seconds` gives, bit for bit."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.perf import scan_load as sl
from models.perf import scan_load_fit as sl_fit
from models.perf.scan_load import ClusterShape
from models.sizing.greenplum.fast.scan import FullScan


def _p() -> sl.ScanParams:
    return sl_fit.default_params()


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(1, 400), st.floats(1.0, 24.0), st.floats(50.0, 14_000.0),
                               st.sampled_from([0.0, 1.0]), st.sampled_from([10.0, 25.0, 100.0, 400.0]),
                               st.integers(1, 64)), min_size=1, max_size=40),
       ratio=st.floats(1.0, 8.0), data_tb=st.floats(0.1, 5_000.0), seed=st.integers(0, 2**31 - 1))
def test_the_host_count_kernel_is_full_scan_seconds_exactly(rows: list[tuple[int, float, float, float, float, int]],
                                                           ratio: float, data_tb: float, seed: int) -> None:
    """`FullScan` (the host-independent rates paid once) gives bit for bit what `full_scan_seconds` gives, at any
    host counts and on any subset of the designs, whichever resource binds."""
    hosts, shape = _designs(rows, ratio)
    kernel = FullScan.of(shape, data_tb, _p())
    whole = sl.full_scan_seconds(shape.replace(segment_hosts=hosts), data_tb, _p()).seconds
    assert np.array_equal(kernel.seconds(hosts), whole)
    idx = np.flatnonzero(np.random.default_rng(seed).random(hosts.size) < 0.5)
    sub = ClusterShape(**{f.name: (v[idx] if isinstance(v := getattr(shape, f.name), np.ndarray) else v)
                          for f in fields(shape)}).replace(segment_hosts=hosts[idx])
    assert np.array_equal(kernel.seconds(hosts[idx], idx), sl.full_scan_seconds(sub, data_tb, _p()).seconds)


def test_the_kernel_skips_the_network_only_where_it_binds_at_no_host_count() -> None:
    """Designs whose interconnect is faster than their drives and CPU at every host count take the short path; the
    others (1 GbE here) the full arithmetic; both bit for bit `full_scan_seconds`, mixed in one call, 1-1,000 hosts."""
    n = 6
    gbps = np.array([1.0, 400.0, 1.0, 400.0, 10.0, 0.0])
    shape = sl_fit.gen5_reference_shape().replace(
        segment_hosts=np.ones(n), network_gbps_per_host=gbps, drives_per_host=np.full(n, 12.0),
        primary_segments_per_host=np.full(n, 16.0))
    kernel = FullScan.of(shape, 250.0, _p())
    assert kernel.network_never_binds.tolist() == [False, True, False, True, False, False]
    for h in (1, 2, 3, 7, 64, 1000):
        hosts = np.full(n, float(h))
        with np.errstate(divide="ignore"):  # no interconnect at all: no scan finishes
            whole = sl.full_scan_seconds(shape.replace(segment_hosts=hosts), 250.0, _p())
            assert np.array_equal(kernel.seconds(hosts), whole.seconds)
        if h > 1:
            assert (whole.binding[[0, 2]] == sl.NETWORK).all()


@settings(max_examples=60, deadline=None)
@given(gbps=st.sampled_from([1.0, 400.0]), drives=st.lists(st.floats(1.0, 24.0), min_size=1, max_size=20),
       hosts=st.integers(1, 1000), ratio=st.floats(1.0, 8.0), mb_s=st.sampled_from([150.0, 7_000.0]))
def test_the_kernels_result_is_full_scan_seconds_binding_included(gbps: float, drives: list[float], hosts: int,
                                                                  ratio: float, mb_s: float) -> None:
    """`FullScan.result` (its binding found without the interconnect where that can never bind) is
    `full_scan_seconds`: seconds, rates and binding resource."""
    n = len(drives)
    shape = sl_fit.gen5_reference_shape().replace(
        segment_hosts=np.ones(n), drives_per_host=np.array(drives), network_gbps_per_host=np.full(n, gbps),
        drive_seq_read_mb_s=np.full(n, mb_s), primary_segments_per_host=np.full(n, 16.0), compression_ratio=ratio)
    got = FullScan.of(shape, 100.0, _p()).result(np.full(n, hosts))
    want = sl.full_scan_seconds(shape.replace(segment_hosts=np.full(n, float(hosts))), 100.0, _p())
    assert np.array_equal(got.seconds, want.seconds)
    assert np.array_equal(got.binding, want.binding)
    assert all(np.array_equal(a, b) for a, b in zip(got.rates, np.broadcast_arrays(*want.rates), strict=True))


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(1, 400), st.floats(1.0, 24.0), st.floats(50.0, 14_000.0),
                               st.sampled_from([0.0, 1.0]), st.sampled_from([1.0, 10.0, 100.0, 400.0]),
                               st.integers(1, 64)), min_size=1, max_size=40),
       ratio=st.floats(1.0, 8.0), data_tb=st.floats(0.1, 5_000.0))
def test_the_kernels_point_is_its_result_seconds_and_binding(rows: list[tuple[int, float, float, float, float, int]],
                                                             ratio: float, data_tb: float) -> None:
    """`FullScan.point` (no interconnect rate where it binds at no host count) gives `result`'s seconds and binding
    bit for bit, whether every design's interconnect is fast (the short path) or some may bind, with the codes as
    floats too."""
    hosts, shape = _designs(rows, ratio)
    kernel = FullScan.of(shape, data_tb, _p())
    counts = hosts.astype(np.int64)
    seconds, binding = kernel.point(counts)
    whole = sl.full_scan_seconds(shape.replace(segment_hosts=hosts), data_tb, _p())
    assert np.array_equal(seconds, whole.seconds)
    assert binding.tolist() == whole.binding.tolist()
    as_floats = kernel.point(counts, None, float)[1]  # the codes cast once where the caller wants floats
    assert np.asarray(as_floats, dtype=float).tolist() == whole.binding.astype(float).tolist()


def _designs(rows: list[tuple[int, float, float, float, float, int]], ratio: float) -> tuple[np.ndarray, ClusterShape]:
    """The host counts of `rows` and their designs (drives, drive MB/s, virtualized, Gbit/s, primaries) as one
    reference shape at one host each, the kernel's input."""
    hosts, drives, mb_s, virt, gbps, primaries = (np.array(c, dtype=float) for c in zip(*rows, strict=True))
    shape = sl_fit.gen5_reference_shape().replace(
        segment_hosts=np.ones(hosts.size), drives_per_host=drives, drive_seq_read_mb_s=mb_s, virtualized=virt,
        network_gbps_per_host=gbps, primary_segments_per_host=primaries, numa_local=1.0 - virt,
        cpu_generation=virt, compression_ratio=ratio)
    return hosts, shape


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(1, 400), st.floats(1.0, 24.0), st.floats(50.0, 14_000.0),
                               st.sampled_from([0.0, 1.0]), st.sampled_from([1.0, 10.0, 100.0, 400.0]),
                               st.sampled_from([1, 8, 16, 64])), min_size=1, max_size=40),
       ratio=st.floats(1.0, 8.0), fast=st.booleans())
def test_the_kernel_of_grouped_designs_is_each_designs_kernel(rows: list[tuple[int, float, float, float, float, int]],
                                                             ratio: float, fast: bool) -> None:
    """`FullScan.of` with groups (designs sharing every CPU, virtualization and line-rate input, as a server's
    drive options do) gives every rate bit for bit as without them: with an interconnect faster than every group's
    CPU (`fast`: 400 Gb/s throughout, where the floor is not gathered) and with one that binds for some."""
    _, shape = _designs(rows, ratio)
    if fast:
        shape = shape.replace(network_gbps_per_host=np.full(len(rows), 400.0))
    key = np.stack([shape.virtualized, shape.network_gbps_per_host, shape.primary_segments_per_host])
    _, rep, which = np.unique(key, axis=1, return_index=True, return_inverse=True)
    grouped = FullScan.of(shape, 100.0, _p(), (rep, which.reshape(-1)))
    plain = FullScan.of(shape, 100.0, _p())
    for name in ("virt", "drives_cpu", "drives", "cpu", "network_never_binds"):
        assert np.array_equal(getattr(grouped, name), getattr(plain, name)), name

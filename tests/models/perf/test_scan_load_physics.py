"""Compression costs CPU and interconnect per logical byte; loads pay for the mirror; cores cap speed."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.perf import scan_load as sl
from models.perf import scan_load_fit as sl_fit


def _p() -> sl.ScanParams:
    return sl_fit.default_params()


def test_compressed_data_scans_no_faster_where_the_cpu_binds() -> None:
    shape = sl_fit.gen5_reference_shape()  # 48 cores, CPU bound on a single query
    plain = sl.full_scan_seconds(shape, 100.0, _p())
    assert sl.BINDING_NAMES[int(plain.binding)] == "cpu"
    packed = sl.full_scan_seconds(shape.replace(compression_ratio=3.0), 100.0 / 3.0, _p())
    # the same 100 TB of tuples, stored in a third of the bytes: the CPU still processes all of it,
    # and decompresses it on top
    assert float(packed.seconds) > float(plain.seconds)


def test_compression_helps_where_the_drives_bind() -> None:
    shape = sl_fit.gen5_reference_shape().replace(drives_per_host=1.0, drive_seq_read_mb_s=200.0)
    plain = sl.full_scan_seconds(shape, 100.0, _p())
    assert sl.BINDING_NAMES[int(plain.binding)] == "drives"
    packed = sl.full_scan_seconds(shape.replace(compression_ratio=3.0), 100.0 / 3.0, _p())
    assert float(packed.seconds) < float(plain.seconds)


def test_loads_pay_for_the_mirror_copy() -> None:
    shape = sl_fit.gen5_reference_shape().replace(drives_per_host=1.0, drive_seq_write_mb_s=300.0)
    mirrored = sl.load_tb_per_hour(shape, _p())
    single = sl.load_tb_per_hour(shape.replace(mirrored=0.0), _p())
    assert sl.BINDING_NAMES[int(mirrored.binding)] == "drives"
    assert float(single.value) > 1.9 * float(mirrored.value)
    # compressed, fewer bytes reach the drives and the mirror link
    packed = sl.load_tb_per_hour(shape.replace(compression_ratio=3.0), _p())
    assert float(packed.rates_mb_s["drives"]) == np.float64(mirrored.rates_mb_s["drives"]) * 3.0
    assert float(packed.rates_mb_s["network"]) > float(mirrored.rates_mb_s["network"])
    # ... but the primaries compress what they write
    assert float(packed.rates_mb_s["cpu"]) < float(mirrored.rates_mb_s["cpu"])


@settings(max_examples=100, deadline=None)
@given(primaries=st.integers(1, 512), cores=st.integers(2, 384), ratio=st.floats(1.0, 20.0))
def test_more_primaries_than_cores_never_scan_faster(primaries: int, cores: int, ratio: float) -> None:
    shape = sl_fit.gen5_reference_shape().replace(cores_per_host=float(cores), compression_ratio=ratio)
    at_cores = sl.full_scan_seconds(shape.replace(primary_segments_per_host=float(cores)), 10.0, _p())
    more = sl.full_scan_seconds(shape.replace(primary_segments_per_host=float(max(primaries, cores))), 10.0, _p())
    assert float(more.seconds) >= float(at_cores.seconds) * (1 - 1e-12)


@settings(max_examples=100, deadline=None)
@given(ratio=st.floats(1.0, 20.0), logical_tb=st.floats(1.0, 10_000.0))
def test_cpu_time_never_falls_below_the_uncompressed_cpu_time(ratio: float, logical_tb: float) -> None:
    shape = sl_fit.gen5_reference_shape()
    plain = sl.full_scan_seconds(shape, logical_tb, _p())
    packed = sl.full_scan_seconds(shape.replace(compression_ratio=ratio), logical_tb / ratio, _p())
    cpu_plain = logical_tb * sl.MB_PER_TB / shape.segment_hosts / plain.rates_mb_s["cpu"]
    cpu_packed = logical_tb / ratio * sl.MB_PER_TB / shape.segment_hosts / packed.rates_mb_s["cpu"]
    assert float(cpu_packed) >= float(cpu_plain) * (1 - 1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.5, 1.0, 2.0, np.inf, np.nan]), min_size=4, max_size=4), min_size=1,
                max_size=30))
def test_the_binding_resource_is_argmin_of_the_rates(rows: list[list[float]]) -> None:
    rates = tuple(np.array(col) for col in zip(*rows, strict=True))
    assert np.array_equal(sl.first_min(rates), np.argmin(np.stack(rates), axis=0))

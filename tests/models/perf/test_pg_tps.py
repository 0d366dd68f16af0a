"""The PostgreSQL throughput model: vCPU scaling, memory fit, the storage bound and bands that widen off-calibration."""

from __future__ import annotations

import math

import pytest

from models.perf import pg_tps
from models.perf.pg_tps import PgTpsInputs
from models.perf.pg_tps_law import fitted, usl_relative

N = 800  # Monte Carlo samples: enough for stable percentiles, seconds not minutes


def _tps(**kw: float | int | None) -> pg_tps.PgTps:
    base: dict[str, float | int | None] = {"vcpus": 8, "clients": 64, "cache_gib": 24.0, "working_set_gib": 20.0,
                                           "specrate_per_core": 8.0}
    base.update(kw)
    return pg_tps.pg_tps(PgTpsInputs(**base), samples=N)  # type: ignore[arg-type]


def test_four_to_sixteen_vcpus_never_scales_beyond_linear_on_cpu() -> None:
    four, sixteen = _tps(vcpus=4, clients=256), _tps(vcpus=16, clients=256)
    law = fitted()
    usl_ratio = usl_relative(16, law.sigma, law.kappa) / usl_relative(4, law.sigma, law.kappa)
    assert 1.0 < sixteen.cpu_tps / four.cpu_tps <= 4.0  # each vCPU adds at most its share
    assert sixteen.cpu_tps / four.cpu_tps == pytest.approx(usl_ratio, rel=1e-9)  # the USL fitted on the data


def test_four_to_sixteen_vcpus_with_memory_and_iops_as_published_scales_sub_linearly() -> None:
    # 4 vCPU / 16 GiB and 16 vCPU / 64 GiB on a 100 GB database behind a 16,000 IOPS volume: the small VM misses
    # most reads, the big one under half, and both share the volume's cap (the series the issue cites measured 2.0x)
    small = pg_tps.pg_tps(PgTpsInputs(vcpus=4, clients=256, cache_gib=12.0, working_set_gib=93.1,
                                      specrate_per_core=2.3, storage_iops=16_000.0), samples=N)
    big = pg_tps.pg_tps(PgTpsInputs(vcpus=16, clients=256, cache_gib=48.0, working_set_gib=93.1,
                                    specrate_per_core=2.3, storage_iops=16_000.0), samples=N)
    assert 1.5 < big.estimate.p50 / small.estimate.p50 < 2.6
    assert big.binding == "storage IOPS" and big.cpu_tps / small.cpu_tps > 3.5  # the volume, not the cores


def test_clients_fewer_than_vcpus_leave_vcpus_idle() -> None:
    assert _tps(vcpus=16, clients=4).cpu_tps == pytest.approx(_tps(vcpus=4, clients=4).cpu_tps, rel=0.05)


def test_data_far_beyond_memory_gives_less_than_data_that_nearly_fits() -> None:
    storage = {"storage_iops": 20_000.0, "storage_latency_ms": 0.5}
    nearly = _tps(working_set_gib=24.0 * 1.2, **storage)
    far = _tps(working_set_gib=24.0 * 8, **storage)
    assert far.miss_share > nearly.miss_share > 0
    assert far.estimate.p50 < nearly.estimate.p50
    assert far.binding == "storage IOPS"


def test_a_storage_capped_datastore_binds() -> None:
    free = _tps(working_set_gib=48.0)
    capped = _tps(working_set_gib=48.0, storage_iops=500.0)
    assert free.binding == "CPU"
    assert capped.binding == "storage IOPS"
    # 500 IOPS over 4 page reads per transaction, half of which miss a 24 GiB cache on 48 GiB of data
    assert capped.estimate.p50 == pytest.approx(500.0 / (4 * 0.5), rel=0.05)
    assert capped.estimate.p10 < capped.estimate.p50 < capped.estimate.p90  # off-calibration: a band, not a point
    assert capped.estimate.p50 < free.estimate.p10


def test_latency_binds_few_clients_on_slow_storage() -> None:
    slow = _tps(clients=4, working_set_gib=96.0, storage_latency_ms=10.0)
    assert slow.binding == "storage latency"
    assert slow.estimate.p50 == pytest.approx(4 / (4 * 0.75 * 0.010), rel=0.05)


def test_band_is_wider_off_calibration_than_at_the_study_point() -> None:
    at = pg_tps.pg_tps(PgTpsInputs(vcpus=3, clients=30, cache_gib=2.0, working_set_gib=1.0), samples=N).estimate
    off = pg_tps.pg_tps(PgTpsInputs(vcpus=64, clients=2000, cache_gib=2.0, working_set_gib=1.0,
                                    specrate_per_core=16.0), samples=N).estimate
    width = lambda e: (e.p90 - e.p10) / e.p50  # noqa: E731
    assert width(off) > 1.5 * width(at)
    assert pg_tps.band_sd(PgTpsInputs(vcpus=3, clients=30, cache_gib=1.0, working_set_gib=1.0)) == 0.0


def test_a_faster_cpu_per_core_carries_more() -> None:
    assert _tps(specrate_per_core=16.0).cpu_tps == pytest.approx(2 * _tps(specrate_per_core=8.0).cpu_tps, rel=0.1)


def test_card_states_the_band_rule() -> None:
    c = pg_tps.card()
    assert c.name == "pg-tps" and "per doubling" in c.note
    assert c.parameters["calibration_vcpus"] == 3 and c.parameters["page_reads_per_txn"] == 4


def test_wal_flush_binds_few_clients_on_a_slow_log_device() -> None:
    slow = _tps(clients=4, wal_flush_ms=10.0)  # the data fits in memory: only commits wait on the device
    assert slow.binding == "WAL flush"
    assert slow.estimate.p50 == pytest.approx(4 / 0.010, rel=0.05)  # one commit per client per flush


def test_group_commit_lets_more_clients_share_each_flush() -> None:
    # flushes do not cap the commit rate: twice the clients waiting, twice the commits each flush carries
    eight, sixteen = _tps(vcpus=64, clients=8, wal_flush_ms=20.0), _tps(vcpus=64, clients=16, wal_flush_ms=20.0)
    assert sixteen.wal_tps == pytest.approx(2 * eight.wal_tps)
    assert eight.binding == sixteen.binding == "WAL flush"


def test_vcpus_for_a_rate_grow_with_the_confidence_asked() -> None:
    x = PgTpsInputs(vcpus=1, clients=200, cache_gib=24.0, working_set_gib=20.0, specrate_per_core=8.0)
    p50 = pg_tps.vcpus_for_tps(20_000.0, x, "P50", 64)
    p90 = pg_tps.vcpus_for_tps(20_000.0, x, "P90", 64)
    assert 1.0 < p50 < p90 < 64
    at = pg_tps.pg_tps(PgTpsInputs(**{**_fields(x), "vcpus": math.ceil(p50)}), samples=N)
    assert at.estimate.p50 >= 20_000.0 * 0.97  # the median of that many vCPUs reaches the rate (MC noise)
    assert pg_tps.vcpus_for_tps(20_000.0, PgTpsInputs(**{**_fields(x), "clients": 2}), "P50", 64) == 64.0


def _fields(x: PgTpsInputs) -> dict[str, object]:
    return {f: getattr(x, f) for f in x.__slots__}


def test_contention_over_vcpus_is_checked_against_the_data_not_forced() -> None:
    """The published 4 -> 16 vCPU pairs and study 001's curve decide: forcing the IOPS-capped RDS pair's ~2x into the
    USL's contention fits the data far worse than none, the pair on local NVMe scales beyond 4x, and the card says
    so with the figures (a card whose law was bent to 2x would show a forced sigma equal to its fitted one)."""
    from models.perf.pg_tps_law import contention_check

    c = contention_check()
    assert 1.8 < c.forced_ratio < 2.2 and c.forced_sigma > 0.05  # the pair the issue cites, read as contention
    assert c.forced_rms_runs > 3 * c.runs_only_rms and c.forced_rms_all > c.forced_rms_runs
    assert fitted().sigma < c.forced_sigma / 10 and c.cpu_4_to_16 > 3.9
    uncapped = [p for _, p, _ in c.pairs if p > 4.0]
    assert uncapped and len(c.pairs) >= 3  # the m8gd pair on local NVMe: no cap, no sign of contention
    note = pg_tps.card().note
    assert "do not support contention" in note and f"{c.forced_rms_runs:.3f}" in note and f"{uncapped[0]:.2f}x" in note

"""The PostgreSQL throughput model: vCPU scaling, memory fit, the storage bound and bands that widen off-calibration."""

from __future__ import annotations

import pytest

from models.perf import pg_tps
from models.perf.pg_tps import PgTpsInputs
from models.perf.usl_calibration import calibrated

N = 800  # Monte Carlo samples: enough for stable percentiles, seconds not minutes


def _tps(**kw: float | int | None) -> pg_tps.PgTps:
    base: dict[str, float | int | None] = {"vcpus": 8, "clients": 64, "cache_gib": 24.0, "working_set_gib": 20.0,
                                           "specrate_per_core": 8.0}
    base.update(kw)
    return pg_tps.pg_tps(PgTpsInputs(**base), samples=N)  # type: ignore[arg-type]


def test_four_to_sixteen_vcpus_scales_sub_linearly() -> None:
    four, sixteen = _tps(vcpus=4, clients=256), _tps(vcpus=16, clients=256)
    ratio = sixteen.cpu_tps / four.cpu_tps
    fit = calibrated("pg92-select")
    usl_ratio = (16 / (1 + fit.sigma * 15 + fit.kappa * 16 * 15)) / (4 / (1 + fit.sigma * 3 + fit.kappa * 4 * 3))
    assert 1.0 < ratio < 3.9  # more vCPUs carry more, each less than the one before
    assert ratio == pytest.approx(usl_ratio, rel=0.05)  # by the USL fitted on study 001's curve (MC noise)


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
    off = pg_tps.pg_tps(PgTpsInputs(vcpus=32, clients=400, cache_gib=2.0, working_set_gib=1.0,
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

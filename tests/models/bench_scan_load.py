"""Speed of the scan/load roofline: `python tests/models/bench_scan_load.py`.

Not a test (pytest does not collect `bench_*.py`): speed is reported, never asserted.
Targets: one prediction well under 1 ms; 10,000 Monte Carlo samples under 50 ms; the
optimizer's 10^6 candidate designs in one vectorized call. `refarch bench` reaches the
same code through `models.perf.scan_load.bench_predict` / `bench_monte_carlo`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

from models.perf import scan_load as sl
from models.uncertainty import DEFAULT_SAMPLES

TARGETS_MS = {"prediction": 1.0, "monte_carlo_10k": 50.0}


def _median_s(fn: Callable[[], object], repeat: int = 7, number: int = 1) -> float:
    fn()  # warm-up: the calibration fit and imports happen once per process
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs)


def _designs(n: int) -> tuple[sl.ClusterShape, np.ndarray]:
    g = np.random.default_rng(1)
    drives = g.integers(4, 25, n).astype(float)
    rf, wf = sl.raid_factors(g.integers(0, len(sl.RAID_LEVELS), n), drives)
    shape = sl.ClusterShape(
        segment_hosts=g.integers(2, 64, n).astype(float),
        drives_per_host=drives,
        drive_seq_read_mb_s=g.uniform(100, 14000, n),
        drive_seq_write_mb_s=g.uniform(100, 6000, n),
        raid_read_factor=rf,
        raid_write_factor=wf,
        cores_per_host=g.integers(16, 129, n).astype(float),
        network_gbps_per_host=g.choice([50.0, 100.0, 200.0, 400.0], n),
        virtualized=g.random(n) < 0.5,
        numa_local=g.random(n) < 0.5,
        primary_segments_per_host=g.choice([8.0, 16.0, 32.0], n),
        etl_hosts=g.integers(1, 8, n).astype(float),
    )
    return shape, g.uniform(1, 500, n)


def bench() -> dict[str, float]:
    """Metrics in `refarch bench` naming: models.scan_load.<metric>."""
    gen5 = sl.gen5_reference_shape()
    shape, data = _designs(1_000_000)
    return {
        "models.scan_load.prediction_us": 1e6 * _median_s(sl.bench_predict, number=200),
        "models.scan_load.load_prediction_us": 1e6 * _median_s(lambda: sl.load_tb_per_hour(gen5), number=200),
        "models.scan_load.monte_carlo_10k_ms": 1e3 * _median_s(lambda: sl.bench_monte_carlo(DEFAULT_SAMPLES)),
        "models.scan_load.monte_carlo_10k_cached_ms": 1e3 * _median_s(lambda: sl.estimate_full_scan(gen5, 10.0)),
        "models.scan_load.designs_1e6_ms": 1e3 * _median_s(lambda: sl.full_scan_seconds(shape, data), repeat=3),
    }


def main() -> None:
    for name, value in bench().items():
        print(f"{name:48s} {value:10.2f}")
    print(
        f"targets: one prediction < {TARGETS_MS['prediction']} ms, "
        f"{DEFAULT_SAMPLES} Monte Carlo samples < {TARGETS_MS['monte_carlo_10k']} ms"
    )


if __name__ == "__main__":
    main()

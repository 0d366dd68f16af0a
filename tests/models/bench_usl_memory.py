"""Speed checks for the USL and memory models, for `refarch bench` (not collected by pytest).

Targets: one point prediction well under 1 ms; 10,000 Monte Carlo samples under 50 ms.
Run: `.venv/bin/python -m tests.models.bench_usl_memory`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import numpy as np

from models.perf.memory import overcommit_rate, performance_preserved, shared_buffers_throughput_factor
from models.perf.usl import calibrated, predict_tps
from models.uncertainty import DEFAULT_SAMPLES

ONE_PREDICTION_MS = 1.0
MONTE_CARLO_MS = 50.0


def _best_ms(fn: Callable[[], object], repeat: int = 50) -> float:
    fn()  # warm caches (calibration fits, loaded datasets)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def bench() -> dict[str, tuple[float, float]]:
    """name -> (best time in ms, limit in ms)."""
    fit = calibrated("gp6-select")
    seeds = itertools.count(1)
    return {
        "usl throughput, one point": (_best_ms(lambda: fit.throughput(64.0)), ONE_PREDICTION_MS),
        "predict_tps central, one point": (
            _best_ms(lambda: predict_tps("select", 64, 32, 8, 32, n=0)),
            ONE_PREDICTION_MS,
        ),
        "overcommit_rate, one point": (_best_ms(lambda: overcommit_rate(6.0, 8.0)), ONE_PREDICTION_MS),
        "shared_buffers factor, one point": (
            _best_ms(lambda: shared_buffers_throughput_factor(0.6)),
            ONE_PREDICTION_MS,
        ),
        "performance_preserved, one point": (
            _best_ms(lambda: performance_preserved(0.4, "vm-per-database")),
            ONE_PREDICTION_MS,
        ),
        f"usl estimate, {DEFAULT_SAMPLES:,} samples": (
            _best_ms(lambda: fit.estimate(64.0, samples=DEFAULT_SAMPLES), repeat=10),
            MONTE_CARLO_MS,
        ),
        f"predict_tps, {DEFAULT_SAMPLES:,} samples": (
            _best_ms(lambda: predict_tps("tpcb", 64, 32, 8, 32, n=DEFAULT_SAMPLES), repeat=10),
            MONTE_CARLO_MS,
        ),
        # Cached draws are the common case; a fresh seed measures drawing the samples too.
        f"usl estimate, {DEFAULT_SAMPLES:,} fresh samples": (
            _best_ms(lambda: fit.estimate(64.0, seed=next(seeds)), repeat=10),
            MONTE_CARLO_MS,
        ),
        f"predict_tps, {DEFAULT_SAMPLES:,} fresh samples": (
            _best_ms(lambda: predict_tps("tpcb", 64, 32, 8, 32, seed=next(seeds)), repeat=10),
            MONTE_CARLO_MS,
        ),
        "predict_tps central, 10,000 configurations": (
            _best_ms(lambda: predict_tps("select", 64, np.linspace(4, 256, 10_000), 8, 32, n=0), repeat=10),
            MONTE_CARLO_MS,
        ),
    }


def main() -> int:
    failed = 0
    for name, (ms, limit) in bench().items():
        ok = ms < limit
        failed += not ok
        print(f"{'ok  ' if ok else 'SLOW'} {name:<45} {ms:8.3f} ms  (limit {limit:g} ms)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

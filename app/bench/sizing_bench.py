"""Benchmarks of the sizing engine and the optimizer (ratios measured in one run, never asserted in tests)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from app.bench.registry import BenchResult, benchmark, time_median

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "retail-dw-gen5.json"
NAIVE_CANDIDATES = 400  # the per-candidate loop is slow; its rate is measured on this many of the same candidates
TILE_TO = 1_000_000  # the vectorized pass is measured on the catalog's candidates repeated to about this many


@benchmark("sizing")
def bench_sizing() -> BenchResult:
    from catalog.seed import seed_catalog
    from models.scenario import parse_scenario
    from models.sizing.engine import size
    from models.uncertainty import DEFAULT_SAMPLES

    catalog = seed_catalog()
    scenario = parse_scenario(json.loads(SAMPLE.read_text()))
    out = BenchResult()
    size_s = time_median(lambda: size(scenario, catalog), repeat=9)
    out.metrics["size_ms"] = 1e3 * size_s

    from models.perf.scan_load_estimates import estimate_full_scan
    from models.perf.scan_load_fit import gen5_reference_shape

    r = size(scenario, catalog)
    shape = gen5_reference_shape()
    mc_s = time_median(lambda: estimate_full_scan(shape, r.design.data_needed_tb), repeat=9)
    out.metrics["monte_carlo_ms"] = 1e3 * mc_s
    out.notes.append(f"monte_carlo_ms: full-scan estimate with {DEFAULT_SAMPLES:,} samples")
    return out


@benchmark("optimizer")
def bench_optimizer() -> BenchResult:
    from catalog.seed import seed_catalog
    from models.scenario import parse_scenario
    from models.sizing import greenplum
    from models.sizing.candidates import NetworkChoice, enumerate_candidates
    from models.sizing.parts import choose_nic, current, resolve
    from models.vocabulary import DEPLOYMENTS, RAID_LEVELS

    catalog = seed_catalog()
    scenario = parse_scenario(json.loads(SAMPLE.read_text()))
    w, t = scenario.workload, scenario.targets
    nic, _ = choose_nic(catalog, resolve(scenario, catalog))
    net = NetworkChoice(nic, 1)
    base = enumerate_candidates(current(catalog.servers, catalog), current(catalog.drives, catalog), DEPLOYMENTS,
                                RAID_LEVELS, None, greenplum.min_data_drives())
    reps = max(1, TILE_TO // len(base))
    tiled = base.take(np.tile(np.arange(len(base)), reps))
    vec_s = time_median(lambda: greenplum.evaluate(w, t, tiled, net, 0.6), repeat=3)  # type: ignore[arg-type]
    few = base.take(np.arange(min(NAIVE_CANDIDATES, len(base))))
    singles = [few.take(np.array([i])) for i in range(len(few))]

    def naive() -> None:
        for one in singles:
            greenplum.evaluate(w, t, one, net, 0.6)  # type: ignore[arg-type]

    start = time.perf_counter()
    naive()
    naive_s = time.perf_counter() - start
    out = BenchResult()
    out.metrics["optimizer.candidates_per_s"] = len(tiled) / vec_s
    out.metrics["optimizer.naive_candidates_per_s"] = len(singles) / naive_s
    out.metrics["optimizer.speedup"] = out.metrics["optimizer.candidates_per_s"] / out.metrics[
        "optimizer.naive_candidates_per_s"]
    out.notes.append(
        f"optimizer: {len(base):,} catalog candidates tiled to {len(tiled):,}; naive loop over {len(singles)} of them"
    )
    return out

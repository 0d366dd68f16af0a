"""Model benchmarks: one scalar prediction and a 10,000-sample Monte Carlo per model module.

Metrics: `models.<name>.prediction_us` (median microseconds of one point prediction) and
`models.<name>.monte_carlo_10k_ms` (median milliseconds of one prediction with 10,000
samples). Modules are imported lazily. How to call a model lives here (the app layer knows the models' APIs), in
`ADAPTERS`; a module may instead expose `bench_predict()` and `bench_monte_carlo(samples)`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

from app.bench.registry import BenchResult, benchmark, calls_for, time_median

# Metric name -> the `models.perf` module that times it (names kept stable across module splits).
MODEL_MODULES = {"scan_load": "scan_load_estimates", "usl": "gp_oltp", "memory": "memory", "sap_iq": "sap_iq"}
MC_SAMPLES = 10_000

Thunk = Callable[[], object]
Adapter = Callable[[ModuleType], tuple[Thunk, Thunk]]


def _sap_iq(mod: ModuleType) -> tuple[Thunk, Thunk]:
    def predict() -> object:
        return mod.predict_iq("network-transfer", 4, 6, samples=0)

    def monte_carlo() -> object:
        return mod.predict_iq("network-transfer", 4, 6, samples=MC_SAMPLES)

    return predict, monte_carlo


ADAPTERS: dict[str, Adapter] = {"sap_iq": _sap_iq}


def _hooks(mod: ModuleType) -> tuple[Thunk, Thunk] | None:
    predict = getattr(mod, "bench_predict", None)
    mc = getattr(mod, "bench_monte_carlo", None)
    if callable(predict) and callable(mc):
        return predict, lambda: mc(MC_SAMPLES)
    return None


@benchmark("models")
def bench_models() -> BenchResult:
    out = BenchResult()
    for name, module in MODEL_MODULES.items():
        modname = f"models.perf.{module}"
        try:
            mod = importlib.import_module(modname)
            thunks = ADAPTERS[name](mod) if name in ADAPTERS else _hooks(mod)
            if thunks is None:
                out.notes.append(f"{modname}: no bench adapter in app/bench/models.py, skipped")
                continue
            predict, monte_carlo = thunks
            prediction_us = 1e6 * time_median(predict, number=calls_for(predict))
            monte_carlo_ms = 1e3 * time_median(monte_carlo, repeat=5)
        except Exception as exc:  # a model that cannot run is a bug; the other models still run
            out.problems.append(f"{modname}: {type(exc).__name__}: {exc}")
            continue
        out.metrics[f"models.{name}.prediction_us"] = prediction_us
        out.metrics[f"models.{name}.monte_carlo_10k_ms"] = monte_carlo_ms
    return out

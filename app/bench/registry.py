"""The benchmark registry behind `refarch bench`.

A benchmark is a function decorated with `@benchmark("name")` in any module of the
`app.bench` package; it takes no arguments and returns its metrics as a mapping of
dotted metric name to number (`{"models.sap_iq.prediction_us": 41.2}`), or a
`BenchResult` when it also has notes (a model that is not there yet, say). Adding a
benchmark touches no shared file: drop a module into `app/bench/` and it is discovered.

Timings are medians over repeated runs (`time_median`); nothing here asserts on speed.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import platform
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Metrics = Mapping[str, float]


@dataclass
class BenchResult:
    metrics: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # bugs found while benchmarking: exit 1


BenchFn = Callable[[], "Metrics | BenchResult"]

_REGISTRY: dict[str, BenchFn] = {}


def benchmark(name: str) -> Callable[[BenchFn], BenchFn]:
    """Register `fn` under `name`; a second registration of the same name is a bug."""

    def register(fn: BenchFn) -> BenchFn:
        if name in _REGISTRY and _REGISTRY[name] is not fn:
            raise ValueError(f"benchmark '{name}' registered twice")
        _REGISTRY[name] = fn
        return fn

    return register


def registered() -> dict[str, BenchFn]:
    return dict(_REGISTRY)


def time_median(fn: Callable[[], object], *, repeat: int = 7, number: int = 1) -> float:
    """Median seconds per call of `fn` over `repeat` runs of `number` calls (one warm-up call first)."""
    fn()
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs)


def calls_for(fn: Callable[[], object], budget_s: float = 0.02, max_calls: int = 10_000) -> int:
    """How many calls of a fast `fn` fill about `budget_s`, so per-call times are not timer noise."""
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    return max(1, min(max_calls, int(budget_s / once)))


def discover() -> list[str]:
    """Import every module of `app.bench` so its benchmarks register; returns import problems."""
    import app.bench as pkg

    problems = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name == "registry":
            continue
        try:
            importlib.import_module(f"{pkg.__name__}.{info.name}")
        except Exception as exc:
            problems.append(f"app.bench.{info.name}: cannot import: {type(exc).__name__}: {exc}")
    return problems


def machine() -> dict[str, Any]:
    import numpy as np

    return {
        "cpu_count": os.cpu_count() or 0,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(terse=True),
        "numpy": np.__version__,
    }


@dataclass
class BenchReport:
    metrics: dict[str, float]
    notes: list[str]
    problems: list[str]
    machine: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(sorted(self.metrics.items()))
        out["machine"] = self.machine
        out["notes"] = list(self.notes)
        if self.problems:
            out["problems"] = list(self.problems)
        return out


def run_all(only: Sequence[str] | None = None) -> BenchReport:
    """Run every registered benchmark (or those named in `only`) in this process."""
    problems = discover()
    metrics: dict[str, float] = {}
    notes: list[str] = []
    for name, fn in sorted(_REGISTRY.items()):
        if only and name not in only:
            continue
        try:
            result = fn()
        except Exception as exc:  # a broken benchmark is reported; the others still run
            problems.append(f"benchmark '{name}' failed: {type(exc).__name__}: {exc}")
            continue
        if isinstance(result, BenchResult):
            metrics.update(result.metrics)
            notes.extend(result.notes)
            problems.extend(result.problems)
        else:
            metrics.update(result)
    if only:
        unknown = sorted(set(only) - set(_REGISTRY))
        problems += [f"no benchmark named '{n}'" for n in unknown]
    return BenchReport(metrics=metrics, notes=notes, problems=problems, machine=machine())

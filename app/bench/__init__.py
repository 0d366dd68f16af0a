"""Benchmarks for `refarch bench`: register with `@benchmark("name")` in a module of this package.

Metric names are dotted and carry their unit: `models.<model>.prediction_us`,
`models.<model>.monte_carlo_10k_ms`, later `size_ms`, `optimizer.*`,
`gui.window_shown_ms`, `report.one_scenario_ms`.
"""

from app.bench.registry import BenchReport, BenchResult, benchmark, run_all, time_median

__all__ = ["BenchReport", "BenchResult", "benchmark", "run_all", "time_median"]

"""Benchmark of the PDF report as the user runs it: `refarch report` processes with 1 and 5 scenarios.

- `report.one_scenario_s`: the whole process for one scenario (start-up, sizing, growth plan, PDF).
- `report.per_scenario_s`: what each further scenario adds, (t(5) - t(1)) / 4 (target <= 0.5 s).
Nothing asserts it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from app.bench.registry import BenchResult, benchmark

SCENARIOS = ("retail-dw-gen5.json", "retail-dw-dual-socket-sas.json", "study-000-vsphere.json", "gp-oltp.json",
             "pg-consolidation.json")


@benchmark("report")
def bench_report() -> BenchResult:
    from app.bench.catalogs import scaled_database
    from app.bench.processes import SAMPLES, median_run, refarch

    out = BenchResult()
    with tempfile.TemporaryDirectory(prefix="refarch-bench-") as tmp:
        db = scaled_database(Path(tmp), 1)
        pdf = str(Path(tmp) / "report.pdf")
        one = median_run(refarch("--db", db, "report", str(SAMPLES / SCENARIOS[0]), "-o", pdf), repeat=3)
        many = median_run(refarch("--db", db, "report", *(str(SAMPLES / s) for s in SCENARIOS), "-o", pdf), repeat=3)
    for name, r in (("one", one), ("many", many)):
        if r.returncode:
            out.problems.append(f"report ({name}): exit {r.returncode}: {r.stderr.strip()[-300:]}")
    out.metrics["report.one_scenario_s"] = one.seconds
    out.metrics[f"report.{len(SCENARIOS)}_scenarios_s"] = many.seconds
    out.metrics["report.per_scenario_s"] = (many.seconds - one.seconds) / (len(SCENARIOS) - 1)
    out.notes.append(f"report: fresh `refarch report` processes (1 and {len(SCENARIOS)} sample scenarios, growth plan "
                     "included), median of 3; per_scenario_s target <= 0.5 s")
    return out

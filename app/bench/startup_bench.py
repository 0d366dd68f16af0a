"""Start-up as the user waits for it: fresh processes, medians, ratios measured in the same run.

- `startup.help_over_numpy`: `refarch --help` over `python -c "import numpy"` (target <= 4).
- `startup.size_over_help`: `refarch size SAMPLE` over `refarch --help` (target <= 1.5).
The seconds behind them are printed too (`startup.*_s`); nothing asserts any of it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from app.bench.registry import BenchResult, benchmark

SAMPLE = "retail-dw-gen5.json"


@benchmark("startup")
def bench_startup() -> BenchResult:
    from app.bench.catalogs import scaled_database
    from app.bench.processes import SAMPLES, median_run, refarch

    out = BenchResult()
    with tempfile.TemporaryDirectory(prefix="refarch-bench-") as tmp:
        db = scaled_database(Path(tmp), 1)
        runs = {
            "python_pass": median_run((sys.executable, "-c", "pass"), repeat=7),
            "import_numpy": median_run((sys.executable, "-c", "import numpy"), repeat=7),
            "help": median_run(refarch("--help"), repeat=7),
            "size": median_run(refarch("--db", db, "size", str(SAMPLES / SAMPLE)), repeat=7),
        }
    for name, r in runs.items():
        out.metrics[f"startup.{name}_s"] = r.seconds
        if r.returncode:
            out.problems.append(f"startup.{name}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    out.metrics["startup.help_over_numpy"] = runs["help"].seconds / runs["import_numpy"].seconds
    out.metrics["startup.size_over_help"] = runs["size"].seconds / runs["help"].seconds
    out.metrics["startup.size_over_numpy"] = runs["size"].seconds / runs["import_numpy"].seconds
    out.notes.append("startup: fresh processes, median of 7 after one untimed run; targets help_over_numpy <= 4, "
                     "size_over_help <= 1.5")
    return out

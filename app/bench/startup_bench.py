"""Start-up as the user waits for it: fresh processes, medians, ratios measured in the same run.

- `startup.help_over_numpy`: `refarch --help` over `python -c "import numpy"` (target <= 4).
- `startup.size_over_help`: `refarch size SAMPLE` over `refarch --help` (target <= 1.5).
The seconds behind them are printed too (`startup.*_s`); nothing asserts any of it. Each ratio is the
median of ratios of runs made in the same round (paired), not a ratio of medians taken minutes apart.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from app.bench.registry import BenchResult, benchmark

SAMPLE = "retail-dw-gen5.json"


ROUNDS = 9


@benchmark("startup")
def bench_startup() -> BenchResult:
    from app.bench.catalogs import scaled_database
    from app.bench.processes import SAMPLES, refarch, run

    out = BenchResult()
    with tempfile.TemporaryDirectory(prefix="refarch-bench-") as tmp:
        db = scaled_database(Path(tmp), 1)
        commands = {
            "python_pass": (sys.executable, "-c", "pass"),
            "import_numpy": (sys.executable, "-c", "import numpy"),
            "help": refarch("--help"),
            "size": refarch("--db", db, "size", str(SAMPLES / SAMPLE)),
        }
        for args in commands.values():
            run(args)  # untimed: disk cache, bytecode, fits and catalog snapshot warm, as on every run after the first
        # Round after round of one run each, so a ratio pairs runs made moments apart: on a shared machine the
        # load drifts over the minutes a bench takes, and blocks of one command each would time different loads.
        rounds = [{name: run(args) for name, args in commands.items()} for _ in range(ROUNDS)]
    for name in commands:
        out.metrics[f"startup.{name}_s"] = statistics.median(r[name].seconds for r in rounds)
        failed = [r[name] for r in rounds if r[name].returncode]
        if failed:
            out.problems.append(f"startup.{name}: exit {failed[0].returncode}: {failed[0].stderr.strip()[-300:]}")

    def ratio(a: str, b: str) -> float:
        return statistics.median(r[a].seconds / r[b].seconds for r in rounds)

    out.metrics["startup.help_over_numpy"] = ratio("help", "import_numpy")
    out.metrics["startup.size_over_help"] = ratio("size", "help")
    out.metrics["startup.size_over_numpy"] = ratio("size", "import_numpy")
    out.notes.append(f"startup: fresh processes after one untimed run each, {ROUNDS} rounds of one run per command; "
                     "seconds are medians, ratios the median of the per-round ratios; targets help_over_numpy <= 4, "
                     "size_over_help <= 1.5")
    return out

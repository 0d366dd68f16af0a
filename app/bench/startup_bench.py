"""Start-up as the user waits for it: fresh processes, medians, ratios measured in the same run.

- `startup.help_over_numpy`: `refarch --help` over `python -c "import numpy"` (target <= 4).
- `startup.size_over_help`: `refarch size SAMPLE` over `refarch --help` (target <= 1.5).
The seconds behind them are printed too (`startup.*_s`); nothing asserts any of it. Each ratio is the
median of ratios of runs made in the same round (paired), not a ratio of medians taken minutes apart.
The same ratios of the children's CPU time (`*_cpu`) are printed beside them: on a shared machine other jobs'
turns stretch the wall times, and their ratios, from round to round; the CPU a process spent much less. The
note gives the load average before and after the rounds.
"""

from __future__ import annotations

import os
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
        load_before = _load()
        rounds = [{name: run(args) for name, args in commands.items()} for _ in range(ROUNDS)]
        load_after = _load()
    for name in commands:
        out.metrics[f"startup.{name}_s"] = statistics.median(r[name].seconds for r in rounds)
        failed = [r[name] for r in rounds if r[name].returncode]
        if failed:
            out.problems.append(f"startup.{name}: exit {failed[0].returncode}: {failed[0].stderr.strip()[-300:]}")

    def ratio(a: str, b: str, cpu: bool = False) -> float:
        if cpu:
            return statistics.median(r[a].cpu_seconds / r[b].cpu_seconds for r in rounds)
        return statistics.median(r[a].seconds / r[b].seconds for r in rounds)

    for name, (a, b) in {"help_over_numpy": ("help", "import_numpy"), "size_over_help": ("size", "help"),
                         "size_over_numpy": ("size", "import_numpy")}.items():
        out.metrics[f"startup.{name}"] = ratio(a, b)
        out.metrics[f"startup.{name}_cpu"] = ratio(a, b, cpu=True)
    out.notes.append(f"startup: fresh processes after one untimed run each, {ROUNDS} rounds of one run per command; "
                     "seconds are medians, ratios the median of the per-round ratios (of wall times; *_cpu: of the "
                     "children's CPU times); targets help_over_numpy <= 4, size_over_help <= 1.5; load average "
                     f"{load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} CPUs")
    return out


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

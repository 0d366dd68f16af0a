"""Benchmark of estates of thousands: `refarch size` processes on PostgreSQL consolidations of 100 and 10,000
databases (placement and every host failure simulated, as a user's run does).

- `estate.size_100_s`, `estate.size_10000_s`: each whole process (start-up, reading the file, sizing, printing);
- `estate.10000_over_100`: their ratio, paired within a round (target <= 6: an estate a hundred times larger may take
  at most six times as long);
- `estate.10000_cpu_over_100`: the same over the processes' CPU time, which other jobs on the machine inflate less;
- `estate.peak_mib_10000`: the larger process's peak memory.

The databases are alike in kind but not in figures (sizes, clients and working sets cycle; each busy at one hour of
the day), written as `refarch new postgres-consolidation --databases` would. `REFARCH_BENCH_ESTATE_DBS` sets the
larger count (default 10,000) for a quicker look; the metric names carry the count. Nothing asserts it.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
from pathlib import Path

from app.bench.registry import BenchResult, benchmark

SMALL = 100
LARGE = 10_000
ROUNDS = 3  # a 10,000-database run takes about 15 s on the 2-core machine: three paired rounds, their median ratio
TARGET = 6.0


def estate_json(count: int) -> dict[str, object]:
    """A consolidation of `count` databases, the scenario `refarch new` writes with them."""
    from app.editing.templates import scenario_template

    data = scenario_template("postgres-consolidation", f"Estate of {count:,} databases")
    data["workload"]["databases"] = [
        {"name": f"db{i:05d}", "size_gb": 20 + i % 50, "peak_clients": 5 + i % 20, "working_set_gb": 2 + i % 6,
         "busy_hours": [i % 24]} for i in range(count)]
    return data


@benchmark("estate")
def bench_estate() -> BenchResult:
    from app.bench.catalogs import scaled_database
    from app.bench.processes import refarch, run
    from app.export.atomic import atomic_write_text

    large = int(os.environ.get("REFARCH_BENCH_ESTATE_DBS", LARGE))
    out = BenchResult()
    with tempfile.TemporaryDirectory(prefix="refarch-bench-") as tmp:
        db = scaled_database(Path(tmp), 1)
        files = {}
        for count in (SMALL, large):
            path = Path(tmp) / f"estate-{count}.json"
            atomic_write_text(path, json.dumps(estate_json(count)))
            files[count] = refarch("--db", db, "size", str(path), "--format", "json")
        run(files[SMALL])  # untimed: caches warm, as on every run after the first
        rounds = [{count: run(args) for count, args in files.items()} for _ in range(ROUNDS)]
    for count in files:
        failed = [r[count] for r in rounds if r[count].returncode]
        if failed:
            out.problems.append(f"estate ({count}): exit {failed[0].returncode}: {failed[0].stderr.strip()[-300:]}")
    out.metrics[f"estate.size_{SMALL}_s"] = statistics.median(r[SMALL].seconds for r in rounds)
    out.metrics[f"estate.size_{large}_s"] = statistics.median(r[large].seconds for r in rounds)
    out.metrics[f"estate.{large}_over_{SMALL}"] = statistics.median(r[large].seconds / r[SMALL].seconds for r in rounds)
    out.metrics[f"estate.{large}_cpu_over_{SMALL}"] = statistics.median(
        r[large].cpu_seconds / r[SMALL].cpu_seconds for r in rounds)
    out.metrics[f"estate.peak_mib_{large}"] = max(r[large].peak_mib for r in rounds)
    out.notes.append(f"estate: fresh `refarch size` processes on consolidations of {SMALL} and {large:,} databases,"
                     f" {ROUNDS} paired round(s); target {large:,}/{SMALL} <= {TARGET:g}")
    return out

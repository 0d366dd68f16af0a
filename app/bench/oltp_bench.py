"""Greenplum OLTP sizing with the parts left free: every server, drive and coordinator searched, the shortlist
settled at the scenario's confidence (`models.sizing.greenplum.settle`). Timed in process, each run from cold curves
(`gp_oltp.forget_curves`), as a fresh `refarch size` computes them; nothing here asserts on speed."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from app.bench.registry import BenchResult, benchmark

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "gp-oltp.json"
CLIENTS = 3000  # the case that took ~10 s: a shortlist of 256+ candidates settled, each probing host counts
RUNS = 5


@benchmark("size_search_oltp")
def bench_oltp_free() -> BenchResult:
    """`size` and `optimize` of the gp-oltp sample at 3,000 clients, server and drive left free.

    - `size_search.gp_oltp_free_s`: `size()`, median of 5 (target: under 1 s on the 2-core machine);
      `size_search.gp_oltp_free_cpu_s` the same in the process's CPU seconds (what other jobs' load leaves out).
    - `size_search.gp_oltp_free_update_s`: the same with the update mix (its segment hosts bind: more of the
      shortlist is settled).
    - `size_search.gp_oltp_optimize_s`: `optimize()` of the select case.
    - `size_search.gp_oltp_free_over_named`: the select case over the same scenario with the server and drive
      its design chose named (one platform), in CPU seconds: what leaving the parts free costs, as a ratio the
      machine's load leaves alone.
    """
    from catalog.seed import seed_catalog
    from models.optimizer import optimize
    from models.scenario import Scenario, parse_scenario
    from models.sizing.engine import size

    catalog = seed_catalog()
    raw = json.loads(SAMPLE.read_text())
    raw["workload"]["clients"] = CLIENTS

    def scenario(mix: str | None = None, server: str | None = None, drive: str | None = None) -> Scenario:
        data = json.loads(json.dumps(raw))
        if mix:
            data["workload"]["mix"] = mix
        data["platform"].update(server_id=server, drive_id=drive)
        return parse_scenario(data)

    free = scenario()
    chosen = size(free, catalog).design  # warm: imports and fits
    named = scenario(server=chosen.server_id, drive=chosen.drive_id)
    out = BenchResult()
    free_s, free_cpu_s = _cold_median(lambda: size(free, catalog))
    out.metrics["size_search.gp_oltp_free_s"] = free_s
    out.metrics["size_search.gp_oltp_free_cpu_s"] = free_cpu_s
    out.metrics["size_search.gp_oltp_free_over_named"] = free_cpu_s / _cold_median(lambda: size(named, catalog))[1]
    update = scenario(mix="update")
    out.metrics["size_search.gp_oltp_free_update_s"] = _cold_median(lambda: size(update, catalog))[0]
    out.metrics["size_search.gp_oltp_optimize_s"] = _cold_median(lambda: optimize(free, catalog))[0]
    out.notes.append(f"size_search.gp_oltp_*: gp-oltp sample at {CLIENTS:,} clients, server and drive free, in process,"
                     f" medians of {RUNS} from cold OLTP curves (target: gp_oltp_free_s under 1 s)")
    return out


def _cold_median(fn: Callable[[], object]) -> tuple[float, float]:
    """Median wall and CPU seconds of `fn` over RUNS runs, each from cold OLTP curves (a fresh process's first
    search)."""
    from models.perf import gp_oltp

    wall, cpu = [], []
    for _ in range(RUNS):
        gp_oltp.forget_curves()
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)

"""Benchmark of the PDF report: `report.one_scenario_ms`, the median time to render the design
report of the sample Greenplum scenario (cover to appendix, charts included) to a file.

Sizing, the growth plan and the model cards are computed once outside the timing: the
metric is the exporter's own cost, the part a user waits for after the numbers exist.
The target is under 1 s; nothing asserts it.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from app.bench.registry import BenchResult, benchmark, time_median

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "retail-dw-gen5.json"


@benchmark("report")
def bench_report() -> BenchResult:
    from app.export import render_report
    from catalog.seed import seed_catalog
    from models.perf.cards import all_cards
    from models.scenario import parse_scenario
    from models.sizing.engine import size
    from models.whatif import growth

    catalog = seed_catalog()
    scenario = parse_scenario(json.loads(SAMPLE.read_text(encoding="utf-8")), str(SAMPLE))
    result = size(scenario, catalog)
    plan = growth(scenario, catalog, result)
    cards = all_cards()
    out = BenchResult()
    with tempfile.TemporaryDirectory(prefix="refarch-bench-") as tmp:
        pdf = Path(tmp) / "report.pdf"
        seconds = time_median(lambda: render_report([result], [scenario], pdf, growth=[plan], cards=cards),
                              repeat=5)
        pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf.read_bytes())) or None
    out.metrics["report.one_scenario_ms"] = 1e3 * seconds
    out.notes.append(f"report.one_scenario_ms: {SAMPLE.name}" + (f", {pages} pages" if pages else "")
                     + "; target < 1,000 ms")
    return out

"""The PDF's charts: vector drawings on the page (no images, no matplotlib in the report), their text the PDF's
own, every label inside its chart and clear of the others."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from app.charts.data import cost_chart, cost_items
from app.export import render_report
from app.export.fonts import report_fonts
from app.export.pdf_charts import (
    comparison_chart,
    cost_flowable,
    curve_flowable,
    estimates_flowable,
    growth_flowable,
)
from app.export.pdf_plot import Chart, Pen
from app.export.pdf_styles import FRAME_H, FRAME_W
from app.services.sizing import curve_points
from app.views.compare import chart_series, compare_rows
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.uncertainty import Estimate
from models.whatif import growth
from tests.app.export.conftest import SAMPLES, SCENARIO_FILES, flat, pdf_text

Sized = Callable[[str], tuple[Scenario, SizingResult]]
ROOT = Path(__file__).resolve().parents[3]


def test_the_report_draws_its_charts_without_images_or_matplotlib(tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    code = ("import sys; from app.export import render_report; from catalog.seed import seed_catalog; "
            "from models.scenario import load_scenario; from models.sizing.engine import size; "
            f"s = load_scenario({str(SAMPLES / 'retail-dw-gen5.json')!r}); r = size(s, seed_catalog()); "
            f"render_report([r, r], [s, s], {str(out)!r}); print('matplotlib' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"
    for page in PdfReader(str(out)).pages:
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        assert not any(ref.get_object().get("/Subtype") == "/Image"
                       for ref in (xobjects.get_object().values() if xobjects is not None else []))


def test_chart_labels_are_text_in_the_pdf(tmp_path: Path, sized: Sized, catalog: HardwareCatalog) -> None:
    s, r = sized("retail-dw-gen5.json")
    out = tmp_path / "r.pdf"
    plan = growth(s, catalog, r)
    render_report([r], [s], out, growth=[plan], curves=[curve_points(s, catalog, r)])
    text = flat(pdf_text(out))
    for label in cost_chart(cost_items(r.bom), r.totals.currency).labels:  # each role's total and share
        assert label.strip() in text
    for year in plan:
        assert f"{year.hosts} hosts" in text and f"Year {year.year}" in text
    assert f"this design: {r.design.worker_hosts} hosts" in text
    assert "P10-P90" in text and "already installed" in text


def _charts(sized: Sized, catalog: HardwareCatalog) -> Iterator[tuple[str, Chart]]:
    pen = Pen(report_fonts())
    for path in SCENARIO_FILES:
        s, r = sized(path.name)
        yield f"{path.name} cost", cost_flowable(pen, r, FRAME_W)
        est = estimates_flowable(pen, r, s, FRAME_W)
        if est is not None:
            yield f"{path.name} estimates", est
        plan = growth(s, catalog, r)
        if len(plan) > 1:
            yield f"{path.name} growth", growth_flowable(pen, plan, r.totals.currency, FRAME_W)
        curve = curve_points(s, catalog, r)
        if len(curve) > 1:
            yield f"{path.name} curve", curve_flowable(pen, r, s, curve, FRAME_W)
    s, r = sized("retail-dw-gen5.json")
    for k in (7.3e3, 9.1e6, 4.4e9):  # values far from the samples': the widest tick labels sit on the chart too
        scaled = {n: Estimate(e.p10 * k, e.p50 * k, e.p90 * k, e.unit) for n, e in r.estimates.items()}
        est = estimates_flowable(pen, dataclasses.replace(r, estimates=scaled), s, FRAME_W)
        assert est is not None
        yield f"estimates x {k:g}", est
    pairs = [sized(p.name) for p in SCENARIO_FILES]
    gp = [(s, r) for s, r in pairs if r.design.kind == pairs[0][1].design.kind][:1] * 5
    long_names = ["A", "B", "Retail DW — a long option name 東京", "D", "E"]
    results = [dataclasses.replace(r, scenario_name=n) for n, (_, r) in zip(long_names, gp, strict=True)]
    yield "comparison", comparison_chart(pen, chart_series(compare_rows(results)), long_names, FRAME_W, FRAME_H * 0.8)


def test_every_chart_label_is_inside_its_chart_and_clear_of_the_others(
        sized: Sized, catalog: HardwareCatalog, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    drawn: list[tuple[float, float, float, float, str]] = []
    text = Pen.text

    def record(self: Pen, c: Canvas, x: float, y: float, s: str, size: float, *args: Any, **kw: Any) -> None:
        align = kw.get("align", args[2] if len(args) > 2 else "left")
        w = self.width(s, size, kw.get("bold", args[1] if len(args) > 1 else False))
        x0 = x - w if align == "right" else x - w / 2 if align == "center" else x
        drawn.append((x0, y - 0.22 * size, x0 + w, y + 0.75 * size, s))
        text(self, c, x, y, s, size, *args, **kw)

    monkeypatch.setattr(Pen, "text", record)
    canvas = Canvas(str(tmp_path / "charts.pdf"))
    for name, chart in _charts(sized, catalog):
        drawn.clear()
        chart.wrapOn(canvas, FRAME_W, FRAME_H)
        chart.drawOn(canvas, 0, 0)
        assert drawn, name
        for x0, y0, x1, y1, s in drawn:
            assert x0 >= -0.5 and x1 <= chart.width + 0.5 and y0 >= -0.5 and y1 <= chart.height + 0.5, (name, s)
        for i, a in enumerate(drawn):
            for b in drawn[i + 1:]:
                apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                assert apart, (name, a[4], b[4])


def test_an_estimate_without_a_value_is_left_out_of_the_charts(tmp_path: Path, sized: Sized,
                                                                catalog: HardwareCatalog) -> None:
    """A NaN estimate (no draw gave a value) is no bar, dot or curve point; the report still renders."""
    s, r = sized("retail-dw-gen5.json")
    nan = float("nan")
    main = r.estimates[r.main_metric]
    broken = dataclasses.replace(r, estimates={**r.estimates, r.main_metric: Estimate(nan, nan, nan, main.unit)})
    curve = curve_points(s, catalog, r)
    curve = [(h, Estimate(nan, nan, nan, e.unit) if i % 2 else e) for i, (h, e) in enumerate(curve)]
    pen = Pen(report_fonts())
    assert chart_series(compare_rows([broken, r]))[3].values[0] is None  # drawn as "n/a"
    chart = curve_flowable(pen, r, s, curve, FRAME_W)
    assert chart is not None and curve_flowable(pen, r, s, curve[:2], FRAME_W) is None  # one point left
    out = tmp_path / "r.pdf"
    render_report([broken, r], [s, s], out, curves=[curve, curve])
    for page in PdfReader(str(out)).pages:  # no coordinate of the drawing is NaN
        assert re.search(rb"(?<![A-Za-z])nan(?![A-Za-z])", page.get_contents().get_data(), re.I) is None

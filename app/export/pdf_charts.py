"""Charts in the PDF, drawn as vectors on reportlab's canvas from what `app.charts.data` computes.

The window draws the same data with matplotlib. The report once embedded matplotlib's images: drawing and
compressing them was half a report's CPU time (0.3 s per option), and importing matplotlib 0.5 s of every report
process. Vector charts were first tried through svglib (matplotlib's SVG parsed into reportlab) and cost twice
the images; painted straight on the canvas they cost a few milliseconds, print sharp at any zoom, and their text
is the PDF's text (searchable, in the fonts and fallback of the tables).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reportlab.pdfgen.canvas import Canvas

from app.charts.data import (
    FIRST_YEAR_BOM,
    CurveMarker,
    cost_chart,
    cost_items,
    curve_marker,
    nice_ticks,
    sig,
    thousands_text,
)
from app.charts.palette import ACCENT, BAND, GRID, INK, MUTED, SERIES, TARGET, WHITE
from app.export.pdf_compare_chart import comparison_chart
from app.export.pdf_plot import (
    SPINE_W,
    TICK,
    Chart,
    Key,
    Pen,
    Scale,
    box,
    dot,
    key_width,
    legend,
    legend_height,
    line,
    rgb,
    tick_room,
    x_axis,
    y_axis,
)
from app.formatting import is_fraction, money_short, unit_text
from app.views.summary import bom_as_shown, headline_metric
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.uncertainty import Estimate
from models.vocabulary import metric_label, target_of_metric
from models.whatif import GrowthYear

__all__ = ["comparison_chart", "cost_flowable", "curve_flowable", "estimates_flowable",
           "growth_flowable"]


def cost_flowable(pen: Pen, result: SizingResult, width: float) -> Chart:
    """One bar per role stacked by part kind, its total and share at its end, the kinds' legend on the right."""
    data = cost_chart(cost_items(bom_as_shown(result)), result.totals.currency)
    n = len(data.roles)
    keys = [Key(k, SERIES[i % len(SERIES)]) for i, k in enumerate(data.kinds)]
    plot_h = max(n * 20.0, legend_height(len(keys), title=True))
    bottom = 30.0  # the tick labels and the axis label
    x0 = max(pen.width(r, 8.5) for r in data.roles) + TICK + 4
    x1 = width - key_width(pen, keys, 7.5) - 10
    axes_w = x1 - x0
    label_w = max(pen.width(s, 8) for s in data.labels)  # room right of the longest bar for its total
    xmax = (max(data.totals) or 1.0) * axes_w / max(axes_w - label_w, axes_w / 2)
    xs = Scale(0, xmax, x0, x1)
    ticks = nice_ticks(0, xmax, int(axes_w / 48) + 1)
    pitch = plot_h / n
    bar_h = min(12.0, pitch * 0.6)

    def row_y(i: int) -> float:  # the first role (the smallest) at the bottom
        return bottom + (i + 0.5) * pitch

    def paint(c: Canvas) -> None:
        x_axis(c, pen, xs, bottom, ticks, lambda v: money_short(v, ""), 8, grid_top=bottom + plot_h)
        line(c, x0, bottom, x0, bottom + plot_h, GRID, SPINE_W)
        left = [0.0] * n
        for k, kind in enumerate(data.kinds):
            for i, w in enumerate(data.widths(kind)):
                box(c, xs(left[i]), row_y(i) - bar_h / 2, xs(left[i] + w) - xs(left[i]), bar_h,
                    SERIES[k % len(SERIES)])
                left[i] += w
        for i, role in enumerate(data.roles):
            y = row_y(i)
            line(c, x0 - TICK, y, x0, y, MUTED, SPINE_W)
            pen.text(c, x0 - TICK - 2, y - 3, role, 8.5, INK, align="right")
            pen.text(c, xs(data.totals[i]), y - 2.8, data.labels[i], 8, INK)
        pen.text(c, (x0 + x1) / 2, 3, f"{FIRST_YEAR_BOM} ({data.currency})", 8.5, MUTED, align="center")
        legend(c, pen, x1 + 10, bottom + plot_h, keys, 7.5, title="part")

    return Chart(width, bottom + plot_h + 4, paint)


def growth_flowable(pen: Pen, years: Sequence[GrowthYear], currency: str, width: float) -> Chart:
    """Installed capex per year: what earlier years bought, plus that year's expansion, with the host count."""
    height, bottom, top_y = 175.0, 36.0, 171.0
    totals = [y.capex_total for y in years]
    top = max(totals) or 1.0
    ys = Scale(0, top * 1.3, bottom, top_y)
    ticks = nice_ticks(0, top * 1.3, int((top_y - bottom) / 22) + 1)
    fmt = lambda v: money_short(v, "")  # noqa: E731
    x0, x1 = 16 + tick_room(pen, ticks, fmt), width - 4
    slot = (x1 - x0) / len(years)
    keys = [Key("already installed", BAND), Key("bought that year", ACCENT)]

    def paint(c: Canvas) -> None:
        y_axis(c, pen, ys, x0, ticks, fmt, 8, grid_right=x1)
        line(c, x0, bottom, x1, bottom, GRID, SPINE_W)
        for i, y in enumerate(years):
            cx, bw = x0 + (i + 0.5) * slot, slot * 0.6
            bought = y.capex_total - y.capex_expansion
            box(c, cx - bw / 2, ys(0), bw, ys(bought) - ys(0), BAND)
            box(c, cx - bw / 2, ys(bought), bw, ys(y.capex_total) - ys(bought), ACCENT)
            line(c, cx, bottom, cx, bottom - TICK, MUTED, SPINE_W)
            pen.text(c, cx, bottom - TICK - 8.5, f"Year {y.year}", 8, INK, align="center")
            pen.lines(c, cx, ys(y.capex_total + top * 0.02) + 10.5,
                      [f"{y.hosts} hosts", f"+{money_short(y.capex_expansion, currency)}"], 7.5, align="center")
        pen.vertical(c, 8, (bottom + top_y) / 2, f"Capex ({currency})", 8.5)
        col_w = key_width(pen, keys, 7.5) + 8
        legend(c, pen, (x0 + x1) / 2 - col_w, 11, keys, 7.5, rows=1, col_w=col_w)

    return Chart(width, height, paint)


def _target_value(scenario: Scenario, metric: str) -> float | None:
    """The scenario's limit on `metric`, if a target bounds it and is set."""
    target = target_of_metric(metric)
    return getattr(scenario.targets, target.name) if target is not None else None


def estimates_flowable(pen: Pen, result: SizingResult, scenario: Scenario, width: float) -> Chart | None:
    """One row per estimate (each on its own scale): the P10-P90 band, the P50 dot, and the target if any."""
    est = result.estimates
    names = [n for n in est if not is_fraction(est[n].unit) and _drawable(est[n])]
    lead = headline_metric(result)
    if lead in names:  # the headline estimate first
        names.remove(lead)
        names.insert(0, lead)
    if not names:
        return None
    row_h, x0, x1 = 58.0, 8.0, width - 8.0
    rows = []
    for name in names:
        e, target = result.estimates[name], _target_value(scenario, name)
        lo, mid, hi = min(e.p10, e.p90), e.p50, max(e.p10, e.p90)
        top = max(hi, target or 0.0, mid) or 1.0
        unit = unit_text(e.unit)
        title = f"{metric_label(name)}{f' ({unit})' if unit else ''}:  P50 {sig(mid)}   P10–P90 {sig(lo)} – {sig(hi)}"
        rows.append((title, lo, mid, hi, target, *_estimate_axis(pen, top * 1.12, width, x0)))
    height = row_h * len(rows)

    def paint(c: Canvas) -> None:
        for i, (title, lo, mid, hi, target, xs, ticks) in enumerate(rows):
            y_top = height - i * row_h
            axis_y, band_mid = y_top - 40, y_top - 26.5
            pen.text(c, x0, y_top - 9, title, 8, INK)
            if target is not None:
                pen.text(c, x1, y_top - 9, f"target {sig(target)}", 7.5, TARGET, align="right")
            box(c, xs(lo), band_mid - 6.5, xs(hi) - xs(lo), 13, BAND, 0.8)
            x_axis(c, pen, xs, axis_y, ticks, thousands_text, 7.5)
            if target is not None:
                line(c, xs(target), axis_y, xs(target), y_top - 13, TARGET, 1.1, (3.5, 2))
            dot(c, xs(mid), band_mid, 3.5, ACCENT, WHITE, 1.2)

    return Chart(width, height, paint)


def _estimate_axis(pen: Pen, hi: float, width: float, margin: float) -> tuple[Scale, list[float]]:
    """0..`hi` across a chart `width` wide and its ticks: the scale `margin` in from each side or, where it is
    wider, half the widest tick label, so a label centred on the first or last tick stays on the chart; as few
    ticks as it takes for the labels to stand 6 pt apart, whatever the values."""
    most = int((width - 2 * margin) / 55) + 1
    while True:
        ticks = nice_ticks(0, hi, most)
        label_w = max(pen.width(thousands_text(t), 7.5) for t in ticks)
        inset = max(margin, label_w / 2)
        xs = Scale(0, hi, inset, width - inset)
        if len(ticks) < 3 or xs(ticks[1]) - xs(ticks[0]) >= label_w + 6:
            return xs, ticks
        most = len(ticks) - 1


def _drawable(e: Estimate) -> bool:
    """Whether an estimate has a value to draw: a NaN or infinite one has none (the tables print it as "–")."""
    return all(math.isfinite(v) for v in (e.p10, e.p50, e.p90))


def curve_flowable(pen: Pen, result: SizingResult, scenario: Scenario, points: Sequence[tuple[int, Estimate]],
                   width: float) -> Chart | None:
    """The main estimate against the number of hosts: the P50 line, its P10-P90 band, the target, this design;
    None with fewer than two points to draw."""
    ordered = sorted((p for p in points if _drawable(p[1])), key=lambda p: p[0])
    if len(ordered) < 2:
        return None
    hosts = [h for h, _ in ordered]
    p50 = [e.p50 for _, e in ordered]
    lo = [min(e.p10, e.p90) for _, e in ordered]
    hi = [max(e.p10, e.p90) for _, e in ordered]
    unit = unit_text(ordered[0][1].unit)
    lead = headline_metric(result)
    target = _target_value(scenario, lead)
    marker = curve_marker(hosts, p50, result.design.worker_hosts, unit)
    height, bottom, top_y = 215.0, 30.0, 211.0
    ymax = max([*hi, *p50, target or 0.0]) * 1.05 or 1.0
    ys = Scale(0, ymax, bottom, top_y)
    yticks = nice_ticks(0, ymax, int((top_y - bottom) / 24) + 1)
    margin = (hosts[-1] - hosts[0]) * 0.05 or 1.0
    x0, x1 = 16 + tick_room(pen, yticks, thousands_text), width - 6
    xs = Scale(hosts[0] - margin, hosts[-1] + margin, x0, x1)
    xticks = nice_ticks(xs.lo, xs.hi, int((x1 - x0) / 45) + 1, integer=True)
    ylabel = metric_label(lead) + (f" ({unit})" if unit else "")
    keys = [Key("P10-P90", BAND, alpha=0.55), Key("P50", ACCENT, "dotline")]
    keys += [Key("target", TARGET, "dashed")] if target is not None else []
    where = _legend_corner(pen, keys, xs, ys, hosts, [*lo, *hi, *p50], marker)

    def paint(c: Canvas) -> None:
        x_axis(c, pen, xs, bottom, xticks, lambda v: f"{v:g}", 8, grid_top=top_y)
        y_axis(c, pen, ys, x0, yticks, thousands_text, 8, grid_right=x1)
        band = c.beginPath()
        band.moveTo(xs(hosts[0]), ys(lo[0]))
        for h, v in [*zip(hosts[1:], lo[1:], strict=True), *zip(hosts[::-1], hi[::-1], strict=True)]:
            band.lineTo(xs(h), ys(v))
        band.close()
        c.setFillColor(rgb(BAND), 0.55)
        c.drawPath(band, stroke=0, fill=1)
        if target is not None:
            line(c, x0, ys(target), x1, ys(target), TARGET, 1.2, (4, 2.5))
        _polyline(c, [(xs(h), ys(v)) for h, v in zip(hosts, p50, strict=True)], ACCENT, 2)
        for h, v in zip(hosts, p50, strict=True):
            dot(c, xs(h), ys(v), 2.2, ACCENT)
        if marker is not None:
            _draw_marker(c, pen, marker, xs(hosts[marker.index]), ys(p50[marker.index]), bottom, top_y)
        pen.text(c, (x0 + x1) / 2, 3, "Hosts", 8.5, MUTED, align="center")
        pen.vertical(c, 8, (bottom + top_y) / 2, ylabel, 8.5)
        legend(c, pen, where[0], where[1], keys, 7.5)

    return Chart(width, height, paint)


def _polyline(c: Canvas, pts: Sequence[tuple[float, float]], color: str, width: float) -> None:
    path = c.beginPath()
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)
    c.setStrokeColor(rgb(color))
    c.setLineWidth(width)
    c.setLineJoin(1)
    c.setDash([])
    c.drawPath(path, stroke=1, fill=0)


def _marker_box(marker: CurveMarker, x: float, y: float, w: float) -> tuple[float, float, float, float]:
    """Where the design's label goes (x0, y0, x1, y1): 8 pt beside the point, 10 pt above or below it."""
    lx = x - 8 - w if marker.left else x + 8
    ly = y - 10 - 19 if marker.below else y + 10
    return lx, ly, lx + w, ly + 19


def _draw_marker(c: Canvas, pen: Pen, marker: CurveMarker, x: float, y: float, bottom: float, top: float) -> None:
    line(c, x, bottom, x, top, MUTED, 1, (1, 1.6))
    dot(c, x, y, 4, ACCENT, WHITE, 1.5)
    texts = marker.text.split("\n")
    w = max(pen.width(t, 8) for t in texts)
    lx, _, _, ly1 = _marker_box(marker, x, y, w)
    pen.lines(c, lx, ly1 - 7, texts, 8, INK)


def _legend_corner(pen: Pen, keys: Sequence[Key], xs: Scale, ys: Scale, hosts: Sequence[int],
                   values: Sequence[float], marker: CurveMarker | None) -> tuple[float, float]:
    """The legend's top left corner: the plot corner its box covers the fewest points of the curve in (upper
    right first), as matplotlib's "best" does; the design's label counts as points too."""
    w, h = key_width(pen, keys, 7.5), legend_height(len(keys))
    xs_pts = [xs(hh) for hh in hosts] * (len(values) // max(len(hosts), 1))
    pts = list(zip(xs_pts, (ys(v) for v in values), strict=False))
    if marker is not None:
        mx, my = xs(hosts[marker.index]), ys(values[2 * len(hosts) + marker.index])
        bx0, by0, bx1, by1 = _marker_box(marker, mx, my, max(pen.width(t, 8) for t in marker.text.split("\n")))
        pts += [(bx0 + (bx1 - bx0) * k / 4, by0 + (by1 - by0) * m / 2) for k in range(5) for m in range(3)]
    corners = [(xs.b - w - 4, ys.b - 2), (xs.a + 6, ys.b - 2), (xs.b - w - 4, ys.a + h + 4), (xs.a + 6, ys.a + h + 4)]

    def covered(corner: tuple[float, float]) -> int:
        x, y = corner
        return sum(1 for px, py in pts if x - 4 <= px <= x + w + 4 and y - h - 4 <= py <= y + 4)

    return min(corners, key=covered)

"""The comparison chart of the PDF: one small bar chart per metric, the options side by side, the winner green.

The series (values, whiskers, winners) are the comparison's rows (`app.views.compare.chart_series`);
`app.charts.scenario_comparison` draws the window's from the same series.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reportlab.pdfgen.canvas import Canvas

from app.charts.data import ComparisonSeries, nice_ticks
from app.charts.palette import ACCENT, BAND, GOOD, GRID, INK, MUTED
from app.export.pdf_plot import SPINE_W, TICK, Chart, Pen, Scale, box, line, x_axis
from app.formatting import compact

PITCH = 15.0  # points per option in a panel
NAME_SIZE = 7.5
TITLE_SIZE = 8.5


def comparison_chart(pen: Pen, series: Sequence[ComparisonSeries], names: Sequence[str], width: float,
                     max_height: float) -> Chart:
    """The panels (`app.views.compare.chart_series`, as the window draws them) in two columns, each as tall as its
    row's tallest (titles may wrap)."""
    cols = min(2, len(series))
    col_w = width / cols
    names_w = max(pen.width(n, NAME_SIZE) for n in names) + TICK + 4
    titles = [pen.wrap(s.label, TITLE_SIZE, col_w - names_w - 12, bold=True) for s in series]
    heads = [len(t) * TITLE_SIZE * 1.2 + 12 for t in titles]  # the title lines and "lower is better"
    rows = math.ceil(len(series) / cols)
    row_h = [max(heads[r * cols:(r + 1) * cols]) + len(names) * PITCH + 26 for r in range(rows)]
    height = sum(row_h)

    def paint(c: Canvas) -> None:
        for n, s in enumerate(series):
            r = n // cols
            top = height - sum(row_h[:r])
            _panel(c, pen, s, names, titles[n], (n % cols) * col_w + names_w, top, col_w - names_w - 12,
                   row_h[r] - 26 - len(names) * PITCH)

    return Chart(width, height, paint, max_height)


def _panel(c: Canvas, pen: Pen, s: ComparisonSeries, names: Sequence[str], title: Sequence[str], x0: float,
           top: float, w: float, head: float) -> None:
    """One metric's bars, the first option at the top; `head` points above the bars for the title."""
    xmax = s.top * 1.12 if s.top > 0 else 1.0
    xs = Scale(0, xmax, x0, x0 + w)
    bars_top = top - head
    axis_y = bars_top - len(names) * PITCH - 2
    x_axis(c, pen, xs, axis_y, nice_ticks(0, xmax, int(w / 38) + 1), compact, 7)
    line(c, x0, axis_y, x0, bars_top, GRID, SPINE_W)
    pen.lines(c, x0, top - TITLE_SIZE, title, TITLE_SIZE, INK, bold=True)
    pen.text(c, x0, bars_top + 3, "lower is better" if s.lower_is_better else "higher is better", 7, MUTED)
    for i, (name, v) in enumerate(zip(names, s.values, strict=True)):
        y = bars_top - (i + 0.5) * PITCH
        line(c, x0 - TICK, y, x0, y, MUTED, SPINE_W)
        pen.text(c, x0 - TICK - 2, y - 2.7, name, NAME_SIZE, INK, align="right")
        if v is None:
            pen.text(c, x0, y - 2.7, " n/a", NAME_SIZE, MUTED)
            continue
        box(c, x0, y - PITCH * 0.31, xs(v) - x0, PITCH * 0.62, GOOD if i == s.winner else ACCENT)
        lo = s.low[i] if s.low is not None else None
        hi = s.high[i] if s.high is not None else None
        if lo is not None and hi is not None:
            line(c, xs(min(lo, v)), y, xs(max(hi, v)), y, BAND, 2.5)

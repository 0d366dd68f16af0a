"""The one-pass layout of the report's charts: every axes' decorations inside the figure, none over another's."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from app.charts import ComparisonSeries, cost_breakdown, scenario_comparison
from app.charts.layout import OnePassLayout
from app.charts.report_charts import estimate_ranges, growth_chart


def _cost() -> Figure:
    roles = ("segment host", "coordinator host", "leaf-spine links", "software", "leaf peer links")
    kinds = ("server", "drive", "nic", "dimm", "cpu", "licence", "support", "switch", "cable", "rack", "pdu")
    items = [(r, k, 1000.0 * (i + 1) * (j + 2)) for i, r in enumerate(roles) for j, k in enumerate(kinds)]
    return cost_breakdown(items, "USD", size_in=(6.5, 1.0 + 0.55 * len(roles)))


def _comparison() -> Figure:
    names = ["A", "B", "C"]
    series = [ComparisonSeries(label, [1.0e6, 2.5e6, None], True, winner=0)
              for label in ("Capex (USD)", "Power (W)", "Report queries per hour per 1,000 USD TCO (queries/h)")]
    return scenario_comparison(names, series, columns=2, title="Options side by side")


def _estimates() -> Figure:
    return estimate_ranges(["Full-scan time", "Load rate", "Report queries per hour"], [524, 46.6, 159],
                           [596, 71.2, 181], [679, 86.9, 206], ["s", "TB/h", "queries/h"], targets=[600, None, None],
                           title="Estimates")


def _growth() -> Figure:
    return growth_chart([0, 1, 2, 3], [41, 53, 68, 89], [1.32e6, 1.71e6, 2.13e6, 2.79e6], [1.32e6, 3.9e5, 4.2e5, 6.7e5],
                        "USD")


@pytest.mark.parametrize("build", [_cost, _comparison, _estimates, _growth])
def test_decorations_stay_inside_the_figure_and_apart(build: object) -> None:
    fig = build()  # type: ignore[operator]
    fig.set_dpi(220)
    fig.set_layout_engine(OnePassLayout())
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [ax.get_tightbbox(renderer, for_layout_only=True) for ax in fig.axes]
    edge = fig.bbox
    for box in boxes:
        assert box.x0 >= edge.x0 - 1 and box.y0 >= edge.y0 - 1  # a pixel of rounding
        assert box.x1 <= edge.x1 + 1 and box.y1 <= edge.y1 + 1
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b)
    if fig._suptitle is not None:
        title = fig._suptitle.get_window_extent(renderer)
        assert title.y1 <= edge.y1 + 1 and all(not title.overlaps(b) for b in boxes)
    # the axes get the room: the plot areas fill most of the figure's width
    assert max(ax.get_window_extent(renderer).width for ax in fig.axes) > 0.3 * edge.width

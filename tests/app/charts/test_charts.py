"""Charts build from plain data under Agg (the PDF report's backend) and render to PNG."""

from __future__ import annotations

import dataclasses
import io

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from app.charts import (
    ComparisonSeries,
    cost_breakdown,
    cost_items,
    estimate_ranges,
    estimate_vs_hosts,
    pareto_front,
    scenario_comparison,
)
from tests.app.gui.fakes import fake_result


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def test_estimate_curve_draws_band_line_target_and_marker() -> None:
    fig = estimate_vs_hosts([2, 4, 8], [900, 450, 240], [1000, 500, 260], [1100, 560, 290], metric_label="Full scan",
                            unit="s", current_hosts=4, target=600)
    ax = fig.axes[0]
    assert len(ax.collections) >= 1  # the P10-P90 band
    assert any(line.get_linestyle() == "--" for line in ax.lines)  # the target
    assert _png(fig).startswith(b"\x89PNG")


def test_cost_breakdown_groups_the_bom_by_role_and_kind() -> None:
    result = fake_result(hosts=4, capex=100_000)
    items = cost_items(result.bom)
    assert {(r, k) for r, k, _ in items} == {("segment host", "server"), ("segment host", "drive")}
    assert abs(sum(a for _, _, a in items) - 100_000) < 1
    assert _png(cost_breakdown(items, "USD")).startswith(b"\x89PNG")
    # a line priced in its server (a CPU) or with no public price is not money going anywhere
    free = dataclasses.replace(result.bom[0], kind="cpu", unit_price=0.0)
    assert {(r, k) for r, k, _ in cost_items([*result.bom, free])} == {(r, k) for r, k, _ in items}


def test_cost_breakdown_keeps_totals_legend_and_title_apart_at_the_windows_size() -> None:
    """Eleven part kinds on a 6.3 x 2 in chart (the BOM tab at 1280x720): the legend sits right of the axes, in
    distinct colours, and no role total runs into it or past the figure."""
    kinds = ("server", "drive", "nic", "boot-drive", "cable", "licence", "pdu", "rack", "support", "switch", "optic")
    roles = ("software", "segment host", "leaf switch", "spine switch", "racks", "host links", "leaf peer links")
    items = [(r, k, 1000.0 * (len(roles) - i) * (1 + j)) for i, r in enumerate(roles) for j, k in enumerate(kinds)
             if (i + j) % 3 == 0 or i == 0]
    fig = cost_breakdown(items, "USD", title="BOM (first year) by role and part", size_in=(6.3, 2.0))
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    ax = fig.axes[0]
    legend = ax.get_legend()
    assert legend is not None
    box = legend.get_window_extent(renderer)
    assert box.x0 >= ax.get_window_extent(renderer).x1 - 1 and box.x1 <= fig.bbox.width + 1
    assert box.y0 >= -1 and box.y1 <= fig.bbox.height + 1  # not over the title, not below the figure
    for text in ax.texts:  # each role's total
        assert text.get_window_extent(renderer).x1 <= box.x0 + 1, text.get_text()
    colours = {tuple(h.get_facecolor()) for h in legend.legend_handles}  # type: ignore[union-attr]
    assert len(colours) == len({k for _, k, _ in items})


def test_comparison_highlights_only_the_winner_the_model_named() -> None:
    fig = scenario_comparison(["a", "b"], [ComparisonSeries("Capex", [10.0, 5.0], lower_is_better=True, winner=1),
                                           ComparisonSeries("Power", [10.0, 9.9], lower_is_better=True),
                                           ComparisonSeries("TPS", [1.0, None], lower_is_better=False)])
    assert len(fig.axes) == 3
    colors = [p.get_facecolor() for p in fig.axes[0].patches]
    assert colors[0] != colors[1]
    tied = [p.get_facecolor() for p in fig.axes[1].patches]  # no clear winner: no bar is marked best
    assert tied[0] == tied[1]
    _png(fig)


def test_charts_say_so_when_there_is_nothing_to_draw() -> None:
    for fig in (estimate_vs_hosts([], [], [], [], metric_label="x", unit=""), cost_breakdown([], "USD"),
                scenario_comparison([], []), pareto_front([], [], [], currency="USD", perf_label="x"),
                estimate_ranges([])):
        assert fig.axes[0].texts
        _png(fig)


def test_estimate_ranges_and_pareto_render() -> None:
    _png(estimate_ranges([("Full scan", 90, 100, 120, "s"), ("Load", 5, 6, 7, "TB/h")], targets=[110, None]))
    _png(pareto_front([1, 2, 3], [30, 20, 10], [True, True, False], currency="USD", perf_label="s", selected=1))


def test_a_share_is_drawn_on_a_percent_axis_even_at_zero() -> None:
    """0 % memory overcommit was drawn on a 0-1 axis, which reads as a fraction; every tick of a share says %."""
    fig = estimate_ranges([("Memory overcommit", 0.0, 0.0, 0.0, "fraction"), ("Preserved", 0.9, 0.95, 1.0, "fraction")])
    fig.canvas.draw()
    for ax in fig.axes:
        ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        assert ticks and all(t.endswith(" %") for t in ticks), ticks
    assert fig.axes[0].get_xlim()[1] >= 10  # room in percentage points, not 1 %
    assert fig.axes[1].get_xlim()[1] > 90


def test_the_design_label_keeps_off_the_curve() -> None:
    """The 'this design' label sits where the P50 line is not, rising, falling, or at the last point (it lay on
    SAP IQ's rising line)."""
    import numpy as np

    hosts = [3, 4, 5, 6, 7, 8]
    rising = [60_000.0, 79_000, 98_000, 116_000, 134_000, 152_000]
    for p50 in (rising, rising[::-1]):
        for current in (4, 8):
            fig = estimate_vs_hosts(hosts, [v * 0.93 for v in p50], p50, [v * 1.06 for v in p50],
                                    metric_label="TPC-H throughput", unit="QthH@Size", current_hosts=current,
                                    size_in=(6.3, 2.7))
            FigureCanvasAgg(fig).draw()
            ax = fig.axes[0]
            label = next(t for t in ax.texts if t.get_text().startswith("this design"))
            box = label.get_window_extent().padded(-1)
            xs = np.linspace(hosts[0], hosts[-1], 400)
            line = ax.transData.transform(np.column_stack([xs, np.interp(xs, hosts, p50)]))
            assert not any(box.contains(x, y) for x, y in line), (p50[0] < p50[-1], current)

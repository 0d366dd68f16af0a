"""Capex against the main estimate for the optimizer's Pareto designs; the ones meeting every target joined."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from app.charts.style import ACCENT, GOOD, INK, MUTED, empty, new_figure, tidy
from app.formatting import money_short


def pareto_front(
    cost: Sequence[float],
    perf: Sequence[float],
    feasible: Sequence[bool],
    *,
    currency: str,
    perf_label: str,
    selected: int | None = None,
    title: str | None = None,
    size_in: tuple[float, float] = (5.5, 3.2),
    dpi: int = 100,
) -> Figure:
    fig = new_figure(*size_in, dpi=dpi)
    if not cost:
        return empty(fig, "No candidates yet")
    ax = fig.add_subplot()
    misses = [i for i, f in enumerate(feasible) if not f]
    meets = sorted((i for i, f in enumerate(feasible) if f), key=lambda i: cost[i])
    if misses:
        ax.scatter([cost[i] for i in misses], [perf[i] for i in misses], s=16, color=MUTED, alpha=0.55,
                   label="misses a target")
    if meets:
        ax.plot([cost[i] for i in meets], [perf[i] for i in meets], color=GOOD, marker="o", markersize=5,
                linewidth=1.5, label="meets every target")
    if selected is not None and 0 <= selected < len(cost):
        ax.scatter([cost[selected]], [perf[selected]], s=110, facecolors="none", edgecolors=ACCENT, linewidths=2,
                   zorder=5, label="selected")
    ax.set_xlabel(f"Capex ({currency})" if currency else "Capex")
    ax.set_ylabel(perf_label)
    ax.xaxis.set_major_formatter(lambda v, _pos: money_short(v, ""))
    ax.grid(True, color="#eef0f2", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(fontsize=7.5, frameon=False)
    tidy(ax, title)
    ax.title.set_color(INK)
    return fig

"""Capex against the main estimate for the optimizer's Pareto designs; the ones meeting every target joined."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from app.charts.style import ACCENT, GOOD, INK, MUTED, empty, new_figure, tidy
from app.formatting import compact, money_short


def front_2d(cost: Sequence[float], perf: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Indices, cheapest first, of the points no cheaper-or-equal point beats on `perf`.

    >>> front_2d([50, 70, 75, 80], [40, 130, 100, 280])
    [0, 1, 3]
    >>> front_2d([10, 20, 30], [500, 400, 450], higher_is_better=False)
    [0, 1]
    """
    out: list[int] = []
    for i in sorted(range(len(cost)), key=lambda i: (cost[i], -perf[i] if higher_is_better else perf[i])):
        if not out or (perf[i] > perf[out[-1]] if higher_is_better else perf[i] < perf[out[-1]]):
            out.append(i)
    return out


def pareto_front(
    cost: Sequence[float],
    perf: Sequence[float],
    feasible: Sequence[bool],
    *,
    currency: str,
    perf_label: str,
    selected: int | None = None,
    higher_is_better: bool = True,
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
        # the front is over capex, power and the estimate: in this plane some of its designs are beaten on both
        # axes (they win on power), so the points stand alone and only the capex-estimate front is joined
        ax.scatter([cost[i] for i in meets], [perf[i] for i in meets], s=22, color=GOOD, label="meets every target")
        front = front_2d([cost[i] for i in meets], [perf[i] for i in meets], higher_is_better)
        ax.plot([cost[meets[j]] for j in front], [perf[meets[j]] for j in front], color=GOOD, linewidth=1.5,
                label="best estimate for the money")
    if selected is not None and 0 <= selected < len(cost):
        ax.scatter([cost[selected]], [perf[selected]], s=110, facecolors="none", edgecolors=ACCENT, linewidths=2,
                   zorder=5, label="selected")
    ax.set_xlabel(f"Capex ({currency})" if currency else "Capex")
    ax.set_ylabel(perf_label)
    ax.xaxis.set_major_formatter(lambda v, _pos: money_short(v, ""))
    ax.yaxis.set_major_formatter(lambda v, _pos: compact(v))
    ax.grid(True, color="#eef0f2", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(fontsize=7.5, frameon=False)
    tidy(ax, title)
    ax.title.set_color(INK)
    return fig

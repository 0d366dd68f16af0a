"""Scenarios side by side: one small bar chart per metric, the best bar highlighted."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

from matplotlib.figure import Figure

from app.charts.data import ComparisonSeries
from app.charts.style import ACCENT, BAND, GOOD, INK, MUTED, empty, new_figure, tidy
from app.formatting import compact


def title_chars(column_in: float, names: Sequence[str]) -> int:
    """How many characters of a bold 8.5 pt title fit over a chart `column_in` inches wide whose y axis is
    labelled with `names` at 7.5 pt (about 0.075 in a bold title character, 0.058 in a name character).

    >>> title_chars(3.36, ["Retail DW: Gen5 single …"])
    22
    >>> title_chars(4.5, ["A", "B"])
    55
    """
    names_in = max((len(n) for n in names), default=1) * 0.058 + 0.25  # tick labels, ticks and padding
    return max(12, int((column_in - names_in) / 0.075))


def scenario_comparison(
    names: Sequence[str],
    series: Sequence[ComparisonSeries],
    *,
    columns: int = 3,
    title: str | None = None,
    size_in: tuple[float, float] | None = None,
    dpi: int = 100,
) -> Figure:
    if not names or not series:
        return empty(new_figure(6, 3, dpi=dpi), "Select two or more scenarios to compare")
    cols = min(columns, len(series))
    rows = math.ceil(len(series) / cols)
    fig = new_figure(*(size_in or (3.0 * cols, 0.55 + rows * (0.45 + 0.32 * len(names)))), dpi=dpi)
    if title:
        fig.suptitle(title, x=0.01, ha="left", fontsize=10, fontweight="bold", color=INK)
    for n, s in enumerate(series):
        ax = fig.add_subplot(rows, cols, n + 1)
        ys = list(range(len(names)))[::-1]
        for i, (y, v) in enumerate(zip(ys, s.values, strict=True)):
            if v is None:
                ax.text(0, y, " n/a", va="center", fontsize=7.5, color=MUTED)
                continue
            ax.barh(y, v, color=GOOD if i == s.winner else ACCENT, height=0.62)
        if s.low is not None and s.high is not None:
            for y, v, lo, hi in zip(ys, s.values, s.low, s.high, strict=True):
                if v is not None and lo is not None and hi is not None:
                    ax.errorbar(v, y, xerr=[[max(v - lo, 0)], [max(hi - v, 0)]], fmt="none", ecolor=BAND,
                                elinewidth=2.5, capsize=0)
        ax.set_yticks(ys, [str(nm) for nm in names], fontsize=7.5)
        top = s.top
        ax.set_xlim(0, top * 1.12 if top > 0 else 1.0)
        ax.set_ylim(-0.6, len(names) - 0.4)  # a row without a bar ("n/a") keeps its place below the note
        ax.tick_params(axis="x", labelsize=7)
        ax.xaxis.set_major_formatter(lambda v, _pos: compact(v))
        suffix = "lower is better" if s.lower_is_better else "higher is better"
        # a long label wraps instead of running into the next chart or being cut at the figure's edge: the title
        # starts at the axes, right of the option names, and gets what is left of the column
        label = textwrap.fill(s.label, title_chars(fig.get_figwidth() / cols, names))
        ax.set_title(f"{label}\n", loc="left", fontsize=8.5, color=INK, fontweight="bold")
        ax.text(0, 1.02, suffix, transform=ax.transAxes, fontsize=7, color=MUTED)
        tidy(ax)
        ax.tick_params(axis="y", colors=INK)
    return fig

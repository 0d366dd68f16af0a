"""Where the money goes: the bill of materials grouped by role and part kind."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from app.charts.data import FIRST_YEAR_BOM, cost_chart, cost_items
from app.charts.style import INK, MUTED, SERIES, empty, new_figure, tidy
from app.formatting import money_short

__all__ = ["cost_breakdown", "cost_items"]


def cost_breakdown(
    items: Sequence[tuple[str, str, float]],
    currency: str,
    *,
    title: str | None = None,
    size_in: tuple[float, float] | None = None,
    dpi: int = 100,
) -> Figure:
    """One horizontal bar per role, stacked by part kind, with the role total at the end."""
    fig = new_figure(*(size_in or (6.0, 3.0)), dpi=dpi)
    if not items:
        return empty(fig, "No bill of materials")
    data = cost_chart(items, currency)  # the PDF's vector chart draws the same roles, kinds and labels
    roles, kinds, totals, labels = data.roles, data.kinds, data.totals, data.labels
    ax = fig.add_subplot()
    # every role in this order on the axis, whichever bars each kind draws below
    # (ignored: matplotlib's axis.pyi leaves `update_units(self, data)` unannotated)
    ax.yaxis.update_units(roles)  # type: ignore[no-untyped-call]
    left = [0.0] * len(roles)
    for n, kind in enumerate(kinds):
        widths = data.widths(kind)
        # only the roles that have this kind: a bar of no width draws nothing and cost as much as one that does
        drawn = [i for i, w in enumerate(widths) if w] or list(range(len(roles)))
        ax.barh([roles[i] for i in drawn], [widths[i] for i in drawn], left=[left[i] for i in drawn],
                color=SERIES[n % len(SERIES)], label=kind, height=0.6)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    for y, (total, label) in enumerate(zip(totals, labels, strict=True)):
        ax.text(total, y, label, va="center", fontsize=8, color=INK)
    # room right of the longest bar for its total: the label's width (8 pt, about 0.06 in a character) against
    # the axes' (the figure less the role names, about 1.3 in, and the legend, about 0.9 in a column)
    rows = max(3, int((fig.get_figheight() * 72 - 30) / 13))  # a 7.5 pt legend entry takes about 13 pt
    ncols = -(-len(kinds) // rows)
    label_in = max(len(x) for x in labels) * 0.06
    axes_in = max(fig.get_figwidth() - 1.3 - 0.9 * ncols, 2 * label_in)
    ax.set_xlim(0, max(totals) * axes_in / (axes_in - label_in) or 1)
    ax.set_xlabel(f"{FIRST_YEAR_BOM} ({currency})")
    ax.xaxis.set_major_formatter(lambda v, _pos: money_short(v, ""))
    ax.tick_params(axis="y", labelsize=8.5, colors=INK)
    # the legend sits right of the bars, in as many columns as the height needs: inside the axes it covered the
    # largest role's total and, on a short chart, ran over the title
    ax.legend(fontsize=7.5, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="part",
              title_fontsize=7.5, ncols=ncols, alignment="left")
    ax.grid(True, axis="x", color="#eef0f2", linewidth=0.8)
    ax.set_axisbelow(True)
    tidy(ax, title)
    ax.tick_params(axis="y", colors=INK)
    ax.xaxis.label.set_color(MUTED)
    return fig

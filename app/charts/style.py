"""One palette and type scale for every chart, so the GUI and the PDF look like one product."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.figure import Figure

from app.charts.data import thousands_text
from app.charts.palette import ACCENT, BAD, BAND, GOOD, GRID, INK, MUTED, SERIES, TARGET

__all__ = ["ACCENT", "BAD", "BAND", "GOOD", "GRID", "INK", "MUTED", "SERIES", "TARGET", "empty", "new_figure",
           "thousands", "tidy"]


def new_figure(width_in: float, height_in: float, dpi: int = 100) -> Figure:
    fig = Figure(figsize=(width_in, height_in), dpi=dpi, layout="constrained")
    fig.patch.set_facecolor("white")
    return fig


def tidy(ax: Axes, title: str | None = None) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(GRID)
    ax.tick_params(colors=MUTED, labelsize=8)
    ax.xaxis.label.set_color(MUTED)
    ax.yaxis.label.set_color(MUTED)
    ax.xaxis.label.set_fontsize(8.5)
    ax.yaxis.label.set_fontsize(8.5)
    if title:
        ax.set_title(title, loc="left", fontsize=10, color=INK, fontweight="bold")


def empty(fig: Figure, message: str) -> Figure:
    ax = fig.add_subplot()
    ax.set_axis_off()
    ax.text(0.5, 0.5, message, ha="center", va="center", color=MUTED, fontsize=9, wrap=True)
    return fig


def thousands(ax_axis: Axis) -> None:
    ax_axis.set_major_formatter(lambda v, _pos: thousands_text(v))

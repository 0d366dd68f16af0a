"""The main metric against the number of hosts, with its P10-P90 band."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

from app.charts.data import curve_marker
from app.charts.style import ACCENT, BAND, INK, MUTED, TARGET, empty, new_figure, thousands, tidy
from app.formatting import is_fraction, number, unit_text


def estimate_vs_hosts(
    hosts: Sequence[int],
    p10: Sequence[float],
    p50: Sequence[float],
    p90: Sequence[float],
    *,
    metric_label: str,
    unit: str,
    current_hosts: int | None = None,
    target: float | None = None,
    target_label: str = "target",
    title: str | None = None,
    size_in: tuple[float, float] = (6.0, 3.2),
    dpi: int = 100,
) -> Figure:
    fig = new_figure(*size_in, dpi=dpi)
    if not hosts:
        return empty(fig, "No curve for this scenario")
    ax = fig.add_subplot()
    lo = [min(a, b) for a, b in zip(p10, p90, strict=True)]
    hi = [max(a, b) for a, b in zip(p10, p90, strict=True)]
    ax.fill_between(hosts, lo, hi, color=BAND, alpha=0.55, linewidth=0, label="P10-P90")
    ax.plot(hosts, p50, color=ACCENT, linewidth=2, marker="o", markersize=3.5, label="P50")
    if target is not None:
        ax.axhline(target, color=TARGET, linestyle="--", linewidth=1.2, label=target_label)
    marker = curve_marker(hosts, p50, current_hosts, unit)  # the PDF's chart places its label alike
    if marker is not None:
        x, y = hosts[marker.index], p50[marker.index]
        ax.axvline(x, color=MUTED, linestyle=":", linewidth=1)
        ax.plot([x], [y], marker="o", markersize=8, color=ACCENT, markeredgecolor="white", markeredgewidth=1.5,
                zorder=5)
        ax.annotate(
            marker.text,
            (x, y),
            xytext=(-8 if marker.left else 8, -10 if marker.below else 10),
            textcoords="offset points",
            ha="right" if marker.left else "left",
            va="top" if marker.below else "bottom",
            fontsize=8,
            color=INK,
        )
    ax.set_xlabel("Hosts")
    ax.set_ylabel(f"{metric_label} ({unit})" if unit else metric_label)
    ax.set_ylim(bottom=0)
    thousands(ax.yaxis)
    ax.grid(True, color="#eef0f2", linewidth=0.8)
    ax.set_axisbelow(True)
    locator = ax.xaxis.get_major_locator()
    assert isinstance(locator, MaxNLocator)  # matplotlib's default AutoLocator is one
    locator.set_params(integer=True)
    ax.legend(fontsize=7.5, frameon=False, loc="best")
    tidy(ax, title)
    return fig


def estimate_ranges(
    rows: Sequence[tuple[str, float, float, float, str]],
    *,
    targets: Sequence[float | None] | None = None,
    title: str | None = None,
    size_in: tuple[float, float] | None = None,
    dpi: int = 100,
) -> Figure:
    """Each estimate's P10-P90 range with its P50, one small axis per estimate (their units differ).

    `rows` are (label, p10, p50, p90, unit); `targets` (same order) draws the target each must meet.
    """
    fig = new_figure(*(size_in or (6.0, 0.55 + 0.75 * max(len(rows), 1))), dpi=dpi)
    if not rows:
        return empty(fig, "No estimates")
    axes = fig.subplots(len(rows), 1, squeeze=False)[:, 0]
    for n, (ax, (label, p10, p50, p90, unit)) in enumerate(zip(axes, rows, strict=True)):
        target = targets[n] if targets is not None and n < len(targets) else None
        percent = is_fraction(unit)
        if percent:  # a share is drawn and labelled in percent ("100 % of baseline throughput")
            p10, p50, p90 = p10 * 100, p50 * 100, p90 * 100
            target = target * 100 if target is not None else None
            unit = unit_text(unit)
        lo, hi = min(p10, p90), max(p10, p90)
        ax.barh([0], [hi - lo], left=[lo], height=0.5, color=BAND, alpha=0.8)
        ax.plot([p50], [0], marker="o", color=ACCENT, markersize=7)
        ax.annotate(f"{number(p50)} {unit}", (p50, 0), xytext=(0, 9), textcoords="offset points", ha="center",
                    fontsize=7.5, color=INK)
        span = [lo, hi] + ([target] if target is not None else [])
        # a point value gets room around it: ten percentage points for a share (0 % on a 0-1 axis read as a fraction)
        pad = (max(span) - min(span)) * 0.25 or abs(p50) * 0.1 or (10.0 if percent else 1.0)
        ax.set_xlim(max(0.0, min(span) - pad), max(span) + pad)
        if target is not None:
            ax.axvline(target, color=TARGET, linestyle="--", linewidth=1.2)
        ax.set_yticks([0], [label], fontsize=8, color=INK)
        ax.set_ylim(-0.7, 0.9)
        ax.tick_params(axis="x", labelsize=7)
        thousands(ax.xaxis)
        if percent:
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.4g} %"))
        tidy(ax)
        ax.spines["left"].set_visible(False)
        ax.tick_params(axis="y", length=0, colors=INK)
    if title:
        fig.suptitle(title, x=0.01, ha="left", fontsize=10, fontweight="bold", color=INK)
    return fig

"""Charts the PDF report needs beyond the GUI's: estimate ranges and buy-as-you-grow.

Same contract as the other chart modules: plain data in, a pyplot-free Figure out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from matplotlib.figure import Figure

from app.charts.style import ACCENT, BAND, INK, TARGET, empty, new_figure, tidy
from app.formatting import money_short


def _sig(v: float, digits: int = 3) -> str:
    """A few significant digits with thousands separators (1,234 / 12.3 / 0.123), as the report tables print."""
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
    return f"{v:,.{decimals}f}"


def estimate_ranges(
    labels: Sequence[str],
    p10: Sequence[float],
    p50: Sequence[float],
    p90: Sequence[float],
    units: Sequence[str],
    *,
    targets: Sequence[float | None] | None = None,
    title: str | None = None,
    width_in: float = 6.5,
    dpi: int = 100,
) -> Figure:
    """One row per estimate (each on its own scale): the P10-P90 band, the P50 dot, and the target if any."""
    n = len(labels)
    if not n:
        return empty(new_figure(width_in, 1.5, dpi=dpi), "No estimates")
    fig = new_figure(width_in, 0.25 + 0.68 * n + (0.3 if title else 0), dpi=dpi)
    if title:
        fig.suptitle(title, x=0.01, ha="left", fontsize=10, fontweight="bold", color=INK)
    axes = fig.subplots(n, 1, squeeze=False)[:, 0]
    for i, ax in enumerate(axes):
        lo, mid, hi = min(p10[i], p90[i]), p50[i], max(p10[i], p90[i])
        target = targets[i] if targets is not None else None
        top = max(hi, target or 0.0, mid) or 1.0
        ax.barh([0], [hi - lo], left=[lo], height=0.5, color=BAND, alpha=0.8, label="P10-P90")
        ax.plot([mid], [0], marker="o", markersize=7, color=ACCENT, markeredgecolor="white", markeredgewidth=1.2,
                zorder=5)
        if target is not None:
            ax.axvline(target, color=TARGET, linestyle="--", linewidth=1.1)
        ax.set_xlim(0, top * 1.12)
        ax.set_ylim(-0.5, 0.5)
        ax.set_yticks([])
        unit = f" ({units[i]})" if units[i] else ""
        title_text = f"{labels[i]}{unit}:  P50 {_sig(mid)}   P10–P90 {_sig(lo)} – {_sig(hi)}"
        ax.set_title(title_text, loc="left", fontsize=8, color=INK, pad=3)
        if target is not None:
            ax.set_title(f"target {_sig(target)} ", loc="right", fontsize=7.5, color=TARGET, pad=3)
        tidy(ax)
        ax.spines["left"].set_visible(False)
        ax.tick_params(axis="x", labelsize=7)
        ax.xaxis.set_major_formatter(lambda v, _pos: f"{v:,.0f}" if abs(v) >= 1000 else f"{v:g}")
    return fig


def growth_chart(
    years: Sequence[int],
    hosts: Sequence[int],
    capex_total: Sequence[float],
    capex_expansion: Sequence[float],
    currency: str,
    *,
    title: str | None = None,
    size_in: tuple[float, float] = (6.5, 2.3),
    dpi: int = 100,
) -> Figure:
    """Cumulative capex per year (what is already bought, plus that year's expansion), with the host count."""
    fig = new_figure(*size_in, dpi=dpi)
    if not years:
        return empty(fig, "No growth plan")
    ax = fig.add_subplot()
    labels = [f"Year {y}" for y in years]
    bought = [t - e for t, e in zip(capex_total, capex_expansion, strict=True)]
    ax.bar(labels, bought, color=BAND, width=0.6, label="already installed")
    ax.bar(labels, capex_expansion, bottom=bought, color=ACCENT, width=0.6, label="bought that year")
    top = max(capex_total) or 1.0
    for x, (t, h, e) in enumerate(zip(capex_total, hosts, capex_expansion, strict=True)):
        ax.text(x, t + top * 0.02, f"{h} hosts\n+{money_short(e, currency)}", ha="center", va="bottom", fontsize=7.5,
                color=INK)
    ax.set_ylim(0, top * 1.3)
    ax.set_ylabel(f"Capex ({currency})")
    ax.yaxis.set_major_formatter(lambda v, _pos: money_short(v, ""))
    ax.grid(True, axis="y", color="#eef0f2", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(fontsize=7.5, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2)
    tidy(ax, title)
    ax.tick_params(axis="x", colors=INK)
    return fig

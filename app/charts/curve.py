"""The main metric against the number of hosts, with its P10-P90 band."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from app.charts.style import ACCENT, BAND, INK, MUTED, TARGET, empty, new_figure, tidy


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
    if current_hosts is not None and current_hosts in hosts:
        i = list(hosts).index(current_hosts)
        ax.axvline(current_hosts, color=MUTED, linestyle=":", linewidth=1)
        ax.plot([current_hosts], [p50[i]], marker="o", markersize=8, color=ACCENT, markeredgecolor="white",
                markeredgewidth=1.5, zorder=5)
        ax.annotate(
            f"this design: {current_hosts} hosts\n{p50[i]:,.3g} {unit}",
            (current_hosts, p50[i]),
            xytext=(8, 10),
            textcoords="offset points",
            fontsize=8,
            color=INK,
        )
    ax.set_xlabel("Hosts")
    ax.set_ylabel(f"{metric_label} ({unit})" if unit else metric_label)
    ax.set_ylim(bottom=0)
    ax.grid(True, color="#eef0f2", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=7.5, frameon=False, loc="best")
    tidy(ax, title)
    return fig

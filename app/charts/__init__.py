"""Charts built from plain data, shared by the GUI and the PDF report.

`app.charts.data` holds what each chart shows (no matplotlib); the figure functions return a
`matplotlib.figure.Figure` made without pyplot, so they work under Agg and embed in Qt via FigureCanvasQTAgg.
The names load on first use: the PDF report draws its own vector charts from `app.charts.data` and never
imports matplotlib.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.charts.comparison import scenario_comparison
    from app.charts.cost import cost_breakdown
    from app.charts.curve import estimate_ranges, estimate_vs_hosts
    from app.charts.data import ComparisonSeries, cost_items
    from app.charts.pareto import pareto_front

_WHERE = {
    "ComparisonSeries": "data",
    "cost_items": "data",
    "cost_breakdown": "cost",
    "estimate_ranges": "curve",
    "estimate_vs_hosts": "curve",
    "pareto_front": "pareto",
    "scenario_comparison": "comparison",
}

__all__ = [
    "ComparisonSeries",
    "cost_breakdown",
    "cost_items",
    "estimate_ranges",
    "estimate_vs_hosts",
    "pareto_front",
    "scenario_comparison",
]


if not TYPE_CHECKING:  # mypy reads the names above; an unknown name is an error to it, not Any

    def __getattr__(name: str) -> Any:
        if name not in _WHERE:
            raise AttributeError(f"module 'app.charts' has no attribute {name!r}")
        return getattr(import_module(f"app.charts.{_WHERE[name]}"), name)

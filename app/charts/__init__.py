"""Charts as matplotlib Figures built from plain data, shared by the GUI and the PDF report.

Every function returns a `matplotlib.figure.Figure` made without pyplot, so it
works under the Agg backend (reports, CI) and embeds in Qt via FigureCanvasQTAgg.
"""

from app.charts.comparison import ComparisonSeries, scenario_comparison
from app.charts.cost import cost_breakdown, cost_items
from app.charts.curve import estimate_ranges, estimate_vs_hosts
from app.charts.pareto import pareto_front

__all__ = [
    "ComparisonSeries",
    "cost_breakdown",
    "cost_items",
    "estimate_ranges",
    "estimate_vs_hosts",
    "pareto_front",
    "scenario_comparison",
]

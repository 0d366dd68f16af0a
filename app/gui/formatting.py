"""How numbers read in the window: money, ranges, metric names. Presentation only."""

from __future__ import annotations

import math
import re

from app.export.formatting import metric_label  # one vocabulary for the window and the report
from models.uncertainty import Estimate

__all__ = ["metric_label"]

# Metrics where a smaller number is the better design (time, cost, power, space).
_TIME_UNITS = {"s", "ms", "min", "h", "hours", "seconds"}


def lower_is_better(name: str, unit: str) -> bool:
    u = unit.strip().lower()
    if u in _TIME_UNITS or re.search(r"(_s|_ms|latency.*)$", name):
        return True
    return any(w in name for w in ("capex", "cost", "power", "rack", "latency", "time"))


def number(value: float | None, digits: int = 3) -> str:
    """A few significant digits with thousands separators: 1,234 / 12.3 / 0.123."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    v = float(value)
    if v == 0:
        return "0"
    mag = math.floor(math.log10(abs(v)))
    decimals = max(0, digits - 1 - mag)
    return f"{v:,.{decimals}f}"


def money(amount: float | None, currency: str) -> str:
    if amount is None:
        return "–"
    return f"{amount:,.0f} {currency}".strip()


def money_short(amount: float, currency: str) -> str:
    a = abs(amount)
    if a >= 1e6:
        return f"{amount / 1e6:,.2f}M {currency}".strip()
    if a >= 1e4:
        return f"{amount / 1e3:,.0f}k {currency}".strip()
    return money(amount, currency)


def estimate_p50(est: Estimate) -> str:
    return f"{number(est.p50)} {est.unit}".strip()


def estimate_range(est: Estimate) -> str:
    if math.isclose(est.p10, est.p90, rel_tol=1e-9, abs_tol=1e-12):
        return "exact"
    return f"{number(est.p10)} – {number(est.p90)} {est.unit}".strip()


def power(watts: float) -> str:
    return f"{watts / 1000:,.1f} kW" if watts >= 10_000 else f"{watts:,.0f} W"

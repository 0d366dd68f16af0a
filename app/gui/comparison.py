"""The numbers of the compare view, from sizing results: rows, deltas against the first, the best per row.

Plain Python (no Qt) so the PDF report can print the same table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.gui.formatting import lower_is_better, metric_label, money, number, power
from models.sizing.result import SizingResult

_TIME_PER_HOUR = {"s": 3600.0, "ms": 3_600_000.0, "min": 60.0, "h": 1.0}


@dataclass(frozen=True)
class CompareRow:
    key: str
    label: str
    values: tuple[float | None, ...]
    texts: tuple[str, ...]
    lower_is_better: bool
    low: tuple[float | None, ...] | None = None
    high: tuple[float | None, ...] | None = None
    chart: bool = True  # shown as a bar chart under the table

    def best(self) -> int | None:
        present = [(v, i) for i, v in enumerate(self.values) if v is not None]
        if len(present) < 2:
            return None
        values = {v for v, _ in present}
        if len(values) == 1:
            return None  # a tie everywhere has no winner
        return (min(present) if self.lower_is_better else max(present))[1]

    def delta(self, i: int) -> str:
        """Change against the first scenario, in percent."""
        base, v = self.values[0], self.values[i]
        if i == 0 or base is None or v is None or base == 0:
            return ""
        pct = (v - base) / abs(base) * 100
        return "±0 %" if abs(pct) < 0.05 else f"{pct:+.0f} %" if abs(pct) >= 10 else f"{pct:+.1f} %"


def _throughput(value: float, unit: str, name: str) -> tuple[float, str]:
    """A metric as "more is better": a time becomes runs per hour, a rate stays itself."""
    if lower_is_better(name, unit) and unit in _TIME_PER_HOUR and value > 0:
        return _TIME_PER_HOUR[unit] / value, f"{metric_label(name).lower()}s per hour"
    return value, f"{unit or metric_label(name).lower()}"


def compare_rows(results: Sequence[SizingResult]) -> list[CompareRow]:
    rows: list[CompareRow] = []
    if not results:
        return rows

    def add(key: str, label: str, get: Callable[[SizingResult], float | None], fmt: Callable[[float], str],
            lower: bool, chart: bool = True) -> None:
        values = tuple(get(r) for r in results)
        texts = tuple("–" if v is None else fmt(v) for v in values)
        rows.append(CompareRow(key, label, values, texts, lower, chart=chart))

    currency = results[0].totals.currency
    add("hosts", "Hosts", lambda r: float(r.design.segment_hosts + r.design.coordinator_hosts + r.design.etl_hosts),
        lambda v: f"{v:.0f}", True)
    add("drives", "Data drives", lambda r: float(r.design.data_drives_per_host * r.design.segment_hosts),
        lambda v: f"{v:.0f}", True, chart=False)
    add("capex", f"Capex ({currency})", lambda r: r.totals.capex, lambda v: money(v, currency), True)
    add("power", "Power (W)", lambda r: r.totals.power_w, power, True)
    add("rack", "Rack space (U)", lambda r: float(r.totals.rack_u), lambda v: f"{v:.0f} U", True, chart=False)
    add("energy", f"Energy, 3 years ({currency})", lambda r: r.totals.energy_cost_3y, lambda v: money(v, currency),
        True, chart=False)
    add("capacity", "Usable capacity (TB)", lambda r: r.design.usable_capacity_tb, lambda v: f"{number(v)} TB",
        False, chart=False)

    names: list[str] = []
    for r in results:
        for name in sorted(r.estimates, key=lambda n: n != r.main_metric):
            if name not in names:
                names.append(name)
    main_metric = results[0].main_metric
    for name in names:
        ests = [r.estimates.get(name) for r in results]
        unit = next(e.unit for e in ests if e is not None)
        values = tuple(e.p50 if e else None for e in ests)
        texts = tuple(f"{number(e.p50)} {e.unit}  ({number(e.p10)}–{number(e.p90)})" if e else "–" for e in ests)
        rows.append(CompareRow(
            f"est:{name}", f"{metric_label(name)} (P50, P10–P90)", values, texts, lower_is_better(name, unit),
            low=tuple(e.p10 if e else None for e in ests), high=tuple(e.p90 if e else None for e in ests),
            chart=name == main_metric,
        ))

    main = results[0].main_metric
    if all(r.main_metric == main and main in r.estimates for r in results):
        per_dollar: list[float | None] = []
        per_watt: list[float | None] = []
        what = ""
        for r in results:
            est = r.estimates[main]
            perf, what = _throughput(est.p50, est.unit, main)
            per_dollar.append(perf / r.totals.capex * 1000 if r.totals.capex else None)
            per_watt.append(perf / r.totals.power_w * 1000 if r.totals.power_w else None)
        rows.append(CompareRow("perf_per_dollar", f"Perf per 1,000 {currency} ({what})", tuple(per_dollar),
                               tuple("–" if v is None else number(v) for v in per_dollar), False))
        rows.append(CompareRow("perf_per_watt", f"Perf per kW ({what})", tuple(per_watt),
                               tuple("–" if v is None else number(v) for v in per_watt), False, chart=False))
    return rows

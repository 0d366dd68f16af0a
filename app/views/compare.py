"""The comparison as rows every renderer shows alike (the window's compare view, `refarch compare`, the PDF):
`models.whatif.compare` per workload kind, each row's measure as fields (metric, per what, currency), its figures
in the unit it prints and one number format. Which value wins a row is the model's decision; this module words
and formats it, and no renderer formats a number of its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.charts.data import ComparisonSeries
from app.formatting import DASH, is_fraction, money_figure, money_short, number, number_short, unit_text
from models.sizing.result import SizingResult

if TYPE_CHECKING:
    from models.whatif import CompareRow as WhatifRow
    from models.whatif import Per

# rows drawn as bar charts under the table, with the main estimate (the rest are table-only)
_CHARTED = {"capex", "power", "rack space"}


@dataclass(frozen=True)
class CompareRow:
    """One row of the comparison as every renderer shows it (the window, `refarch compare`, the PDF): what it
    measures as fields, the figures in the unit it prints (a share in percent), the winner and the deltas.
    A renderer writes `label` with `unit` and each option's `text`, `range_text` and `delta_text`; it formats
    no number itself."""

    key: str  # the models row's key (`models.whatif.CompareRow.metric`): the JSON's "metric"
    metric: str  # what is measured: "capex", "power", "full_scan_s" (a rate row: the estimate it divides)
    per: Per | None  # a rate row: per 1,000 of capex or TCO, or per kW
    currency: str  # money rows and per-money rows
    label: str  # in words, without the unit: "Full scans per hour per 1,000 USD"
    unit: str  # the unit the figures are in, as printed ("USD", "W", "%", "s"); "" for a rate
    values: tuple[float | None, ...]
    winner: int | None
    lower_is_better: bool
    scored: bool = True  # False: a description (data drives), never a winner
    no_winner_reason: str = ""  # why no option wins the row (models.whatif.CompareRow.verdict)
    low: tuple[float | None, ...] | None = None
    high: tuple[float | None, ...] | None = None
    chart: bool = False

    @property
    def is_money(self) -> bool:
        return bool(self.currency) and self.per is None

    @property
    def heading(self) -> str:
        """The label with the unit of its figures: "Capex (USD)", "Full scan time (s)"."""
        return f"{self.label} ({self.unit})" if self.unit else self.label

    def best(self) -> int | None:
        return self.winner

    def figure(self, v: float | None, short: bool = False) -> str:
        """One figure of this row: money in whole units (`short`: in k or M for a narrow column, "24.07 M"),
        anything else to three significant digits."""
        if v is None:
            return DASH
        if self.is_money:
            return money_short(v, "") if short else money_figure(v, cents=False)
        return number_short(v) if short else number(v)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(self.figure(v) for v in self.values)

    def text(self, i: int, short: bool = False) -> str:
        return self.figure(self.values[i], short)

    def range_text(self, i: int, short: bool = False) -> str:
        """Option `i`'s P10-P90 range ("270–330"), or "" where it has none or no spread."""
        if self.low is None or self.high is None:
            return ""
        lo, hi = self.low[i], self.high[i]
        if lo is None or hi is None or lo == hi or self.values[i] is None:
            return ""
        return f"{self.figure(lo, short)}–{self.figure(hi, short)}"

    def delta_text(self, i: int, short: bool = False) -> str:
        """Option `i` against the first, in the row's unit ("+1,200", "−3.5"); "" for the first or no change."""
        base, v = self.values[0], self.values[i]
        if i == 0 or base is None or v is None or v == base:
            return ""
        return ("+" if v > base else "−") + self.figure(abs(v - base), short)

    def verdict_text(self, names: Sequence[str]) -> str:
        """The "Best" column: the winning option's name, or "no clear winner (why)"."""
        if self.winner is not None:
            return names[self.winner]
        return f"no clear winner ({self.no_winner_reason})" if self.no_winner_reason else "–"

    def delta(self, i: int) -> str:
        """Change against the first scenario, in percent."""
        base, v = self.values[0], self.values[i]
        if i == 0 or base is None or v is None or base == 0:
            return ""
        pct = (v - base) / abs(base) * 100
        return "±0 %" if abs(pct) < 0.05 else f"{pct:+.0f} %" if abs(pct) >= 10 else f"{pct:+.1f} %"


def compare_rows(results: Sequence[SizingResult]) -> list[CompareRow]:
    """The table over all `results` (winners are withheld on rows whose options run different workloads)."""
    if not results:
        return []
    from models.whatif import compare  # imports the engine: only when a comparison is asked for

    return view_rows(compare(list(results)), results[0].main_metric)


def compare_rows_by_kind(results: Sequence[SizingResult]) -> list[tuple[str, list[int], list[CompareRow]]]:
    """The comparison's tables, one per workload kind (`models.whatif.compare_by_kind`; the window, the PDF and
    `refarch compare` split them alike): the kind, its options' indices in `results`, and rows over just those, so
    a winner and a delta only ever set options of one workload against each other."""
    return [(kind, idx, view_rows(rows, results[idx[0]].main_metric)) for kind, idx, rows in rows_by_kind(results)]


def view_rows(compared: Sequence[WhatifRow], main: str) -> list[CompareRow]:
    """The models' rows as shown: the worker count and rows no option has left out, shares in percent."""
    rows: list[CompareRow] = []
    for r in compared:
        if r.metric == "worker hosts":
            continue  # the total says it; the worker count is in each scenario's design
        if all(v is None for v in r.values):
            continue  # a metric only another workload has
        verdict = r.verdict
        k = 100.0 if is_fraction(r.unit) else 1.0  # a share reads as a percentage, never "0.65 fraction"
        values = tuple(None if v is None else v * k for v in r.values)
        ranges = r.ranges if any(x is not None for x in r.ranges) else None
        rows.append(CompareRow(
            key=r.metric, metric=r.measured, per=r.per, currency=r.currency, label=r.label,
            unit=_unit(r), values=values, winner=verdict.winner, lower_is_better=r.higher_is_better is False,
            scored=r.higher_is_better is not None,
            no_winner_reason="" if r.higher_is_better is None else verdict.reason,
            low=tuple(x[0] * k if x else None for x in ranges) if ranges else None,
            high=tuple(x[1] * k if x else None for x in ranges) if ranges else None,
            chart=r.metric in _CHARTED or r.metric == main,
        ))
    return rows


def _unit(r: WhatifRow) -> str:
    if r.per is not None:
        return ""  # the label says it: "... per 1,000 USD", "... per kW"
    if is_fraction(r.unit):
        return unit_text(r.unit)
    if r.unit in ("hosts", "drives"):
        return ""  # a count: the label says what is counted
    return r.currency or r.unit


def chart_series(rows: Sequence[CompareRow], positions: Sequence[int] | None = None) -> list[ComparisonSeries]:
    """The bars the window and the PDF draw under the table: one panel per row marked `chart` (capex, power,
    rack space and the main estimate), over the options at `positions` (all by default), labelled as the table
    heads the row, the winner's bar green only when the table gives that row to one of these options. An estimate
    without a finite value is no bar ("n/a")."""
    at = list(range(len(rows[0].values))) if positions is None and rows else list(positions or [])

    def pick(values: Sequence[float | None] | None) -> list[float | None] | None:
        if values is None:
            return None
        return [v if v is not None and math.isfinite(v) else None for v in (values[p] for p in at)]

    return [ComparisonSeries(row.heading, pick(row.values) or [], row.lower_is_better, pick(row.low), pick(row.high),
                             at.index(row.winner) if row.winner in at else None)
            for row in rows if row.chart]


def rows_by_kind(results: Sequence[SizingResult]) -> list[tuple[str, list[int], list[WhatifRow]]]:
    """`models.whatif.compare_by_kind`: per workload kind, its options' indices and the rows over just those."""
    from models.whatif import compare_by_kind

    return compare_by_kind(list(results))

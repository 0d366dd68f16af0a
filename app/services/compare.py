"""Compare scenarios: size them and put them side by side (`models.whatif.compare`), and the compare
view's table (labels, formatted cells, deltas, the best per row).

Which value wins a row (and how "per dollar" reads for a time) is the model's
decision, shared with `refarch compare` and the PDF; this module only words and
formats it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.formatting import money, number, power
from app.services import sizing
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import IsCancelled

if TYPE_CHECKING:
    from models.whatif import CompareRow as WhatifRow

# rows drawn as bar charts under the table (the rest are table-only)
_CHARTED = {"total hosts", "capex", "power"}
_PLAIN = {"worker hosts", "total hosts", "data drives", "power", "rack space", "energy"}  # no unit in the label


@dataclass(frozen=True)
class CompareRow:
    key: str
    label: str
    values: tuple[float | None, ...]
    texts: tuple[str, ...]
    winner: int | None
    lower_is_better: bool
    no_winner_reason: str = ""  # why no option wins the row (models.whatif.CompareRow.verdict)
    low: tuple[float | None, ...] | None = None
    high: tuple[float | None, ...] | None = None
    chart: bool = False

    def best(self) -> int | None:
        return self.winner

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


def _label(row: WhatifRow) -> str:
    """The row's label from `models.whatif`, with the unit and, for an estimate, what the cell shows."""
    if row.metric == "capex":
        return f"{row.label} ({row.unit})"
    if row.unit.startswith("per ") or row.metric in _PLAIN or row.ranges == [None] * len(row.ranges):
        return row.label
    return f"{row.label} ({row.unit}; P50, P10–P90)"


def _text(metric: str, unit: str, v: float | None, rng: tuple[float, float] | None) -> str:
    if v is None:
        return "–"
    if metric == "capex":
        return money(v, unit, cents=False)
    if metric == "power":
        return power(v)
    if metric == "rack space":
        return f"{v:.0f} U"
    if metric == "energy":
        return f"{number(v)} kWh"
    if unit in ("hosts", "drives"):
        return f"{v:.0f}"
    text = f"{number(v)} {unit}" if not unit.startswith("per ") else number(v)
    if rng is not None and rng[0] != rng[1]:
        text += f"  ({number(rng[0])}–{number(rng[1])})"
    return text


def compare_rows(results: Sequence[SizingResult]) -> list[CompareRow]:
    """The table over all `results` (winners are withheld on rows whose options run different workloads)."""
    if not results:
        return []
    from models.whatif import compare  # imports the engine: only when a comparison is asked for

    return _view_rows(compare(list(results)), results[0].main_metric)


def compare_rows_by_kind(results: Sequence[SizingResult]) -> list[tuple[str, list[int], list[CompareRow]]]:
    """The compare view's tables, one per workload kind (`models.whatif.compare_by_kind`, as the PDF and
    `refarch compare` split them): the kind, its options' indices in `results`, and rows over just those, so a
    winner and a delta only ever set options of one workload against each other."""
    return [(kind, idx, _view_rows(rows, results[idx[0]].main_metric)) for kind, idx, rows in rows_by_kind(results)]


def _view_rows(compared: Sequence[WhatifRow], main: str) -> list[CompareRow]:
    rows: list[CompareRow] = []
    for r in compared:
        if r.metric == "worker hosts":
            continue  # the total says it; the worker count is in each scenario's design
        if all(v is None for v in r.values):
            continue  # a metric only another workload has
        verdict = r.verdict
        if r.unit.lower().startswith("fraction"):  # a share reads as a percentage, never "0.65 fraction"
            r = dataclasses.replace(r, unit="%", values=[None if v is None else v * 100 for v in r.values],
                                    ranges=[None if x is None else (x[0] * 100, x[1] * 100) for x in r.ranges])
        ranges = r.ranges if any(x is not None for x in r.ranges) else None
        rows.append(CompareRow(
            key=r.metric,
            label=_label(r),
            values=tuple(r.values),
            texts=tuple(_text(r.metric, r.unit, v, rng) for v, rng in zip(r.values, r.ranges, strict=True)),
            winner=verdict.winner,
            no_winner_reason="" if r.higher_is_better is None else verdict.reason,
            lower_is_better=r.higher_is_better is False,
            low=tuple(x[0] if x else None for x in ranges) if ranges else None,
            high=tuple(x[1] if x else None for x in ranges) if ranges else None,
            chart=r.metric in _CHARTED or r.metric == main or r.metric.startswith(f"{main} per 1k"),
        ))
    return rows


def clear_difference_pct() -> float:
    """Values closer than this (percent) have no winner (`models.whatif`); loads the engine when first asked."""
    from models.whatif import CLEAR_DIFFERENCE_PCT

    return CLEAR_DIFFERENCE_PCT


def rows_by_kind(results: Sequence[SizingResult]) -> list[tuple[str, list[int], list[WhatifRow]]]:
    """`models.whatif.compare_by_kind`: per workload kind, its options' indices and the rows over just those."""
    from models.whatif import compare_by_kind

    return compare_by_kind(list(results))


def compare_scenarios(scenarios: Sequence[Scenario], catalog: HardwareCatalog, labels: Sequence[str] | None = None,
                      cancelled: IsCancelled | None = None) -> tuple[list[SizingResult], list[WhatifRow]]:
    """Size every scenario (a refused one raises `ServiceError` naming it), then compare them row by row."""
    from models.whatif import compare

    names = list(labels) if labels is not None else [s.name for s in scenarios]
    results = [sizing.size(s, catalog, cancelled=cancelled, label=n) for s, n in zip(scenarios, names, strict=True)]
    return results, compare(results)

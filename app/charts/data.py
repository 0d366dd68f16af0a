"""What each chart shows, computed once from the engine's results and drawn by two renderers: matplotlib in the
window (`app.charts`), reportlab's canvas in the PDF (`app.export.pdf_charts`). No matplotlib here, so the report
process never imports it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.formatting import money_short, number
from models.sizing.result import BomLine

KIND_ORDER = ("server", "drive", "nic", "dimm", "cpu")
_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)  # matplotlib's MaxNLocator steps, so both renderers pick alike ticks


def nice_ticks(lo: float, hi: float, most: int, integer: bool = False) -> list[float]:
    """Round tick values from `lo` to `hi` (both inside), at most `most` of them, the step 1, 2, 2.5 or 5 x 10^k
    (`integer`: a whole number).

    >>> nice_ticks(0, 4.4e6, 6)
    [0.0, 1000000.0, 2000000.0, 3000000.0, 4000000.0]
    >>> nice_ticks(0, 760, 9)
    [0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0]
    >>> nice_ticks(20, 170, 8)
    [20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0, 160.0]
    >>> nice_ticks(20, 170, 7)
    [25.0, 50.0, 75.0, 100.0, 125.0, 150.0]
    >>> nice_ticks(2, 8, 9, integer=True), nice_ticks(0, 3, 9)
    ([2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    >>> nice_ticks(0, 0, 5)
    [0.0]
    """
    span = hi - lo
    if not span > 0 or not math.isfinite(span):
        return [float(lo)]
    most = max(2, most)
    base = 10.0 ** math.floor(math.log10(span / most))
    steps = [s * base for s in (*_STEPS, 20.0) if not integer or (s * base).is_integer()]
    step = next((s for s in steps if int(span / s + 1e-9) <= most - 1), steps[-1])
    first = math.ceil(lo / step - 1e-9)
    ticks = [round((first + k) * step, 12) for k in range(int(span / step + 1e-9) + 2)]
    return [t for t in ticks if lo - step * 1e-9 <= t <= hi + step * 1e-9]


def sig(v: float, digits: int = 3) -> str:
    """A few significant digits with thousands separators, as the report tables print: 1,234 / 12.3 / 0.123.

    >>> sig(1234.5), sig(12.34), sig(0.1234), sig(0.0)
    ('1,234', '12.3', '0.123', '0')
    """
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
    return f"{v:,.{decimals}f}"


def thousands_text(v: float) -> str:
    """An axis tick: 1,500 / 250 / 0.5."""
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:g}"


@dataclass(frozen=True)
class ComparisonSeries:
    label: str  # "Capex (USD)"
    values: Sequence[float | None]  # one per scenario; None when a scenario has no such metric
    lower_is_better: bool
    low: Sequence[float | None] | None = None  # optional P10 / P90 whiskers
    high: Sequence[float | None] | None = None
    # the option that wins the row by models.whatif.CompareRow.verdict (same workload, outside the uncertainty);
    # None: no bar is green, because no option clearly wins
    winner: int | None = None

    @property
    def top(self) -> float:
        """The largest value or whisker end: where the axis must reach."""
        return max([*(v for v in self.values if v is not None), *(v for v in (self.high or []) if v is not None)],
                   default=0.0)


def cost_items(bom: Iterable[BomLine]) -> list[tuple[str, str, float]]:
    """(role, kind, amount) summed over the BOM, in a stable order for the chart; parts that cost nothing here (the
    CPUs and DIMMs priced in their server, parts no public price is known for) are no money going anywhere."""
    sums: dict[tuple[str, str], float] = defaultdict(float)
    for line in bom:
        sums[(line.role, line.kind)] += line.extended_price
    return [(role, kind, amt) for (role, kind), amt in sums.items() if amt]


# what the money chart sums (every BOM line once: the one-time lines and one year of the recurring ones), its axis
FIRST_YEAR_BOM = "First-year BOM: one-time + a year of subscriptions and support"


@dataclass(frozen=True)
class CostChart:
    """Where the money goes: one bar per role (smallest first: the bottom of a horizontal chart), stacked by part
    kind, its total and share written at its end."""

    currency: str
    roles: list[str]
    kinds: list[str]
    amounts: dict[tuple[str, str], float]  # (role, kind) -> amount
    totals: list[float]  # per role, in `roles` order
    labels: list[str]  # "  3.97 M USD (58 %)", per role

    def widths(self, kind: str) -> list[float]:
        return [self.amounts.get((r, kind), 0.0) for r in self.roles]


def cost_chart(items: Sequence[tuple[str, str, float]], currency: str) -> CostChart:
    roles: list[str] = []
    for role, _, _ in items:
        if role not in roles:
            roles.append(role)
    kinds = [k for k in KIND_ORDER if any(i[1] == k for i in items)]
    kinds += sorted({i[1] for i in items} - set(kinds))
    totals = {r: sum(a for rr, _, a in items if rr == r) for r in roles}
    roles.sort(key=lambda r: totals[r])  # largest at the top of a horizontal chart
    grand = sum(totals.values())
    labels = [f"  {money_short(totals[r], currency)} ({totals[r] / grand * 100 if grand else 0:.0f} %)"
              for r in roles]
    return CostChart(currency, roles, kinds, {(r, k): a for r, k, a in items}, [totals[r] for r in roles], labels)


@dataclass(frozen=True)
class CurveMarker:
    """The design's own point on an estimate-against-hosts curve and where its label goes: below the line where
    the curve rises to the right, above where it falls, and to the left of the last point."""

    index: int
    text: str
    left: bool  # the label ends at the point (the last point) instead of starting there
    below: bool


def curve_marker(hosts: Sequence[int], p50: Sequence[float], current_hosts: int | None,
                 unit: str) -> CurveMarker | None:
    """
    >>> curve_marker([2, 4, 8], [1000, 500, 260], 4, "s")
    CurveMarker(index=1, text='this design: 4 hosts\\n500 s', left=False, below=False)
    """
    if current_hosts is None or current_hosts not in hosts:
        return None
    i = list(hosts).index(current_hosts)
    last = i == len(hosts) - 1
    j = i - 1 if last else i + 1
    rising = j >= 0 and (p50[j] - p50[i]) * (j - i) > 0
    return CurveMarker(i, f"this design: {current_hosts} hosts\n{number(p50[i])} {unit}", last, rising != last)

"""The cost of ownership as every headline shows it: capex, the first year's total and the total over the
planning horizon (`commercial.tco_years`), read from `SizingResult.totals` and its TCO rows, never recomputed.

The PDF cover, the executive summary and the window's cards print these three figures together: the one-time
price alone hides the subscriptions and support that, on licensed designs, cost more each year than the hardware.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.sizing import bom
from models.sizing.result import SizingResult


@dataclass(frozen=True)
class Ownership:
    """The headline money of one design, in `currency`."""

    capex: float  # one-time lines (hardware, network, racks, perpetual licences)
    recurring_per_year: float  # subscriptions and support, every year
    first_year: float  # year 1 of the TCO: capex, a year of subscriptions and support, energy and rack space
    tco: float  # the cumulative cost of ownership over `years`
    years: int  # the planning horizon, commercial.tco_years
    currency: str
    parts_on_quote: int = 0  # parts with no price yet (the vendor's quote prices them): in none of the figures

    @property
    def quote_clause(self) -> str:
        """"excludes 6 parts priced on quote", or "" when every part has its price: said beside the capex."""
        n = self.parts_on_quote
        return f"excludes {n} part{'s' if n != 1 else ''} priced on quote" if n else ""

    @property
    def horizon(self) -> str:
        """"5-year TCO": the label of the horizon total, N stated."""
        return f"{self.years}-year TCO"


def ownership(r: SizingResult) -> Ownership:
    """The design's headline money. The first year is the TCO's year 1 (the BOM total when no TCO was computed)."""
    t = r.totals
    first = r.tco[0].total if r.tco else t.bom_total
    return Ownership(capex=t.capex, recurring_per_year=t.recurring_per_year, first_year=first, tco=t.tco,
                     years=t.tco_years or len(r.tco), currency=t.currency, parts_on_quote=bom.parts_on_quote(r.bom))

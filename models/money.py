"""Money: dated exchange rates, conversion, and the one rounding rule for amounts.

Every price in the catalog carries its currency. A project sums in one currency only:
each amount is converted at the rate table before it is added, and an amount whose
currency has no rate is refused rather than summed as if it were the project's
(`MissingRateError`). Rates are stored against one pivot (USD per unit), so the table
cannot contradict itself: EUR -> GBP is (USD per EUR) / (USD per GBP).

>>> rates = ExchangeRates((Rate("EUR", 1.08, date(2026, 11, 1), "ECB"), Rate("GBP", 1.27, date(2026, 11, 1), "ECB")))
>>> rates.rate("EUR", "USD")
1.08
>>> round(rates.convert(500, "EUR", "GBP"), 2)
425.2
>>> rates.convert(10, "JPY", "USD")
Traceback (most recent call last):
...
models.money.MissingRateError: no exchange rate for JPY in the rate table (it has EUR, GBP, USD); add one
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

PIVOT = "USD"


class MissingRateError(ValueError):
    """An amount in a currency the rate table cannot convert: it must not be summed with others."""

    def __init__(self, currency: str, known: Iterable[str]) -> None:
        self.currency = currency
        have = ", ".join(sorted(set(known) | {PIVOT}))
        super().__init__(f"no exchange rate for {currency} in the rate table (it has {have}); add one")


@dataclass(frozen=True, slots=True)
class Rate:
    """1 unit of `currency` is worth `usd_per_unit` US dollars, as of `as_of`."""

    currency: str
    usd_per_unit: float
    as_of: date
    source: str


@dataclass(frozen=True)
class ExchangeRates:
    rates: tuple[Rate, ...]
    _by: dict[str, Rate] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by", {r.currency: r for r in self.rates})

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(sorted(self.rates, key=lambda r: r.currency))

    def __len__(self) -> int:
        return len(self.rates)

    @property
    def currencies(self) -> list[str]:
        return sorted(set(self._by) | {PIVOT})

    def _usd(self, currency: str) -> float:
        if currency == PIVOT:
            return 1.0
        rate = self._by.get(currency)
        if rate is None:
            raise MissingRateError(currency, self._by)
        return rate.usd_per_unit

    def rate(self, src: str, dst: str) -> float:
        """Units of `dst` per unit of `src`."""
        if src == dst:
            return 1.0
        return self._usd(src) / self._usd(dst)

    def as_of(self, src: str, dst: str) -> date | None:
        """The older date of the rates used for src -> dst (None when no conversion is needed)."""
        dates = [self._by[c].as_of for c in (src, dst) if c != PIVOT and c in self._by and src != dst]
        return min(dates) if dates else None

    def convert(self, amount: float, src: str, dst: str) -> float:
        return amount * self.rate(src, dst)

    def used(self, currencies: Iterable[str], project: str) -> list[Rate]:
        """The table rows a conversion of `currencies` into `project` relies on (for the report)."""
        foreign = {c for c in currencies if c != project}
        wanted = foreign | ({project} if foreign else set())
        return [r for r in self if r.currency in wanted]


def cents(amount: float) -> float:
    """Half-cents round up, the rule for every line and total (so lines and totals agree).

    >>> cents(0.125), cents(2.675)
    (0.13, 2.68)
    """
    return float(Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def total(amounts: Iterable[float]) -> float:
    """Sum of amounts already rounded to the cent, exactly (Decimal, no float drift)."""
    return float(sum((Decimal(str(a)) for a in amounts), Decimal("0")).quantize(Decimal("0.01")))

"""Prices and rates that are probably typing or reading slips: refused unless the user confirms them.

A misread decimal separator moves a number by 100x or 1000x; a price list is never revised by such a factor.
So a new price or rate far from the part's or the currency's previous one, or beyond what any catalog part or
currency costs, is listed and not written; `--confirm-outliers` (or the window's confirmation) writes it.

>>> far(12.5, 1250.0), far(100.0, 140.0), far(0.0, 5.0), far(312.5, 3125.0), far(0.3, 0.03)
(True, False, True, True, True)
"""

from __future__ import annotations

import math

from models.money import ExchangeRates, MissingRateError

# A price or rate moving by this factor or more either way since its previous value is asked about: a digit typed
# one place off (3125 for 312.5) moves it by exactly 10x, the commonest slip.
PRICE_FAR_FACTOR = 10.0
RATE_FAR_FACTOR = 3.0
# A single catalog part (a server, a licence pack) costing more than this in US dollars is asked about.
MAX_PLAUSIBLE_PRICE_USD = 2_000_000.0
CONFIRM_HINT = "check the decimal separator, or use --confirm-outliers to write them as they are"


def far(previous: float, new: float, factor: float = PRICE_FAR_FACTOR) -> bool:
    """`new` is `factor` times `previous` or more, or 1/`factor` of it or less (a zero and a non-zero are always
    far; two zeros are not). The bound is kept within float rounding (0.3 / 10 is 0.03 written, not 0.0299...)."""
    if previous <= 0 or new <= 0:
        return (previous <= 0) != (new <= 0)
    return abs(math.log(new / previous)) >= math.log(factor) * (1 - 1e-12)


def _money(amount: float) -> str:
    return f"{amount:,.2f}" if amount >= 0.01 or amount == 0 else f"{amount:.4g}"


def price_outlier(old_price: float, old_currency: str, new_price: float, new_currency: str,
                  rates: ExchangeRates) -> str | None:
    """Why a new price needs confirming, or None."""
    try:
        new_usd = rates.convert(new_price, new_currency, "USD")
    except MissingRateError:
        new_usd = None
    if new_usd is not None and new_usd > MAX_PLAUSIBLE_PRICE_USD:
        return (f"{_money(new_price)} {new_currency} is above {MAX_PLAUSIBLE_PRICE_USD:,.0f} USD, more than any "
                "single catalog part costs")
    if old_price <= 0 < new_price:
        return None  # a part without a price (none is public) takes its first quoted one
    try:
        old_same = old_price if old_currency == new_currency else rates.convert(old_price, old_currency, new_currency)
    except MissingRateError:
        return None
    if far(old_same, new_price):
        was = f"{_money(old_price)} {old_currency}" + (f" ({_money(old_same)} {new_currency})"
                                                       if old_currency != new_currency else "")
        return (f"{_money(new_price)} {new_currency} is {PRICE_FAR_FACTOR:g}x or more away from the previous price "
                f"{was}")
    return None


def rate_outlier(currency: str, old: float | None, new: float) -> str | None:
    """Why a new exchange rate needs confirming, or None."""
    if old is not None and far(old, new, RATE_FAR_FACTOR):
        return (f"{currency} at {new:.6g} USD is {RATE_FAR_FACTOR:g}x or more away from the previous rate "
                f"{old:.6g} USD")
    return None

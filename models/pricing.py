"""The catalog in the project's currency and at the customer's net prices, before anything is sized.

Sizing compares prices (the cheapest NIC per port, the cheapest design meeting the targets), so
converting afterwards would let 500 EUR beat 800 USD on the digits alone. `in_currency` returns a
catalog whose every price is net (list less the vendor or line discount) in the project currency,
each part remembering its catalog price, currency, the rate and the discount (`PriceOrigin`).
Parts whose currency the rate table cannot convert are left out of the converted catalog (never
summed as if they were in the project currency); `left_out` names them.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from models.hardware import HardwareCatalog, Part, PartBase, PriceOrigin, Server
from models.money import MissingRateError, cents


@dataclass(frozen=True)
class Converted:
    catalog: HardwareCatalog
    left_out: dict[str, str]  # part id -> currency without a rate


def discount_for(part: Part, discounts: Mapping[str, float]) -> float:
    """A discount for the part id wins over one for its vendor (vendor names match case-insensitively).

    >>> from datetime import date
    >>> from models.hardware import Nic
    >>> nic = Nic("x710", "Intel", "X710", 260.0, "USD", date(2026, 1, 1), "list", ports=2, speed_gbps=10, watts=5)
    >>> discount_for(nic, {"intel": 20}), discount_for(nic, {"Intel": 20, "x710": 35})
    (20, 35)
    """
    if part.id in discounts:
        return discounts[part.id]
    vendor = part.vendor.casefold()
    return next((pct for key, pct in discounts.items() if key.casefold() == vendor), 0.0)


def _convert(part: Part, catalog: HardwareCatalog, currency: str, discounts: Mapping[str, float]) -> Part:
    if part.origin is not None and part.currency == currency:
        return part  # already net in this currency (e.g. a what-if copy): a discount applies once
    rate = catalog.rates.rate(part.currency, currency)
    pct = discount_for(part, discounts)
    origin = PriceOrigin(part.price, part.currency, rate, catalog.rates.as_of(part.currency, currency), pct)
    net = cents(part.price * rate * (1 - pct / 100.0))
    if isinstance(part, Server):  # the CPU inside is priced within the server; keep its figure comparable
        cpu = dataclasses.replace(part.cpu, price=cents(part.cpu.price * catalog.rates.rate(part.cpu.currency,
                                                                                             currency)),
                                  currency=currency)
        return dataclasses.replace(part, price=net, currency=currency, origin=origin, cpu=cpu)
    return dataclasses.replace(part, price=net, currency=currency, origin=origin)


# The last few conversions, by catalog object: the GUI sizes every scenario, its curve and its what-ifs against
# one catalog snapshot, and converting a 100,000-part catalog on each call cost a copy of every part (and the
# garbage collections it set off stalled the window). Catalogs and parts are frozen, so a conversion of the
# same object with the same currency and discounts is the same; the weak reference tells a reused id apart.
_RECENT = 4
_recent: dict[tuple[int, str, tuple[tuple[str, float], ...]], tuple[weakref.ref[HardwareCatalog], Converted]] = {}
_recent_lock = threading.Lock()  # the GUI sizes on worker threads


def in_currency(catalog: HardwareCatalog, currency: str, discounts: Mapping[str, float] | None = None) -> Converted:
    """Every part at its net price in `currency`; a catalog already converted to `currency` is returned as is.

    Converting the same catalog object again with the same currency and discounts returns the same result.
    """
    if catalog.currency == currency:
        return Converted(catalog, {})
    discounts = discounts or {}
    key = (id(catalog), currency, tuple(sorted(discounts.items())))
    with _recent_lock:
        hit = _recent.get(key)
    if hit is not None and hit[0]() is catalog:
        return hit[1]
    converted = _convert_all(catalog, currency, discounts)
    with _recent_lock:
        if len(_recent) >= _RECENT:
            del _recent[next(iter(_recent))]
        _recent[key] = (weakref.ref(catalog), converted)
    return converted


def _convert_all(catalog: HardwareCatalog, currency: str, discounts: Mapping[str, float]) -> Converted:
    parts: list[Part] = []
    left_out: dict[str, str] = {}
    for part in catalog:
        try:
            parts.append(_convert(part, catalog, currency, discounts))
        except MissingRateError:
            left_out[part.id] = part.currency
    return Converted(HardwareCatalog(tuple(parts), catalog.rates, currency), left_out)


# How the catalog's quote import records a part's source: "quote FILE DATE"
_QUOTE_SOURCE = re.compile(r"quote (\S.* \d{4}-\d{2}-\d{2})")


def quote_source(file_name: str, when: date) -> str:
    """The source the catalog's quote import writes on a part it prices.

    >>> quote_source("Dell-4711.csv", date(2026, 11, 20))
    'quote Dell-4711.csv 2026-11-20'
    """
    return f"quote {file_name} {when.isoformat()}"


def quoted_in(source: str) -> str:
    """The quote (file and date) a source `quote_source` wrote names; "" for any other source.

    >>> quoted_in("quote Dell-4711.csv 2026-11-20"), quoted_in("quote 12"), quoted_in("Dell list price")
    ('Dell-4711.csv 2026-11-20', '', '')
    """
    m = _QUOTE_SOURCE.fullmatch(source)
    return m.group(1) if m else ""


def quote_of(part: PartBase) -> str:
    """The vendor quote a quoted part's price comes from ("FILE DATE", as the quote import recorded it); "" for a
    list price, an estimate or a quote the catalog does not name.

    >>> def p(basis, source): return PartBase("p", "v", "m", 1.0, "USD", date(2026, 1, 1), source, price_basis=basis)
    >>> quote_of(p("quote", "quote Dell-4711.csv 2026-11-20")), quote_of(p("list", "quote x.csv 2026-01-01"))
    ('Dell-4711.csv 2026-11-20', '')
    """
    return quoted_in(part.source) if part.price_basis == "quote" else ""

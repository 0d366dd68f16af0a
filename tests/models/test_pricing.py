from __future__ import annotations

import dataclasses
import gc

from catalog.seed import seed_catalog
from models import pricing
from models.hardware import HardwareCatalog


def test_the_same_catalog_object_is_converted_once_per_currency_and_discounts() -> None:
    catalog = seed_catalog()
    eur = pricing.in_currency(catalog, "EUR")
    assert pricing.in_currency(catalog, "EUR") is eur
    assert pricing.in_currency(catalog, "EUR", {}) is eur
    discounted = pricing.in_currency(catalog, "EUR", {"Dell": 20})
    assert discounted is not eur
    dell = next(p for p in catalog.servers if p.vendor == "Dell")
    assert discounted.catalog.get(dell.id, "server").price < eur.catalog.get(dell.id, "server").price
    assert pricing.in_currency(catalog, "GBP") is not eur


def test_a_different_catalog_is_converted_afresh_even_when_it_reuses_an_id() -> None:
    catalog = seed_catalog()
    first = pricing.in_currency(catalog, "EUR")
    server = catalog.servers[0]
    dearer = HardwareCatalog(tuple(dataclasses.replace(p, price=p.price * 2) if p is server else p
                                   for p in catalog.parts), catalog.rates)
    again = pricing.in_currency(dearer, "EUR")
    assert again is not first
    assert again.catalog.get(server.id, "server").price > first.catalog.get(server.id, "server").price
    # a catalog that is gone leaves a dead reference: a new object at its address is never served its conversion
    key = next(k for k, (ref, _) in pricing._recent.items() if ref() is dearer)
    del dearer, again
    gc.collect()
    assert pricing._recent[key][0]() is None

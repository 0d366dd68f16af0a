"""The exchange-rate table and the commercial part kinds: seeded, imported all-or-nothing, kept when edited."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from catalog.errors import InvalidRowsError
from catalog.store import CatalogStore
from models.hardware import Licence, Support, Switch
from models.money import MissingRateError


def test_seeding_fills_the_rate_table_and_a_reseed_keeps_user_rates(catalog_url: str, small_seed: Path) -> None:
    with CatalogStore.open(catalog_url) as store:
        rates = store.rates()
        assert "EUR" in rates.currencies and len(rates) >= 3
        store.import_rates([{"currency": "EUR", "usd_per_unit": 1.5, "as_of": "2026-11-20", "source": "our bank"}])
        store.reseed()
        eur = next(r for r in store.rates() if r.currency == "EUR")
        assert (eur.usd_per_unit, eur.as_of, eur.source) == (1.5, date(2026, 11, 20), "our bank")
        assert store.snapshot().rates.rate("EUR", "USD") == 1.5


def test_a_bad_rate_file_imports_nothing_and_names_every_row(store: CatalogStore) -> None:
    rows = [
        {"currency": "GBP", "usd_per_unit": 1.3, "as_of": "2026-11-01", "source": "x"},
        {"currency": "eur", "usd_per_unit": -1, "as_of": "2026-13-01", "source": "x"},
        {"currency": "USD", "usd_per_unit": 1, "as_of": "2026-11-01", "source": "x"},
    ]
    with pytest.raises(InvalidRowsError) as caught:
        store.import_rates(rows)
    fields = {(p.row, p.field) for p in caught.value.problems}
    assert {(2, "currency"), (2, "usd_per_unit"), (2, "as_of"), (3, "currency")} <= fields
    assert len(store.rates()) == 0
    with pytest.raises(MissingRateError, match="GBP"):
        store.rates().rate("GBP", "USD")


def test_commercial_kinds_round_trip_through_the_store(store: CatalogStore) -> None:
    base = {"vendor": "V", "model": "M", "currency": "EUR", "price_as_of": "2026-11-01", "source": "quote 12"}
    store.import_rows([
        {**base, "id": "sw", "kind": "switch", "price": 9000, "ports": 48, "speed_gbps": 25, "uplink_ports": 8,
         "uplink_speed_gbps": 100, "rack_u": 1, "watts": 200, "price_basis": "quote"},
        {**base, "id": "lic", "kind": "licence", "price": 50, "metric": "core", "term": "annual",
         "applies_to": "vsphere", "min_cores_per_cpu": 16, "min_units": 0, "source": "price: estimate"},
        {**base, "id": "sup", "kind": "support", "price": 0, "basis": "hardware-pct", "pct_of_hardware": 8,
         "applies_to": "*"},
    ])
    switch, lic, sup = store.get("sw"), store.get("lic"), store.get("sup")
    assert isinstance(switch, Switch) and switch.price_basis == "quote" and switch.uplink_speed_gbps == 100
    assert isinstance(lic, Licence) and lic.price_basis == "estimate" and lic.min_cores_per_cpu == 16
    assert isinstance(sup, Support) and sup.price_basis == "list"
    with pytest.raises(InvalidRowsError) as caught:
        store.import_rows([{**base, "id": "sup2", "kind": "support", "price": 0, "basis": "hardware-pct",
                            "pct_of_hardware": 0, "applies_to": "*"}])
    assert [(p.field, "hardware-pct" in p.message) for p in caught.value.problems] == [("pct_of_hardware", True)]

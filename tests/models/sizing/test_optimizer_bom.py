"""The optimizer ranks and shows the BOM's own total (issue 29, item 2): with the storage controllers and the
management switch priced by a quote, every row's capex is the capex of the BOM `size` gives its platform (the sum of
its one-time lines, controllers and management network included), and the headline is its first row."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from models.hardware import Controller, HardwareCatalog, Switch
from models.optimizer import optimize
from models.sizing.engine import size
from tests.models.sizing.conftest import sample

PARTS = ("dell-r670-10x-u3-2x-xeon-6740e", "intel-xeon-6740e", "dell-r750-2x-gold-6342-24sas", "intel-xeon-gold-6342",
         "kioxia-pm7-r-7680gb-sas-sff", "dell-2400gb-sas-10k-sff", "nvidia-connectx-6-lx-2x25gbe")


@pytest.fixture(scope="module")
def quoted(catalog: HardwareCatalog) -> HardwareCatalog:
    """Two servers and two SAS drives, everything else of the catalog but its other servers, drives and NICs, with
    every controller and the 1 GbE management switches at a quoted price."""
    def priced(p: object) -> object:
        if isinstance(p, Controller) or (isinstance(p, Switch) and p.speed_gbps <= 1):
            return dataclasses.replace(p, price=1_250.0 if isinstance(p, Controller) else 4_100.0,
                                       price_basis="quote")
        return p

    keep = [p for p in catalog.parts if p.id in PARTS or type(p).__name__ not in ("Server", "Drive", "Nic", "Cpu")]
    return HardwareCatalog.of([priced(p) for p in keep], catalog.rates)  # type: ignore[misc]


def test_every_row_shows_the_capex_of_its_own_bom_controllers_included(quoted: HardwareCatalog) -> None:
    s = sample("retail-dw-dual-socket-sas", workload={"data_tb": 30}, targets={}, commercial={
        "currency": "USD", "optimize_for": "capex"},
        platform={"server_id": None, "drive_id": None, "drives_per_host": None, "nic_id": None})
    out = optimize(s, quoted, pareto_limit=6)
    assert out.best is not None and out.best_sizing is not None and out.pareto[0] == out.best
    with_cards = 0
    for p in out.pareto:
        r = size(s.model_copy(update={"platform": s.platform.model_validate(p.platform(s))}), quoted)
        one_time = sum(Decimal(str(ln.extended_price)) for ln in r.bom if not ln.recurring)
        assert p.capex == r.totals.capex == float(one_time), p
        cards = [ln for ln in r.bom if ln.kind == "controller"]
        with_cards += bool(cards) and all(ln.extended_price > 0 for ln in cards)
        assert any(ln.role == "management switch" and ln.extended_price > 0 for ln in r.bom)
    assert with_cards  # the case holds designs whose controllers are priced
    assert out.best.capex == out.best_sizing.totals.capex == min(p.capex for p in out.pareto)

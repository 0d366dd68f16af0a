"""The procurement BOM: one currency, conversions at the table's rate, network/racks/power rules, TCO rows."""

from __future__ import annotations

import dataclasses
import itertools
import math
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog, Nic, Rack
from models.money import ExchangeRates, Rate, cents, total
from models.scenario import Commercial
from models.sizing import bom, infrastructure
from models.sizing.engine import SizingInputError, size
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

SAMPLES = ("retail-dw-gen5", "gp-oltp", "pg-consolidation", "sap-iq", "study-000-vsphere")


def _with(catalog: HardwareCatalog, *parts: object, rates: ExchangeRates | None = None) -> HardwareCatalog:
    extra = {p.id for p in parts}  # type: ignore[attr-defined]
    kept = tuple(p for p in catalog if p.id not in extra) + tuple(parts)  # type: ignore[operator]
    return HardwareCatalog(kept, rates if rates is not None else catalog.rates)


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("currency", ["USD", "EUR"])
def test_totals_are_the_sum_of_the_lines_in_the_project_currency(
    catalog: HardwareCatalog, name: str, currency: str
) -> None:
    s = sample(name)
    s = s.model_copy(update={"commercial": Commercial(currency=currency, discounts_pct={"Dell": 12.5})})
    r = size(s, catalog)
    assert {ln.currency for ln in r.bom} == {currency} == {r.totals.currency}
    assert r.totals.capex == total(ln.extended_price for ln in r.bom if not ln.recurring)
    assert r.totals.recurring_per_year == total(ln.extended_price for ln in r.bom if ln.recurring)
    assert r.totals.bom_total == total(ln.extended_price for ln in r.bom)
    kinds = {ln.kind for ln in r.bom}
    assert {"server", "switch", "cable", "rack", "pdu", "licence", "support"} <= kinds
    assert r.to_dict()["totals"]["currency"] == currency
    for ln in r.bom:
        if ln.source_currency != currency and ln.source_unit_price is not None:
            expected = cents(ln.source_unit_price * ln.fx_rate * (1 - ln.discount_pct / 100))
            assert ln.unit_price == expected


def test_a_eur_part_in_a_usd_project_is_converted_at_the_tables_rate(catalog: HardwareCatalog) -> None:
    rates = ExchangeRates((Rate("EUR", 1.25, date(2026, 11, 1), "test"),))
    eur_rack = Rack("eu-rack", "Rittal", "VX", 1000.0, "EUR", date(2026, 11, 1), "quote", rack_u=42, max_kw=20)
    cat = _with(catalog, eur_rack, rates=rates)
    s = sample("retail-dw-gen5").model_copy(update={"commercial": Commercial(rack_id="eu-rack")})
    r = size(s, cat)
    line = next(ln for ln in r.bom if ln.part_id == "eu-rack")
    assert (line.currency, line.unit_price, line.source_currency, line.fx_rate) == ("USD", 1250.0, "EUR", 1.25)
    assert [(x["from"], x["to"], x["rate"]) for x in r.exchange_rates] == [("EUR", "USD", 1.25)]
    # with no rate the part is never summed as if it were USD: naming it is an error that says why
    bare = HardwareCatalog(cat.parts, ExchangeRates(()))
    with pytest.raises(SizingInputError, match="no EUR->USD rate"):
        size(s, bare)


def test_the_recommender_compares_converted_prices(catalog: HardwareCatalog) -> None:
    base = catalog.nic("intel-e810-cqda2-2x100gbe")  # a PCIe 4.0 x16 card: the sample's Gen5 slot carries its ports
    cheapest = min((n for n in catalog.current(catalog.nics) if n.speed_gbps >= 100), key=lambda n: n.price)
    cheap_digits = dataclasses.replace(base, id="nic-eur", currency="EUR", price=cheapest.price * 0.8)
    s = sample("retail-dw-gen5", platform={"nic_id": None})
    dear = ExchangeRates((Rate("EUR", 2.0, date(2026, 11, 1), "test"),))
    par = ExchangeRates((Rate("EUR", 1.0, date(2026, 11, 1), "test"),))
    assert size(s, _with(catalog, cheap_digits, rates=dear)).design.nic_id != "nic-eur"
    assert size(s, _with(catalog, cheap_digits, rates=par)).design.nic_id == "nic-eur"


def test_a_discount_lowers_net_not_list(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5")
    full = size(s, catalog)
    off = size(s.model_copy(update={"commercial": Commercial(discounts_pct={full.design.server_id: 20})}), catalog)
    a = next(ln for ln in full.bom if ln.kind == "server")
    b = next(ln for ln in off.bom if ln.kind == "server")
    assert b.list_unit_price == a.unit_price and b.unit_price == cents(a.unit_price * 0.8)
    def list_sum(r: object) -> float:  # support priced as a share of (net) hardware moves with the discount
        return total(cents(ln.list_unit_price * ln.qty) for ln in r.bom if ln.kind != "support")  # type: ignore[attr-defined]

    assert list_sum(off) == list_sum(full)
    assert off.totals.capex < full.totals.capex


def _host_lines(catalog: HardwareCatalog, server_id: str, nic: Nic, nics: int, hosts: int) -> list:
    server = catalog.server(server_id)
    return [bom.line("segment host", server, 1, hosts, "server"), bom.line("segment host", nic, nics, hosts, "nic")]


@settings(max_examples=25, deadline=None)
@given(
    hosts=st.integers(1, 160),
    nics=st.integers(1, 2),
    nic_id=st.sampled_from(["intel-e810-xxvda2-2x25gbe", "nvidia-connectx-7-2x100gbe", "intel-x710-da2-2x10gbe"]),
    server_id=st.sampled_from(["dell-r7625-24x-u3-2x-epyc-9654", "dell-r6715-10x-u3-1x-epyc-9355p",
                               "hpe-dl345-gen11-12x-lff-1x-epyc-9354p"]),
    kw=st.floats(3.0, 30.0),
    oversub=st.sampled_from([1.0, 2.0, 3.0]),
)
def test_switch_ports_cover_every_host_port_and_racks_respect_u_and_kw(
    catalog: HardwareCatalog, hosts: int, nics: int, nic_id: str, server_id: str, kw: float, oversub: float
) -> None:
    nic = catalog.nic(nic_id)
    c = Commercial(rack_power_kw=kw, network_oversubscription=oversub)
    lines = _host_lines(catalog, server_id, nic, nics, hosts)
    out = infrastructure.plan(lines, catalog, c)
    host_ports = hosts * nics * nic.ports
    leaf_line = next(ln for ln in out.lines if ln.role == "leaf switch")
    leaf = catalog.get(leaf_line.part_id)
    assert leaf.speed_gbps == nic.speed_gbps  # type: ignore[union-attr]
    per, up = infrastructure.downlinks(leaf, oversub)  # type: ignore[arg-type]
    assert per * leaf.speed_gbps <= oversub * up * leaf.uplink_speed_gbps + 1e-9  # type: ignore[union-attr]
    leaves = leaf_line.qty
    assert leaves % 2 == 0 and leaves * per >= host_ports
    ports_total = leaf.ports + leaf.uplink_ports  # type: ignore[union-attr]
    assert leaves * ports_total >= host_ports + leaves * up  # every host port plus the uplinks has a port
    assert sum(ln.qty for ln in out.lines if ln.role == "host links") == host_ports
    # racks: every host placed once; U and peak power within budget (a host alone may exceed it, with a warning)
    placed = sum(1 for r in out.racks for s in r.slots if s.kind == "server")
    assert placed == hosts
    for r in out.racks:
        assert r.u_used <= r.u_total
        servers = sum(1 for s in r.slots if s.kind == "server")
        assert r.peak_kw <= r.budget_kw + 1e-6 or (servers == 1 and any(w.code == "rack-power" for w in out.warnings))
        tops = sorted((s.u_bottom, s.u_bottom + s.u_height - 1) for s in r.slots)
        assert all(a[1] < b[0] for a, b in itertools.pairwise(tops))  # nothing overlaps
    assert sum(ln.qty for ln in out.lines if ln.kind == "rack") == len(out.racks)
    if len(out.racks) > 1 or leaves > 2:
        assert any(ln.role == "spine switch" for ln in out.lines)


@pytest.mark.parametrize("purchase", ["upfront", "as-you-grow"])
def test_tco_rows_add_up(catalog: HardwareCatalog, purchase: str) -> None:
    c = Commercial(tco_years=6, purchase=purchase, rack_cost_per_year=9000, currency="EUR")
    s = sample("retail-dw-gen5").model_copy(update={"commercial": c})
    r = size(s, catalog)
    assert [y.year for y in r.tco] == list(range(1, 7))
    running = 0.0
    for y in r.tco:
        assert y.total == total((y.hardware, y.licences, y.support, y.energy, y.space, y.operations))
        running = total((running, y.total))
        assert y.cumulative == running
    assert r.totals.tco == r.tco[-1].cumulative
    perpetual = total(ln.extended_price for ln in r.bom if ln.kind == "licence" and not ln.recurring)
    assert total(y.hardware for y in r.tco) == total((r.totals.capex, -perpetual))
    if purchase == "upfront":
        assert r.tco[0].hardware == total((r.totals.capex, -perpetual))
        assert all(y.hardware == 0 for y in r.tco[1:])
        assert r.tco[0].space == 9000 * r.totals.racks
    else:
        assert r.tco[0].hosts <= r.tco[-1].hosts
        assert r.tco[0].hardware < total((r.totals.capex, -perpetual))


def test_unknown_commercial_ids_are_named(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5").model_copy(update={"commercial": Commercial(switch_id="no-such", licence_ids=["x"])})
    with pytest.raises(SizingInputError) as caught:
        size(s, catalog)
    assert any(str(p).startswith("commercial.switch_id") for p in caught.value.problems)
    assert any(str(p).startswith("commercial.licence_ids[0]") for p in caught.value.problems)


def test_licence_minimum_cores_and_old_prices_are_flagged(catalog: HardwareCatalog) -> None:
    c = Commercial(licence_ids=["vmware-vsphere-standard"], valuation_date=date(2029, 1, 1))
    s = sample("study-000-vsphere").model_copy(update={"commercial": c})
    r = size(s, catalog)
    lic = next(ln for ln in r.bom if ln.kind == "licence")
    server = catalog.server(r.design.server_id)
    hosts = sum(ln.hosts for ln in r.bom if ln.kind == "server")
    assert lic.qty == hosts * server.sockets * max(16, server.cpu.cores)
    codes = {w.code for w in r.warnings}
    assert {"price-old", "price-estimate"} <= codes
    old = next(w for w in r.warnings if w.code == "price-old")
    named = [catalog.get(ln.part_id) for ln in r.bom if ln.part_id in catalog]
    assert any(f"{p.vendor} {p.model} (" in old.text for p in named), old.text  # parts by name
    assert not any(f"{ln.part_id} (" in old.text for ln in r.bom), old.text  # not by catalog id
    assert math.isfinite(r.totals.tco)


def test_the_tco_objective_never_costs_more_over_the_horizon_than_the_capex_one(catalog: HardwareCatalog) -> None:
    from models.optimizer import optimize

    s = sample("retail-dw-gen5")
    by_capex = optimize(s, catalog, objective="capex")
    by_tco = optimize(s, catalog, objective="tco")
    assert by_capex.best_sizing is not None and by_tco.best_sizing is not None
    assert by_tco.objective == "tco"
    assert by_tco.best_sizing.totals.tco <= by_capex.best_sizing.totals.tco
    assert not any(w.code.startswith("target-unmet") for w in by_tco.best_sizing.warnings)


def test_rack_space_and_operations_count_at_their_sourced_defaults_unless_the_scenario_sets_them(
        catalog: HardwareCatalog) -> None:
    """Left empty, a rack costs its power budget at the published colocation rate and a host an administrator's
    wage over the servers one runs, in the project currency (here a 12 kW rack budget, in EUR); 0 counts none; a
    figure the scenario sets is taken as it is. Every year counts them on its racks and hosts."""
    from models.calibration_data import figure

    def sized(**commercial: object) -> SizingResult:
        c = Commercial(currency="EUR", rack_power_kw=12, tco_years=3, **commercial)  # type: ignore[arg-type]
        return size(sample("retail-dw-dual-socket-sas").model_copy(update={"commercial": c}), catalog)

    eur = catalog.rates.rate("USD", "EUR")
    default = sized()
    t = default.totals
    assert t.space_per_rack_year == cents(12 * figure("tco_defaults", "colocation_usd_per_kw_month") * 12 * eur)
    assert t.operations_per_host_year == cents(figure("tco_defaults", "host_operations_usd_per_year") * eur)
    for y in default.tco:
        assert y.space == cents(t.racks * t.space_per_rack_year) and y.space > 0
        assert y.operations == cents(y.hosts * t.operations_per_host_year) and y.operations > 0
    none = sized(rack_cost_per_year=0, host_operations_per_year=0)
    assert all(y.space == 0 and y.operations == 0 for y in none.tco)
    assert none.totals.tco < default.totals.tco
    own = sized(rack_cost_per_year=1234.5, host_operations_per_year=100)
    assert own.tco[0].space == cents(own.totals.racks * 1234.5) and own.tco[0].operations == own.tco[0].hosts * 100
    used = {u.field: u for u in default.values_used}
    assert used["commercial.host_operations_per_year"].value == t.operations_per_host_year
    assert "commercial.rack_cost_per_year" not in {u.field for u in own.values_used}

"""From a sized design to what procurement quotes: the full BOM, totals in one currency, TCO year by year.

`complete` takes any sizer's result (its BOM lists hosts and their parts) and adds boot drives, network,
racks and PDUs (`infrastructure`), licences and support (`software`); the totals are sums of those lines
in the project currency; the TCO rows add purchases, licences, support, energy (with PUE) and rack space.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from models.hardware import HardwareCatalog
from models.money import MissingRateError, cents, total
from models.perf import cost_power
from models.scenario import Scenario
from models.sizing import host_parts, infrastructure, running_costs, software
from models.sizing.result import SCENARIO_WIDE, BomLine, Rationale, SizingResult, TcoYear, Totals, Warning


@dataclass(frozen=True)
class YearState:
    """What the installed design costs to hold in one year, and what it took to buy so far."""

    hosts: int
    hardware_to_date: float  # one-time non-software lines
    perpetual_to_date: float  # perpetual licences
    annual_licences: float
    support: float
    energy: float
    racks: int


def state_of(result: SizingResult, scenario: Scenario) -> YearState:
    bom = result.bom
    hosts = sum(ln.hosts for ln in bom if ln.kind == "server")
    return YearState(
        hosts=hosts,
        hardware_to_date=total(ln.extended_price for ln in bom if not ln.recurring and ln.kind != "licence"),
        perpetual_to_date=total(ln.extended_price for ln in bom if not ln.recurring and ln.kind == "licence"),
        annual_licences=total(ln.extended_price for ln in bom if ln.recurring and ln.kind == "licence"),
        support=total(ln.extended_price for ln in bom if ln.recurring and ln.kind != "licence"),
        energy=result.totals.energy_cost_per_year,
        racks=result.totals.racks,
    )


def tco_rows(states: Sequence[YearState], years: int, rack_cost_per_year: float,
             host_cost_per_year: float = 0.0) -> list[TcoYear]:
    """Year 1..`years`: year y holds states[y-1] (the last state repeats); purchases are the increase; each year
    its racks' space and its hosts' operations.

    >>> s = YearState(4, 1000.0, 100.0, 50.0, 20.0, 10.0, 1)
    >>> [(r.year, r.hardware, r.licences, r.total, r.cumulative) for r in tco_rows([s], 2, 5.0)]
    [(1, 1000.0, 150.0, 1185.0, 1185.0), (2, 0.0, 50.0, 85.0, 1270.0)]
    >>> [(r.operations, r.total) for r in tco_rows([s], 1, 5.0, 100.0)]  # 4 hosts x 100
    [(400.0, 1585.0)]
    """
    rows: list[TcoYear] = []
    bought_hw = bought_perp = 0.0
    cumulative = 0.0
    for y in range(1, years + 1):
        s = states[min(y, len(states)) - 1]
        hw = cents(max(0.0, s.hardware_to_date - bought_hw))
        perp = cents(max(0.0, s.perpetual_to_date - bought_perp))
        bought_hw, bought_perp = max(bought_hw, s.hardware_to_date), max(bought_perp, s.perpetual_to_date)
        licences = total((perp, s.annual_licences))
        space = cents(s.racks * rack_cost_per_year)
        operations = cents(s.hosts * host_cost_per_year)
        year_total = total((hw, licences, s.support, s.energy, space, operations))
        cumulative = total((cumulative, year_total))
        rows.append(TcoYear(y, hw, licences, s.support, s.energy, space, year_total, cumulative, s.hosts, operations))
    return rows


def _valuation_date(scenario: Scenario) -> date:
    return scenario.commercial.valuation_date or date.today()


def _part_name(part_id: str, catalog: HardwareCatalog) -> str:
    """"Dell PowerEdge R720xd (24 SFF)": vendor and model; the id only for a part the catalog no longer has."""
    if part_id in catalog:
        part = catalog.get(part_id)
        return f"{part.vendor} {part.model}"
    return part_id


def price_warnings(lines: Sequence[BomLine], scenario: Scenario, catalog: HardwareCatalog) -> list[Warning]:
    """Old prices, estimates and rates: the report must say which numbers are soft."""
    c = scenario.commercial
    today = _valuation_date(scenario)
    months = c.price_max_age_months
    out: list[Warning] = []

    def age_months(d: date) -> int:
        return (today.year - d.year) * 12 + today.month - d.month

    old = sorted({(ln.price_as_of, ln.part_id) for ln in lines
                  if ln.price_as_of and age_months(date.fromisoformat(ln.price_as_of)) > months})
    if old:
        # parts by name, as the customer reads them in the BOM (the catalog id is for the catalog editor)
        shown = ", ".join(f"{_part_name(pid, catalog)} ({when})" for when, pid in old[:4]) + (
            " ..." if len(old) > 4 else "")
        out.append(Warning("price-old", f"{len(old)} BOM part(s) have prices older than {months} months: {shown}.",
                           "warning", "commercial.price_max_age_months",
                           "Ask for a current quote before this goes to the customer."))
    estimates = sorted({ln.part_id for ln in lines if ln.price_basis == "estimate"})
    if estimates:
        share = total(ln.extended_price for ln in lines if ln.price_basis == "estimate")
        everything = total(ln.extended_price for ln in lines)
        pct = 100.0 * share / everything if everything else 0.0
        out.append(Warning("price-estimate", f"{len(estimates)} BOM part(s) are priced by estimate, not list or "
                                             f"quote ({pct:.0f} % of the BOM total): the totals are estimates.",
                           "warning", SCENARIO_WIDE))
    out += _unpriced(lines, catalog)
    foreign = {ln.source_currency for ln in lines if ln.source_currency and ln.source_currency != c.currency}
    for rate in catalog.rates.used(foreign, c.currency):
        if age_months(rate.as_of) > months:
            out.append(Warning("rate-old", f"The {rate.currency} exchange rate is from {rate.as_of}, older than "
                                           f"{months} months.", "warning", "commercial.currency",
                               f"Update it: refarch catalog rates set {rate.currency} USD_PER_UNIT."))
    return out


def _unpriced(lines: Sequence[BomLine], catalog: HardwareCatalog) -> list[Warning]:
    """Hardware lines whose catalog part has no price (none is public): the quote must price them. A line priced
    outside the catalog (an external SAN's price per TB) has its own warning naming the field that prices it."""
    free = sorted({ln.part_id for ln in lines if ln.price_status == "on_quote" and ln.part_id in catalog})
    if not free:
        return []
    shown = ", ".join(_part_name(pid, catalog) for pid in free[:4]) + (" ..." if len(free) > 4 else "")
    return [Warning("price-missing", f"{len(free)} BOM part(s) have no public list price and are listed on quote: "
                                     f"{shown}. Import the vendor's quote for them (refarch catalog quote) before "
                                     "the totals go to the customer.", "warning", SCENARIO_WIDE)]


def conversions(lines: Sequence[BomLine], catalog: HardwareCatalog, currency: str) -> list[dict[str, object]]:
    """One row per foreign currency the BOM converted: the rate used, its date and the table rows behind it."""
    out: list[dict[str, object]] = []
    for cur in sorted({ln.source_currency for ln in lines if ln.source_currency and ln.source_currency != currency}):
        rows = catalog.rates.used({cur}, currency)
        out.append({"from": cur, "to": currency, "rate": catalog.rates.rate(cur, currency),
                    "as_of": min(r.as_of for r in rows).isoformat() if rows else "",
                    "table": "; ".join(f"1 {r.currency} = {r.usd_per_unit:g} USD ({r.as_of}, {r.source})"
                                       for r in rows)})
    return out


def in_project_currency(lines: Sequence[BomLine], catalog: HardwareCatalog, currency: str,
                        warnings: list[Warning]) -> list[BomLine]:
    """Lines priced outside the catalog (an external SAN's price per TB) converted, so totals never mix currencies.

    Catalog parts arrive converted already; a line with no rate to the project currency is kept at a zero
    price and named in a warning rather than summed in its own currency.
    """
    out: list[BomLine] = []
    for ln in lines:
        if ln.currency == currency:
            out.append(ln)
            continue
        try:
            fx = catalog.rates.rate(ln.currency, currency)
        except MissingRateError:
            warnings.append(Warning("no-rate", f"{ln.description} is priced in {ln.currency} and the rate table has"
                                               f" no rate to {currency}: it is left out of the totals.",
                                    "warning", "commercial.currency"))
            out.append(dataclasses.replace(ln, unit_price=0.0, currency=currency, list_unit_price=None))
            continue
        out.append(dataclasses.replace(
            ln, unit_price=cents(ln.unit_price * fx), currency=currency, source_currency=ln.currency,
            source_unit_price=ln.unit_price, fx_rate=fx,
            list_unit_price=None if ln.list_unit_price is None else cents(ln.list_unit_price * fx),
        ))
    return out


def raid_by_role(result: SizingResult) -> dict[str, str]:
    """The data drives' RAID level (or vSAN policy) of each BOM role: its hosts' layout, else the design's."""
    out = {h.bom_role: h.raid for h in result.design.hosts}
    for ln in result.bom:
        out.setdefault(ln.role, result.design.raid)
    return out


def guests_by_role(result: SizingResult, scenario: Scenario) -> dict[str, int]:
    """The virtual machines each BOM role runs on vSphere (none on bare metal): an OS subscription per 1-2 VMs
    counts them, as the guests run the OS."""
    out: dict[str, int] = {}
    if scenario.platform.deployment != "vsphere":
        return out
    for h in result.design.hosts:
        out[h.bom_role] = out.get(h.bom_role, 0) + h.count * len(h.vms)
    return out


def complete(result: SizingResult, scenario: Scenario, catalog: HardwareCatalog,
             left_out: dict[str, str] | None = None) -> SizingResult:
    """The result with its full BOM, totals in the project currency, racks, TCO and price warnings."""
    c = scenario.commercial
    a = scenario.assumptions
    built = host_parts.plan(result.bom, catalog, scenario, raid_by_role(result))
    infra = infrastructure.plan(built.lines, catalog, c, scenario.platform.deployment == "vsphere")
    warnings: list[Warning] = built.warnings + infra.warnings
    lines = in_project_currency(built.lines + infra.lines, catalog, c.currency, warnings)
    groups = infrastructure.host_groups(lines, catalog)
    rationale: list[Rationale] = built.rationale + infra.rationale
    vsan = result.design.raid.startswith("vsan-")
    licensed = software.licence_lines(software.Licensing(
        scenario, catalog, result.design.data_needed_tb, guests_by_role(result, scenario), vsan,
        result.design.raw_capacity_tb if vsan else 0.0), groups)
    lines += licensed[0]
    rationale += licensed[1]
    warnings += licensed[2]
    hardware = [ln for ln in lines if ln.category == "compute"]
    software.support_lines(scenario, groups, catalog, hardware, lines, rationale, warnings)
    warnings += price_warnings(lines, scenario, catalog)
    if left_out:
        by_cur = sorted(set(left_out.values()))
        warnings.append(Warning("no-rate", f"{len(left_out)} catalog part(s) priced in {', '.join(by_cur)} were not "
                                           f"considered: no exchange rate to {c.currency} in the rate table.",
                                "warning", "commercial.currency"))

    power_w = result.totals.power_w + infra.network_w + built.watts
    kwh = float(cost_power.annual_kwh(power_w * a.pue))
    energy_year = cents(float(cost_power.energy_cost(kwh, a.energy_price_per_kwh, 1)))
    rack_u = sum(r.u_used for r in infra.racks) or result.totals.rack_u
    capex = total(ln.extended_price for ln in lines if not ln.recurring)
    recurring = total(ln.extended_price for ln in lines if ln.recurring)
    list_total = total(cents((ln.list_unit_price if ln.list_unit_price is not None else ln.unit_price) * ln.qty)
                       for ln in lines)
    totals = Totals(
        capex=capex, power_w=round(power_w, 1), rack_u=int(rack_u), currency=c.currency,
        kwh_per_year=round(kwh, 1), energy_cost_3y=cents(energy_year * 3), recurring_per_year=recurring,
        energy_cost_per_year=energy_year, racks=len(infra.racks), tco_years=c.tco_years, list_total=list_total,
        space_per_rack_year=running_costs.rack_cost_per_year(scenario, catalog.rates),
        operations_per_host_year=running_costs.host_cost_per_year(scenario, catalog.rates),
    )
    done = dataclasses.replace(
        result, bom=tuple(lines), totals=totals, racks=tuple(infra.racks),
        rationale=result.rationale + tuple(rationale), warnings=result.warnings + tuple(warnings),
        exchange_rates=tuple(conversions(lines, catalog, c.currency)),
    )
    return with_tco(done, [state_of(done, scenario)], scenario)


def with_tco(result: SizingResult, states: Sequence[YearState], scenario: Scenario) -> SizingResult:
    c, t = scenario.commercial, result.totals
    rows = tco_rows(states, c.tco_years, t.space_per_rack_year, t.operations_per_host_year)
    totals = dataclasses.replace(result.totals, tco=rows[-1].cumulative if rows else 0.0)
    return dataclasses.replace(result, tco=tuple(rows), totals=totals)

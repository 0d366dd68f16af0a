"""`refarch size SCENARIO.json`: the explained design for one scenario."""

from __future__ import annotations

import argparse
from functools import partial
from typing import TYPE_CHECKING, Any

from app.cli.catalog_access import load_catalog
from app.cli.output import format_table, print_json
from app.cli.scenario_files import add_scenario_option, print_each, read_inputs, size_or_fail
from app.formatting import bare, money, money_figure, number, power, priced_amount, rack_power, rate, unit_text
from app.views.design import DATABASE_COLUMNS, database_rows, design_rows
from app.views.ownership import ownership
from models.release_words import role_label
from models.vocabulary import deployment_label, kind_label, metric_label

if TYPE_CHECKING:
    from models.sizing.result import SizingResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("size", help="size one scenario file: design, estimates, BOM, rationale, warnings")
    p.add_argument("scenario", help="scenario JSON file, or a .refarch.json project (all its scenarios or --scenario)")
    add_scenario_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    inputs = read_inputs([args.scenario], args.scenario_names)
    catalog = load_catalog(args.db)
    results = [size_or_fail(i.scenario, catalog, i.label) for i in inputs]
    if args.format == "json":
        print_each([r.to_dict() for r in results], print_json)
    else:
        print_each([render_text(r) for r in results], print)
    return 0


def render_text(r: SizingResult) -> str:
    d = r.design
    lines = [f"Scenario: {r.scenario_name}  ({kind_label(d.kind)}, {deployment_label(d.deployment)})", ""]
    lines.append("Design")
    facts = design_rows(r)
    width = max(len(f.label) for f in facts)
    lines += [f"  {f.label.ljust(width)}  {f.text}" for f in facts]
    label = partial(role_label, version=d.greenplum_version)  # Greenplum 6 says master where 7 says coordinator
    lines += ["", f"Estimates (P10 / P50 / P90; binding resource: {label(r.binding_resource)})"]
    labels = {name: metric_label(name) for name in r.estimates}
    label_w = max((len(v) for v in labels.values()), default=0)
    for name, e in r.estimates.items():
        p10, p50, p90 = (bare(v, e.unit) for v in (e.p10, e.p50, e.p90))
        lines.append(f"  {labels[name]:<{label_w}} {p10:>12} {p50:>12} {p90:>12}  {unit_text(e.unit)}")
    if dbs := database_rows(r):
        lines += ["", "Databases (TPS each one's VM carries for it at the busiest hour)",
                  format_table([dict(zip(DATABASE_COLUMNS, row.cells(), strict=True)) for row in dbs],
                               list(DATABASE_COLUMNS))]
    cur = r.totals.currency  # BOM prices are in the totals' currency: the column headings name it
    lines += ["", "Bill of materials"]
    rows = [
        {"kind": b.kind, "role": label(b.role), "part": b.description, "part number": b.part_number or "-",
         "qty/host": b.qty_per_host, "hosts": b.hosts,
         f"list ({cur})": priced_amount(b.list_unit_price if b.list_unit_price is not None else b.unit_price,
                                        b.price_status),
         f"net ({cur})": priced_amount(b.unit_price, b.price_status),
         f"extended ({cur})": priced_amount(b.extended_price, b.price_status, b.recurring),
         "basis": b.price_basis + (f" {b.source_currency}" if b.source_currency not in ("", b.currency) else ""),
         "catalog id": b.part_id}
        for b in r.bom
    ]
    lines.append(format_table(rows, ["kind", "role", "part", "part number", "qty/host", "hosts", f"list ({cur})",
                                     f"net ({cur})", f"extended ({cur})", "basis", "catalog id"]))
    t = r.totals
    quote = ownership(r).quote_clause
    capex = money(t.capex, t.currency) + (f" ({quote})" if quote else "")
    lines += ["", f"Capex {capex}   Recurring {money(t.recurring_per_year, t.currency)}/year"
              f"   (BOM {money(t.bom_total, t.currency)}; at list prices {money(t.list_total, t.currency)})",
              f"Power {power(t.power_w)}   Racks {t.racks} ({t.rack_u} U)   Energy {number(t.kwh_per_year)} kWh/year"]
    if r.tco:
        lines += ["", f"Cost of ownership over {t.tco_years} years ({t.currency})"]
        tco = [{"year": y.year, "hosts": y.hosts, "hardware": money_figure(y.hardware),
                "licences": money_figure(y.licences), "support": money_figure(y.support),
                "energy": money_figure(y.energy), "space": money_figure(y.space),
                "operations": money_figure(y.operations), "total": money_figure(y.total),
                "cumulative": money_figure(y.cumulative)} for y in r.tco]
        lines.append(format_table(tco, ["year", "hosts", "hardware", "licences", "support", "energy", "space",
                                        "operations", "total", "cumulative"]))
    if r.racks:
        lines += ["", "Racks"]
        for rack in r.racks:
            lines.append(f"  {rack.name}: {rack.u_used}/{rack.u_total} U, "
                         f"{rack_power(rack.peak_kw, rack.budget_kw)}")
    if r.exchange_rates:
        lines += ["", "Exchange rates used"]
        for x in r.exchange_rates:
            lines.append(f"  1 {x['from']} = {rate(x['rate'])} {x['to']} (as of {x['as_of']}; {x['table']})")
    if d.settings:
        lines += ["", "Settings (refarch config writes them as files)"]
        for g in d.settings:
            values = ", ".join(f"{s.name}={_value(s.value)}{(' ' + s.unit) if s.unit else ''}" for s in g.settings)
            lines.append(f"  {g.product} [{label(g.target)}]: {values}")
    if r.calibration is not None:
        lines += calibration_lines(r.calibration)
    lines += ["", "Rationale"]
    lines += [f"  - {label(x.decision)}: {x.text} [{x.source_text}]" for x in r.rationale]
    if r.warnings:
        lines += ["", "Warnings"]
        lines += [f"  ! {label(w.title)} [{w.code}]: {w.full_text}" for w in r.warnings]
    return "\n".join(lines)


def _value(value: object) -> object:
    """A setting's value as the product reads it: booleans on/off (gpconfig, postgresql.conf), as the PDF has them."""
    return ("on" if value else "off") if isinstance(value, bool) else value


def calibration_lines(cal: dict[str, Any]) -> list[str]:
    """The measured-vs-modelled section (`app.views.calibration`), when the scenario names measurement profiles."""
    from app.views.calibration import rows, summary

    table = [{"resource": r.resource, "unit": r.unit, "modelled": r.modelled, "measured": r.measured,
              "ratio": r.ratio, "verdict": r.verdict, "slow hosts": r.slow_hosts} for r in rows(cal)]
    out = ["", f"Measured vs modelled ({', '.join(cal['profiles'])})", f"  {summary(cal)}"]
    out.append(format_table(table, ["resource", "unit", "modelled", "measured", "ratio", "verdict", "slow hosts"]))
    out += [f"  {r.resource}: {r.changes}" for r in rows(cal)]
    if cal["no_good_links"]:
        out.append(f"  no good links: {', '.join(cal['no_good_links'])}")
    out += [f"  note: {n}" for n in cal["notes"]]
    return out

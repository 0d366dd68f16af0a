"""`refarch growth SCENARIO.json`: year-by-year data, hosts and expansion capex on the design's hardware."""

from __future__ import annotations

import argparse

from app.cli.catalog_access import load_catalog
from app.cli.errors import service_errors
from app.cli.output import format_table, print_json
from app.cli.scenario_files import add_scenario_option, print_each, read_inputs
from app.formatting import money, number


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("growth", help="year-by-year growth: data, hosts needed, capex of each expansion")
    p.add_argument("scenario", help="scenario JSON file, or a .refarch.json project (all its scenarios or --scenario)")
    add_scenario_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.services.whatif import growth

    inputs = read_inputs([args.scenario], args.scenario_names)
    catalog = load_catalog(args.db)
    out: list[object] = []
    for i in inputs:
        scenario = i.scenario
        with service_errors():
            result, years = growth(scenario, catalog, i.label)
        if args.format == "json":
            out.append({"scenario": scenario.name, "years": [y.to_dict() for y in years]})
        else:
            cur = result.totals.currency  # as the PDF's "Buy as you grow": TB to three digits, money with its currency
            rows = [{"year": y.year, "data_tb": number(y.data_tb), "data_on_disk_tb": number(y.data_on_disk_tb),
                     "hosts": y.hosts, "capex_total": money(y.capex_total, cur),
                     "capex_expansion": money(y.capex_expansion, cur)} for y in years]
            out.append(format_table(rows, ["year", "data_tb", "data_on_disk_tb", "hosts", "capex_total",
                                           "capex_expansion"]))
    print_each(out, print_json if args.format == "json" else print, [i.scenario.name for i in inputs])
    return 0

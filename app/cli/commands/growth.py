"""`refarch growth SCENARIO.json`: year-by-year data, hosts and expansion capex on the design's hardware."""

from __future__ import annotations

import argparse

from app.cli.catalog_access import load_catalog
from app.cli.output import format_table, print_json
from app.cli.scenario_files import read_scenario, size_or_fail


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("growth", help="year-by-year growth: data, hosts needed, capex of each expansion")
    p.add_argument("scenario")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from models.whatif import growth

    scenario = read_scenario(args.scenario)
    catalog = load_catalog(args.db)
    result = size_or_fail(scenario, catalog, args.scenario)
    years = growth(scenario, catalog, result)
    if args.format == "json":
        print_json({"scenario": scenario.name, "years": [y.to_dict() for y in years]})
    else:
        print(format_table([y.to_dict() for y in years],
                           ["year", "data_tb", "data_on_disk_tb", "hosts", "capex_total", "capex_expansion"]))
    return 0

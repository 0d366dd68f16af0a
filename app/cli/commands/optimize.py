"""`refarch optimize SCENARIO.json`: the cheapest design over the whole catalog and the Pareto front."""

from __future__ import annotations

import argparse

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError
from app.cli.output import format_table, print_json
from app.cli.scenario_files import read_scenario


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("optimize", help="search the catalog for the cheapest design meeting the targets")
    p.add_argument("scenario", help="scenario JSON file (Greenplum kinds)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--top", type=int, default=10, help="Pareto designs to show (default 10)")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from models.optimizer import optimize
    from models.sizing.parts import SizingInputError

    if args.top < 1:
        raise CliError("--top must be at least 1")
    scenario = read_scenario(args.scenario)
    catalog = load_catalog(args.db)
    if not catalog.servers or not catalog.drives:
        # not bad input: there is simply nothing to search
        print("No design to search: the catalog has no servers or no drives. Seed it (`refarch catalog seed`)"
              " or import parts (`refarch catalog import FILE`).")
        return 1
    try:
        result = optimize(scenario, catalog)
    except SizingInputError as exc:
        raise CliError(f"cannot optimize {args.scenario}", exc.problems) from None
    best_json = None
    if result.best is not None and result.best_sizing is not None:
        s = result.best_sizing.to_dict()
        best_json = {"platform": result.best.platform(scenario), "design": s["design"], "totals": s["totals"],
                     "estimates": s["estimates"], "warnings": s["warnings"]}
    if args.format == "json":
        print_json({"main_metric": result.main_metric, "evaluated": result.evaluated, "feasible": result.feasible,
                    "best": best_json, "pareto": [p.to_dict() for p in result.pareto[: args.top]],
                    "unmet": result.unmet})
        return 0
    print(f"Evaluated {result.evaluated:,} candidate designs; {result.feasible:,} meet every target.")
    if result.best is None:
        print("No feasible design. Targets no candidate meets:")
        for text in result.unmet.values():
            print(f"  - {text}")
    else:
        b = result.best
        print(f"Cheapest: {b.segment_hosts} x {b.server_id}, {b.drives_per_host} x {b.drive_id}, {b.deployment},"
              f" {b.raid}: capex {result.best_sizing.totals.capex:,.2f}"  # type: ignore[union-attr]
              f" {result.best_sizing.totals.currency}, {result.main_metric} {b.main_value:,.1f}")  # type: ignore[union-attr]
    rows = [{"server": p.server_id, "drive": f"{p.drives_per_host} x {p.drive_id}", "deploy": p.deployment,
             "raid": p.raid, "hosts": p.segment_hosts, "capex": p.capex, "power_w": p.power_w,
             result.main_metric: p.main_value} for p in result.pareto[: args.top]]
    if rows:
        print("\nPareto front (capex, " + result.main_metric + ", power):")
        print(format_table(rows, list(rows[0].keys())))
    return 0

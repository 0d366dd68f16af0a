"""`refarch optimize SCENARIO.json`: the cheapest design over the whole catalog and the Pareto front."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError
from app.cli.output import format_table, print_json
from app.formatting import money, number, power

if TYPE_CHECKING:
    from app.services.optimize import OptimizationResult
    from models.scenario import Scenario
from app.cli.scenario_files import add_scenario_option, read_inputs


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("optimize", help="search the catalog for the cheapest design meeting the targets")
    p.add_argument("scenario", help="scenario JSON file (Greenplum kinds), or a .refarch.json project (all its"
                                    " scenarios, or --scenario NAME)")
    add_scenario_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--top", type=int, default=10, help="Pareto designs to show (default 10)")
    p.add_argument("--objective", choices=("capex", "tco"), default=None,
                   help="minimise capex or the N-year cost of ownership (default: the scenario's "
                        "commercial.optimize_for, else tco)")
    p.add_argument("--any-deployment", action="store_true",
                   help="try bare metal and vSphere both (default: the scenario's platform.deployment); the RAID level"
                        " is the scenario's platform.raid, every level where it is null")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.services.errors import ServiceError
    from app.services.optimize import optimize

    if args.top < 1:
        raise CliError("--top must be at least 1")
    inputs = read_inputs([args.scenario], args.scenario_names)
    catalog = load_catalog(args.db)
    if not catalog.servers or not catalog.drives:
        # not bad input: there is simply nothing to search
        print("No design to search: the catalog has no servers or no drives. Seed it (`refarch catalog seed`)"
              " or import parts (`refarch catalog import FILE`).")
        return 1
    reports = []
    for n, i in enumerate(inputs):
        try:
            # each reported front design is fully sized (`size`): only the --top shown ones
            result = optimize(i.scenario, catalog, args.objective, i.label, pareto_limit=args.top,
                              any_deployment=args.any_deployment)
        except ServiceError as exc:
            if len(inputs) > 1 and not args.scenario_names:  # a whole project: optimize what can be, say what not
                print(f"refarch: note: {i.label} left out: {'; '.join(str(p) for p in exc.problems)}", file=sys.stderr)
                continue
            raise CliError(exc.message, [str(p) for p in exc.problems]) from None
        if args.format == "text" and len(inputs) > 1:
            print(("\n" if n else "") + f"== {i.scenario.name} ==")
        reports.append(_report(args, i.scenario, result))
    if not reports:
        raise CliError(f"nothing to optimize in {args.scenario}: the optimizer covers Greenplum kinds")
    if args.format == "json":
        print_json(reports[0] if len(reports) == 1 else reports)
    return 0


def _report(args: argparse.Namespace, scenario: Scenario, result: OptimizationResult) -> dict[str, object]:
    best_json = None
    if result.best is not None and result.best_sizing is not None:
        s = result.best_sizing.to_dict()
        best_json = {"platform": result.best.platform(scenario), "design": s["design"], "totals": s["totals"],
                     "estimates": s["estimates"], "warnings": s["warnings"]}
    report: dict[str, object] = {
        "scenario": scenario.name, "main_metric": result.main_metric, "evaluated": result.evaluated,
        "feasible": result.feasible, "best": best_json, "pareto": [p.to_dict() for p in result.pareto[: args.top]],
        "unmet": result.unmet, "objective": result.objective, "currency": scenario.commercial.currency,
        "kept": list(result.kept)}
    if args.format == "json":
        return report
    print(f"Evaluated {number(result.evaluated)} candidate designs; {number(result.feasible)} meet every target.")
    for text in result.kept:
        hint = " (--any-deployment tries bare metal and vSphere)" if text.startswith("deployment") else ""
        print(f"  {text[0].upper()}{text[1:]}{hint}.")
    if result.best is None:
        print("No feasible design. Targets no candidate meets:")
        for text in result.unmet.values():
            print(f"  - {text}")
    else:
        b = result.best
        assert result.best_sizing is not None  # sized with the pick (models.optimizer sets both or neither)
        t = result.best_sizing.totals
        what = "Cheapest" if result.objective == "capex" else f"Lowest {t.tco_years}-year TCO"
        print(f"{what}: {b.segment_hosts} x {b.server_id}, {b.drives_per_host} x {b.drive_id}, {b.deployment},"
              f" {b.raid}: capex {money(t.capex, t.currency, cents=False)},"
              f" {t.tco_years}-year TCO {money(t.tco, t.currency, cents=False)},"
              f" {result.main_metric} {number(b.main_value)}")
    # capex in whole units with its currency, power and the main estimate as the optimizer window shows them
    currency = scenario.commercial.currency  # the optimizer prices every candidate in it, feasible or not
    rows = [{"server": p.server_id, "drive": f"{p.drives_per_host} x {p.drive_id}", "deploy": p.deployment,
             "raid": p.raid, "hosts": p.segment_hosts, "capex": money(p.capex, currency, cents=False),
             "power": power(p.power_w),
             result.main_metric: number(p.main_value)} for p in result.pareto[: args.top]]
    if rows:
        print("\nPareto front (capex, " + result.main_metric + ", power):")
        print(format_table(rows, list(rows[0].keys())))
    return report

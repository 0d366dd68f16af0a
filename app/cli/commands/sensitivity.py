"""`refarch sensitivity SCENARIO.json`: capex and main estimate for +-20 % on each main input (a tornado)."""

from __future__ import annotations

import argparse

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError
from app.cli.output import format_table, print_json
from app.cli.scenario_files import read_scenario, size_or_fail


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sensitivity", help="tornado: capex and main estimate for +-20 %% on each main input")
    p.add_argument("scenario")
    p.add_argument("--delta-pct", type=float, default=20.0, help="change applied to each input (default 20)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from models.whatif import sensitivity

    if not 0 < args.delta_pct < 100:
        raise CliError(f"--delta-pct must be between 0 and 100 (got {args.delta_pct:g})")
    scenario = read_scenario(args.scenario)
    catalog = load_catalog(args.db)
    result = size_or_fail(scenario, catalog, args.scenario)
    bars = sensitivity(scenario, catalog, args.delta_pct / 100.0, result)
    if args.format == "json":
        print_json({"scenario": scenario.name, "main_metric": result.main_metric, "delta_pct": args.delta_pct,
                    "bars": [b.to_dict() for b in bars]})
    else:
        print(f"Main estimate: {result.main_metric}; each input -{args.delta_pct:g} % / +{args.delta_pct:g} %")
        print(format_table([b.to_dict() for b in bars],
                           ["input", "low_capex", "high_capex", "capex_swing", "low_main", "high_main"]))
    return 0

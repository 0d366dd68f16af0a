"""`refarch sensitivity SCENARIO.json`: capex and main estimate for +-20 % on each main input (a tornado)."""

from __future__ import annotations

import argparse

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError, service_errors
from app.cli.output import format_table, print_json
from app.cli.scenario_files import add_scenario_option, print_each, read_inputs
from app.formatting import money, number, significant


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("sensitivity", help="tornado: capex and main estimate for +-20 %% on each main input")
    p.add_argument("scenario", help="scenario JSON file, or a .refarch.json project (all its scenarios or --scenario)")
    add_scenario_option(p)
    p.add_argument("--delta-pct", type=float, default=20.0, help="change applied to each input (default 20)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.services.whatif import sensitivity

    if not 0 < args.delta_pct < 100:
        raise CliError(f"--delta-pct must be between 0 and 100 (got {significant(args.delta_pct)})")
    inputs = read_inputs([args.scenario], args.scenario_names)
    catalog = load_catalog(args.db)
    out: list[object] = []
    for i in inputs:
        scenario = i.scenario
        with service_errors():
            result, bars = sensitivity(scenario, catalog, args.delta_pct / 100.0, i.label)
        if args.format == "json":
            out.append({"scenario": scenario.name, "main_metric": result.main_metric, "delta_pct": args.delta_pct,
                        "bars": [b.to_dict() for b in bars]})
        else:
            cur = result.totals.currency
            cont = any(b.base_main_continuous is not None for b in bars)
            rows = [{"input": b.input + (" *" if b.host_rounding else ""), "low_capex": money(b.low_capex, cur),
                     "high_capex": money(b.high_capex, cur), "capex_swing": money(b.swing, cur),
                     "low_main": number(b.low_main), "high_main": number(b.high_main),
                     "low_cont": _maybe(b.low_main_continuous), "high_cont": _maybe(b.high_main_continuous),
                     "hosts": f"{b.low_hosts} / {b.base_hosts} / {b.high_hosts}"} for b in bars]
            note = ("\n* whole hosts decide this bar: both ends move the estimate the same way from the base because"
                    " the host count steps (hosts: low / base / high)") if any(b.host_rounding for b in bars) else ""
            if cont:
                note += (f"\nlow_cont / high_cont: the main estimate on each design's continuous host count (what the"
                         f" data or the target needs, not whole hosts; base {number(bars[0].base_main_continuous)})")
            out.append(f"Main estimate: {result.main_metric}; each input -{number(args.delta_pct)} % / "
                       f"+{number(args.delta_pct)} %; every bar is a whole design (host counts are whole)\n"
                       + format_table(rows, ["input", "low_capex", "high_capex", "capex_swing", "low_main",
                                             "high_main", *(["low_cont", "high_cont"] if cont else []), "hosts"])
                       + note)
    print_each(out, print_json if args.format == "json" else print, [i.scenario.name for i in inputs])
    return 0


def _maybe(value: float | None) -> str:
    return "-" if value is None else number(value)

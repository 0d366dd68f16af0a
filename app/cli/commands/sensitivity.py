"""`refarch sensitivity SCENARIO.json`: capex and main estimate for +-20 % on each main input (a tornado)."""

from __future__ import annotations

import argparse

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError, service_errors
from app.cli.output import format_table, print_json
from app.cli.scenario_files import add_scenario_option, print_each, read_inputs
from app.formatting import number, significant
from app.views.sensitivity import SensitivityView, sensitivity_view


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
            out.append(_text(sensitivity_view(result, bars, args.delta_pct)))
    print_each(out, print_json if args.format == "json" else print, [i.scenario.name for i in inputs])
    return 0


def _text(v: SensitivityView) -> str:
    """The tornado as a table: whole-host ends, the continuous ends beside them (or the statement of rounding)."""
    rows = [{"input": r.input + (" *" if r.host_rounding else ""), "low_capex": r.low_capex, "high_capex": r.high_capex,
             "capex_swing": r.capex_swing, "low_main": r.low_main, "high_main": r.high_main,
             "low_cont": r.low_continuous, "high_cont": r.high_continuous, "hosts": r.hosts,
             "hosts_cont": r.hosts_continuous} for r in v.rows]
    columns = ["input", "low_capex", "high_capex", "capex_swing", "low_main", "high_main",
               *(["low_cont", "high_cont"] if v.continuous else []), "hosts", *(["hosts_cont"] if v.continuous else [])]
    base = f"base {v.base_main} on {v.base_hosts}" + (f", {v.base_continuous} on {v.base_hosts_continuous} continuous"
                                                      if v.continuous else "")
    head = (f"Main estimate: {v.metric} ({v.metric_label}, {v.unit} P50; {base}); each input"
            f" -{number(v.delta_pct)} % / +{number(v.delta_pct)} %; every bar's ends are whole designs")
    notes = [n for n in (v.step_note, ("low_cont / high_cont, hosts_cont: " if v.continuous else "") + v.rounding_note)
             if n]
    return "\n".join([head, format_table(rows, columns), *notes])

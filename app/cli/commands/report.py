"""`refarch report A.json [B.json ...] -o OUT.pdf`: the design report an architect hands to a customer.

One scenario gives a design report; several give the same per scenario plus a comparison and
a table of contents. `--bom-csv` / `--bom-xlsx` write the bill of materials with the same
lines and totals. `--energy-price` overrides every scenario's `assumptions.energy_price_per_kwh`
before sizing, so the energy cost in the report is the engine's at that price. Every output
is checked before anything is rendered and written atomically.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError
from app.cli.scenario_files import add_scenario_option, read_inputs, size_or_fail

if TYPE_CHECKING:
    from models.hardware import HardwareCatalog
    from models.scenario import Scenario
    from models.sizing.result import SizingResult
    from models.whatif import GrowthYear


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="write the PDF design report (and the BOM as CSV / XLSX) for one or more scenario files",
        description="Size the scenarios and write a PDF report: design, BOM, cost and power, estimates, rationale, "
        "warnings, model fit. Several scenarios add a comparison and a table of contents.",
    )
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO",
                   help="scenario JSON files or .refarch.json projects (all their scenarios, or --scenario NAME)")
    add_scenario_option(p)
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="the PDF to write")
    p.add_argument("--bom-csv", metavar="OUT.csv", help="also write the bill of materials as CSV")
    p.add_argument("--bom-xlsx", metavar="OUT.xlsx", help="also write the bill of materials as an Excel workbook")
    p.add_argument("--energy-price", type=float, metavar="P",
                   help="energy price per kWh in the BOM currency (default: each scenario's assumptions)")
    p.add_argument("--title", help="the report title (default: the scenario name, or 'Design options')")
    p.add_argument("--no-growth", action="store_true", help="leave out the year-by-year growth plan")
    p.set_defaults(handler=_run)


def _outputs(args: argparse.Namespace) -> list[Path]:
    from app.export.atomic import ExportError, check_writable

    outs = [Path(args.output)] + [Path(p) for p in (args.bom_csv, args.bom_xlsx) if p]
    problems = []
    resolved = [o.resolve() for o in outs]
    if len(set(resolved)) != len(resolved):
        problems.append("the PDF, CSV and XLSX outputs must be different files")
    for o in outs:
        try:
            check_writable(o)
        except ExportError as exc:
            problems.append(f"{o}: {exc}")
    if problems:
        raise CliError("cannot write the report", problems)
    return outs


def _with_energy_price(scenario: Scenario, price: float | None) -> Scenario:
    if price is None:
        return scenario
    from pydantic import ValidationError

    from models.scenario import Assumptions, describe_validation_error

    try:
        assumptions = Assumptions.model_validate({**scenario.assumptions.model_dump(), "energy_price_per_kwh": price})
    except ValidationError as exc:
        raise CliError("invalid --energy-price", describe_validation_error(exc)) from None
    return scenario.model_copy(update={"assumptions": assumptions})


def _growth(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult, path: str) -> list[GrowthYear] | None:
    from models.sizing.engine import SizingInputError
    from models.whatif import growth

    try:
        return growth(scenario, catalog, result)
    except (SizingInputError, ValueError) as exc:  # the report is still useful without the plan; say why
        print(f"refarch: note: {path}: growth plan left out ({exc})", file=sys.stderr)
        return None


def _run(args: argparse.Namespace) -> int:
    from app.export.atomic import ExportError

    if args.energy_price is not None and not 0 <= args.energy_price <= 10:
        raise CliError("invalid --energy-price", [f"{args.energy_price:g} is outside 0 to 10 per kWh"])
    inputs = read_inputs(args.scenarios, args.scenario_names)
    scenarios = [_with_energy_price(i.scenario, args.energy_price) for i in inputs]
    labels = [i.label for i in inputs]
    pdf, *_ = _outputs(args)
    catalog = load_catalog(args.db)
    results = [size_or_fail(s, catalog, p) for s, p in zip(scenarios, labels, strict=True)]
    growth = None if args.no_growth else [
        _growth(s, catalog, r, p) for s, r, p in zip(scenarios, results, labels, strict=True)
    ]

    from models.sizing.curves import host_counts, main_metric_curve

    curves = [main_metric_curve(s, catalog, host_counts(r.design.segment_hosts), r)
              for s, r in zip(scenarios, results, strict=True)]
    from app.export import bom_table, render_report, write_bom_csv, write_bom_xlsx

    written = []
    try:
        render_report(results, scenarios, pdf, growth=growth, curves=curves, title=args.title)
        written.append(str(pdf))
        tables = [bom_table(r, s.customer) for r, s in zip(results, scenarios, strict=True)]
        if args.bom_csv:
            write_bom_csv(tables, args.bom_csv)
            written.append(args.bom_csv)
        if args.bom_xlsx:
            write_bom_xlsx(tables, args.bom_xlsx)
            written.append(args.bom_xlsx)
    except (ExportError, OSError) as exc:
        raise CliError("cannot write the report", [str(exc)]) from None
    for w in written:
        print(f"wrote {w}")
    return 0

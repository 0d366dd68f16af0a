"""`refarch report A.json [B.json ...] -o OUT.pdf`: the design report an architect hands to a customer.

One scenario gives a design report; several give the same per scenario plus a comparison and
a table of contents. `--bom-csv` / `--bom-xlsx` write the bill of materials with the same
lines and totals; `--docx` the report as an editable Word document, `--pptx` a short deck (cover, options,
key figures, racks, BOM summary) from the same rows. `--energy-price` overrides every scenario's
`assumptions.energy_price_per_kwh` before sizing, so the energy cost in the report is the engine's at that price.
Every output is checked before anything is rendered and written atomically.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError, service_errors
from app.cli.scenario_files import add_scenario_option, read_inputs
from app.formatting import significant
from app.views.edition import AUDIENCES

if TYPE_CHECKING:
    from models.scenario import Scenario


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    p.add_argument("--docx", metavar="OUT.docx", help="also write the report as an editable Word document")
    p.add_argument("--pptx", metavar="OUT.pptx",
                   help="also write a short PowerPoint deck: cover, options, key figures, racks, BOM summary")
    p.add_argument("--energy-price", type=float, metavar="P",
                   help="energy price per kWh in the BOM currency (default: each scenario's assumptions)")
    p.add_argument("--title", help="the report title (default: the scenario name, or 'Design options')")
    p.add_argument("--audience", choices=AUDIENCES, default="customer",
                   help="customer (default): no catalog or model ids, no instructions to the team, only the models"
                   " the designs use; internal: everything (the PDF, DOCX and PPTX alike)")
    p.add_argument("--no-growth", action="store_true", help="leave out the year-by-year growth plan")
    p.add_argument("--sensitivity", action="store_true",
                   help="add each design's tornado: capex and main estimate for +-20 %% on each main input, on whole"
                   " and continuous host counts (a dozen sizings per scenario)")
    p.set_defaults(handler=_run)


def _with_energy_price(scenario: Scenario, price: float | None) -> Scenario:
    if price is None:
        return scenario
    from pydantic import ValidationError

    from models.scenario import Assumptions, describe_validation_error

    try:
        assumptions = Assumptions.model_validate({**scenario.assumptions.model_dump(), "energy_price_per_kwh": price})
    except ValidationError as exc:
        raise CliError("invalid --energy-price", [str(p) for p in describe_validation_error(exc)]) from None
    return scenario.model_copy(update={"assumptions": assumptions})


def _run(args: argparse.Namespace) -> int:
    """The report use case of `app.services.report` (File > Export > PDF report calls the same)."""
    from app.services import report

    if args.energy_price is not None and not 0 <= args.energy_price <= 10:
        raise CliError("invalid --energy-price", [f"{significant(args.energy_price)} is outside 0 to 10 per kWh"])
    inputs = read_inputs(args.scenarios, args.scenario_names)
    scenarios = [_with_energy_price(i.scenario, args.energy_price) for i in inputs]
    pdf = Path(args.output)
    csv, xlsx, docx, pptx = (Path(p) if p else None for p in (args.bom_csv, args.bom_xlsx, args.docx, args.pptx))
    with service_errors():
        report.check_outputs([p for p in (pdf, csv, xlsx, docx, pptx) if p is not None])
        catalog = load_catalog(args.db)
        sized = report.size_for_report(scenarios, catalog, [i.label for i in inputs], with_growth=not args.no_growth,
                                       with_sensitivity=args.sensitivity)
        for note in sized.notes:
            print(f"refarch: note: {note}", file=sys.stderr)
        written = report.write_report(sized, pdf, bom_csv=csv, bom_xlsx=xlsx, docx=docx, pptx=pptx,
                                     title=args.title, audience=args.audience)
    for w in written:
        print(f"wrote {w}")
    return 0

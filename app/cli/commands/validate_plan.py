"""`refarch validate-plan SCENARIO -o DIR`: the measurements to take on the delivered hosts, with the design's
acceptance thresholds (`app.services.validation_plan`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.catalog_access import load_catalog
from app.cli.errors import service_errors
from app.cli.scenario_files import read_scenario


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "validate-plan",
        help="write the gpcheckperf/pgbench plan and acceptance thresholds that validate a Greenplum design",
        description="Host files, gpcheckperf commands (disk and stream per host, network bisection and matrix), "
                    "for Greenplum OLTP a pgbench client sweep, thresholds.json and a README whose thresholds are "
                    "the design's own assumptions. `refarch measure import ... --plan DIR` checks the results.",
    )
    p.add_argument("scenario", help="scenario JSON file (schema_version 1)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write (must be empty)")
    p.add_argument("--force", action="store_true", help="write into a non-empty folder, replacing files")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.services.validation_plan import write_plan

    scenario = read_scenario(args.scenario)
    with service_errors():
        written = write_plan(scenario, load_catalog(args.db), Path(args.output), force=args.force,
                             label=args.scenario)
    for path in written:
        print(path)
    return 0

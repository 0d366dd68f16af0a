"""`refarch config SCENARIO.json -o DIR`: the configuration files for the design `size` returns."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.catalog_access import load_catalog
from app.cli.errors import CliError, service_errors
from app.cli.scenario_files import read_scenario
from app.export.config.naming import PLACEHOLDERS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "config",
        help="write the deployment configuration of a scenario's design (Greenplum, vSphere, PostgreSQL, SAP IQ)",
        description="Writes gpinitsystem_config, host files, gpconfig, sysctl/limits, BIOS checklist, the vSphere"
                    " VM spec (JSON + PowerCLI), postgresql.conf includes or SAP IQ start parameters, with the"
                    " same numbers as `refarch size`. Every line carries its reason and source.",
    )
    p.add_argument("scenario", help="scenario JSON file (schema_version 1)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write (must be empty)")
    p.add_argument("--force", action="store_true", help="write into a non-empty folder, replacing files")
    p.add_argument(
        "--name", action="append", default=[], metavar="KEY=PATTERN",
        help="naming pattern, repeatable; keys: " + ", ".join(
            f"{k} ({', '.join('{' + v + '}' for v in vals) or 'no placeholder'})" for k, vals in PLACEHOLDERS.items()
        ),
    )
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from app.export.config import NamingError, parse_naming
    from app.services.config_export import check_folder, export_config

    try:
        naming = parse_naming(args.name)
    except NamingError as exc:
        raise CliError("invalid naming pattern", exc.problems) from None
    out = Path(args.output)
    with service_errors():
        check_folder(out, args.force)  # before reading and sizing: a refused folder costs nothing
        scenario = read_scenario(args.scenario)
        written = export_config(scenario, load_catalog(args.db), out, force=args.force, naming=naming,
                                label=args.scenario)
    for path in written:
        print(path)
    return 0

"""`refarch new KIND [-o FILE]`: a scenario of one workload kind to start from, every field written out."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.errors import CliError

KINDS = ("greenplum-analytics", "greenplum-oltp", "postgres-consolidation", "sap-iq-multiplex")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("new", help="write a scenario of one workload kind to start from (it sizes as it is)",
                       description="Write a scenario template: every field with its default, figures to replace with"
                                   " the customer's. The fields are described in docs/SCENARIO.md.")
    p.add_argument("kind", choices=KINDS, help="the workload kind")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (refused if it exists) instead of printing")
    p.add_argument("--name", help="the scenario's name (default: the kind's)")
    p.add_argument("--customer", help="the customer's name")
    p.add_argument("--currency", help="the project currency, an ISO 4217 code such as EUR")
    p.add_argument("--project", metavar="FILE.refarch.json",
                   help="take the customer and currency from this project, where its scenarios agree on them")
    p.add_argument("--databases", metavar="FILE.csv|.xlsx",
                   help="postgres-consolidation: the databases from an inventory, one row each; the header names"
                        " the columns name, size, peak clients, working set (sizes with their unit, as 'Size (GB)' or"
                        " size_tb), and optionally peak tps, busy hours (as 9-17), writes per txn, offpeak load (%%)")
    p.set_defaults(handler=_run)


def _project_defaults(path: str | None) -> tuple[str, str | None]:
    if path is None:
        return "", None
    from app.editing.templates import project_defaults
    from models.scenario import ScenarioFileError, load_project, scenario_to_json

    try:
        project = load_project(Path(path))
    except ScenarioFileError as exc:
        raise CliError(f"invalid project {path}", [str(p) for p in exc.problems]) from None
    return project_defaults(scenario_to_json(s) for s in project.scenarios)


def _inventory(args: argparse.Namespace) -> list[dict[str, Any]] | None:
    if args.databases is None:
        return None
    if args.kind != "postgres-consolidation":
        raise CliError("--databases is for postgres-consolidation: the databases to consolidate")
    from app.editing.inventory import InventoryError, read_inventory

    try:
        return read_inventory(Path(args.databases))
    except InventoryError as exc:
        raise CliError(f"nothing imported from {args.databases}", exc.lines()) from None


def build(args: argparse.Namespace) -> dict[str, Any]:
    """The scenario JSON the arguments ask for, validated; CliError naming every problem otherwise."""
    from app.editing.templates import scenario_template
    from models.scenario import ScenarioFileError, parse_scenario, scenario_to_json

    customer, currency = _project_defaults(args.project)
    databases = _inventory(args)
    try:
        data = scenario_template(args.kind, args.name, currency=args.currency or currency,
                                 customer=args.customer if args.customer is not None else customer)
        if databases is not None:
            data["workload"]["databases"] = databases
            data = scenario_to_json(parse_scenario(data, "the new scenario"))
        return data
    except ScenarioFileError as exc:
        raise CliError("cannot make that scenario", [str(p) for p in exc.problems]) from None


def _run(args: argparse.Namespace) -> int:
    from app.export.atomic import atomic_write_text
    from models.file_input import SCENARIO_MAX_BYTES, FileInputError, dump_json_checked

    data = build(args)
    try:
        text = dump_json_checked(data, max_bytes=SCENARIO_MAX_BYTES, what="scenario", name=args.output or "scenario")
    except FileInputError as exc:
        raise CliError("cannot write the scenario", exc.lines()) from None
    if args.output is None:
        print(text, end="")
        return 0
    out = Path(args.output)
    if out.exists():
        raise CliError(f"{out} exists; choose another name or remove it first")
    try:
        atomic_write_text(out, text)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}: size it with `refarch size {out}`")
    return 0

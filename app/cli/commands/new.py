"""`refarch new KIND [-o FILE]`: a scenario of one workload kind to start from, every field written out."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.errors import CliError
from app.formatting import significant

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
    p.add_argument("--rvtools", metavar="RVTools.xlsx",
                   help="postgres-consolidation: one database per powered-on VM (templates left out) of an RVTools"
                        " export, sized from what it used (vInfo In Use MiB, vCPU Overall, vMemory Active), not what it"
                        " was given")
    p.add_argument("--liveoptics", metavar="LiveOptics.xlsx",
                   help="postgres-consolidation: the same from a Live Optics VMware export (VMs, VM Performance and ESX"
                        " Hosts sheets), sized on each VM's peak or average over the collection (--percentile)")
    p.add_argument("--percentile", choices=("peak", "average"), default="peak",
                   help="with --liveoptics: the statistic of each VM's CPU, memory and IOPS to size on (default peak)")
    p.add_argument("--comfort", type=float, default=1.2, metavar="FACTOR",
                   help="with --rvtools or --liveoptics: headroom over the observed use, 1 to 5 (default 1.2)")
    p.add_argument("--target-cpu", metavar="MODEL",
                   help="with --rvtools: the processor of the new hosts (a catalog CPU, as 'EPYC 9354'); the observed"
                        " CPU is scaled by the SPECrate2017_int_base per core of the current and the new processor")
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


def _estate(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    """The right-sized databases of an estate export, and what the import did in words (for the notes)."""
    from app.editing.estate_import import COMFORT_MAX, COMFORT_MIN, import_estate
    from app.editing.table_files import RowsError

    if not COMFORT_MIN <= args.comfort <= COMFORT_MAX:
        raise CliError(f"--comfort must be {significant(COMFORT_MIN)} to {significant(COMFORT_MAX)}"
                       f" (got {significant(args.comfort)})")
    path = Path(args.rvtools if args.rvtools is not None else args.liveoptics)
    cores = _target_cores(args) if args.target_cpu else None
    try:
        done = import_estate(path, "rvtools" if args.rvtools is not None else "liveoptics", args.comfort,
                             args.percentile, args.target_cpu or "", cores)
    except RowsError as exc:
        raise CliError(f"nothing imported from {path}", exc.lines()) from None
    return done.databases, done.said


def _target_cores(args: argparse.Namespace) -> int:
    from app.cli.catalog_access import load_catalog
    from models.estate import cpu_key, socket_score

    catalog = load_catalog(args.db)
    cpus = {cpu_key(c.model): c for c in catalog.cpus}
    cpu = cpus.get(cpu_key(args.target_cpu))
    if cpu is None or socket_score(args.target_cpu) is None:
        known = sorted(c.model for k, c in cpus.items() if socket_score(c.model) is not None)
        raise CliError(f"--target-cpu {args.target_cpu!r}: not a catalog processor with a SPECrate2017_int_base"
                       f" score; those with one: {', '.join(known)}")
    return int(cpu.cores)


def _check_rate(args: argparse.Namespace) -> None:
    """A --currency the catalog's rate table lacks is refused: the template would not size (every part priced in
    another currency is left out)."""
    if args.currency is None or args.currency == "USD" or len(args.currency) != 3 or not args.currency.isupper():
        return  # USD is the table's pivot; a malformed code is refused by the scenario's own check
    from app.cli.catalog_access import load_catalog

    known = load_catalog(args.db).rates.currencies
    if args.currency not in known:
        raise CliError(f"--currency {args.currency}: no exchange rate for it in the catalog's rate table (it has"
                       f" {', '.join(known)}); add one first (refarch catalog rates set {args.currency}"
                       " USD_PER_UNIT) or choose one of those")


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
    from app.editing.templates import FIELDS_NOTE, scenario_template
    from models.scenario import ScenarioFileError, parse_scenario, scenario_to_json

    customer, currency = _project_defaults(args.project)
    sources = [o for o in ("databases", "rvtools", "liveoptics") if getattr(args, o) is not None]
    if len(sources) > 1:
        raise CliError(f"give one of --databases, --rvtools and --liveoptics (got {', '.join(sources)})")
    if sources and args.kind != "postgres-consolidation":
        raise CliError(f"--{sources[0]} is for postgres-consolidation: the databases or VMs to consolidate")
    _check_rate(args)
    databases = _inventory(args)
    said = ""
    if args.rvtools is not None or args.liveoptics is not None:
        databases, said = _estate(args)
    try:
        data = scenario_template(args.kind, args.name, currency=args.currency or currency,
                                 customer=args.customer if args.customer is not None else customer)
        if databases is not None:
            data["workload"]["databases"] = databases
            source = said or f"Databases from the inventory {Path(args.databases).name}."
            data["notes"] = f"{source} {FIELDS_NOTE}"[:20_000]  # the figures are the customer's: no "replace them"
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

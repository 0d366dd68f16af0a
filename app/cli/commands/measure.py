"""`refarch measure`: measurement profiles of the customer's own hardware (gpcheckperf, pgbench, HammerDB).

    refarch measure import FILE... --name NAME [--server SERVER_ID]   read, check and store (all or nothing)
    refarch measure list | show NAME | delete NAME                      with --format json
    refarch measure fit-usl FILE                                        the USL fitted to a sweep (also `fit-usl`)

The tool that wrote a file is detected from its content; a damaged, truncated or foreign file is refused whole,
naming the line (exit 2). With --plan, a measured figure that misses the plan's threshold exits 1 (the profile is
stored). Profiles live in the catalog, so a shared PostgreSQL catalog shares them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from app.cli.errors import CliError, service_errors
from app.cli.output import format_table, print_json
from app.formatting import number
from app.views.measurements import profile_lines

if TYPE_CHECKING:
    from catalog.store import CatalogStore
    from models.measurements.plan import Check


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("measure", help="measurement profiles from gpcheckperf, pgbench and HammerDB output")
    actions = parser.add_subparsers(dest="measure_command", metavar="ACTION", required=True)
    p = actions.add_parser("import", help="store tool output under a profile name (all files or none)")
    p.add_argument("files", nargs="+", metavar="FILE", help="gpcheckperf, pgbench or HammerDB output")
    p.add_argument("--name", required=True, help="the profile's name (a new one is created; an existing one "
                                                 "gains the files, a file of the same name replaced)")
    p.add_argument("--server", metavar="SERVER_ID", help="the catalog server the measured hosts are")
    p.add_argument("--drives", type=int, metavar="N", help="data drives per measured host: the disk rates are "
                                                          "compared with the model on this many drives")
    p.add_argument("--drive", metavar="DRIVE_ID", help="the catalog drive the measured hosts' data drives are "
                                                       "(with --drives)")
    p.add_argument("--plan", metavar="DIR", help="a validation plan (refarch validate-plan): check the profile "
                                                 "against its thresholds after the import")
    _format(p)
    p.set_defaults(handler=_import)
    p = actions.add_parser("list", help="the stored profiles")
    _format(p)
    p.set_defaults(handler=_list)
    p = actions.add_parser("show", help="a profile's measured rates, links and sweeps (with USL fits)")
    p.add_argument("name")
    _format(p)
    p.set_defaults(handler=_show)
    p = actions.add_parser("delete", help="remove a profile and its files")
    p.add_argument("name")
    p.set_defaults(handler=_delete)
    from app.cli.commands import fit_usl

    fit_usl.add_fit_parser(actions, "fit-usl")


def _format(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("table", "json"), default="table", help="output format (default: table)")


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[CatalogStore]:
    from catalog.errors import CatalogError
    from catalog.store import CatalogStore

    try:
        with CatalogStore.open(args.db) as store:
            yield store
    except CatalogError as exc:
        raise CliError(str(exc)) from None


def _import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from app.services.measurements import read_files
    from app.services.validation_plan import read_plan
    from catalog.measurements import MeasuredDrives
    from models.measurements.plan import check

    if args.drive is not None and args.drives is None:
        raise CliError("--drive needs --drives N (the data drives per measured host)")
    if args.drives is not None and args.drives < 1:
        raise CliError(f"--drives (data drives per measured host) must be at least 1, got {args.drives}")
    drives = MeasuredDrives(args.drives, args.drive) if args.drives is not None else None
    with service_errors():
        plan = read_plan(Path(args.plan)) if args.plan else None  # before storing: a bad plan stores nothing
        files = read_files(args.files)
    with _opened(args) as store:
        report = store.import_measurements(args.name, files, args.server, drives)
        where = store.url_display
        checks = check(plan, store.measurement_profile(report.name)) if plan is not None else None
    if args.format == "json":
        print_json({"name": report.name, "created": report.created, "added": list(report.added),
                    "replaced": list(report.replaced), "kinds": {f.file_name: f.measurement.kind for f in files}}
                   | ({"checks": [c.to_dict() for c in checks]} if checks is not None else {}))
        return _verdict(checks)
    verb = "created" if report.created else "updated"
    kinds = ", ".join(f"{f.file_name} ({f.measurement.kind})" for f in files)
    print(f"{verb} measurement profile {report.name!r} in {where}: {kinds}"
          + (f"; replaced {', '.join(report.replaced)}" if report.replaced else ""))
    if checks is not None:
        print(f"\nchecked against {args.plan}:")
        print(format_table([{"check": c.what, "threshold": number(c.threshold, 4), "measured": number(c.measured, 4),
                             "result": {True: "pass", False: "FAIL", None: "not measured"}[c.passed],
                             "detail": c.detail} for c in checks],
                           ["check", "threshold", "measured", "result", "detail"]))
    return _verdict(checks)


def _verdict(checks: list[Check] | None) -> int:
    """1 when a measured figure misses the plan's threshold (the profile is stored either way: the files are good,
    the hardware is not), said on stderr so a script's log shows it; 0 when every measured check passes."""
    failed = [c for c in checks or [] if c.passed is False]
    if not failed:
        return 0
    print(f"refarch: {len(failed)} of {len(checks or [])} checks of the validation plan failed: "
          + "; ".join(c.what for c in failed), file=sys.stderr)
    return 1


def _list(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        profiles = [store.measurement_profile(n) for n in store.measurement_profile_names()]
    rows = [{"name": p.name, "server": p.server_id, "files": len(p.files),
             "kinds": ", ".join(sorted({f.kind for f in p.files})), "hosts": len(p.hosts),
             "created": p.created_at.date().isoformat()} for p in profiles]
    if args.format == "json":
        print_json(rows)
    elif not rows:
        print("no measurement profiles: import tool output with `refarch measure import FILE... --name NAME`")
    else:
        print(format_table(rows, ["name", "server", "files", "kinds", "hosts", "created"]))
    return 0


def _show(args: argparse.Namespace) -> int:
    from app.services.measurements import profile_document

    with _opened(args) as store:
        profile = store.measurement_profile(args.name)
    doc = profile_document(profile)
    if args.format == "json":
        print_json(doc)
    else:
        print("\n".join(profile_lines(doc, format_table)))
    return 0


def _delete(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        store.delete_measurement_profile(args.name)
    print(f"deleted measurement profile {args.name!r}")
    return 0

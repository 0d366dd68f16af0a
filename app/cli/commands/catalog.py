"""`refarch catalog`: list, import, export and re-seed the hardware catalog.

Import is all-or-nothing and lists every problem with its row and field, so a
spreadsheet can be fixed in one pass; export writes files that import cleanly
into another catalog (a colleague's laptop, or the team's PostgreSQL).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli.errors import CliError
from app.cli.output import format_table, print_json
from app.formatting import significant
from models.hardware import PART_KINDS, PartKind

if TYPE_CHECKING:
    from catalog.files import FileFormat
    from catalog.store import CatalogStore

# Key specs per kind for the table view; `--format json` shows every field.
TABLE_COLUMNS: Mapping[PartKind, tuple[str, ...]] = {
    "cpu": ("id", "vendor", "model", "part_number", "cores", "threads", "base_ghz", "tdp_w", "price", "currency"),
    "server": ("id", "vendor", "model", "part_number", "rack_u", "sockets", "cpu_id", "cores_total", "memory_gib",
               "data_bays", "data_bay_form_factor", "pcie_slots", "memory_type", "pcie_gen", "drive_link_gbps", "max_w",
               "price", "currency"),
    "drive": ("id", "vendor", "model", "part_number", "interface", "form_factor", "capacity_tb", "seq_read_mb_s",
              "seq_write_mb_s", "random_read_iops", "price", "currency"),
    "nic": ("id", "vendor", "model", "part_number", "ports", "speed_gbps", "pcie_gen", "pcie_lanes", "watts", "price",
            "currency"),
    "dimm": ("id", "vendor", "model", "part_number", "memory_type", "size_gib", "speed_mt_s", "price", "currency"),
    "switch": ("id", "vendor", "model", "part_number", "ports", "speed_gbps", "uplink_ports", "uplink_speed_gbps",
               "rack_u", "watts", "price", "currency", "price_basis"),
    "cable": ("id", "vendor", "model", "part_number", "medium", "speed_gbps", "reach_m", "price", "currency",
              "price_basis"),
    "rack": ("id", "vendor", "model", "part_number", "rack_u", "max_kw", "price", "currency", "price_basis"),
    "pdu": ("id", "vendor", "model", "part_number", "outlets", "max_kw", "rack_u", "price", "currency",
            "price_basis"),
    "licence": ("id", "vendor", "model", "part_number", "metric", "term", "applies_to", "min_cores_per_cpu",
                "min_units", "vsan_gib_per_core", "price", "currency", "price_basis"),
    "support": ("id", "vendor", "model", "part_number", "basis", "pct_of_hardware", "applies_to", "price",
                "currency", "price_basis"),
    "controller": ("id", "vendor", "model", "part_number", "interfaces", "raid_levels", "max_drives", "applies_to",
                   "servers", "price", "currency", "price_basis"),
    "accessory": ("id", "vendor", "model", "part_number", "use", "applies_to", "rack_u", "amps", "price",
                  "currency", "price_basis"),
}
TITLES: Mapping[PartKind, str] = {"cpu": "CPUs", "server": "Servers", "drive": "Drives", "nic": "NICs",
                                  "dimm": "DIMMs", "switch": "Switches", "cable": "Cables and optics",
                                  "rack": "Racks", "pdu": "PDUs", "licence": "Software licences",
                                  "support": "Support contracts", "controller": "Storage controllers and HBAs",
                                  "accessory": "Rails, power cords and services"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("catalog", help="list, import, export or re-seed the hardware catalog")
    actions = parser.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)

    p = actions.add_parser("list", help="show the parts in the catalog")
    p.add_argument("--kind", choices=PART_KINDS, help="only this kind of part")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=_list)

    p = actions.add_parser("import", help="add parts from a CSV or JSON file (all or nothing)")
    p.add_argument("file", type=Path, metavar="FILE", help="a .csv or .json catalog file")
    p.add_argument("--replace", action="store_true", help="overwrite parts whose id is already in the catalog")
    _decimal_argument(p)
    _confirm_argument(p)
    p.set_defaults(handler=_import)

    p = actions.add_parser("export", help="write the catalog as CSV or JSON (re-importable)")
    p.add_argument("--format", choices=("csv", "json"), help="default: from -o's extension, else json")
    p.add_argument("--kind", choices=PART_KINDS, help="only this kind of part")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here instead of stdout")
    p.set_defaults(handler=_export)

    p = actions.add_parser("seed", help="merge the bundled seed catalog in again (keeps your edits)")
    p.set_defaults(handler=_seed)

    p = actions.add_parser("quote", help="apply a vendor quote (CSV or XLSX): quoted prices replace the catalog's")
    p.add_argument("file", type=Path, metavar="FILE", help="columns: part_number (or id), description, quantity, "
                                                            "unit_price, currency")
    p.add_argument("--date", help="the quote's date, YYYY-MM-DD (default: today)")
    p.add_argument("--allow-unmatched", action="store_true",
                   help="apply the matched lines even if some match no catalog part (they are listed)")
    _decimal_argument(p)
    _confirm_argument(p)
    p.set_defaults(handler=_quote)

    p = actions.add_parser("history", help="who changed what, when and from which file (newest first)")
    p.add_argument("part", nargs="?", metavar="PART", help="one part id or currency (default: every change)")
    p.add_argument("--limit", type=int, default=50, help="at most this many changes (default 50)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=_history)

    p = actions.add_parser("revert", help="undo one recorded change (an import, a quote, an edit) as a whole")
    p.add_argument("change", type=int, metavar="CHANGE", help="the change's number from `catalog history`")
    p.set_defaults(handler=_revert)

    p = actions.add_parser("backup", help="copy the whole catalog (parts, rates, history) to a file")
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--format", choices=("sqlite", "json"), default=None,
                   help="sqlite: SQLite's online backup (default for a SQLite catalog); json: a portable dump "
                        "(default for PostgreSQL; restores into either)")
    p.set_defaults(handler=_backup)

    p = actions.add_parser("restore", help="replace the whole catalog by a backup (refused from a newer schema)")
    p.add_argument("file", type=Path, metavar="FILE", help="a file `catalog backup` wrote")
    p.set_defaults(handler=_restore)

    p = actions.add_parser("rates", help="the dated exchange-rate table: list, set, import or export")
    p.add_argument("rates_action", choices=("list", "set", "import", "export"), metavar="list|set|import|export")
    p.add_argument("values", nargs="*", metavar="ARG",
                   help="set: CURRENCY USD_PER_UNIT [AS_OF] [SOURCE]; import: FILE (.csv or .json)")
    p.add_argument("--format", choices=("table", "json", "csv"), default=None)
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="export: write here instead of stdout")
    _decimal_argument(p)
    _confirm_argument(p)
    p.set_defaults(handler=_rates)


def _history(args: argparse.Namespace) -> int:
    import json

    from catalog.history import describe

    if args.limit < 1:
        raise CliError(f"--limit must be at least 1, got {args.limit}")
    with _opened(args) as store:
        if args.part:
            changes = store.history_of(args.part, limit=args.limit)
            sets = []
        else:
            sets = store.change_sets(args.limit)
            changes = []
    if args.format == "json":
        if args.part:
            json.dump([{"change": c.change_set.id, "at": c.change_set.at.isoformat(), "who": c.change_set.who,
                        "action": c.change_set.action, "source": c.change_set.source, "kind": c.kind,
                        "id": c.row_id, "before": c.before, "after": c.after} for c in changes], sys.stdout, indent=2)
        else:
            json.dump([{"change": s.id, "at": s.at.isoformat(), "who": s.who, "action": s.action,
                        "source": s.source, "rows": s.rows, "reverts": s.reverts, "reverted_by": s.reverted_by}
                       for s in sets], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    if args.part:
        print("\n".join(describe(changes)) if changes else f"no recorded change of {args.part}")
        return 0
    if not sets:
        print("no recorded change yet")
        return 0
    table = [{"change": s.id, "at": f"{s.at:%Y-%m-%d %H:%M:%S}", "who": s.who, "action": s.action,
              "rows": s.rows, "source": s.source or "",
              "note": f"reverted by {s.reverted_by}" if s.reverted_by else f"reverts {s.reverts}" if s.reverts else ""}
             for s in sets]
    print(format_table(table, ("change", "at", "who", "action", "rows", "source", "note")))
    return 0


def _revert(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        done = store.revert(args.change)
    print(f"reverted change {done.change_set}: {done.rows} row(s) back as they were"
          + (f" (recorded as change {done.revert})" if done.revert is not None else ""))
    return 0


def _backup(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        form = store.backup(args.file, args.format)
        where = store.url_display
    print(f"backed up {where} to {args.file} ({'SQLite copy' if form == 'sqlite' else 'JSON dump'})")
    return 0


def _restore(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        form = store.restore(args.file)
        where = store.url_display
        parts = len(store.list())
    print(f"restored {where} from {args.file} ({'SQLite copy' if form == 'sqlite' else 'JSON dump'}): "
          f"{parts} part(s)")
    return 0


def _decimal_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--decimal", choices=(",", "."), default=None,
                   help="the decimal separator of the file's numbers (default: the one the file shows; a file "
                        "that shows none for a number such as 1,234 is refused)")


def _confirm_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--confirm-outliers", action="store_true",
                   help="write prices or rates far from the previous ones (10x for a price, 3x for a rate) or "
                        "beyond any part's price; without it they are listed and nothing is written")


def _quote(args: argparse.Namespace) -> int:
    from datetime import date

    from catalog.errors import CatalogError, InvalidRowsError

    try:
        when = date.fromisoformat(args.date) if args.date else date.today()
    except ValueError:
        raise CliError(f"--date: expected YYYY-MM-DD, got {args.date!r}") from None
    with _opened(args) as store:
        try:
            report = store.apply_quote(args.file, when, allow_unmatched=args.allow_unmatched, decimal=args.decimal,
                                       confirm_outliers=args.confirm_outliers)
        except CatalogError as exc:
            raise CliError(str(exc), exc.lines() if isinstance(exc, InvalidRowsError) else ()) from None
    print(f"quote {args.file.name} of {when}: {len(report.updated)} part(s) now at the quoted price"
          + (f" ({', '.join(report.updated)})" if report.updated else ""))
    for line in report.unmatched:
        print(f"  not applied: {line}")
    return 0


def _rates(args: argparse.Namespace) -> int:
    import json
    from datetime import date

    from catalog.rates import RATE_COLUMNS, rate_to_row, with_numbers_read, write_rates_csv

    action, values = args.rates_action, args.values
    with _opened(args) as store:
        if action == "set":
            if len(values) < 2:
                raise CliError("rates set needs CURRENCY USD_PER_UNIT [AS_OF] [SOURCE], e.g. rates set EUR 1.16")
            as_of = values[2] if len(values) > 2 else date.today().isoformat()
            source = " ".join(values[3:]) or "set by the user"
            rows = with_numbers_read([{"currency": values[0].upper(), "usd_per_unit": values[1], "as_of": as_of,
                                       "source": source}], "rates set", args.decimal, first_row=1)
            store.import_rates(rows, confirm_outliers=args.confirm_outliers)
            print(f"rate set: 1 {values[0].upper()} = {values[1]} USD as of {as_of}")
            return 0
        if action == "import":
            if len(values) != 1:
                raise CliError("rates import needs one FILE (.csv or .json)")
            from catalog.rates import read_rates_file

            rows = read_rates_file(Path(values[0]), args.decimal)  # a CatalogFileError is exit 2 (see _opened)
            written = store.import_rates(rows, confirm_outliers=args.confirm_outliers, source=values[0])
            print(f"imported {written} exchange rate(s) into {store.url_display}")
            return 0
        table = [rate_to_row(r) for r in store.rates()]
    fmt = args.format or ("csv" if args.output and args.output.suffix.lower() == ".csv" else
                          "json" if action == "export" else "table")
    buffer = io.StringIO() if args.output else None  # a file is written whole and atomically below
    out: TextIO = sys.stdout if buffer is None else buffer
    if fmt == "json":
        json.dump(table, out, indent=2)
        out.write("\n")
    elif fmt == "csv":
        write_rates_csv(table, out)
    else:
        shown = [{**r, "usd_per_unit": significant(r["usd_per_unit"])} for r in table]
        out.write("Exchange rates (USD per unit; USD is the pivot)\n")
        out.write(format_table(shown, RATE_COLUMNS) + "\n")
    if buffer is not None:
        from app.export.atomic import ExportError, atomic_write_text

        try:
            atomic_write_text(args.output, buffer.getvalue())
        except ExportError as exc:
            raise CliError(str(exc)) from None
    return 0


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[CatalogStore]:
    """The catalog named by --db, with catalog errors turned into CLI errors (exit 2, no traceback)."""
    # Imported here: SQLAlchemy and the catalog cost ~0.4 s that `refarch --help` should not pay.
    from catalog.errors import CatalogError, InvalidRowsError
    from catalog.store import CatalogStore

    try:
        store = CatalogStore.open(args.db)
    except CatalogError as exc:
        raise CliError(str(exc), exc.lines() if isinstance(exc, InvalidRowsError) else ()) from None
    try:
        yield store
    except InvalidRowsError as exc:
        raise CliError(str(exc), exc.lines()) from None
    except CatalogError as exc:
        raise CliError(str(exc)) from None
    finally:
        store.close()


def _list(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        rows = store.export_rows(args.kind)
        where = store.url_display
    if args.format == "json":
        print_json(rows)
        return 0
    kinds = [args.kind] if args.kind else [k for k in PART_KINDS if any(r["kind"] == k for r in rows)]
    print(f"catalog: {where} ({len(rows)} part{'s' if len(rows) != 1 else ''})")
    if not rows:
        print("nothing to list: add parts with `refarch catalog import FILE`, or restore the bundled ones "
              "with `refarch catalog seed`")
    for kind in kinds:
        of_kind = [r for r in rows if r["kind"] == kind]
        print(f"\n{TITLES[kind]} ({len(of_kind)})")
        print(format_table(of_kind, TABLE_COLUMNS[kind]))
    return 0


def _import(args: argparse.Namespace) -> int:
    from catalog.errors import CatalogError, InvalidRowsError
    from catalog.streaming import csv_file_separator, is_json_file, iter_csv_rows, iter_json_rows

    # The file is read one part at a time, several times over (its ids, every row validated, the writes), so memory
    # does not grow with it; a CSV's decimal separator is read from all its number cells first (catalog.numbers).
    json_file = is_json_file(args.file)
    try:
        if json_file:
            next(iter_json_rows(args.file), None)  # the file's own problems first, before the catalog is opened
        else:
            sep = csv_file_separator(args.file, args.decimal)
    except CatalogError as exc:
        raise CliError(str(exc)) from None
    with _opened(args) as store:
        try:
            report = store.import_stream((lambda: iter_json_rows(args.file)) if json_file else
                                         (lambda: iter_csv_rows(args.file, sep)), replace=args.replace,
                                         source=str(args.file), confirm_outliers=args.confirm_outliers)
        except InvalidRowsError as exc:
            hint = ""
            if not args.replace and any(p.in_catalog for p in exc.problems):
                hint = " (use --replace to overwrite parts already in the catalog)"
            raise CliError(f"{args.file}: {exc}{hint}", exc.lines()) from None
        where = store.url_display
    counts = ", ".join(
        f"{kind} {report.added.get(kind, 0) + report.replaced.get(kind, 0)}"
        for kind in PART_KINDS
        if report.added.get(kind) or report.replaced.get(kind)
    )
    replaced = sum(report.replaced.values())
    print(f"imported {report.total} part{'s' if report.total != 1 else ''} into {where}"
          + (f": {counts}" if counts else "") + (f" ({replaced} replaced)" if replaced else ""))
    return 0


def _export(args: argparse.Namespace) -> int:
    from app.export.atomic import ExportError, atomic_write_text
    from catalog.errors import CatalogError
    from catalog.files import render, write_csv, write_json

    fmt: FileFormat = args.format or ("csv" if args.output and args.output.suffix.lower() == ".csv" else "json")
    with _opened(args) as store:
        rows = store.export_rows(args.kind)
    if args.output is None:
        (write_csv if fmt == "csv" else write_json)(rows, sys.stdout)
        return 0
    try:
        atomic_write_text(args.output, render(rows, fmt))  # a killed or failed export keeps the old file
    except CatalogError as exc:
        raise CliError(f"cannot write {args.output}: {exc}") from None
    except ExportError as exc:
        raise CliError(str(exc)) from None
    print(f"exported {len(rows)} parts to {args.output}", file=sys.stderr)
    return 0


def _seed(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        report = store.reseed()
        where = store.url_display
    print(f"seeded {where}: {report.summary()}")
    return 0

"""Backups of a catalog and restores from them: parts, rates, measurement profiles and the history, as one set.

Two forms:

- a SQLite catalog is copied with SQLite's online backup API (a consistent copy while others write), into a
  temporary file beside the target that is renamed over it once complete;
- any catalog (PostgreSQL's above all) can be dumped as portable JSON: every catalog table's rows, with the
  schema revision they follow. It restores into SQLite or PostgreSQL.

A restore replaces the whole catalog in one transaction. A backup from a newer schema than this refarch knows is
refused, and so is a JSON dump of another revision than the catalog's own (its columns would not fit); a SQLite
copy of an older revision is restored and then upgraded like any old catalog.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Connection, Date, DateTime, Engine, Integer, Table, delete, func, insert, select, text

from catalog.errors import CatalogFileError, CatalogWriteError
from catalog.migrate import VERSION_TABLE, read_state
from catalog.orm import CATALOG_TABLES, Base
from models import file_input

DUMP_FORMAT = "refarch-catalog-backup"
SQLITE_MAGIC = b"SQLite format 3\x00"
MAX_DUMP_BYTES = 2 * 1024**3  # a dump is parsed whole: beyond this, back up the SQLite file itself


def tables() -> list[Table]:
    """The catalog's tables, parents before children (the order to insert; reversed, to delete)."""
    return [t for t in Base.metadata.sorted_tables if t.name in CATALOG_TABLES]


@contextlib.contextmanager
def _temporary_beside(target: Path) -> Iterator[Path]:
    """A temporary path in the target's folder, renamed over the target when the block ends without error."""
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise CatalogFileError(f"cannot write {target}: folder {folder} does not exist")
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".refarch-tmp", dir=folder)
    os.close(handle)
    temp = Path(name)
    try:
        yield temp
        with open(temp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(temp, target)
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()


def backup_sqlite(source: Path, target: Path) -> None:
    """Copy the SQLite catalog `source` to `target` with the online backup API, all or nothing."""
    try:
        with _temporary_beside(target) as temp, contextlib.closing(_read_only(source)) as src, \
                contextlib.closing(sqlite3.connect(temp)) as dst:
            src.backup(dst)  # dst is closed before the rename: the exits run in reverse
    except (sqlite3.Error, OSError) as exc:
        raise CatalogWriteError(f"backing up the catalog to {target} failed ({exc}); nothing was written") from None


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def dump_json(conn: Connection, out: IO[str]) -> dict[str, int]:
    """Every catalog table's rows as JSON (written row by row, not built in memory); the rows per table."""
    revision = read_state(conn).revision
    counts: dict[str, int] = {}
    out.write(json.dumps({"format": DUMP_FORMAT, "schema_revision": revision})[:-1] + ', "tables": {')
    for i, table in enumerate(tables()):
        out.write(("," if i else "") + f"\n{json.dumps(table.name)}: [")
        order = [c for c in table.primary_key.columns]
        n = 0
        for row in conn.execute(select(table).order_by(*order)):
            out.write(("," if n else "") + "\n" + json.dumps({k: _plain(v) for k, v in row._mapping.items()}))
            n += 1
        counts[table.name] = n
        out.write("]")
    out.write("\n}}\n")
    return counts


def backup_json(engine: Engine, target: Path) -> dict[str, int]:
    """The portable dump of the catalog at `engine`, written whole to `target` (one read transaction)."""
    try:
        with _temporary_beside(target) as temp, temp.open("w", encoding="utf-8") as out, engine.connect() as conn:
            if conn.dialect.name == "postgresql":  # one consistent view of every table
                conn.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
            counts = dump_json(conn, out)
            out.flush()
        return counts
    except OSError as exc:
        raise CatalogWriteError(f"backing up the catalog to {target} failed ({exc}); nothing was written") from None


def kind_of_file(path: Path) -> str:
    """'sqlite' or 'json', by the file's first bytes; CatalogFileError for anything else."""
    try:  # a regular file only: a pipe would block the read, a device never end it
        head = file_input.read_head(path, len(SQLITE_MAGIC), max_bytes=sys.maxsize, what="catalog backup")
    except file_input.FileInputError as exc:
        reason = exc.problems[0].message.removeprefix("cannot read it: ")
        raise CatalogFileError(f"cannot read the backup {path}: {reason}") from None
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head.lstrip()[:1] == b"{":
        return "json"
    raise CatalogFileError(f"{path} is not a refarch catalog backup (neither a SQLite file nor a JSON dump)")


def sqlite_revision(path: Path) -> str | None:
    """The schema revision a SQLite backup records; CatalogFileError when it is no refarch catalog."""
    try:
        with contextlib.closing(_read_only(path)) as conn:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if VERSION_TABLE not in names or not CATALOG_TABLES & names:
                raise CatalogFileError(f"{path} is a SQLite file but not a refarch catalog")
            row = conn.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
    except sqlite3.Error as exc:
        raise CatalogFileError(f"{path} cannot be read as a SQLite catalog ({exc})") from None
    return str(row[0]) if row else None


def restore_sqlite(backup: Path, target: Path) -> None:
    """Copy the SQLite backup over the SQLite catalog `target` with the online backup API (one transaction:
    readers see the old catalog or the restored one)."""
    try:
        with contextlib.closing(_read_only(backup)) as src, \
                contextlib.closing(sqlite3.connect(target, timeout=60)) as dst:
            src.backup(dst)
    except sqlite3.Error as exc:
        raise CatalogWriteError(f"restoring {backup} into {target} failed ({exc}); the catalog was left as it "
                                "was") from None


def read_dump(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_DUMP_BYTES:
            raise CatalogFileError(f"{path} is larger than {MAX_DUMP_BYTES:,} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CatalogFileError(f"{path} is not a readable catalog dump ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != DUMP_FORMAT or not isinstance(data.get("tables"), dict):
        raise CatalogFileError(f"{path} is not a refarch catalog dump (no '{DUMP_FORMAT}' header)")
    return data


def _typed(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for column in table.columns:
        value = row.get(column.name)
        if isinstance(value, str) and isinstance(column.type, DateTime):
            value = datetime.fromisoformat(value)
        elif isinstance(value, str) and isinstance(column.type, Date):
            value = date.fromisoformat(value)
        if column.name in row:
            out[column.name] = value
    return out


def _validate_rows(dumped: dict[str, Any], name: str) -> None:
    """The dump's parts and rates checked as an import checks them (SQLite would store 'two' in an integer
    column); InvalidRowsError lists every problem."""
    from catalog.errors import InvalidRowsError
    from catalog.orm import RECORDS
    from catalog.rates import validate_rates
    from catalog.rows import COMMON_FIELDS, KIND_FIELDS
    from catalog.validation import validate_rows

    parts: list[dict[str, Any]] = []
    for kind, record in RECORDS.items():
        rows = dumped.get(record.__tablename__, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise CatalogFileError(f"{name}: table {record.__tablename__} is not a list of rows")
        parts += [{"kind": kind, **{k: r.get(k) for k in (*COMMON_FIELDS, *KIND_FIELDS[kind])}} for r in rows]
    result = validate_rows(parts, {})
    if not result.ok:
        raise InvalidRowsError(f"{name}: {len(result.problems)} problem(s) in the dump's parts; nothing was "
                               "restored", result.problems)
    rates = dumped.get("exchange_rates", [])
    if not isinstance(rates, list) or not all(isinstance(r, dict) for r in rates):
        raise CatalogFileError(f"{name}: table exchange_rates is not a list of rows")
    validate_rates([{k: r.get(k) for k in ("currency", "usd_per_unit", "as_of", "source")} for r in rates])


def restore_dump(conn: Connection, data: dict[str, Any], name: str) -> dict[str, int]:
    """Replace every catalog table's rows by the dump's, in `conn`'s transaction; the rows per table."""
    dumped = data["tables"]
    unknown = set(dumped) - {t.name for t in tables()}
    if unknown:
        raise CatalogFileError(f"{name}: tables {', '.join(sorted(unknown))} are not in this catalog's schema")
    _validate_rows(dumped, name)
    for table in reversed(tables()):
        conn.execute(delete(table))
    counts: dict[str, int] = {}
    for table in tables():
        rows = dumped.get(table.name, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise CatalogFileError(f"{name}: table {table.name} is not a list of rows")
        for start in range(0, len(rows), 5_000):
            try:
                batch = [_typed(table, r) for r in rows[start:start + 5_000]]
            except (ValueError, TypeError) as exc:  # a date or time that is none
                raise CatalogFileError(f"{name}: table {table.name} holds a value that is not what its column "
                                       f"takes ({exc}); nothing was restored") from None
            if batch:
                conn.execute(insert(table), batch)
        counts[table.name] = len(rows)
        if conn.dialect.name == "postgresql":  # the next id after the restored ones
            for column in table.primary_key.columns:
                if isinstance(column.type, Integer) and column.autoincrement in (True, "auto") and rows:
                    top = conn.scalar(select(func.max(column)))
                    conn.execute(text("SELECT setval(pg_get_serial_sequence(:t, :c), :v)"),
                                 {"t": table.name, "c": column.name, "v": top})
    return counts

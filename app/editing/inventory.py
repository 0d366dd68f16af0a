"""A database inventory (CSV, XLSX or rows pasted from a spreadsheet) as the databases of a consolidation.

The header names each column and, for sizes, its unit: `name, size_gb, peak_clients, working_set_gb` or
`Database, Size (TB), Peak clients, Working set (GiB), Peak TPS, Busy hours`. Sizes are converted to the
scenario's decimal GB. Busy hours are hour numbers 0-23, as `9-12` (9, 10, 11 and 12) or `9,10,11`.

All or nothing: every problem is named with its row (the spreadsheet's row number) and column, and a file
with one bad row gives no databases at all.

>>> rows = [["Database", "Size (TB)", "Peak clients", "Working set (GB)", "Busy hours"],
...         ["orders", 1.5, 80, 40, "9-11"]]
>>> databases_from_rows(rows, "inventory.csv")
[{'name': 'orders', 'size_gb': 1500.0, 'peak_clients': 80, 'working_set_gb': 40.0, 'busy_hours': [9, 10, 11]}]
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from app.editing.table_files import Rows, RowsError, TableFileError, csv_rows, read_table
from models.problems import Problem, problems_of
from models.scenario import PgDatabase, PostgresConsolidation

# decimal GB per unit (the scenario's sizes are decimal GB)
SIZE_UNITS: dict[str, float] = {"mb": 1e-3, "gb": 1.0, "tb": 1e3, "mib": 2**20 / 1e9, "gib": 2**30 / 1e9,
                                "tib": 2**40 / 1e9}
_OTHER_UNITS = {"tps", "pct", "%", "% of peak", "0-23", "h", "per s", "/s"}


@dataclass(frozen=True)
class Column:
    """A column an inventory may have: the database field it fills, the header words that name it, and the
    units it takes ("size": one of SIZE_UNITS, required)."""

    key: str
    names: tuple[str, ...]
    parse: str  # "text" | "size" | "int" | "float" | "hours"
    units: frozenset[str] = frozenset()


COLUMNS: tuple[Column, ...] = (
    Column("name", ("name", "database", "database name", "db", "db name"), "text"),
    Column("size_gb", ("size", "database size", "db size", "data size"), "size"),
    Column("peak_clients", ("peak clients", "clients", "peak connections", "connections"), "int"),
    Column("working_set_gb", ("working set", "working set size", "hot data"), "size"),
    Column("peak_tps", ("peak tps", "tps", "peak throughput", "transactions per second"), "float",
           frozenset({"tps", "per s", "/s"})),
    Column("busy_hours", ("busy hours", "peak hours"), "hours", frozenset({"0-23", "h"})),
    Column("writes_per_txn", ("writes per txn", "writes per transaction"), "float"),
    Column("offpeak_load_pct", ("offpeak load", "off peak load"), "float", frozenset({"pct", "%", "% of peak"})),
)
_KNOWN = frozenset(name for col in COLUMNS for name in col.names)
REQUIRED = ("name", "size_gb", "peak_clients", "working_set_gb")
MAX_DATABASES: int = next(m.max_length for m in PostgresConsolidation.model_fields["databases"].metadata
                          if hasattr(m, "max_length"))
_UNIT_WORDS = {"mb": "MB", "gb": "GB", "tb": "TB", "mib": "MiB", "gib": "GiB", "tib": "TiB"}


class InventoryError(RowsError):
    """An inventory that cannot be used; `problems` names every row and column at fault."""



@dataclass(frozen=True)
class _Heading:
    column: Column
    header: str  # as written, for messages
    factor: float  # to decimal GB, for sizes


def _split_header(cell: str) -> tuple[str, str]:
    """("working set", "gib") from "Working set (GiB)", "working_set_gib" or "Working set GiB"."""
    text = cell.strip().lower()
    unit = ""
    m = re.search(r"[(\[]\s*([^)\]]*?)\s*[)\]]", text)
    if m:
        unit, text = m.group(1), text[: m.start()] + text[m.end():]
    words = [w for w in re.split(r"[\s_\-]+", text) if w]
    named = " ".join(words) in _KNOWN  # "peak tps" is a name; "size gb" a name and its unit
    if not unit and not named and len(words) > 1 and (words[-1] in SIZE_UNITS or words[-1] in _OTHER_UNITS):
        unit = words.pop()
    return " ".join(words), unit


def _heading(cell: str) -> _Heading | Problem:
    base, unit = _split_header(cell)
    known = {name: col for col in COLUMNS for name in col.names}
    col = known.get(base)
    where = f"column {cell.strip()!r}"
    if col is None:
        close = difflib.get_close_matches(base, list(known), n=1, cutoff=0.7)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return Problem(where, f"not a column refarch reads; {hint}the columns are: "
                              + ", ".join(c.names[0] for c in COLUMNS) + " (remove the others)")
    if col.parse == "size":
        if unit not in SIZE_UNITS:
            got = f"got {unit!r}; " if unit else ""
            return Problem(where, f"say the unit in the header: {got}one of {', '.join(_UNIT_WORDS.values())}"
                                  f" (as '{col.names[0].capitalize()} (GB)' or '{col.key}')")
        return _Heading(col, cell.strip(), SIZE_UNITS[unit])
    if unit and unit not in col.units:
        return Problem(where, f"{unit!r} is not a unit of {col.names[0]}")
    return _Heading(col, cell.strip(), 1.0)


def _number(value: object) -> float | None:
    """A cell as a number; None when empty; ValueError when it is not one ("1,234.5" is 1234.5)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError(str(value))
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip().replace(" ", "").replace("_", "")
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    return float(text)


def _hours(value: object) -> list[int] | None:
    """Busy hours from "9-12" (inclusive), "9,10,11", "9;10" or one number; None when empty."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [int(value)] if float(value).is_integer() else [-1]
    text = str(value or "").strip()
    if not text:
        return None
    hours: list[int] = []
    for part in re.split(r"[,;\s]+", text):
        m = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", part)
        if not m:
            raise ValueError(part)
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if last < first:
            raise ValueError(part)
        hours += range(first, last + 1)
    return hours


def _cell(heading: _Heading, value: object) -> Any:
    parse = heading.column.parse
    if parse == "text":
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return None if value is None else str(value).strip()
    if parse == "hours":
        return _hours(value)
    number = _number(value)
    if number is None:
        return None
    if parse == "size":
        return round(number * heading.factor, 9)
    if parse == "int":
        if not number.is_integer():
            raise ValueError(value)
        return int(number)
    return number


_HOW = {"size": "a number", "int": "a whole number", "float": "a number",
        "hours": "hours 0-23, as 9-12 or 9,10,11"}


_UNREADABLE = object()  # a cell `_read` could not parse (its problem is already said)


def _read(heading: _Heading, raw: object, label: str, problems: list[Problem]) -> Any:
    """The cell's value (`_cell`); one that does not parse adds its problem, row and column named, and is
    `_UNREADABLE`: read from a file or pasted, a bad cell is said the same way."""
    try:
        return _cell(heading, raw)
    except ValueError:
        problems.append(Problem(f"{label}, {heading.header!r}", f"must be {_HOW[heading.column.parse]} (got {raw!r})"))
        return _UNREADABLE


def _row(headings: dict[int, _Heading], cells: Sequence[object], label: str) -> tuple[dict[str, Any], list[Problem]]:
    data: dict[str, Any] = {}
    problems: list[Problem] = []
    unreadable: set[str] = set()
    for i, heading in headings.items():
        value = _read(heading, cells[i] if i < len(cells) else None, label, problems)
        if value is _UNREADABLE:
            unreadable.add(heading.column.key)
            continue
        if value is not None:
            data[heading.column.key] = value
    try:
        PgDatabase.model_validate(data)
    except ValidationError as exc:
        by_key = {h.column.key: (i, h) for i, h in headings.items()}
        for p in problems_of(exc):
            field = p.path.split(".")[0].split("[")[0]
            if field in unreadable:
                continue
            if field not in by_key:
                problems.append(Problem(f"{label}, {field}", p.message))
                continue
            i, heading = by_key[field]
            message = p.message.split(" (got ")[0]
            if heading.factor != 1.0:
                message += " GB (the scenario's unit)"
            raw = cells[i] if i < len(cells) else None
            shown = raw is not None and (not isinstance(raw, str) or raw.strip()) and "got" not in message
            problems.append(Problem(f"{label}, {heading.header!r}", f"{message} (got {raw!r})" if shown else message))
    return data, problems


def _is_blank(cells: Sequence[object]) -> bool:
    return all(c is None or (isinstance(c, str) and not c.strip()) for c in cells)


def databases_from_rows(rows: Rows, source: str, *, headings: dict[int, _Heading] | None = None,
                        first_row: int = 1, row_word: str = "row") -> list[dict[str, Any]]:
    """The databases of a table whose first row is its header (or, given `headings`, of rows without one);
    InventoryError naming every bad row and column, and nothing returned, otherwise."""
    body_start = 0
    if headings is None:
        header_at = next((i for i, r in enumerate(rows) if not _is_blank(r)), None)
        if header_at is None:
            raise InventoryError(source, [Problem("file", "no header and no databases")])
        headings = _headings(rows[header_at], source)
        body_start = header_at + 1
    problems: list[Problem] = []
    found: list[dict[str, Any]] = []
    first_seen: dict[str, str] = {}
    for n, cells in enumerate(rows[body_start:], start=first_row + body_start):
        if _is_blank(cells):
            continue
        label = f"{row_word} {n}"
        data, bad = _row(headings, cells, label)
        problems += bad
        name = data.get("name")
        if isinstance(name, str) and name in first_seen:
            problems.append(Problem(f"{label}, name", f"{name!r} is already the name of {first_seen[name]}"))
        elif isinstance(name, str):
            first_seen[name] = label
        found.append(data)
    if not found and not problems:
        problems.append(Problem("file", "the header has no databases under it"))
    if len(found) > MAX_DATABASES:
        problems.append(Problem("file", f"{len(found):,} databases; a scenario holds at most {MAX_DATABASES:,}"))
    if problems:
        raise InventoryError(source, problems)
    return found


def _headings(header: Sequence[object], source: str) -> dict[int, _Heading]:
    headings: dict[int, _Heading] = {}
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for i, cell in enumerate(header):
        if cell is None or not str(cell).strip():
            continue
        got = _heading(str(cell))
        if isinstance(got, Problem):
            problems.append(got)
            base = _split_header(str(cell))[0]
            seen.update({c.key: str(cell).strip() for c in COLUMNS if base in c.names})  # named, its unit wrong
        elif got.column.key in seen:
            problems.append(Problem(f"column {got.header!r}", f"says the same as column {seen[got.column.key]!r}"))
        else:
            seen[got.column.key] = got.header
            headings[i] = got
    missing = [c.names[0] for c in COLUMNS if c.key in REQUIRED and c.key not in seen]
    if missing:
        problems.append(Problem("header", f"needs the columns {', '.join(missing)} (sizes with their unit, as"
                                          " 'Size (GB)')"))
    if problems:
        raise InventoryError(source, problems)
    return headings


def read_inventory(path: Path) -> list[dict[str, Any]]:
    """The databases of an inventory file (CSV, or an XLSX workbook's first sheet)."""
    try:
        sheets = read_table(path, "database inventory")
    except TableFileError as exc:
        raise InventoryError(str(path), exc.problems) from None
    rows = next(iter(sheets.values()), [])
    return databases_from_rows(rows, str(path))


def table_headings(keys: Sequence[str]) -> dict[int, _Heading]:
    """Headings for rows without a header, in the window table's column order (sizes in GB)."""
    by_key = {c.key: c for c in COLUMNS}
    return {i: _Heading(by_key[k], by_key[k].names[0], 1.0) for i, k in enumerate(keys)}


def databases_from_text(text: str, table_keys: Sequence[str], source: str = "pasted rows",
                        parse_rows: Callable[[str, str], Rows] | None = None) -> list[dict[str, Any]]:
    """Rows copied from a spreadsheet (tab-separated; comma-separated when no tab): with a header row, by it;
    without, in the table's column order `table_keys`."""
    delimiter = "\t" if "\t" in text else ","
    rows = (parse_rows or (lambda t, s: csv_rows(t, s, delimiter)))(text, source)
    rows = [r for r in rows if not _is_blank(r)]
    if not rows:
        raise InventoryError(source, [Problem("clipboard", "no rows to paste")])
    if _is_header(rows[0]):
        return databases_from_rows(rows, source, row_word="pasted row")
    return databases_from_rows(rows, source, headings=table_headings(table_keys[: max(len(r) for r in rows)]),
                               row_word="pasted row")


def _is_header(cells: Sequence[object]) -> bool:
    return any(_split_header(str(c or ""))[0] in _KNOWN for c in cells)


def has_header(text: str) -> bool:
    """True when copied rows start with a header row refarch reads (`Database`, `Size (GB)`, ...)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        return bool(first) and _is_header(csv_rows(first, "clipboard", "\t" if "\t" in first else ",")[0])
    except TableFileError:  # not CSV: no header either (the paste itself names what is wrong)
        return False


def paste_into(existing: Sequence[dict[str, Any]], pasted: list[dict[str, Any]], at: int | None,
               source: str = "pasted rows") -> list[dict[str, Any]]:
    """The databases after pasting rows at row `at` (None: after the last), as a spreadsheet pastes: the pasted
    rows replace the rows from `at` down and the list grows past its end. A pasted name that a kept row already
    has is refused (names are unique), naming both."""
    start = len(existing) if at is None else max(0, min(at, len(existing)))
    kept_before, kept_after = list(existing[:start]), list(existing[start + len(pasted):])
    owner = {str(r.get("name")): f"database {i + 1}" for i, r in enumerate(kept_before)}
    owner.update({str(r.get("name")): f"database {start + len(pasted) + i + 1}" for i, r in enumerate(kept_after)})
    clashes = [Problem(f"pasted row {n}, name", f"{r['name']!r} is already the name of {owner[str(r['name'])]}")
               for n, r in enumerate(pasted, start=1) if str(r.get("name")) in owner]
    if clashes:
        raise InventoryError(source, clashes)
    merged = [*kept_before, *pasted, *kept_after]
    if len(merged) > MAX_DATABASES:
        raise InventoryError(source, [Problem("file", f"{len(merged):,} databases; a scenario holds at most"
                                                      f" {MAX_DATABASES:,}")])
    return merged


def paste_cells(existing: Sequence[dict[str, Any]], text: str, at: tuple[int, int], table_keys: Sequence[str],
                source: str = "pasted cells") -> list[dict[str, Any]]:
    """The databases after pasting a block of cells (no header) at (row, column) of the table, column > 0, as a
    spreadsheet pastes: each pasted cell replaces the cell it lands on and the rest of each row is kept (a value
    pasted into Peak clients changes that database's clients). The block must land on existing rows and columns;
    every bad cell is named with its pasted row and the column's header, and nothing is changed.

    >>> rows = [{"name": "a", "size_gb": 1.0, "peak_clients": 5, "working_set_gb": 1.0}]
    >>> paste_cells(rows, "42", (0, 2), ["name", "size_gb", "peak_clients", "working_set_gb"])
    [{'name': 'a', 'size_gb': 1.0, 'peak_clients': 42, 'working_set_gb': 1.0}]
    """
    row, col = at
    cells = csv_rows(text, source, "\t" if "\t" in text else ",")
    while cells and _is_blank(cells[-1]):
        cells.pop()
    if not cells:
        raise InventoryError(source, [Problem("clipboard", "no cells to paste")])
    width = max(len(c) for c in cells)
    problems: list[Problem] = []
    if col + width > len(table_keys):
        problems.append(Problem("clipboard", f"{width} columns pasted from column {col + 1}: the table has"
                                             f" {len(table_keys)} columns"))
    if row + len(cells) > len(existing):
        problems.append(Problem("clipboard", f"{len(cells)} rows pasted from row {row + 1}: the table has"
                                             f" {len(existing)}; to add databases, paste whole rows in the"
                                             " Database column"))
    if problems:
        raise InventoryError(source, problems)
    headings = table_headings(table_keys[col:col + width])
    merged = [dict(r) for r in existing]
    for n, line in enumerate(cells, start=1):
        label, target = f"pasted row {n}", merged[row + n - 1]
        for i, heading in headings.items():
            value = _read(heading, line[i] if i < len(line) else None, label, problems)
            if value is _UNREADABLE:
                continue
            if value is None:
                target.pop(heading.column.key, None)
            else:
                target[heading.column.key] = value
        problems += _database_problems(target, label)
    if problems:
        raise InventoryError(source, problems)
    return merged


def _database_problems(data: dict[str, Any], label: str) -> list[Problem]:
    """What makes one database of the table invalid, each named by its row and the column's words."""
    try:
        PgDatabase.model_validate(data)
    except ValidationError as exc:
        words = {c.key: c.names[0] for c in COLUMNS}
        return [Problem(f"{label}, {words.get(field, field)!r}", p.message) for p in problems_of(exc)
                if (field := p.path.split(".")[0].split("[")[0])]
    return []

"""Tables a user hands refarch (CSV, or sheets of an XLSX workbook), read through the hardened file reader.

A database inventory, an RVTools or LiveOptics export: each is read here, bounded (the file's bytes, a
workbook's unpacked size, rows and columns) so a damaged or hostile file ends as a `TableFileError` naming the
file and the reason, never a hang or a traceback. openpyxl is imported only when a workbook is read.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

from models.file_input import TABLE_MAX_BYTES, FileInputError, decode_text, read_bytes
from models.problems import Problem

Rows = list[list[object]]
MAX_ROWS = 250_000  # RVTools' vDisk sheet of an estate of 10,000 VMs with a dozen disks each stays below
MAX_COLUMNS = 400  # RVTools' vInfo has about 90 columns
XLSX_MAX_UNPACKED_BYTES = 500_000_000  # a zip bomb of a workbook is refused before it is parsed
XLSX_SUFFIXES = (".xlsx", ".xlsm")


class TableFileError(ValueError):
    """A table that cannot be used; `problems` names each place ("row 4, 'Size (GB)'") and reason."""

    def __init__(self, name: str, problems: list[Problem]) -> None:
        self.name = name
        self.problems = problems
        shown = "; ".join(str(p) for p in problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3
                                                          else "")
        super().__init__(f"{name}: {shown}")

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class RowsError(ValueError):
    """Rows read from a file that cannot be used (an inventory, an RVTools or Live Optics export); `problems` names
    every sheet, row and column at fault, `source` the file."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(str(p) for p in problems[:3]))

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


def _fail(name: str, message: str) -> TableFileError:
    return TableFileError(name, [Problem("file", message)])


def _bounded(rows: Rows, name: str, sheet: str = "") -> None:
    if len(rows) > MAX_ROWS:
        where = f"sheet {sheet!r} has" if sheet else "it has"
        raise _fail(name, f"{where} more than {MAX_ROWS:,} rows")


def csv_rows(text: str, name: str, delimiter: str = ",") -> Rows:
    """The cells of CSV text (tab-separated with `delimiter="\\t"`, as spreadsheets copy rows)."""
    rows: Rows = []
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            rows.append(list(row[:MAX_COLUMNS]))
            _bounded(rows, name)
    except csv.Error as exc:
        raise _fail(name, f"not valid CSV: {exc}") from None
    return rows


EUROPEAN_NUMBER = re.compile(r"-?\d{1,3}(\.\d{3})*,\d+|-?\d+,\d+")  # 1.234,5 or 0,25: a decimal comma
DOT_GROUPED = re.compile(r"-?\d{1,3}(\.\d{3})+")  # 1.234: a thousand and some, or one and a bit


def csv_delimiter(text: str) -> str:
    """The separator of CSV text, from its first line: a tab or a semicolon when the line has one and no comma
    (Excel saves CSV with semicolons where the comma is the decimal mark), else a comma.

    >>> csv_delimiter("Name;Size (GB)"), csv_delimiter("Name,Size (GB)"), csv_delimiter("Name;Size (GB),x")
    (';', ',', ',')
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "\t" in first:
        return "\t"
    return ";" if ";" in first and "," not in first else ","


def decimal_commas(rows: Rows, name: str) -> Rows:
    """The cells of a semicolon-separated table with their decimal commas read as points ("1.234,5" -> "1234.5",
    "0,25" -> "0.25"); a number grouped with dots alone ("1.234") is refused, naming its row and column: it reads
    as 1234 or as 1.234.

    >>> decimal_commas([["Size (TB)"], ["1.234,5"], ["0,25"], ["7"]], "f.csv")
    [['Size (TB)'], ['1234.5'], ['0.25'], ['7']]
    """
    problems: list[Problem] = []
    out: Rows = []
    header = rows[0] if rows else []
    for n, row in enumerate(rows, start=1):
        cells: list[object] = []
        for c, cell in enumerate(row):
            text = str(cell).strip() if isinstance(cell, str) else ""
            if EUROPEAN_NUMBER.fullmatch(text):
                cell = text.replace(".", "").replace(",", ".")
            elif n > 1 and DOT_GROUPED.fullmatch(text):
                column = header[c] if c < len(header) else c + 1
                problems.append(Problem(f"row {n}, {column!r}", f"{text!r} reads as {text.replace('.', '')} or as"
                                        f" {text}: a semicolon-separated file takes a decimal comma; write it without"
                                        " the thousands dot"))
            cells.append(cell)
        out.append(cells)
    if problems:
        raise TableFileError(name, problems)
    return out


def _unpacked_size(data: bytes, name: str) -> int:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, EOFError, ValueError):
        raise _fail(name, "not a readable XLSX workbook (not a zip archive)") from None
    except Exception as exc:  # NotImplementedError for a zip version or method zipfile lacks, OSError, ...
        raise _fail(name, f"not a readable XLSX workbook ({exc or type(exc).__name__})") from None


def workbook_sheets(data: bytes, name: str, sheets: Sequence[str] | None = None) -> dict[str, Rows]:
    """The cells of the named sheets of a workbook (matched without regard to case), or of its first sheet;
    a named sheet the workbook lacks is left out (the caller says which it needs)."""
    from openpyxl import load_workbook

    unpacked = _unpacked_size(data, name)
    if unpacked > XLSX_MAX_UNPACKED_BYTES:
        raise _fail(name, f"the workbook unpacks to {unpacked:,} bytes; the limit is {XLSX_MAX_UNPACKED_BYTES:,}")
    out: dict[str, Rows] = {}
    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            by_name = {ws.title.lower(): ws for ws in wb.worksheets}
            wanted = [(s, by_name.get(s.lower())) for s in sheets] if sheets else \
                [(ws.title, ws) for ws in wb.worksheets[:1]]
            for title, ws in wanted:
                if ws is None:
                    continue
                rows: Rows = []
                for row in ws.iter_rows(max_col=MAX_COLUMNS, values_only=True):  # parsed while iterating
                    rows.append(list(row))
                    _bounded(rows, name, title)
                out[title] = rows
        finally:
            wb.close()
    except TableFileError:
        raise
    except Exception as exc:  # openpyxl, zipfile and the XML parser raise many kinds for a damaged workbook
        raise _fail(name, f"not a readable XLSX workbook ({type(exc).__name__})") from None
    return out


def read_table(path: Path, what: str, sheets: Sequence[str] | None = None) -> dict[str, Rows]:
    """A CSV file's rows (under the key "") or a workbook's sheets (`workbook_sheets`)."""
    name = str(path)
    try:
        data = read_bytes(path, max_bytes=TABLE_MAX_BYTES, what=what)
        if path.suffix.lower() in XLSX_SUFFIXES:
            return workbook_sheets(data, name, sheets)
        text = decode_text(data, name, what=what, hint="save it as a UTF-8 CSV")
        delimiter = csv_delimiter(text)
        rows = csv_rows(text, name, delimiter)
        return {"": decimal_commas(rows, name) if delimiter == ";" else rows}
    except FileInputError as exc:
        raise TableFileError(name, list(exc.problems)) from None

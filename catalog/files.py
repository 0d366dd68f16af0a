"""Read and write catalog files: a JSON list of objects, or a CSV with the same columns.

Reading only splits a file into numbered rows (with the CSV line each starts on,
so a spreadsheet user can find it); `catalog.validation` judges the values.
Problems that make the file unreadable as a whole raise `CatalogFileError`.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, TextIO, get_args

from catalog.errors import CatalogFileError, UndecidedSeparatorError
from catalog.numbers import NumberCell, NumberFormatError, Separator, detect, parse_number, written
from catalog.rows import ROW_MODELS, columns_for
from catalog.validation import EXTRA_CELLS, SourceRow
from models import file_input
from models.file_input import CATALOG_MAX_BYTES
from models.hardware import PART_KINDS, PartKind

FileFormat = Literal["csv", "json"]


def detect_format(path: Path, text: str) -> FileFormat:
    """By extension, else by content: JSON starts with `[` (or `{`, to say it is the wrong shape)."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".json"):
        return "csv" if suffix == ".csv" else "json"
    return "json" if text.lstrip()[:1] in ("[", "{") else "csv"


def read_file(path: Path, decimal: Separator | None = None) -> list[SourceRow]:
    """Rows of a catalog file, read by the hardened reader (`models.file_input`): regular files only,
    at most `CATALOG_MAX_BYTES`, UTF-8 (a spreadsheet's BOM is fine), no duplicate keys or non-finite numbers.
    A CSV's numbers are read with its decimal separator (`decimal`, else the one its cells show)."""
    try:
        text = file_input.read_text(path, max_bytes=CATALOG_MAX_BYTES, what="catalog file",
                                    hint="save it as UTF-8 CSV")
    except file_input.FileInputError as exc:
        raise CatalogFileError(file_error_text(exc)) from None
    fmt = detect_format(path, text)
    return parse_json(text, str(path)) if fmt == "json" else parse_csv(text, str(path), decimal)


def file_error_text(exc: file_input.FileInputError) -> str:
    """A file's problems as one CatalogFileError text: `PATH: reason; ...` (file-wide reasons without a path)."""
    shown = "; ".join(str(p) if p.path != "file" else p.message for p in exc.problems[:5])
    more = f"; and {len(exc.problems) - 5} more" if len(exc.problems) > 5 else ""
    return f"{exc.name}: {shown}{more}"


def parse_json(text: str, name: str = "<json>") -> list[SourceRow]:
    try:
        data = file_input.parse_json(text, name)
    except file_input.FileInputError as exc:
        raise CatalogFileError(file_error_text(exc)) from None
    if not isinstance(data, list):
        raise CatalogFileError(f"{name}: expected a JSON list of parts, got a {type(data).__name__}")
    rows = []
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise CatalogFileError(f"{name}: item {number} is a {type(item).__name__}, not an object")
        rows.append(SourceRow(number, item))
    return rows


def parse_csv(text: str, name: str = "<csv>", decimal: Separator | None = None) -> list[SourceRow]:
    rows = list(csv_rows(io.StringIO(text, newline=""), name))
    sep = csv_separator(rows, name, decimal)
    return [with_numbers(r, sep) for r in rows]


def csv_rows(lines: Iterable[str], name: str) -> Iterator[SourceRow]:
    """The rows of a catalog CSV as written (numbers still text), numbered from 1, each with the line it starts on;
    blank lines skipped, cells past the header's kept together under EXTRA_CELLS for validation to name."""
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is None:
            raise CatalogFileError(f"{name}: empty file")
        columns = [c.strip() for c in header]
        _check_header(columns, name)
        number = 0
        last_line = reader.line_num
        for cells in reader:
            start, last_line = last_line + 1, reader.line_num
            if not any(c.strip() for c in cells):
                continue  # blank lines, and the trailing ",,,," lines spreadsheets leave
            # refarch's own exports mark formula-like text with a leading ' (see write_csv): undo it
            values: dict[str, Any] = dict(zip(columns, map(file_input.restore_spreadsheet_text, cells), strict=False))
            if len(cells) > len(columns):
                values[EXTRA_CELLS] = ",".join(cells[len(columns):])
            number += 1
            yield SourceRow(number, values, line=start)
    except csv.Error as exc:
        raise CatalogFileError(f"{name}: not valid CSV at line {reader.line_num}: {exc}") from None


def _numeric(annotation: Any) -> bool:
    return annotation in (int, float) or any(_numeric(a) for a in get_args(annotation))


NUMERIC_COLUMNS = frozenset(name for model in ROW_MODELS.values() for name, info in model.model_fields.items()
                            if _numeric(info.annotation))


def csv_separator(rows: Iterable[SourceRow], name: str, decimal: Separator | None) -> Separator:
    """The decimal separator of a CSV's number cells (`catalog.numbers.detect`: `decimal` when given, else the one
    the cells show), in one pass over `rows`; CatalogFileError when the cells cannot tell it."""
    cells = (NumberCell(r.line or r.number, column, value, "line") for r in rows for column, value in r.values.items()
             if column in NUMERIC_COLUMNS and isinstance(value, str) and value.strip())
    found = detect(cells, decimal)
    if found.separator is None:
        raise UndecidedSeparatorError(name, found.summary())
    return found.separator


# Cells written plainly ("-12", "500.0" with '.'; "1234" with either) read as themselves: `parse_number` gives the
# same text back (str(Decimal("500.0")) == "500.0"), so the common cell skips it (a big file's import reads every
# cell on each of its passes)
_PLAIN = {".": re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?"), ",": re.compile(r"-?(?:0|[1-9]\d*)")}


def with_numbers(r: SourceRow, sep: Separator) -> SourceRow:
    """The row with each number cell read with the file's decimal separator; a cell that is no such number is left
    as written for validation to name.

    >>> with_numbers(SourceRow(1, {"price": " 1.234,5", "watts": "12", "model": "1,5"}), ",").values
    {'price': '1234.5', 'watts': '12', 'model': '1,5'}
    """
    values = dict(r.values)
    plain = _PLAIN[sep]
    for column, value in r.values.items():
        if column in NUMERIC_COLUMNS and isinstance(value, str) and value.strip():
            text = value.strip()
            if plain.fullmatch(text):
                values[column] = text
                continue
            with contextlib.suppress(NumberFormatError):
                values[column] = str(parse_number(value, sep))
    return SourceRow(r.number, values, line=r.line)


def _check_header(columns: list[str], name: str) -> None:
    if "kind" not in columns or "id" not in columns:
        raise CatalogFileError(f"{name}: the header needs at least the columns 'id' and 'kind' "
                               f"(got {', '.join(columns) or 'nothing'})")
    seen: set[str] = set()
    for column in columns:
        if column in seen:
            raise CatalogFileError(f"{name}: column '{column}' appears twice in the header")
        seen.add(column)


def write_json(rows: Iterable[Mapping[str, Any]], out: TextIO) -> None:
    json.dump(list(rows), out, indent=2, ensure_ascii=False)
    out.write("\n")


def write_csv(rows: Iterable[Mapping[str, Any]], out: TextIO) -> None:
    rows = list(rows)
    kinds: tuple[PartKind, ...] = tuple(k for k in PART_KINDS if any(r["kind"] == k for r in rows)) \
        or PART_KINDS
    writer = csv.DictWriter(out, fieldnames=columns_for(kinds), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        # Text a spreadsheet would run as a formula ("=cmd|...", "@SUM(...)") gets a leading '; numbers stay numbers
        # (str(float) is repr in Python 3: floats round-trip exactly).
        # A float that would read two ways (1.234) gets a trailing 0, so the file shows its decimal separator.
        writer.writerow({k: file_input.spreadsheet_text(v) if isinstance(v, str) else
                         written(v) if isinstance(v, float) else v for k, v in row.items()})


def render(rows: Iterable[Mapping[str, Any]], fmt: FileFormat) -> str:
    """The whole export as text, refused (CatalogFileError) when larger than `read_file` accepts, so an
    export always imports again. Rendered in memory first: the old file is replaced only by a complete one."""
    out = io.StringIO()
    (write_csv if fmt == "csv" else write_json)(rows, out)
    text = out.getvalue()
    size = len(text.encode("utf-8"))
    if size > CATALOG_MAX_BYTES:
        raise CatalogFileError(f"the export would be {size:,} bytes; a catalog file is limited to "
                               f"{CATALOG_MAX_BYTES:,} bytes (export one --kind at a time)")
    return text

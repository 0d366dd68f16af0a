"""A vendor quote (CSV or XLSX) mapped onto catalog parts: quoted prices replace estimates and list prices.

A quote line names a part by its catalog id or the vendor's part number (a `part_number`, `sku` or `id`
column) or by its model text (`description`); it carries a quantity, a unit price and a currency.
Matched parts get the quoted price with `price_basis` "quote", `price_as_of` the quote date and `source`
"quote FILE DATE"; a part with no vendor part number takes the one its line names (matched by description).
All or nothing: any malformed line, any part quoted twice at two prices, or (unless allowed) any
line that matches no part, and nothing is written; every such line is listed.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from catalog.errors import CatalogFileError, UndecidedSeparatorError
from catalog.numbers import NumberCell, NumberFormatError, Separator, detect, parse_number
from models.file_input import MAX_INT_DIGITS, TABLE_MAX_BYTES, FileInputError, decode_text, read_bytes
from models.hardware import Part
from models.pricing import quote_source

# A workbook is a zip: a 50 MB file can unpack to gigabytes of sheet XML (a "zip bomb"), so the unpacked size
# is bounded too, and so are the rows and columns read (a vendor quote is tens of lines, a few columns).
XLSX_MAX_UNPACKED_BYTES = 4 * TABLE_MAX_BYTES
MAX_QUOTE_ROWS = 100_000
MAX_QUOTE_COLUMNS = 64
ALIASES = {
    "part": ("part_number", "part number", "part no", "part no.", "part_id", "id", "sku", "catalog id", "partnumber"),
    "description": ("description", "desc", "model", "item"),
    "quantity": ("quantity", "qty", "units"),
    "unit_price": ("unit_price", "unit price", "price", "net unit price", "unit net price"),
    "currency": ("currency", "cur", "ccy"),
}
CURRENCY_RE = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True, slots=True)
class QuoteLine:
    number: int  # line in the file (1 = the header)
    part: str
    description: str
    quantity: int | None
    unit_price: float
    currency: str


@dataclass
class QuoteMatch:
    matched: list[tuple[QuoteLine, Part]] = field(default_factory=list)
    unmatched: list[QuoteLine] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _norm(s: str) -> str:
    return " ".join(str(s).strip().lower().split())


def _columns(header: Iterable[object], name: str) -> dict[str, int]:
    cells = [_norm(str(c)) if c is not None else "" for c in header]
    found: dict[str, int] = {}
    for key, names in ALIASES.items():
        for i, cell in enumerate(cells):
            if cell in names:
                found[key] = i
                break
    missing = [k for k in ("unit_price", "currency") if k not in found]
    if "part" not in found and "description" not in found:
        missing.insert(0, "part_number or description")
    if missing:
        raise CatalogFileError(f"{name}: the header needs the columns {', '.join(missing)} "
                               f"(got {', '.join(c for c in cells if c) or 'nothing'})")
    return found


def _workbook_rows(data: bytes, name: str) -> list[list[object]]:
    import zipfile

    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, EOFError, ValueError):
        raise CatalogFileError(f"{name}: not a readable XLSX workbook (not a zip archive)") from None
    except Exception as exc:  # NotImplementedError for a zip version or method zipfile lacks, OSError, ...
        raise CatalogFileError(f"{name}: not a readable XLSX workbook ({exc or type(exc).__name__})") from None
    if unpacked > XLSX_MAX_UNPACKED_BYTES:
        raise CatalogFileError(f"{name}: the workbook unpacks to {unpacked:,} bytes; the limit is "
                               f"{XLSX_MAX_UNPACKED_BYTES:,} bytes (save the quote as CSV, or only its first sheet)")
    rows: list[list[object]] = []
    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            if not wb.worksheets:
                raise CatalogFileError(f"{name}: the workbook has no worksheet")
            # the sheet XML is parsed while iterating, so a damaged sheet fails here, not at load_workbook
            for row in wb.worksheets[0].iter_rows(max_col=MAX_QUOTE_COLUMNS, values_only=True):
                if len(rows) >= MAX_QUOTE_ROWS:
                    raise CatalogFileError(f"{name}: more than {MAX_QUOTE_ROWS:,} rows; a quote is far shorter "
                                           "(is this the right sheet?)")
                rows.append(list(row))
        finally:
            wb.close()
    except CatalogFileError:
        raise
    except Exception as exc:  # openpyxl, zipfile and the XML parser raise many kinds for a damaged workbook
        raise CatalogFileError(f"{name}: not a readable XLSX workbook ({type(exc).__name__})") from None
    return rows


def _rows_from_file(path: Path) -> list[list[object]]:
    """The cells of a quote file (CSV, or an XLSX workbook's first sheet), read through the hardened reader."""
    try:
        data = read_bytes(path, max_bytes=TABLE_MAX_BYTES, what="quote")
        if path.suffix.lower() in (".xlsx", ".xlsm"):
            return _workbook_rows(data, str(path))
        text = decode_text(data, str(path), what="quote", hint="save it as a UTF-8 CSV")
    except FileInputError as exc:
        raise CatalogFileError(str(exc)) from None
    rows: list[list[object]] = []
    try:
        for row in csv.reader(io.StringIO(text, newline="")):
            if len(rows) >= MAX_QUOTE_ROWS:
                raise CatalogFileError(f"{path}: more than {MAX_QUOTE_ROWS:,} rows; a quote is far shorter")
            rows.append(list(row[:MAX_QUOTE_COLUMNS]))
    except csv.Error as exc:
        raise CatalogFileError(f"{path}: not valid CSV: {exc}") from None
    return rows


def _quantity(value: Decimal, text: str) -> int:
    """A whole number of units from 0 to 10^15; ValueError otherwise (`int(Decimal("1e999999999"))` would build
    a billion-digit integer, and infinities or NaN do not convert at all)."""
    if not value.is_finite() or value < 0 or value != value.to_integral_value() or value.adjusted() >= MAX_INT_DIGITS:
        raise ValueError(text)
    return int(value)


def _number(value: object, decimal: Separator) -> Decimal:
    """A cell's number: a workbook's numeric cell as stored, text by the file's decimal separator."""
    if isinstance(value, bool):
        raise NumberFormatError(f"{value!r} is not a number")
    if isinstance(value, int | float):
        return Decimal(repr(value))
    return parse_number(str(value), decimal)


def read_quote(path: Path, decimal: Separator | None = None) -> tuple[list[QuoteLine], list[str]]:
    """The quote's lines and every problem (line number, column, what is wrong).

    Prices and quantities written as text are read with the file's decimal separator: `decimal` (from
    --decimal), else the one the file's cells show (`catalog.numbers.detect`); a file that does not show it
    for some cell that reads two ways, or writes numbers two ways, is refused naming those cells."""
    rows = _rows_from_file(path)
    start = next((i for i, r in enumerate(rows) if any(c not in (None, "") for c in r)), None)
    if start is None:
        raise CatalogFileError(f"{path}: empty quote")
    cols = _columns(rows[start], str(path))
    lines: list[QuoteLine] = []
    problems: list[str] = []

    def raw(r: list[object], key: str) -> object:
        i = cols.get(key)
        v = r[i] if i is not None and i < len(r) else None
        return v.strip() if isinstance(v, str) else v

    def cell(r: list[object], key: str) -> str:
        v = raw(r, key)
        return "" if v is None else str(v)

    body = [(n, r) for n, r in enumerate(rows[start + 1:], start=start + 2) if any(c not in (None, "") for c in r)]
    texts = [NumberCell(n, key, v, "line") for n, r in body for key in ("unit_price", "quantity")
             if isinstance(v := raw(r, key), str) and v]
    found = detect(texts, decimal)
    if found.separator is None:
        raise UndecidedSeparatorError(str(path), found.summary(), nothing_imported=True)
    sep = found.separator
    for n, r in body:
        part, desc = cell(r, "part"), cell(r, "description")
        if not part and not desc:
            problems.append(f"line {n}: no part number and no description")
            continue
        raw_price = raw(r, "unit_price")
        try:
            price = _number("" if raw_price is None else raw_price, sep)
            if not price.is_finite() or price < 0 or price >= Decimal("1e10"):
                raise InvalidOperation
        except (InvalidOperation, NumberFormatError):
            problems.append(f"line {n} ({part or desc}), column unit_price: must be a number from 0 to 10^10 with "
                            f"{sep!r} as the decimal separator, got {cell(r, 'unit_price')!r}")
            continue
        cur = cell(r, "currency").upper()
        if not CURRENCY_RE.fullmatch(cur):
            problems.append(f"line {n} ({part or desc}): currency must be an ISO 4217 code such as USD, got {cur!r}")
            continue
        qty_text = cell(r, "quantity")
        qty: int | None = None
        if qty_text:
            try:
                qty = _quantity(_number(raw(r, "quantity"), sep), qty_text)
            except (InvalidOperation, ValueError):
                problems.append(f"line {n} ({part or desc}), column quantity: must be a whole number from 0 to "
                                f"10^{MAX_INT_DIGITS}, got {qty_text!r}")
                continue
        lines.append(QuoteLine(n, part, desc, qty, round(float(price), 4), cur))
    return lines, problems


def match(lines: Iterable[QuoteLine], parts: Iterable[Part]) -> QuoteMatch:
    """Each line to one part: by catalog id, else by the vendor part number, else by model text equal to the
    description or part number."""
    parts = list(parts)
    by_id = {p.id.lower(): p for p in parts}
    # a vendor's quote names parts by the vendor's own part number; one that two parts share matches neither
    by_number: dict[str, list[Part]] = {}
    for p in parts:
        if p.part_number:
            by_number.setdefault(_norm(p.part_number), []).append(p)
    by_model: dict[str, list[Part]] = {}
    for p in parts:
        by_model.setdefault(_norm(p.model), []).append(p)
        by_model.setdefault(_norm(f"{p.vendor} {p.model}"), []).append(p)
    out = QuoteMatch()
    seen: dict[str, QuoteLine] = {}
    for ln in lines:
        part = by_id.get(ln.part.lower()) if ln.part else None
        numbered = by_number.get(_norm(ln.part), []) if ln.part and part is None else []
        if len(numbered) == 1:
            part = numbered[0]
        if part is None:
            for key in (ln.part, ln.description):
                candidates = by_model.get(_norm(key), []) if key else []
                if len({c.id for c in candidates}) == 1:
                    part = candidates[0]
                    break
        if part is None:
            out.unmatched.append(ln)
            continue
        first = seen.get(part.id)
        if first is not None and (first.unit_price, first.currency) != (ln.unit_price, ln.currency):
            out.problems.append(f"line {ln.number}: {part.id} is quoted again at {ln.unit_price:g} {ln.currency} "
                                f"(line {first.number} says {first.unit_price:g} {first.currency})")
            continue
        if first is None:
            seen[part.id] = ln
            out.matched.append((ln, part))
    return out


def commercial_fields(line: QuoteLine, file_name: str, when: date) -> dict[str, Any]:
    """The fields a quote line sets on its part; every other field (the specs) is left as it is."""
    return {"price": line.unit_price, "currency": line.currency, "price_as_of": when, "price_basis": "quote",
            "source": quote_source(file_name, when)}


def learned_part_number(line: QuoteLine, part: Part) -> str | None:
    """The vendor part number a quote line teaches a part that has none: the line's part column when it matched
    by description and names something other than the catalog id (one token of at most 80 characters)."""
    number = line.part.strip()
    if part.part_number or not number or number.lower() == part.id.lower() or " " in number or len(number) > 80:
        return None
    return number


def quoted(part: Part, line: QuoteLine, file_name: str, when: date) -> Part:
    learned = learned_part_number(line, part)
    out = dataclasses.replace(part, **commercial_fields(line, file_name, when), origin=None)
    return dataclasses.replace(out, part_number=learned) if learned else out


def describe_unmatched(lines: Iterable[QuoteLine]) -> list[str]:
    return [f"line {ln.number}: {ln.part or '-'} / {ln.description or '-'} ({ln.unit_price:g} {ln.currency}) "
            "matches no catalog part (by id, part number or model)" for ln in lines]

"""A vendor quote (CSV or XLSX) mapped onto catalog parts: quoted prices replace estimates and list prices.

A quote line names a part by its catalog id or the vendor's part number (a `part_number`, `sku` or `id`
column) or by its model text (`description`); it carries a quantity, a unit price and a currency.
Matched parts get the quoted price with `price_basis` "quote", `price_as_of` the quote date and `source`
"quote FILE DATE".
All or nothing: any malformed line, any part quoted twice at two prices, or (unless allowed) any
line that matches no part, and nothing is written; every such line is listed.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from catalog.errors import CatalogFileError
from models.file_input import FileInputError, read_bytes
from models.hardware import Part

MAX_QUOTE_BYTES = 20_000_000
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


def _rows_from_file(path: Path) -> list[list[object]]:
    try:
        data = read_bytes(path, max_bytes=MAX_QUOTE_BYTES, what="quote")
    except FileInputError as exc:
        raise CatalogFileError(str(exc)) from None
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        from openpyxl import load_workbook

        try:
            wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many kinds for a file that is not a workbook
            raise CatalogFileError(f"{path}: not a readable XLSX workbook ({type(exc).__name__})") from None
        ws = wb.worksheets[0]
        return [list(r) for r in ws.iter_rows(values_only=True)]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CatalogFileError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8 CSV") from None
    try:
        return [list(r) for r in csv.reader(io.StringIO(text, newline=""))]
    except csv.Error as exc:
        raise CatalogFileError(f"{path}: not valid CSV: {exc}") from None


def read_quote(path: Path) -> tuple[list[QuoteLine], list[str]]:
    """The quote's lines and every problem (line number, column, what is wrong)."""
    rows = _rows_from_file(path)
    start = next((i for i, r in enumerate(rows) if any(c not in (None, "") for c in r)), None)
    if start is None:
        raise CatalogFileError(f"{path}: empty quote")
    cols = _columns(rows[start], str(path))
    lines: list[QuoteLine] = []
    problems: list[str] = []

    def cell(r: list[object], key: str) -> str:
        i = cols.get(key)
        v = r[i] if i is not None and i < len(r) else None
        return "" if v is None else str(v).strip()

    for n, r in enumerate(rows[start + 1:], start=start + 2):
        if not any(c not in (None, "") for c in r):
            continue
        part, desc = cell(r, "part"), cell(r, "description")
        if not part and not desc:
            problems.append(f"line {n}: no part number and no description")
            continue
        raw_price = cell(r, "unit_price").replace(",", "")
        try:
            price = Decimal(raw_price)
            if not price.is_finite() or price < 0 or price >= Decimal("1e10"):
                raise InvalidOperation
        except InvalidOperation:
            problems.append(f"line {n} ({part or desc}): unit_price must be a number from 0, got {raw_price!r}")
            continue
        cur = cell(r, "currency").upper()
        if not CURRENCY_RE.fullmatch(cur):
            problems.append(f"line {n} ({part or desc}): currency must be an ISO 4217 code such as USD, got {cur!r}")
            continue
        qty_text = cell(r, "quantity")
        qty: int | None = None
        if qty_text:
            try:
                qty = int(Decimal(qty_text))
            except InvalidOperation:
                problems.append(f"line {n} ({part or desc}): quantity must be a whole number, got {qty_text!r}")
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


def quoted(part: Part, line: QuoteLine, file_name: str, when: date) -> Part:
    return dataclasses.replace(part, price=line.unit_price, currency=line.currency, price_as_of=when,
                               price_basis="quote", source=f"quote {file_name} {when.isoformat()}", origin=None)


def describe_unmatched(lines: Iterable[QuoteLine]) -> list[str]:
    return [f"line {ln.number}: {ln.part or '-'} / {ln.description or '-'} ({ln.unit_price:g} {ln.currency}) "
            "matches no catalog part (by id, part number or model)" for ln in lines]


def as_rows(parts: Iterable[Part]) -> list[Mapping[str, Any]]:
    from catalog.rows import part_to_row

    return [part_to_row(p) for p in parts]

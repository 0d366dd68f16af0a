"""The exchange-rate table: rows `currency, usd_per_unit, as_of, source`, validated, seeded, imported, exported.

One pivot (USD) keeps the table consistent; see `models.money`. Imports are all-or-nothing like parts.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from datetime import date
from importlib.abc import Traversable
from importlib.resources import files
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ConfigDict, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog.errors import CatalogFileError, InvalidRowsError, RowProblem
from catalog.orm import RateRecord
from catalog.rows import Currency, IsoDate, LongText, Positive
from models import file_input
from models.money import PIVOT, ExchangeRates, Rate

RATE_COLUMNS = ("currency", "usd_per_unit", "as_of", "source")


class RateRow(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, allow_inf_nan=False, frozen=True)

    currency: Currency
    usd_per_unit: Positive
    as_of: IsoDate
    source: LongText


def validate_rates(rows: Iterable[Mapping[str, Any]]) -> list[RateRow]:
    """Every problem of every row, or the rows; raises InvalidRowsError (nothing is written)."""
    problems: list[RowProblem] = []
    out: list[RateRow] = []
    seen: dict[str, int] = {}
    for number, values in enumerate(rows, start=1):
        cleaned = {k: v for k, v in values.items() if k != "kind" and v not in (None, "")}
        cur = str(cleaned.get("currency", "")).strip() or None
        try:
            row = RateRow.model_validate(cleaned)
        except ValidationError as exc:
            for err in exc.errors(include_url=False):
                name = ".".join(str(p) for p in err["loc"]) or "-"
                problems.append(RowProblem(number, name, f"{err['msg']} (got {err.get('input')!r})", None, cur))
            continue
        if row.currency == PIVOT:
            problems.append(RowProblem(number, "currency", f"{PIVOT} is the pivot (1 by definition)", None, cur))
        elif row.currency in seen:
            problems.append(RowProblem(number, "currency", f"repeated (first on row {seen[row.currency]})", None, cur))
        else:
            seen[row.currency] = number
            out.append(row)
    if problems:
        raise InvalidRowsError(f"{len(problems)} problem(s) in the exchange rates; nothing was imported", problems)
    return out


def seed_rates_source() -> Traversable:
    return files("resources") / "seed" / "exchange_rates.json"


def seed_rate_rows() -> list[RateRow]:
    source = seed_rates_source()
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CatalogFileError(f"the bundled exchange rates {source} cannot be read ({exc}); reinstall refarch") \
            from None
    return validate_rates(data)


def merge_rates(session: Session, rows: Iterable[RateRow], *, user: bool) -> int:
    """Write rows; a seed (`user` False) never overwrites a rate the user set. Returns rows written."""
    written = 0
    for row in rows:
        record = session.get(RateRecord, row.currency)
        if record is None:
            session.add(RateRecord(**row.model_dump(), user_edited=user))
        elif user or not record.user_edited:
            record.usd_per_unit, record.as_of, record.source = row.usd_per_unit, row.as_of, row.source
            record.user_edited = record.user_edited or user
        else:
            continue
        written += 1
    session.flush()
    return written


def load_rates(session: Session) -> ExchangeRates:
    return ExchangeRates(tuple(
        Rate(r.currency, float(r.usd_per_unit), r.as_of, r.source)
        for r in session.scalars(select(RateRecord).order_by(RateRecord.currency))
    ))


def rate_to_row(rate: Rate) -> dict[str, Any]:
    return {"currency": rate.currency, "usd_per_unit": rate.usd_per_unit, "as_of": rate.as_of.isoformat(),
            "source": rate.source}


def write_rates_csv(rows: Iterable[Mapping[str, Any]], out: TextIO) -> None:
    """The rates as CSV; a source text that a spreadsheet would run as a formula is marked as text (`'=...`)."""
    writer = csv.DictWriter(out, fieldnames=RATE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: file_input.spreadsheet_text(v) if isinstance(v, str) else v for k, v in row.items()})


def read_rates_file(path: Path) -> list[dict[str, Any]]:
    """The rows of a rates file (.json: a list of objects; else CSV with a header), through the hardened reader.

    CatalogFileError for a file that is no rates table at all; the values are checked by `validate_rates`.
    """
    try:
        text = file_input.read_text(path, max_bytes=file_input.TABLE_MAX_BYTES, what="rates file")
        data = file_input.parse_json(text, str(path)) if path.suffix.lower() == ".json" else None
    except file_input.FileInputError as exc:
        raise CatalogFileError(str(exc)) from None
    if data is not None:
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise CatalogFileError(f"{path}: expected a list of rate rows with {', '.join(RATE_COLUMNS)}")
        return data
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [c.strip() for c in next(reader, [])]
        if len(set(header)) != len(header) or not header:
            raise CatalogFileError(f"{path}: the header must name each of {', '.join(RATE_COLUMNS)} once "
                                   f"(got {', '.join(header) or 'nothing'})")
        rows: list[dict[str, Any]] = []
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header):
                raise CatalogFileError(f"{path}: line {reader.line_num} has {len(cells)} cells; the header names "
                                       f"{len(header)}")
            rows.append(dict(zip(header, map(file_input.restore_spreadsheet_text, cells), strict=False)))
    except csv.Error as exc:  # e.g. a cell over the csv module's 128 KB field limit
        raise CatalogFileError(f"{path}: not valid CSV at line {reader.line_num}: {exc}") from None
    return rows


def seed_exchange_rates() -> ExchangeRates:
    return ExchangeRates(tuple(Rate(r.currency, r.usd_per_unit, r.as_of, r.source) for r in seed_rate_rows()))


def today() -> date:
    return date.today()

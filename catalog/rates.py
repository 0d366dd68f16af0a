"""The exchange-rate table: rows `currency, usd_per_unit, as_of, source`, validated, seeded, imported, exported.

One pivot (USD) keeps the table consistent; see `models.money`. Imports are all-or-nothing like parts.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Iterable, Mapping
from datetime import date
from importlib.abc import Traversable
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, TextIO

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog.errors import CatalogFileError, InvalidRowsError, RowProblem, UndecidedSeparatorError
from catalog.numbers import NumberCell, NumberFormatError, Separator, detect, parse_number, written
from catalog.orm import RateRecord
from catalog.rows import Currency, IsoDate, LongText, _no_bool
from models import file_input
from models.money import PIVOT, ExchangeRates, Rate

RATE_COLUMNS = ("currency", "usd_per_unit", "as_of", "source")
# Hard limits on USD per unit: the most valuable currency in use (the Kuwaiti dinar) is worth ~3 USD, the least
# valuable ones ~1e-5 USD; 1e308 or 1e-308 is a slip that would turn every converted price into 0 or infinity.
MIN_USD_PER_UNIT = 1e-6
MAX_USD_PER_UNIT = 1e4
UsdPerUnit = Annotated[float, BeforeValidator(_no_bool), Field(ge=MIN_USD_PER_UNIT, le=MAX_USD_PER_UNIT)]


class RateRow(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, allow_inf_nan=False, frozen=True)

    currency: Currency
    usd_per_unit: UsdPerUnit
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
                message = str(err["msg"]).removeprefix("Value error, ")
                problems.append(RowProblem(number, name, f"{message} (got {err.get('input')!r})", None, cur))
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
        writer.writerow({k: file_input.spreadsheet_text(v) if isinstance(v, str) else
                         written(v) if isinstance(v, float) else v for k, v in row.items()})


def read_rates_file(path: Path, decimal: Separator | None = None) -> list[dict[str, Any]]:
    """The rows of a rates file (.json: a list of objects; else CSV with a header), through the hardened reader.

    A rate written as text is read with the file's decimal separator (`decimal`, else detected over the file,
    see `catalog.numbers`). CatalogFileError for a file that is no rates table at all, or whose decimal
    separator cannot be told; the values are checked by `validate_rates`.
    """
    try:
        text = file_input.read_text(path, max_bytes=file_input.TABLE_MAX_BYTES, what="rates file")
        data = file_input.parse_json(text, str(path)) if path.suffix.lower() == ".json" else None
    except file_input.FileInputError as exc:
        raise CatalogFileError(str(exc)) from None
    if data is not None:
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise CatalogFileError(f"{path}: expected a list of rate rows with {', '.join(RATE_COLUMNS)}")
        return with_numbers_read(data, path, decimal, first_row=1)
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
    return with_numbers_read(rows, path, decimal, first_row=1)


def with_numbers_read(rows: list[dict[str, Any]], path: Path | str, decimal: Separator | None, *,
                      first_row: int) -> list[dict[str, Any]]:
    """The rows with each `usd_per_unit` written as text replaced by its number, read with the file's decimal
    separator; a cell that is no such number is left for `validate_rates` to name."""
    cells = [NumberCell(n, "usd_per_unit", v) for n, r in enumerate(rows, start=first_row)
             if isinstance(v := r.get("usd_per_unit"), str) and v.strip()]
    found = detect(cells, decimal)
    if found.separator is None:
        raise UndecidedSeparatorError(str(path), found.summary())
    out: list[dict[str, Any]] = []
    for row in rows:
        value = row.get("usd_per_unit")
        if isinstance(value, str) and value.strip():
            with contextlib.suppress(NumberFormatError):
                row = {**row, "usd_per_unit": float(parse_number(value, found.separator))}
        out.append(row)
    return out


def seed_exchange_rates() -> ExchangeRates:
    return ExchangeRates(tuple(Rate(r.currency, r.usd_per_unit, r.as_of, r.source) for r in seed_rate_rows()))


def today() -> date:
    return date.today()

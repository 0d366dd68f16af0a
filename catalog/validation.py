"""Validate catalog rows as a whole: every problem of every row, with its row number and field.

A user fixing a 300-row spreadsheet wants the full list at once, so nothing
here stops at the first problem. Rows are checked on their own (`catalog.rows`
models) and then together: duplicate ids within the file and against the
catalog, and each server's `cpu_id` against the CPUs of the file and the catalog.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from catalog.errors import RowProblem
from catalog.rows import DERIVED_COLUMNS, ROW_MODELS, SLUG_RE, RowModel
from models.hardware import PART_KINDS, PartKind

EXTRA_CELLS = "(extra cells)"  # the key `catalog.files` gives cells beyond a CSV header


@dataclass(frozen=True, slots=True)
class SourceRow:
    """A row as read from a file (or built from a part), before validation."""

    number: int
    values: Mapping[str, Any]
    line: int | None = None

    @property
    def part_id(self) -> str | None:
        value = self.values.get("id")
        return value.strip() if isinstance(value, str) and value.strip() else None


@dataclass(frozen=True, slots=True)
class ValidRow:
    source: SourceRow
    kind: PartKind
    row: RowModel


@dataclass(slots=True)
class Validation:
    """The outcome: rows that passed, and every problem found. Write only when `ok`."""

    rows: list[ValidRow] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def as_source_rows(rows: Iterable[SourceRow | Mapping[str, Any]]) -> list[SourceRow]:
    """Number plain mappings 1, 2, ... in order; `SourceRow`s keep their own numbers."""
    return [r if isinstance(r, SourceRow) else SourceRow(i, r) for i, r in enumerate(rows, start=1)]


def validate_rows(
    rows: Iterable[SourceRow | Mapping[str, Any]],
    existing: Mapping[str, PartKind],
    *,
    replace: bool = False,
) -> Validation:
    """Check `rows` against each other and against `existing` (id -> kind of the catalog's parts).

    With `replace`, an id already in the catalog is an update of that part (same kind
    only); without it, it is a duplicate.
    """
    sources = as_source_rows(rows)
    result = Validation()
    declared: dict[str, tuple[str, int]] = {}  # id -> (declared kind, first row): for duplicates, cpu refs
    for src in sources:
        part_id, kind = src.part_id, declared_kind(src)
        if part_id is not None:
            if part_id in declared:
                result.problems.append(_problem(src, "id", f"duplicate id '{part_id}' (first on row "
                                                           f"{declared[part_id][1]})"))
            else:
                declared[part_id] = (kind or "?", src.number)
    for src in sources:
        checked = _check_one(src, result.problems)
        if checked is not None:
            result.rows.append(ValidRow(src, checked[0], checked[1]))
        # References are checked even when other fields are bad: every problem in one pass.
        kind = next((k for k in PART_KINDS if k == declared_kind(src)), None)
        if kind is not None and src.part_id is not None:
            _check_against_catalog(src, kind, src.part_id, existing, replace, result.problems)
        if kind == "server":
            _check_cpu_ref(src, declared, existing, result.problems)
    result.problems.sort(key=lambda p: (p.row, p.field))
    return result


def declared_ids(rows: Iterable[SourceRow]) -> tuple[dict[str, tuple[str, int]], list[RowProblem]]:
    """The ids a file declares (id -> (kind, first row)) and its duplicate ids: the first pass of a streamed
    validation, which needs the whole file's ids to check duplicates and servers' cpu_id."""
    declared: dict[str, tuple[str, int]] = {}
    problems: list[RowProblem] = []
    for src in rows:
        part_id, kind = src.part_id, declared_kind(src)
        if part_id is None:
            continue
        if part_id in declared:
            problems.append(_problem(src, "id", f"duplicate id '{part_id}' (first on row {declared[part_id][1]})"))
        else:
            declared[part_id] = (sys.intern(kind or "?"), src.number)  # one "nic" string, not one per row
    return declared, problems


def validate_one(src: SourceRow, declared: Mapping[str, tuple[str, int]], existing: Mapping[str, PartKind], *,
                 replace: bool, problems: list[RowProblem]) -> ValidRow | None:
    """One row checked as `validate_rows` checks it, given the whole file's `declared` ids (`declared_ids`)."""
    checked = _check_one(src, problems)
    kind = next((k for k in PART_KINDS if k == declared_kind(src)), None)
    if kind is not None and src.part_id is not None:
        _check_against_catalog(src, kind, src.part_id, existing, replace, problems)
    if kind == "server":
        _check_cpu_ref(src, declared, existing, problems)
    return ValidRow(src, checked[0], checked[1]) if checked is not None else None


def _problem(src: SourceRow, field_name: str, message: str, in_catalog: bool = False) -> RowProblem:
    return RowProblem(src.number, field_name, message, src.line, src.part_id, in_catalog)


def declared_kind(src: SourceRow) -> str | None:
    """The kind a row says it is, as validation reads it (None: none given)."""
    kind = src.values.get("kind")
    return kind.strip().lower() if isinstance(kind, str) and kind.strip() else None


def _cleaned(values: Mapping[str, Any]) -> dict[str, Any]:
    # An empty cell is an absent value: a CSV row has every kind's columns, only its own filled.
    out: dict[str, Any] = {}
    for key, value in values.items():
        name = str(key).strip()
        if name == "kind" or name in DERIVED_COLUMNS:
            continue
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        out[name] = value
    return out


def _check_one(src: SourceRow, problems: list[RowProblem]) -> tuple[PartKind, RowModel] | None:
    raw_kind = declared_kind(src)
    if raw_kind is None:
        problems.append(_problem(src, "kind", f"missing; expected one of {', '.join(PART_KINDS)}"))
        return None
    kind = next((k for k in PART_KINDS if k == raw_kind), None)
    if kind is None:
        problems.append(_problem(src, "kind", f"unknown kind '{raw_kind}'; expected one of "
                                              f"{', '.join(PART_KINDS)}"))
        return None
    names: dict[str, str] = {}
    for key in src.values:
        name = str(key).strip()
        if name in names and key != EXTRA_CELLS:
            # {"id": "a", " id": "b"} would otherwise import under whichever came last
            problems.append(_problem(src, name, f"given twice (as {names[name]!r} and {str(key)!r})"))
        names[name] = str(key)
    if len(names) != len(src.values):
        return None
    try:
        return kind, ROW_MODELS[kind].model_validate(_cleaned(src.values))
    except ValidationError as exc:
        for err in exc.errors(include_url=False):
            name = ".".join(str(p) for p in err["loc"]) or "-"
            message = _message(err, kind)
            if name == EXTRA_CELLS:
                message = f"the row has more cells than the header has columns: {err.get('input')!r}"
            problems.append(_problem(src, name, message))
        return None


def _message(err: ErrorDetails, kind: PartKind) -> str:
    """pydantic's wording, made specific to catalog files (and naming the bad value)."""
    etype, value, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    got = f", got {value!r}"
    if etype == "missing":
        return f"missing (every {kind} needs it)"
    if etype == "extra_forbidden":
        return f"not a {kind} column (misspelt, or a value in another kind's column)"
    if etype in ("int_parsing", "int_type", "int_from_float"):
        return f"must be a whole number{got}"
    if etype in ("float_parsing", "float_type", "finite_number"):
        return f"must be a number{got}"
    if etype in ("greater_than", "greater_than_equal", "less_than"):
        return f"{err['msg'].replace('Input should be', 'must be')}{got}"
    if etype == "literal_error":
        return f"must be one of {ctx.get('expected', '')}{got}"
    if etype == "string_pattern_mismatch":
        field_name = str(err["loc"][0]) if err["loc"] else ""
        if field_name == "currency":
            return f"must be an ISO 4217 code such as USD or EUR{got}"
        return f"must be a slug: lowercase letters and digits joined by '-', '_' or '.'{got}"
    if etype == "string_too_short":
        return "must not be empty"
    if etype == "value_error":
        return err["msg"].removeprefix("Value error, ")
    return f"{err['msg']}{got}"


def _check_against_catalog(
    src: SourceRow,
    kind: PartKind,
    part_id: str,
    existing: Mapping[str, PartKind],
    replace: bool,
    problems: list[RowProblem],
) -> None:
    in_catalog = existing.get(part_id)
    if in_catalog is None:
        return
    if not replace:
        problems.append(_problem(src, "id", f"'{part_id}' is already in the catalog (as a {in_catalog})",
                                 in_catalog=True))
    elif in_catalog != kind:
        problems.append(_problem(src, "kind", f"'{part_id}' is a {in_catalog} in the catalog; "
                                              f"it cannot be replaced by a {kind}"))


def _check_cpu_ref(
    src: SourceRow,
    declared: Mapping[str, tuple[str, int]],
    existing: Mapping[str, PartKind],
    problems: list[RowProblem],
) -> None:
    raw = src.values.get("cpu_id")
    cpu_id = raw.strip() if isinstance(raw, str) else None
    if not cpu_id or not SLUG_RE.fullmatch(cpu_id):
        return  # missing or malformed: the row check has reported it
    other = declared[cpu_id][0] if cpu_id in declared else existing.get(cpu_id)
    if other == "cpu":
        return
    if other is not None:
        problems.append(_problem(src, "cpu_id", f"'{cpu_id}' is a {other}, not a cpu"))
        return
    pool = [i for i, (k, _) in declared.items() if k == "cpu"] + [i for i, k in existing.items() if k == "cpu"]
    close = difflib.get_close_matches(cpu_id, pool, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    problems.append(_problem(src, "cpu_id", f"unknown cpu '{cpu_id}' (neither in this file nor in the "
                                            f"catalog){hint}"))

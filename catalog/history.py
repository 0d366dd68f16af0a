"""The catalog's history: every write recorded as a change set (who, when, what, from which file) with each row's
fields before and after, read back per catalog or per part, and one change set reverted as a whole.

Recording happens in the write's own transaction, so the history never misses a committed change nor holds one
that was rolled back. A revert is versioned like an edit: it goes ahead only when every row the change set
touched is still as that change set left it (same row version, or for a rate the same values); a row changed
since is named with the change that changed it, and nothing is written.
"""

from __future__ import annotations

import getpass
import json
import os
import socket
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from catalog.errors import CatalogWriteError, InvalidRowsError, RowProblem
from catalog.orm import RECORDS, ChangeSetRecord, PartTable, RateRecord, RowChangeRecord
from models.hardware import PART_KINDS, PartKind

USER_ENV = "REFARCH_USER"  # who the history names; default: the login name @ the host name
RATE_KIND = "rate"
INSERT_BATCH = 5_000


def who() -> str:
    """The person a change is recorded against: `$REFARCH_USER`, else login@host."""
    named = os.environ.get(USER_ENV, "").strip()
    if named:
        return named[:200]
    try:
        login = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name in a container without a passwd entry
        login = "unknown"
    return f"{login}@{socket.gethostname()}"[:200]


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def plain(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Fields as JSON-ready values in the catalog file format (dates as YYYY-MM-DD, a price always a float: SQLite
    gives back a whole price stored as an integer)."""
    out = {k: _plain(v) for k, v in fields.items()}
    if isinstance(out.get("price"), int):
        out["price"] = float(out["price"])
    return out


def rate_fields(record: RateRecord) -> dict[str, Any]:
    return {"currency": record.currency, "usd_per_unit": float(record.usd_per_unit), "as_of": record.as_of.isoformat(),
            "source": record.source}


@dataclass(frozen=True, slots=True)
class Change:
    """One row changed by a write: None before for an added row, None after for a deleted one."""

    kind: str
    row_id: str
    before: Mapping[str, Any] | None
    after: Mapping[str, Any] | None
    version_after: int | None = None

    @classmethod
    def of_part(cls, kind: PartKind, row_id: str, before: Mapping[str, Any] | None, record: PartTable | None) -> Change:
        """A part's change, `record` as the write left it (flushed, so its version is the new one)."""
        after = plain(record.catalog_fields()) if record is not None else None
        return cls(kind, row_id, plain(before) if before is not None else None, after,
                   record.version if record is not None else None)


def record(session: Session, action: str, source: str | None, changes: Sequence[Change], *,
           reverts: int | None = None) -> int | None:
    """Write one change set with its rows (nothing when nothing changed); its id."""
    changes = [c for c in changes if c.before != c.after]
    if not changes:
        return None
    change_set = open_set(session, action, source, reverts=reverts)
    add_rows(session, change_set, changes)
    return change_set


def open_set(session: Session, action: str, source: str | None, *, reverts: int | None = None) -> int:
    """A new change set (its rows follow with `add_rows`, batch by batch); its id."""
    change_set = ChangeSetRecord(who=who(), action=action, source=source, reverts=reverts)
    session.add(change_set)
    session.flush()
    return change_set.id


def add_rows(session: Session, change_set_id: int, changes: Sequence[Change]) -> int:
    """The changed rows of a change set (unchanged ones left out); how many were written."""
    rows = [{"change_set_id": change_set_id, "kind": c.kind, "row_id": c.row_id,
             "before": None if c.before is None else json.dumps(c.before, sort_keys=True),
             "after": None if c.after is None else json.dumps(c.after, sort_keys=True),
             "version_after": c.version_after} for c in changes if c.before != c.after]
    for start in range(0, len(rows), INSERT_BATCH):
        session.execute(insert(RowChangeRecord), rows[start:start + INSERT_BATCH])
    return len(rows)


# -- reading -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ChangeSet:
    id: int
    at: datetime
    who: str
    action: str
    source: str | None
    rows: int
    reverts: int | None
    reverted_by: int | None


@dataclass(frozen=True, slots=True)
class RowChange:
    change_set: ChangeSet
    kind: str
    row_id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    version_after: int | None

    def fields(self) -> list[tuple[str, Any, Any]]:
        """(field, before, after) for each field that differs; all fields of an added or deleted row."""
        before, after = self.before or {}, self.after or {}
        names = [*before, *(k for k in after if k not in before)]
        return [(n, before.get(n), after.get(n)) for n in names if before.get(n) != after.get(n)]


def _change_set(record: ChangeSetRecord, rows: int) -> ChangeSet:
    return ChangeSet(record.id, record.at, record.who, record.action, record.source, rows, record.reverts,
                     record.reverted_by)


def change_sets(session: Session, limit: int | None = None) -> list[ChangeSet]:
    """The catalog's change sets, newest first, each with its number of rows."""
    counts = (select(RowChangeRecord.change_set_id, func.count().label("n"))
              .group_by(RowChangeRecord.change_set_id).subquery())
    query = (select(ChangeSetRecord, func.coalesce(counts.c.n, 0))
             .outerjoin(counts, counts.c.change_set_id == ChangeSetRecord.id)
             .order_by(ChangeSetRecord.id.desc()))
    if limit is not None:
        query = query.limit(limit)
    return [_change_set(cs, int(n)) for cs, n in session.execute(query)]


def row_changes(session: Session, *, row_id: str | None = None, change_set_id: int | None = None,
                limit: int | None = None) -> list[RowChange]:
    """The changes of one part or rate (`row_id`), or of one change set, newest first."""
    query = (select(RowChangeRecord, ChangeSetRecord).join(ChangeSetRecord,
                                                           ChangeSetRecord.id == RowChangeRecord.change_set_id)
             .order_by(RowChangeRecord.id.desc()))
    if row_id is not None:
        query = query.where(RowChangeRecord.row_id == row_id)
    if change_set_id is not None:
        query = query.where(RowChangeRecord.change_set_id == change_set_id)
    if limit is not None:
        query = query.limit(limit)
    found = list(session.execute(query))
    sets = {cs.id: _change_set(cs, 0) for _, cs in found}
    return [RowChange(sets[rc.change_set_id], rc.kind, rc.row_id, _loads(rc.before), _loads(rc.after),
                      rc.version_after) for rc, _ in found]


def _loads(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    value = json.loads(text)
    return value if isinstance(value, dict) else None


# -- reverting ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Reverted:
    change_set: int  # the reverted one
    revert: int | None  # the change set recording the revert
    rows: int


def revert(session: Session, change_set_id: int, restore_part: RestorePart) -> Reverted:
    """Undo change set `change_set_id` as a whole, in `session`'s write transaction; recorded as a change set of
    its own. Refused (InvalidRowsError, nothing written) when any of its rows changed since, or when it was
    reverted already; CatalogWriteError for an unknown id."""
    target = session.get(ChangeSetRecord, change_set_id, with_for_update=True)
    if target is None:
        raise CatalogWriteError(f"no change {change_set_id} in the catalog's history "
                                "(`refarch catalog history` lists them)")
    if target.reverted_by is not None:
        raise CatalogWriteError(f"change {change_set_id} was reverted already (by change {target.reverted_by})")
    rows = list(session.scalars(select(RowChangeRecord).where(RowChangeRecord.change_set_id == change_set_id)
                                .order_by(RowChangeRecord.id)))
    order = {kind: i for i, kind in enumerate((*PART_KINDS, RATE_KIND))}
    for rc in sorted(rows, key=lambda rc: (order.get(rc.kind, 0), rc.row_id)):  # the quotes' lock order
        _lock(session, rc)
    conflicts = [p for rc in rows if (p := _conflict(session, rc)) is not None]
    if conflicts:
        raise InvalidRowsError(f"change {change_set_id} cannot be reverted: {len(conflicts)} row(s) changed since; "
                               "nothing was written", conflicts)
    removals = sorted((rc for rc in rows if rc.before is None), key=lambda rc: -order.get(rc.kind, 0))
    restores = sorted((rc for rc in rows if rc.before is not None), key=lambda rc: order.get(rc.kind, 0))
    changes: list[Change] = []
    for rc in (*removals, *restores):
        changes.append(_undo(session, rc, restore_part))
    new_id = record(session, "revert", f"change {change_set_id}", changes, reverts=change_set_id)
    target.reverted_by = new_id
    session.flush()
    return Reverted(change_set_id, new_id, len(changes))


class RestorePart:
    """How a revert writes a part's earlier fields back (validated by the store, which knows the catalog)."""

    def fields(self, session: Session, kind: PartKind, values: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError


def _lock(session: Session, rc: RowChangeRecord) -> None:
    """Lock the row a change touched (PostgreSQL: FOR UPDATE; SQLite's write transaction already excludes others)."""
    record_class = RateRecord if rc.kind == RATE_KIND else RECORDS[rc.kind]  # type: ignore[index]
    session.get(record_class, rc.row_id, with_for_update=True, populate_existing=True)


def _current(session: Session, rc: RowChangeRecord) -> tuple[bool, dict[str, Any] | None, int | None]:
    """Whether the row is as the change left it, its fields now, and its version now."""
    if rc.kind == RATE_KIND:
        rate = session.get(RateRecord, rc.row_id, with_for_update=True, populate_existing=True)
        now = rate_fields(rate) if rate is not None else None
        return now == _loads(rc.after), now, None
    part = session.get(RECORDS[rc.kind], rc.row_id, with_for_update=True,  # type: ignore[index]
                       populate_existing=True)
    if part is None:
        return rc.after is None, None, None
    # As the change left it: the same version, or the same fields again (a later change reverted meanwhile).
    now = plain(part.catalog_fields())
    same = rc.after is not None and (part.version == rc.version_after or now == _loads(rc.after))
    return same, now, part.version


def _conflict(session: Session, rc: RowChangeRecord) -> RowProblem | None:
    same, now, version = _current(session, rc)
    if same:
        return None
    later = session.scalar(select(func.max(RowChangeRecord.change_set_id))
                           .where(RowChangeRecord.row_id == rc.row_id, RowChangeRecord.kind == rc.kind,
                                  RowChangeRecord.change_set_id > rc.change_set_id))
    by = f" by change {later}" if later is not None else " outside the recorded history"
    state = "deleted" if now is None else "changed"
    at = f" (now at version {version})" if now is not None and version is not None else ""
    return RowProblem(0, rc.kind, f"{rc.row_id} was {state}{by}{at}; revert that first, or edit it by hand",
                      None, rc.row_id)


def _undo(session: Session, rc: RowChangeRecord, restore_part: RestorePart) -> Change:
    before = _loads(rc.before)
    if rc.kind == RATE_KIND:
        rate = session.get(RateRecord, rc.row_id)
        was = rate_fields(rate) if rate is not None else None
        if before is None:
            if rate is not None:
                session.delete(rate)
        elif rate is None:
            session.add(RateRecord(currency=rc.row_id, usd_per_unit=before["usd_per_unit"],
                                   as_of=date.fromisoformat(before["as_of"]), source=before["source"],
                                   user_edited=True))
        else:
            rate.usd_per_unit, rate.as_of, rate.source = (before["usd_per_unit"], date.fromisoformat(before["as_of"]),
                                                          before["source"])
        session.flush()
        return Change(RATE_KIND, rc.row_id, was, before)
    kind: PartKind = rc.kind  # type: ignore[assignment]  # a part kind: rates are handled above
    part = session.get(RECORDS[kind], rc.row_id)
    was = part.catalog_fields() if part is not None else None
    if before is None:
        if part is not None:
            session.delete(part)
            session.flush()
        return Change.of_part(kind, rc.row_id, was, None)
    fields = restore_part.fields(session, kind, before)
    if part is None:
        part = RECORDS[kind](**fields, user_edited=True)
        session.add(part)
    else:
        part.assign(fields)
        part.user_edited = True
    session.flush()
    return Change.of_part(kind, rc.row_id, was, part)


def describe(changes: Iterable[RowChange]) -> list[str]:
    """One line per change: when, who, what, and the fields before -> after."""
    lines = []
    for c in changes:
        cs = c.change_set
        what = "added" if c.before is None else "deleted" if c.after is None else "changed"
        fields = ", ".join(f"{n}: {b!r} -> {a!r}" for n, b, a in c.fields()) if what == "changed" else ""
        lines.append(f"#{cs.id} {cs.at:%Y-%m-%d %H:%M} {cs.who} {cs.action}"
                     + (f" ({cs.source})" if cs.source else "") + f": {c.kind} {c.row_id} {what}"
                     + (f": {fields}" if fields else ""))
    return lines

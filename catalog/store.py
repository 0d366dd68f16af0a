"""`CatalogStore`: the one way the app reads and changes the hardware catalog.

It hands out `models.hardware` value objects, never ORM rows, so nothing above
the catalog depends on SQLAlchemy. Every write is one transaction and is
validated like a file import first: a catalog never holds a row that an
export could not re-import.
"""

from __future__ import annotations

import builtins
import difflib
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, delete, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from catalog import backup, history, measurements, plausibility, quotes, snapshot_cache, validation
from catalog import seed as seeding
from catalog.engine import (
    SQLITE_BEGIN,
    create_catalog_engine,
    default_url,
    describe_db_error,
    is_sqlite,
    mask_url,
    parse_url,
    sqlite_file,
    take_catalog_lock,
)
from catalog.errors import (
    CatalogError,
    CatalogFileError,
    CatalogOpenError,
    CatalogWriteError,
    EditConflictError,
    ImportCancelled,
    InvalidRowsError,
    OutlierRowsError,
    PartInUseError,
    RowProblem,
)
from catalog.integrity import check_integrity
from catalog.migrate import ensure_schema
from catalog.numbers import Separator
from catalog.orm import RECORDS, ChangeSetRecord, CpuRecord, MetaRecord, PartTable, RateRecord, ServerRecord
from catalog.rates import load_rates, merge_rates, validate_rates
from catalog.rows import COMMON_FIELDS, KIND_FIELDS, date_in_range, part_from_fields, part_to_row
from catalog.validation import SourceRow, ValidRow, as_source_rows, validate_rows
from models.hardware import (
    PART_KINDS,
    Cpu,
    HardwareCatalog,
    Part,
    PartKind,
    UnknownPartError,
    kind_of,
)
from models.measurements.profile import MeasurementProfile
from models.money import ExchangeRates

WRITE_BATCH = 5_000  # rows per INSERT statement during an import: progress and cancel points
LOAD_BATCH = 2_000  # records the ORM builds at a time when reading a kind (never every one of a big catalog at once)


class _Raced(CatalogError):
    """Internal: the row changed between this session's read and its write."""

    def __init__(self, part_id: str, kind: PartKind) -> None:
        self.part_id, self.kind = part_id, kind
        super().__init__(f"{kind} '{part_id}' changed meanwhile")


def _script(config: Any) -> Any:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(config)


class _Restore(history.RestorePart):
    """A revert's earlier fields validated as a row of the catalog as it is now (its CPUs, its ids)."""

    def fields(self, session: Session, kind: PartKind, values: Mapping[str, Any]) -> dict[str, Any]:
        existing = CatalogStore._existing_kinds(session)
        result = validate_rows([{**values, "kind": kind}], existing, replace=True)
        if not result.ok:
            raise InvalidRowsError(f"{kind} '{values.get('id')}' cannot be restored; nothing was written",
                                   result.problems)
        return result.rows[0].row.model_dump()


@dataclass(frozen=True, slots=True)
class VersionedPart:
    """A part as read, with the row version an update or delete must state."""

    part: Part
    version: int


@dataclass(frozen=True, slots=True)
class QuoteReport:
    updated: builtins.list[str]  # part ids now at the quoted price
    unmatched: builtins.list[str]  # lines left out (only with allow_unmatched)


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import wrote, per kind."""

    added: Mapping[PartKind, int] = field(default_factory=dict)
    replaced: Mapping[PartKind, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.added.values()) + sum(self.replaced.values())


class CatalogStore:
    """An open catalog database. Use `CatalogStore.open()`; close it (or use `with`) when done."""

    def __init__(self, engine: Engine, url: URL, url_display: str) -> None:
        self._engine = engine
        self._url = url
        self._url_display = url_display
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._checked = False  # integrity checked before this store's first write

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, url: str | None = None, *, seed: bool = True) -> CatalogStore:
        """Open (creating or upgrading as needed) the catalog at `url`.

        `url` None means `$REFARCH_DB`, else `catalog.sqlite` in the user data directory.
        A new, empty catalog is filled from the bundled seed unless `seed` is False.
        Raises CatalogOpenError when the database is unreachable, unreadable or not a catalog.
        """
        raw = default_url() if url is None else url
        display = mask_url(raw)
        parsed = parse_url(raw)
        engine: Engine | None = None
        try:
            engine = create_catalog_engine(parsed)
            ensure_schema(parsed, engine, display)
            store = cls(engine, parsed, display)
            if seed:
                store._seed_if_new()
            return store
        except CatalogError:
            if engine is not None:
                engine.dispose()
            raise
        except (SQLAlchemyError, ImportError, OSError) as exc:
            if engine is not None:
                engine.dispose()
            raise CatalogOpenError(display, describe_db_error(exc, parsed)) from None

    @property
    def url_display(self) -> str:
        """The URL with its password masked: safe for titles, logs and messages."""
        return self._url_display

    @property
    def is_shared(self) -> bool:
        """A server database others may change too (anything but a SQLite file)."""
        return not is_sqlite(self._url)

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> CatalogStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- reading -------------------------------------------------------------------------------

    def list(self, kind: PartKind | None = None) -> builtins.list[Part]:
        """Parts of one kind (or all), CPUs first, each kind by id."""
        with self._session() as session:
            return self._load(session, (kind,) if kind else PART_KINDS)

    def get(self, part_id: str) -> Part:
        with self._session() as session:
            for kind, record_class in RECORDS.items():
                record = session.get(record_class, part_id)
                if record is not None:
                    return self._to_part(session, kind, record.catalog_fields())
            raise UnknownPartError(part_id, None, self._closest(session, part_id))

    def user_edited_ids(self) -> set[str]:
        """Ids of parts the user added or changed: the ones a re-seed leaves alone."""
        with self._session() as session:
            return {
                part_id
                for record in RECORDS.values()
                for part_id in session.scalars(select(record.id).where(record.user_edited))
            }

    def snapshot(self) -> HardwareCatalog:
        """An immutable copy for the sizing models (parts and exchange rates): later edits do not change it."""
        return HardwareCatalog.of(self.list(), self.rates())

    def rates(self) -> ExchangeRates:
        """The exchange-rate table (USD per unit of each currency, dated)."""
        with self._session() as session:
            return load_rates(session)

    def import_rates(self, rows: Iterable[Mapping[str, Any]], *, confirm_outliers: bool = False,
                     source: str | None = None) -> int:
        """Add or change exchange rates, all-or-nothing; the seed never overwrites them afterwards.

        A rate far from the currency's previous one (`catalog.plausibility`) is refused unless
        `confirm_outliers`: InvalidRowsError lists each, nothing is written."""
        valid = validate_rates(rows)
        with self._session(write=True) as session:
            if not confirm_outliers:
                old = {r.currency: float(r.usd_per_unit) for r in session.scalars(select(RateRecord))}
                outliers = [RowProblem(n, "usd_per_unit", why, None, row.currency)
                            for n, row in enumerate(valid, start=1)
                            if (why := plausibility.rate_outlier(row.currency, old.get(row.currency),
                                                                 row.usd_per_unit)) is not None]
                if outliers:
                    raise OutlierRowsError(f"{len(outliers)} exchange rate(s) look wrong; nothing was imported ("
                                           f"{plausibility.CONFIRM_HINT})", outliers)
            before = {r.currency: history.rate_fields(r) for r in session.scalars(select(RateRecord))}
            written = merge_rates(session, valid, user=True)
            after = {r.currency: history.rate_fields(r) for r in session.scalars(select(RateRecord))}
            history.record(session, "rates", source, [history.Change(history.RATE_KIND, c, before.get(c), after[c])
                                                      for c in sorted(after) if before.get(c) != after[c]])
            return written

    def delete_rate(self, currency: str) -> None:
        with self._session(write=True) as session:
            record = session.get(RateRecord, currency)
            if record is None:
                raise CatalogWriteError(f"no exchange rate for '{currency}' in the catalog")
            before = history.rate_fields(record)
            session.delete(record)
            session.flush()
            history.record(session, "rate-delete", None, [history.Change(history.RATE_KIND, currency, before, None)])

    def get_versioned(self, part_id: str) -> VersionedPart:
        """A part and the version it was read at: pass the version to `update` / `delete`."""
        with self._session() as session:
            for kind, record_class in RECORDS.items():
                record = session.get(record_class, part_id)
                if record is not None:
                    return VersionedPart(self._to_part(session, kind, record.catalog_fields()), record.version)
            raise UnknownPartError(part_id, None, self._closest(session, part_id))

    def versioned_rows(self, kind: PartKind) -> builtins.list[tuple[dict[str, Any], int]]:
        """Rows of one kind in the file format, each with the version it was read at (for editors)."""
        with self._session() as session:
            versions = {pid: v for pid, v in session.execute(select(RECORDS[kind].id, RECORDS[kind].version))}
            return [(part_to_row(p), versions[p.id]) for p in self._load(session, (kind,))]

    def export_rows(self, kind: PartKind | None = None) -> builtins.list[dict[str, Any]]:
        """Rows in the file format (JSON-ready); writing them out and importing them gives equal parts."""
        return [part_to_row(p) for p in self.list(kind)]

    # -- writing -------------------------------------------------------------------------------

    def add(self, part: Part) -> None:
        """Add a new part (the user's: seeding will not change it). Its id must be new."""
        with self._session(write=True) as session:
            existing = self._existing_kinds(session)
            valid = self._validated_part(part, existing, replace=False, action="add")
            changes: builtins.list[history.Change] = []
            self._write_rows(session, [valid], existing, changes=changes)
            history.record(session, "add", None, changes)

    def update(self, part: Part, expected_version: int | None = None) -> int:
        """Change an existing part (same id and kind), mark it as edited by the user; return its new version.

        `expected_version` is the version the caller read (`get_versioned`, `versioned_rows`): when the part
        changed or vanished since, EditConflictError says so and nothing is written. Without it the change
        still cannot be lost between this call's own read and write.
        """
        return self._save(part_to_row(part), expected_version, new=False, action="update")[1]

    def save_row(self, row: Mapping[str, Any], expected_version: int | None) -> tuple[dict[str, Any], int]:
        """Write one row in the file format: a new part when `expected_version` is None, else an update of the
        version the caller read. Returns the stored row (normalised values) and its version."""
        return self._save(row, expected_version, new=expected_version is None, action="save")

    def delete(self, part_id: str, expected_version: int | None = None) -> None:
        """Delete a part; a CPU that servers use is refused (the servers would lose their CPU).

        With `expected_version`, a part changed or deleted since the caller read it raises EditConflictError.
        """
        with self._session(write=True) as session:
            for kind, record_class in RECORDS.items():
                record = session.get(record_class, part_id)
                if record is None:
                    continue
                if expected_version is not None and record.version != expected_version:
                    raise EditConflictError.changed(part_id, kind, None, record.catalog_fields(), record.version,
                                                    action="delete")
                if kind == "cpu":
                    users = session.scalars(
                        select(ServerRecord.id).where(ServerRecord.cpu_id == part_id).order_by(ServerRecord.id)
                    ).all()
                    if users:
                        shown = ", ".join(users[:5]) + (f" and {len(users) - 5} more" if len(users) > 5 else "")
                        raise PartInUseError(
                            f"cpu '{part_id}' is used by {len(users)} server(s) ({shown}); "
                            "delete those servers or give them another CPU first"
                        )
                before = record.catalog_fields()
                session.delete(record)
                self._flush_or_conflict(session, part_id, kind, "delete")
                history.record(session, "delete", None, [history.Change.of_part(kind, part_id, before, None)])
                return
            if expected_version is not None:
                raise EditConflictError.gone(part_id, None, action="delete")
            raise UnknownPartError(part_id, None, self._closest(session, part_id))

    def import_rows(
        self,
        rows: Iterable[SourceRow | Mapping[str, Any]],
        *,
        replace: bool = False,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        source: str | None = None,
        confirm_outliers: bool = True,
    ) -> ImportReport:
        """Import file rows all-or-nothing: any problem in any row and nothing is written.

        An id already in the catalog is a problem unless `replace`, which overwrites that
        part (same kind only) and marks it as edited by the user.

        The rows are validated before the write lock is taken, so a long import holds the lock only
        while it writes; if the catalog's ids changed meanwhile they are validated again under the lock.
        `progress(done, total)` counts rows written; `cancelled()` turning True raises ImportCancelled and
        rolls everything back (the writes are one transaction). The history records the import (with `source`,
        the file's name) as one change set, which `revert` undoes as a whole.
        """
        sources = as_source_rows(rows)
        total = len(sources)

        def check() -> None:
            if cancelled is not None and cancelled():
                raise ImportCancelled("import cancelled; nothing was imported")

        with self._session() as session:
            seen = self._existing_kinds(session)
        check()
        valid = self._validated(sources, seen, replace=replace, message="nothing was imported")
        check()
        with self._session(write=True) as session:
            existing = self._existing_kinds(session)
            if existing != seen:
                valid = self._validated(sources, existing, replace=replace, message="nothing was imported")

            def step(done: int) -> None:
                check()
                if progress is not None:
                    progress(done, total)

            if not confirm_outliers:
                self._refuse_outliers(session, valid, existing)
            changes: builtins.list[history.Change] = []
            report = self._write_rows(session, valid, existing, step, changes)
            history.record(session, "import", source, changes)
            return report

    def import_stream(
        self,
        rows: Callable[[], Iterator[SourceRow]],
        *,
        replace: bool = False,
        source: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        confirm_outliers: bool = True,
        cancelled: Callable[[], bool] | None = None,
    ) -> ImportReport:
        """`import_rows` for a file too large to hold: `rows()` gives the file's rows afresh on each call and the
        file is gone over four times (its ids; every row validated; CPUs written; the other parts written) holding
        one batch of rows at a time. All or nothing as `import_rows`: every problem listed, or one transaction;
        `cancelled()` turning True (checked between passes and batches) raises ImportCancelled, nothing written."""

        def check() -> None:
            if cancelled is not None and cancelled():
                raise ImportCancelled("import cancelled; nothing was imported")

        with self._session() as session:
            seen = self._existing_kinds(session)
        declared, problems = validation.declared_ids(rows())
        check()
        self._check_stream(rows, declared, seen, replace, problems)
        check()
        total = len(declared)
        with self._session(write=True) as session:
            existing = self._existing_kinds(session)
            if existing != seen:
                self._check_stream(rows, declared, existing, replace, [])
            change_set = history.open_set(session, "import", source)
            added: Counter[PartKind] = Counter()
            replaced: Counter[PartKind] = Counter()
            recorded = 0
            for cpus in (True, False):  # CPUs first: servers refer to them
                batch: builtins.list[ValidRow] = []
                for src in rows():
                    if (validation.declared_kind(src) == "cpu") != cpus:
                        continue  # the other pass's row, validated there (each row is validated once per pass)
                    valid = validation.validate_one(src, declared, existing, replace=replace, problems=[])
                    if valid is None:
                        raise CatalogWriteError(f"{source or 'the file'} changed while it was imported; nothing "
                                                "was imported: import it again")
                    batch.append(valid)
                    if len(batch) >= WRITE_BATCH:
                        check()
                        recorded += self._write_batch(session, batch, existing, change_set, added, replaced,
                                                      confirm_outliers)
                        batch = []
                        if progress is not None:
                            progress(sum(added.values()) + sum(replaced.values()), total)
                if batch:
                    recorded += self._write_batch(session, batch, existing, change_set, added, replaced,
                                                  confirm_outliers)
            if not recorded:
                session.execute(delete(ChangeSetRecord).where(ChangeSetRecord.id == change_set))
            if progress is not None:
                progress(total, total)
            return ImportReport(dict(added), dict(replaced))

    def _check_stream(self, rows: Callable[[], Iterator[SourceRow]], declared: Mapping[str, tuple[str, int]],
                      existing: Mapping[str, PartKind], replace: bool, problems: builtins.list[RowProblem]) -> None:
        for src in rows():
            validation.validate_one(src, declared, existing, replace=replace, problems=problems)
        if problems:
            count = len(problems)
            raise InvalidRowsError(f"{count} problem{'s' if count != 1 else ''}; nothing was imported",
                                   sorted(problems, key=lambda p: (p.row, p.field)))

    def _write_batch(self, session: Session, batch: builtins.list[ValidRow], existing: Mapping[str, PartKind],
                     change_set: int, added: Counter[PartKind], replaced: Counter[PartKind],
                     confirm_outliers: bool) -> int:
        if not confirm_outliers:  # a refusal here rolls back the batches before it: one transaction
            self._refuse_outliers(session, batch, existing)
        changes: builtins.list[history.Change] = []
        report = self._write_rows(session, batch, existing, changes=changes)
        added.update(report.added)
        replaced.update(report.replaced)
        written = history.add_rows(session, change_set, changes)
        session.expunge_all()  # the batch's records are written: let them go
        return written

    @staticmethod
    def _refuse_outliers(session: Session, rows: Iterable[ValidRow], existing: Mapping[str, PartKind]) -> None:
        """InvalidRowsError listing each replaced part whose new price is far from its price now
        (`catalog.plausibility`); nothing is written."""
        rates = load_rates(session)
        problems: builtins.list[RowProblem] = []
        for valid in rows:
            record = session.get(RECORDS[valid.kind], valid.row.id) if valid.row.id in existing else None
            if record is None:
                continue
            why = plausibility.price_outlier(float(record.price), record.currency, valid.row.price,
                                             valid.row.currency, rates)
            if why is not None:
                problems.append(RowProblem(valid.source.number, "price", f"{valid.row.id}: {why}", valid.source.line,
                                           valid.row.id))
        if problems:
            raise OutlierRowsError(f"{len(problems)} price(s) look wrong; nothing was imported "
                                   f"({plausibility.CONFIRM_HINT})", problems)

    def apply_quote(self, path: Path, when: date, *, allow_unmatched: bool = False,
                    decimal: Separator | None = None, confirm_outliers: bool = False) -> QuoteReport:
        """Quoted prices onto the parts a vendor quote names, all-or-nothing (see `catalog.quotes`).

        Raises InvalidRowsError listing every bad or (unless `allow_unmatched`) unmatched line, and (unless
        `confirm_outliers`) every price far from the part's previous one or beyond any part's price
        (`catalog.plausibility`); then nothing is written. Matched parts become user-edited, so a re-seed keeps
        the quote.

        A versioned write: the parts are read inside the write transaction (on PostgreSQL the matched rows are
        locked and read again), and only the commercial fields the quote carries (price, currency, date, basis,
        source) change, so a spec edit committed meanwhile by someone else is kept, never written back over.
        """
        try:
            date_in_range(when)
        except ValueError as exc:
            raise InvalidRowsError(f"{path.name}: the quote date {exc}; nothing was imported",
                                   [RowProblem(0, "date", str(exc), None, None)]) from None
        lines, problems = quotes.read_quote(path, decimal)
        with self._session(write=True) as session:
            found = quotes.match(lines, self._load(session, PART_KINDS))
            problems += found.problems
            if not allow_unmatched:
                problems += quotes.describe_unmatched(found.unmatched)
            if problems:
                raise InvalidRowsError(
                    f"{path.name}: {len(problems)} line(s) cannot be applied; nothing was imported"
                    + (" (use --allow-unmatched to apply the matched lines anyway)" if found.unmatched and
                       not allow_unmatched else ""),
                    [RowProblem(0, "quote", p, None, None) for p in problems])
            rates = load_rates(session)
            outliers: builtins.list[str] = []
            records: builtins.list[tuple[quotes.QuoteLine, PartTable]] = []
            # Rows are locked in one order (kind, then id) by every multi-row writer (quotes, reverts): two quotes
            # naming the same parts in different orders would otherwise deadlock on PostgreSQL.
            found.matched.sort(key=lambda matched: (PART_KINDS.index(kind_of(matched[1])), matched[1].id))
            for line, part in found.matched:
                record = session.get(RECORDS[kind_of(part)], part.id, with_for_update=True, populate_existing=True)
                if record is None:
                    raise CatalogWriteError(f"{kind_of(part)} '{part.id}' was deleted meanwhile; nothing was "
                                            "imported: apply the quote again")
                why = plausibility.price_outlier(float(record.price), record.currency, line.unit_price,
                                                 line.currency, rates)
                if why is not None:
                    outliers.append(f"line {line.number} ({part.id}): {why}")
                records.append((line, record))
            if outliers and not confirm_outliers:
                raise OutlierRowsError(f"{path.name}: {len(outliers)} price(s) look wrong; nothing was imported ("
                                       f"{plausibility.CONFIRM_HINT})",
                                       [RowProblem(0, "unit_price", o, None, None) for o in outliers])
            befores = [record.catalog_fields() for _, record in records]
            part_of = {part.id: part for _, part in found.matched}
            for line, record in records:
                for name, value in quotes.commercial_fields(line, path.name, when).items():
                    setattr(record, name, value)
                learned = quotes.learned_part_number(line, part_of[record.id])
                if learned and not record.part_number:
                    record.part_number = learned
                record.user_edited = True
            session.flush()
            history.record(session, "quote", str(path), [
                history.Change.of_part(kind_of(part), part.id, before, record)
                for (_, part), (_, record), before in zip(found.matched, records, befores, strict=True)])
        return QuoteReport([part.id for _, part in found.matched], quotes.describe_unmatched(found.unmatched))

    # -- measurement profiles (catalog.measurements) ------------------------------------------------------------

    def measurement_profile_names(self) -> builtins.list[str]:
        with self._session() as session:
            return measurements.profile_names(session)

    def measurement_profile(self, name: str) -> MeasurementProfile:
        with self._session() as session:
            return measurements.load_profile(session, name)

    def import_measurements(self, name: str, files: Iterable[measurements.ImportedFile],
                            server_id: str | None = None,
                            drives: measurements.MeasuredDrives | None = None) -> measurements.ProfileImport:
        """Store parsed files under profile `name` in one transaction (all or nothing)."""
        with self._session(write=True) as session:
            return measurements.import_files(session, name, builtins.list(files), server_id, drives)

    def delete_measurement_profile(self, name: str) -> None:
        with self._session(write=True) as session:
            measurements.delete_profile(session, name)

    # -- history -------------------------------------------------------------------------------

    def history_of(self, row_id: str | None = None, *, limit: int | None = 200) -> builtins.list[history.RowChange]:
        """Recorded changes, newest first: of one part or currency (`row_id`), else of the whole catalog."""
        with self._session() as session:
            return history.row_changes(session, row_id=row_id, limit=limit)

    def change_sets(self, limit: int | None = 200) -> builtins.list[history.ChangeSet]:
        """The catalog's writes (edits, imports, quotes, rate changes, reverts), newest first."""
        with self._session() as session:
            return history.change_sets(session, limit)

    def changes_of(self, change_set_id: int) -> builtins.list[history.RowChange]:
        with self._session() as session:
            return history.row_changes(session, change_set_id=change_set_id)

    def revert(self, change_set_id: int) -> history.Reverted:
        """Undo one recorded change set (an import, a quote, an edit...) as a whole, if none of its rows changed
        since; else InvalidRowsError names each row and the change that changed it, and nothing is written."""
        with self._session(write=True) as session:
            return history.revert(session, change_set_id, _Restore())

    # -- backups ------------------------------------------------------------------------------

    def backup(self, target: Path, fmt: str | None = None) -> str:
        """Write a backup of the whole catalog to `target`, all or nothing; returns its form.

        'sqlite' (the default for a SQLite catalog): SQLite's online backup, a copy of the file. 'json' (the
        default for PostgreSQL): a portable dump of every table (parts, rates, measurements, history)."""
        path = sqlite_file(self._url)
        fmt = fmt or ("sqlite" if path is not None else "json")
        if fmt == "sqlite":
            if path is None:
                raise CatalogWriteError(f"the catalog at {self._url_display} is not a SQLite file: back it up as a "
                                        "JSON dump (--format json)")
            backup.backup_sqlite(path, target)
        elif fmt == "json":
            try:
                backup.backup_json(self._engine, target)
            except SQLAlchemyError as exc:
                raise CatalogWriteError(f"reading the catalog at {self._url_display} failed: "
                                        f"{describe_db_error(exc, self._url)}; no backup was written") from None
        else:
            raise CatalogWriteError(f"a backup is 'sqlite' or 'json', not {fmt!r}")
        return fmt

    def restore(self, source: Path) -> str:
        """Replace the whole catalog by the backup `source` (either form), in one transaction; its form.

        Refused (CatalogFileError, nothing changed) for a backup of a newer schema than this refarch knows, and
        for a JSON dump of another schema revision than the catalog's; a SQLite copy of an older revision is
        restored, then upgraded."""
        from catalog.migrate import alembic_config

        form = backup.kind_of_file(source)
        script = _script(alembic_config())
        head, known = script.get_current_head(), {s.revision for s in script.walk_revisions()}
        revision = backup.sqlite_revision(source) if form == "sqlite" else backup.read_dump(source)["schema_revision"]
        if revision not in known:
            raise CatalogFileError(f"{source} is a backup of schema revision {revision!r}, newer than this refarch "
                                   f"knows (its newest is {head}); restore it with the refarch that made it")
        path = sqlite_file(self._url)
        if form == "sqlite" and path is not None:
            self._engine.dispose()
            backup.restore_sqlite(source, path)
            ensure_schema(self._url, self._engine, self._url_display)
            with self._session(write=True) as session:  # also a new data version: cached snapshots are stale
                history.open_set(session, "restore", source.name)  # the restored history, then the restore itself
            return form
        if revision != head:
            raise CatalogFileError(f"{source} is a backup of schema revision {revision}; this catalog is at {head}, a "
                                   "newer schema its rows do not fit: restore it into a SQLite catalog from its SQLite "
                                   "form, or with the refarch that made it")
        data = backup.read_dump(source) if form == "json" else self._dump_of(source)
        with self._session(write=True) as session:
            take_catalog_lock(session.connection())
            backup.restore_dump(session.connection(), data, str(source))
            history.open_set(session, "restore", source.name)  # after the dump's own history: who restored what
        return form

    @staticmethod
    def _dump_of(sqlite_backup: Path) -> dict[str, Any]:
        """A SQLite backup as a dump, to restore into a server catalog."""
        import io
        import json

        engine = create_catalog_engine(parse_url(f"sqlite:///{sqlite_backup}"))
        try:
            out = io.StringIO()
            with engine.connect() as conn:
                backup.dump_json(conn, out)
            data: dict[str, Any] = json.loads(out.getvalue())
            return data
        finally:
            engine.dispose()

    def reseed(self, source: Traversable | None = None) -> seeding.SeedReport:
        """Merge the bundled seed in again: adds missing parts, refreshes ones the user never edited."""
        with self._session(write=True) as session:
            take_catalog_lock(session.connection())
            return self._recorded_seed(session, source)

    @staticmethod
    def _recorded_seed(session: Session, source: Traversable | None = None) -> seeding.SeedReport:
        """`apply_seed`, with what it added or refreshed recorded in the history as one "seed" change."""
        def state() -> dict[tuple[str, str], tuple[dict[str, Any], int | None]]:
            parts: dict[tuple[str, str], tuple[dict[str, Any], int | None]] = {
                (kind, r.id): (history.plain(r.catalog_fields()), r.version)
                for kind, record in RECORDS.items() for r in session.scalars(select(record))}
            rates = {(history.RATE_KIND, r.currency): (history.rate_fields(r), None)
                     for r in session.scalars(select(RateRecord))}
            return {**parts, **rates}

        before = state()
        report = seeding.apply_seed(session, source)
        session.flush()
        after = state()
        changes = [history.Change(kind, row_id, before[key][0] if key in before else None, fields, version)
                   for key, (fields, version) in after.items() for kind, row_id in [key]
                   if key not in before or before[key][0] != fields]
        history.record(session, "seed", str(source) if source is not None else "the bundled seed", changes)
        return report

    # -- internals -----------------------------------------------------------------------------

    def _save(self, row: Mapping[str, Any], expected_version: int | None, *, new: bool,
              action: str) -> tuple[dict[str, Any], int]:
        try:
            return self._save_once(row, expected_version, new=new, action=action)
        except _Raced as raced:
            # Another session committed a change to the row between our read and our write (PostgreSQL's
            # READ COMMITTED lets that happen; the version in the UPDATE caught it). Say what it is now.
            with self._session() as session:
                record = session.get(RECORDS[raced.kind], raced.part_id)
                if record is None:
                    raise EditConflictError.gone(raced.part_id, raced.kind, action=action, yours=row) from None
                raise EditConflictError.changed(raced.part_id, raced.kind, row, record.catalog_fields(),
                                                record.version, action=action) from None

    def _save_once(self, row: Mapping[str, Any], expected_version: int | None, *, new: bool,
                   action: str) -> tuple[dict[str, Any], int]:
        kind_text = str(row.get("kind") or "").strip().lower()
        part_id = str(row.get("id") or "").strip()
        with self._session(write=True) as session:
            existing = self._existing_kinds(session)
            record_class = RECORDS.get(kind_text)  # type: ignore[call-overload]
            record = session.get(record_class, part_id) if record_class is not None and part_id else None
            if not new:
                if record is None:
                    if expected_version is not None:
                        raise EditConflictError.gone(part_id, kind_text, action=action, yours=row)
                    kind = kind_text if kind_text in PART_KINDS else None
                    raise UnknownPartError(part_id, kind, self._closest(session, part_id, kind))
                if expected_version is not None and record.version != expected_version:
                    raise EditConflictError.changed(part_id, kind_text, row, record.catalog_fields(), record.version,
                                                    action=action)
            result = validate_rows([row], existing, replace=not new)
            if not result.ok:
                details = "; ".join(f"{p.field}: {p.message}" for p in result.problems)
                raise InvalidRowsError(f"cannot {action} {kind_text or 'part'} '{part_id}': {details}",
                                       result.problems)
            valid = result.rows[0]
            changes: builtins.list[history.Change] = []
            try:
                self._write_rows(session, [valid], existing, changes=changes)
            except StaleDataError:
                raise _Raced(part_id, valid.kind) from None
            history.record(session, "add" if new else "edit", None, changes)
            stored = session.get(RECORDS[valid.kind], part_id)
            assert stored is not None
            return part_to_row(self._to_part(session, valid.kind, stored.catalog_fields())), stored.version

    @staticmethod
    def _flush_or_conflict(session: Session, part_id: str, kind: str | None, action: str) -> None:
        """Flush; a row changed by another session between our read and our write is a conflict (PostgreSQL)."""
        try:
            session.flush()
        except StaleDataError:
            raise EditConflictError.gone(part_id, kind, action=action, raced=True) from None

    def _seed_if_new(self) -> None:
        # Read first: an existing catalog is opened without taking the write lock (readers never wait on an import).
        with self._session() as session:
            if session.get(MetaRecord, seeding.SEEDED_AT_KEY) is not None or self._any_part(session):
                return
        with self._session(write=True) as session:
            take_catalog_lock(session.connection())  # two first opens of a shared catalog seed once
            if session.get(MetaRecord, seeding.SEEDED_AT_KEY) is not None or self._existing_kinds(session):
                return
            self._recorded_seed(session)

    @staticmethod
    def _any_part(session: Session) -> bool:
        return any(session.scalar(select(record.id).limit(1)) is not None for record in RECORDS.values())

    @contextmanager
    def _session(self, *, write: bool = False) -> Iterator[Session]:
        """A session in one transaction; database failures become CatalogErrors, not tracebacks.

        Reads take no write lock (SQLite runs in WAL mode, so they also do not wait for a writer). The first
        write of this store on a SQLite file runs `PRAGMA quick_check` first: a damaged file is refused.
        """
        if write and not self._checked:
            check_integrity(self._engine, self._url, self._url_display)
            self._checked = True
        try:
            with self._sessions.begin() as session:
                if write:  # on SQLite, queue behind other writers from the start
                    session.connection(execution_options={SQLITE_BEGIN: "IMMEDIATE"})
                yield session
                if write:  # a new data version in the same transaction: cached snapshots are stale now
                    session.merge(MetaRecord(key=snapshot_cache.DATA_VERSION_KEY, value=uuid.uuid4().hex))
        except CatalogError:
            raise
        except StaleDataError:
            raise CatalogWriteError(
                f"someone changed or deleted some of the same parts in the catalog at {self._url_display} "
                "meanwhile; nothing was written: try again"
            ) from None
        except IntegrityError as exc:
            raise CatalogWriteError(
                f"the catalog at {self._url_display} refused the change ({describe_db_error(exc, self._url)}); "
                "nothing was written. Someone may have changed the same parts meanwhile: try again"
            ) from None
        except SQLAlchemyError as exc:
            action = "writing to" if write else "reading"
            raise CatalogWriteError(
                f"{action} the catalog at {self._url_display} failed: {describe_db_error(exc, self._url)}"
                + ("; nothing was written" if write else "")
            ) from None

    @staticmethod
    def _validated(
        rows: Iterable[SourceRow | Mapping[str, Any]],
        existing: Mapping[str, PartKind],
        *,
        replace: bool,
        message: str,
    ) -> builtins.list[ValidRow]:
        result = validate_rows(rows, existing, replace=replace)
        if not result.ok:
            count = len(result.problems)
            raise InvalidRowsError(f"{count} problem{'s' if count != 1 else ''}; {message}", result.problems)
        return result.rows

    @staticmethod
    def _validated_part(part: Part, existing: Mapping[str, PartKind], *, replace: bool, action: str) -> ValidRow:
        """One part: the message itself lists the problems (no row numbers), ready for a dialog."""
        result = validate_rows([part_to_row(part)], existing, replace=replace)
        if not result.ok:
            details = "; ".join(f"{p.field}: {p.message}" for p in result.problems)
            raise InvalidRowsError(f"cannot {action} {kind_of(part)} '{part.id}': {details}", result.problems)
        return result.rows[0]

    @staticmethod
    def _write_rows(session: Session, rows: Iterable[ValidRow], existing: Mapping[str, PartKind],
                    step: Callable[[int], None] | None = None,
                    changes: builtins.list[history.Change] | None = None) -> ImportReport:
        """Write validated rows; each row's fields before and after go to `changes` (for the history)."""
        added: Counter[PartKind] = Counter()
        replaced: Counter[PartKind] = Counter()
        ordered = sorted(rows, key=lambda r: (PART_KINDS.index(r.kind), r.row.id))  # the lock order of quotes
        for kind in PART_KINDS:  # flush CPUs before the servers that reference them
            new_rows: builtins.list[dict[str, Any]] = []
            updated: builtins.list[tuple[PartTable, dict[str, Any]]] = []
            for valid in (r for r in ordered if r.kind == kind):
                fields = valid.row.model_dump()
                record = session.get(RECORDS[kind], valid.row.id) if valid.row.id in existing else None
                if record is None:
                    new_rows.append({**fields, "user_edited": True, "version": 1})
                    added[kind] += 1
                else:
                    before = record.catalog_fields()
                    record.assign(fields)
                    record.user_edited = True
                    replaced[kind] += 1
                    updated.append((record, before))
            session.flush()
            if changes is not None:
                changes += [history.Change.of_part(kind, r.id, before, r) for r, before in updated]
                names = (*COMMON_FIELDS, *KIND_FIELDS[kind])
                changes += [history.Change(kind, row["id"], None, history.plain({n: row[n] for n in names}), 1)
                            for row in new_rows]
            # multi-row INSERTs in batches: a 100,000-part import holds the write lock briefly, and can stop
            written = sum(added.values()) - len(new_rows) + sum(replaced.values())
            for start in range(0, len(new_rows), WRITE_BATCH):
                batch = new_rows[start:start + WRITE_BATCH]
                session.execute(insert(RECORDS[kind]), batch)
                written += len(batch)
                if step is not None:
                    step(written)
        if step is not None:
            step(sum(added.values()) + sum(replaced.values()))
        return ImportReport(dict(added), dict(replaced))

    @staticmethod
    def _existing_kinds(session: Session) -> dict[str, PartKind]:
        return {pid: kind for kind, record in RECORDS.items() for pid in session.scalars(select(record.id))}

    def _closest(self, session: Session, part_id: str, kind: PartKind | None = None) -> builtins.list[str]:
        ids = [pid for pid, k in self._existing_kinds(session).items() if kind is None or k == kind]
        return difflib.get_close_matches(part_id, ids, n=3, cutoff=0.4)

    @staticmethod
    def _cpu(record: CpuRecord) -> Cpu:
        cpu = part_from_fields("cpu", record.catalog_fields(), {})
        assert isinstance(cpu, Cpu)
        return cpu

    def _to_part(self, session: Session, kind: PartKind, fields: Mapping[str, Any]) -> Part:
        cpus: dict[str, Cpu] = {}
        if kind == "server":
            cpu_record = session.get(CpuRecord, fields["cpu_id"])
            assert cpu_record is not None  # the foreign key guarantees it
            cpus[cpu_record.id] = self._cpu(cpu_record)
        return part_from_fields(kind, fields, cpus)

    def _load(self, session: Session, kinds: Iterable[PartKind]) -> builtins.list[Part]:
        # Sorted here, not in SQL: PostgreSQL collations and SQLite order '-', '.', '_' differently.
        kinds = builtins.list(kinds)
        needs_cpus = {"cpu", "server"} & set(kinds)
        cpus = {r.id: self._cpu(r) for r in session.scalars(select(CpuRecord))} if needs_cpus else {}
        parts: builtins.list[Part] = []
        for kind in kinds:
            if kind == "cpu":
                found: builtins.list[Part] = builtins.list(cpus.values())
            else:
                records = session.scalars(select(RECORDS[kind]).execution_options(yield_per=LOAD_BATCH))
                found = [part_from_fields(kind, r.catalog_fields(), cpus) for r in records]
            parts += sorted(found, key=lambda p: p.id)
        return parts

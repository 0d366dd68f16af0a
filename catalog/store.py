"""`CatalogStore`: the one way the app reads and changes the hardware catalog.

It hands out `models.hardware` value objects, never ORM rows, so nothing above
the catalog depends on SQLAlchemy. Every write is one transaction and is
validated like a file import first: a catalog never holds a row that an
export could not re-import.
"""

from __future__ import annotations

import builtins
import difflib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.abc import Traversable
from typing import Any

from sqlalchemy import URL, Engine, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from catalog import seed as seeding
from catalog.engine import (
    SQLITE_BEGIN,
    create_catalog_engine,
    default_url,
    describe_db_error,
    is_sqlite,
    mask_url,
    parse_url,
    take_catalog_lock,
)
from catalog.errors import (
    CatalogError,
    CatalogOpenError,
    CatalogWriteError,
    InvalidRowsError,
    PartInUseError,
)
from catalog.migrate import ensure_schema
from catalog.orm import RECORDS, CpuRecord, MetaRecord, ServerRecord
from catalog.rows import part_from_fields, part_to_row
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
        """An immutable copy for the sizing models: later edits do not change it."""
        return HardwareCatalog.of(self.list())

    def export_rows(self, kind: PartKind | None = None) -> builtins.list[dict[str, Any]]:
        """Rows in the file format (JSON-ready); writing them out and importing them gives equal parts."""
        return [part_to_row(p) for p in self.list(kind)]

    # -- writing -------------------------------------------------------------------------------

    def add(self, part: Part) -> None:
        """Add a new part (the user's: seeding will not change it). Its id must be new."""
        with self._session(write=True) as session:
            existing = self._existing_kinds(session)
            valid = self._validated_part(part, existing, replace=False, action="add")
            self._write_rows(session, [valid], existing)

    def update(self, part: Part) -> None:
        """Change an existing part (same id and kind) and mark it as edited by the user."""
        kind = kind_of(part)
        with self._session(write=True) as session:
            existing = self._existing_kinds(session)
            if existing.get(part.id) != kind:
                raise UnknownPartError(part.id, kind, self._closest(session, part.id, kind))
            valid = self._validated_part(part, existing, replace=True, action="update")
            self._write_rows(session, [valid], existing)

    def delete(self, part_id: str) -> None:
        """Delete a part; a CPU that servers use is refused (the servers would lose their CPU)."""
        with self._session(write=True) as session:
            for kind, record_class in RECORDS.items():
                record = session.get(record_class, part_id)
                if record is None:
                    continue
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
                session.delete(record)
                return
            raise UnknownPartError(part_id, None, self._closest(session, part_id))

    def import_rows(
        self, rows: Iterable[SourceRow | Mapping[str, Any]], *, replace: bool = False
    ) -> ImportReport:
        """Import file rows all-or-nothing: any problem in any row and nothing is written.

        An id already in the catalog is a problem unless `replace`, which overwrites that
        part (same kind only) and marks it as edited by the user.
        """
        sources = as_source_rows(rows)
        with self._session(write=True) as session:
            existing = self._existing_kinds(session)
            valid = self._validated(sources, existing, replace=replace, message="nothing was imported")
            return self._write_rows(session, valid, existing)

    def reseed(self, source: Traversable | None = None) -> seeding.SeedReport:
        """Merge the bundled seed in again: adds missing parts, refreshes ones the user never edited."""
        with self._session(write=True) as session:
            take_catalog_lock(session.connection())
            return seeding.apply_seed(session, source)

    # -- internals -----------------------------------------------------------------------------

    def _seed_if_new(self) -> None:
        with self._session(write=True) as session:
            take_catalog_lock(session.connection())  # two first opens of a shared catalog seed once
            if session.get(MetaRecord, seeding.SEEDED_AT_KEY) is not None or self._existing_kinds(session):
                return
            seeding.apply_seed(session)

    @contextmanager
    def _session(self, *, write: bool = False) -> Iterator[Session]:
        """A session in one transaction; database failures become CatalogErrors, not tracebacks."""
        try:
            with self._sessions.begin() as session:
                if write:  # on SQLite, queue behind other writers from the start
                    session.connection(execution_options={SQLITE_BEGIN: "IMMEDIATE"})
                yield session
        except CatalogError:
            raise
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
    def _write_rows(session: Session, rows: Iterable[ValidRow], existing: Mapping[str, PartKind]) -> ImportReport:
        added: Counter[PartKind] = Counter()
        replaced: Counter[PartKind] = Counter()
        ordered = sorted(rows, key=lambda r: PART_KINDS.index(r.kind))
        for kind in PART_KINDS:  # flush CPUs before the servers that reference them
            for valid in (r for r in ordered if r.kind == kind):
                fields = valid.row.model_dump()
                record = session.get(RECORDS[kind], valid.row.id) if valid.row.id in existing else None
                if record is None:
                    session.add(RECORDS[kind](**fields, user_edited=True))
                    added[kind] += 1
                else:
                    record.assign(fields)
                    record.user_edited = True
                    replaced[kind] += 1
            session.flush()
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
                records = session.scalars(select(RECORDS[kind]))
                found = [part_from_fields(kind, r.catalog_fields(), cpus) for r in records]
            parts += sorted(found, key=lambda p: p.id)
        return parts

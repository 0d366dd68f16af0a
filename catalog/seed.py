"""The bundled starter catalog (`resources/seed/catalog.json`) and how it merges into a database.

A new catalog starts from the seed, so refarch sizes something useful offline on
day one. Later releases ship an updated seed; re-applying it adds parts the
catalog lacks and refreshes parts the user never touched, and never changes a
row the user added or edited (`user_edited`), which is the user's own knowledge.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from importlib.abc import Traversable
from importlib.resources import files

from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog.errors import CatalogFileError, SeedError
from catalog.files import parse_json
from catalog.orm import RECORDS, MetaRecord, utc_now
from catalog.rows import part_from_row
from catalog.validation import ValidRow, validate_rows
from models.hardware import PART_KINDS, Cpu, HardwareCatalog, Part, PartKind

SEEDED_AT_KEY = "seeded_at"


def seed_source() -> Traversable:
    return files("resources") / "seed" / "catalog.json"


def seed_rows(source: Traversable | None = None) -> list[ValidRow]:
    """The seed's rows, validated as a self-contained file (a server's CPU must be in the seed too)."""
    source = source or seed_source()
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogFileError(f"the bundled seed catalog {source} cannot be read ({exc}); reinstall refarch") \
            from None
    result = validate_rows(parse_json(text, str(source)), existing={})
    if not result.ok:
        raise SeedError(f"the bundled seed catalog {source} is invalid", result.problems)
    return sorted(result.rows, key=lambda r: PART_KINDS.index(r.kind))  # CPUs before the servers using them


def seed_parts(source: Traversable | None = None) -> list[Part]:
    """Parse and validate the seed without a database."""
    cpus: dict[str, Cpu] = {}
    parts: list[Part] = []
    for valid in seed_rows(source):
        part = part_from_row(valid.row, cpus)
        if isinstance(part, Cpu):
            cpus[part.id] = part
        parts.append(part)
    return parts


def seed_catalog(source: Traversable | None = None) -> HardwareCatalog:
    from catalog.rates import seed_exchange_rates  # late: rates import the row types this module uses

    return HardwareCatalog.of(seed_parts(source), seed_exchange_rates())


@dataclass(slots=True)
class SeedReport:
    added: Counter[PartKind] = field(default_factory=Counter)
    updated: Counter[PartKind] = field(default_factory=Counter)
    unchanged: int = 0
    kept_user_edited: list[str] = field(default_factory=list)
    # Seed ids the user took for another kind of part (or servers whose CPU id they took).
    skipped: list[str] = field(default_factory=list)
    rates: int = 0  # exchange rates added or refreshed

    def summary(self) -> str:
        text = (f"{sum(self.added.values())} added, {sum(self.updated.values())} updated, "
                f"{self.unchanged} unchanged, {len(self.kept_user_edited)} kept as the user edited them")
        return text + (f", {len(self.skipped)} skipped (id used for another kind)" if self.skipped else "")


def apply_seed(session: Session, source: Traversable | None = None) -> SeedReport:
    """Merge the seed into the catalog within the caller's transaction."""
    report = SeedReport()
    existing_kind = {
        part_id: kind for kind, record in RECORDS.items() for part_id in session.scalars(select(record.id))
    }
    rows = seed_rows(source)
    for kind in PART_KINDS:  # flush kind by kind: a server's CPU row must exist first
        for valid in (r for r in rows if r.kind == kind):
            fields = valid.row.model_dump()
            in_catalog = existing_kind.get(valid.row.id)
            if (in_catalog not in (None, kind)) or (kind == "server" and existing_kind[fields["cpu_id"]] != "cpu"):
                report.skipped.append(valid.row.id)
                continue
            if in_catalog is None:
                session.add(RECORDS[kind](**fields, user_edited=False))
                existing_kind[valid.row.id] = kind
                report.added[kind] += 1
                continue
            record = session.get(RECORDS[kind], valid.row.id)
            assert record is not None
            if record.user_edited:
                report.kept_user_edited.append(valid.row.id)
            elif record.assign(fields):
                report.updated[kind] += 1
            else:
                report.unchanged += 1
        session.flush()
    from catalog.rates import merge_rates, seed_rate_rows

    report.rates = merge_rates(session, seed_rate_rows(), user=False)
    meta = session.get(MetaRecord, SEEDED_AT_KEY)
    if meta is None:
        session.add(MetaRecord(key=SEEDED_AT_KEY, value=utc_now().isoformat()))
    else:
        meta.value = utc_now().isoformat()
    return report

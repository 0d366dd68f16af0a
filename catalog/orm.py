"""The catalog's tables: one per part kind, columns named as in the catalog file format.

Only portable types (no PostgreSQL arrays or enums), so one schema and one set of
migrations serve the desktop's SQLite file and a team's shared PostgreSQL.
Enumerations are checked by `catalog.rows` rather than by database enums, which
would need a migration for every new drive interface. These classes are the
schema of record for autogenerate; `migrations/versions/` holds the frozen history.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any, ClassVar

from sqlalchemy import Date, DateTime, Float, ForeignKey, Integer, MetaData, Numeric, String, Text, false, text
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

from catalog.rows import COMMON_FIELDS, KIND_FIELDS
from models.hardware import PartKind

# Named constraints: SQLite's batch migrations must be able to drop and recreate them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utc_now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class PartRecord:
    """Columns every part table has, plus bookkeeping the file format does not carry."""

    KIND: ClassVar[PartKind]

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    vendor: Mapped[str] = mapped_column(String(200))
    model: Mapped[str] = mapped_column(String(200))
    # Vendor SKU / manufacturer part number, "" when unknown (migration 0004).
    part_number: Mapped[str] = mapped_column(String(80), server_default="")
    price: Mapped[float] = mapped_column(Numeric(14, 4, asdecimal=False))
    currency: Mapped[str] = mapped_column(String(3))
    price_as_of: Mapped[date] = mapped_column(Date)
    source: Mapped[str] = mapped_column(Text)
    price_basis: Mapped[str] = mapped_column(String(16), server_default="list")
    # True once the user added or changed the row: seeding never overwrites it.
    user_edited: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now, onupdate=utc_now)
    # Optimistic concurrency: SQLAlchemy adds `AND version = <read>` to every UPDATE and DELETE of the row and
    # bumps it, so a change based on a stale read fails (StaleDataError) instead of overwriting silently.
    version: Mapped[int] = mapped_column(Integer, server_default=text("1"))

    @declared_attr.directive
    def __mapper_args__(cls) -> dict[str, Any]:
        return {"version_id_col": cls.__table__.c.version}  # type: ignore[attr-defined]

    def catalog_fields(self) -> dict[str, Any]:
        """The row's values under the file format's names (no bookkeeping columns)."""
        return {name: getattr(self, name) for name in (*COMMON_FIELDS, *KIND_FIELDS[self.KIND])}

    def assign(self, fields: Mapping[str, Any]) -> bool:
        """Copy the file-format fields in; report whether anything changed."""
        changed = False
        for name in (*COMMON_FIELDS, *KIND_FIELDS[self.KIND]):
            if getattr(self, name) != fields[name]:
                setattr(self, name, fields[name])
                changed = True
        return changed


class PartTable(PartRecord, Base):
    """The base of every part table (abstract: no table of its own), so code handling any kind is typed."""

    __abstract__ = True


class CpuRecord(PartTable):
    __tablename__ = "cpus"
    KIND = "cpu"

    cores: Mapped[int]
    threads: Mapped[int]
    base_ghz: Mapped[float] = mapped_column(Float)
    tdp_w: Mapped[float] = mapped_column(Float)


class ServerRecord(PartTable):
    __tablename__ = "servers"
    KIND = "server"

    form_factor: Mapped[str] = mapped_column(String(200))
    rack_u: Mapped[int]
    sockets: Mapped[int]
    # RESTRICT: a CPU that servers use cannot vanish under them (the store says why first).
    cpu_id: Mapped[str] = mapped_column(String(80), ForeignKey("cpus.id", ondelete="RESTRICT"), index=True)
    numa_nodes_per_socket: Mapped[int]
    memory_gib: Mapped[int]
    dimm_slots: Mapped[int]
    data_bays: Mapped[int]
    data_bay_form_factor: Mapped[str] = mapped_column(String(16))
    os_drives: Mapped[int]
    psu_w: Mapped[float] = mapped_column(Float)
    idle_w: Mapped[float] = mapped_column(Float)
    max_w: Mapped[float] = mapped_column(Float)
    # Migration 0005; NULL: unknown.
    pcie_slots: Mapped[int | None] = mapped_column(Integer, nullable=True)
    memory_type: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # Migration 0010; NULL: unknown.
    pcie_gen: Mapped[int | None] = mapped_column(Integer, nullable=True)
    drive_link_gbps: Mapped[float | None] = mapped_column(Float, nullable=True)


class DriveRecord(PartTable):
    __tablename__ = "drives"
    KIND = "drive"

    interface: Mapped[str] = mapped_column(String(16))
    form_factor: Mapped[str] = mapped_column(String(16))
    capacity_tb: Mapped[float] = mapped_column(Float)
    seq_read_mb_s: Mapped[float] = mapped_column(Float)
    seq_write_mb_s: Mapped[float] = mapped_column(Float)
    random_read_iops: Mapped[float] = mapped_column(Float)
    random_write_iops: Mapped[float] = mapped_column(Float)
    watts: Mapped[float] = mapped_column(Float)
    link_gbps: Mapped[float | None] = mapped_column(Float, nullable=True)  # migration 0010; NULL: unknown or NVMe


class NicRecord(PartTable):
    __tablename__ = "nics"
    KIND = "nic"

    ports: Mapped[int]
    speed_gbps: Mapped[float] = mapped_column(Float)
    watts: Mapped[float] = mapped_column(Float)
    # Migration 0010; NULL: unknown.
    pcie_gen: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pcie_lanes: Mapped[int | None] = mapped_column(Integer, nullable=True)


class DimmRecord(PartTable):
    __tablename__ = "dimms"
    KIND = "dimm"

    size_gib: Mapped[int]
    speed_mt_s: Mapped[int]
    memory_type: Mapped[str | None] = mapped_column(String(8), nullable=True)  # migration 0005; NULL: unknown


class SwitchRecord(PartTable):
    __tablename__ = "switches"
    KIND = "switch"

    ports: Mapped[int]
    speed_gbps: Mapped[float] = mapped_column(Float)
    uplink_ports: Mapped[int]
    uplink_speed_gbps: Mapped[float] = mapped_column(Float)
    rack_u: Mapped[int]
    watts: Mapped[float] = mapped_column(Float)


class CableRecord(PartTable):
    __tablename__ = "cables"
    KIND = "cable"

    medium: Mapped[str] = mapped_column(String(16))
    speed_gbps: Mapped[float] = mapped_column(Float)
    reach_m: Mapped[float] = mapped_column(Float)
    watts: Mapped[float] = mapped_column(Float)


class RackRecord(PartTable):
    __tablename__ = "racks"
    KIND = "rack"

    rack_u: Mapped[int]
    max_kw: Mapped[float] = mapped_column(Float)


class PduRecord(PartTable):
    __tablename__ = "pdus"
    KIND = "pdu"

    outlets: Mapped[int]
    max_kw: Mapped[float] = mapped_column(Float)
    rack_u: Mapped[int]


class LicenceRecord(PartTable):
    __tablename__ = "licences"
    KIND = "licence"

    metric: Mapped[str] = mapped_column(String(16))
    term: Mapped[str] = mapped_column(String(16))
    applies_to: Mapped[str] = mapped_column(String(16))
    min_cores_per_cpu: Mapped[int]
    min_units: Mapped[int]
    # Migration 0006; NULL: not recorded.
    vsan_gib_per_core: Mapped[float | None] = mapped_column(Float, nullable=True)


class SupportRecord(PartTable):
    __tablename__ = "supports"
    KIND = "support"

    basis: Mapped[str] = mapped_column(String(16))
    pct_of_hardware: Mapped[float] = mapped_column(Float)
    applies_to: Mapped[str] = mapped_column(String(200))


class ControllerRecord(PartTable):
    __tablename__ = "controllers"  # migration 0009
    KIND = "controller"

    interfaces: Mapped[str] = mapped_column(String(200))
    raid_levels: Mapped[str] = mapped_column(String(200), server_default="")
    max_drives: Mapped[int]
    applies_to: Mapped[str] = mapped_column(String(200))
    watts: Mapped[float] = mapped_column(Float)
    servers: Mapped[str] = mapped_column(String(500), server_default="")  # migration 0012; "": not known


class AccessoryRecord(PartTable):
    __tablename__ = "accessories"  # migration 0009
    KIND = "accessory"

    use: Mapped[str] = mapped_column(String(16))
    applies_to: Mapped[str] = mapped_column(String(200))
    rack_u: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    amps: Mapped[float] = mapped_column(Float, server_default=text("0"))


class RateRecord(Base):
    """The exchange-rate table: US dollars per unit of `currency` as of a date (USD itself is implicit)."""

    __tablename__ = "exchange_rates"

    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    usd_per_unit: Mapped[float] = mapped_column(Numeric(18, 8, asdecimal=False))
    as_of: Mapped[date] = mapped_column(Date)
    source: Mapped[str] = mapped_column(Text)
    user_edited: Mapped[bool] = mapped_column(default=False, server_default=false())


class MetaRecord(Base):
    """Catalog-wide facts, e.g. when the seed was first loaded (so an emptied catalog stays empty)."""

    __tablename__ = "catalog_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(500))


class MeasurementProfileRecord(Base):
    """A measurement profile (migration 0007): the name a design cites, the catalog server it was measured on."""

    __tablename__ = "measurement_profiles"

    name: Mapped[str] = mapped_column(String(80), primary_key=True)
    # The catalog server the hosts are (not a foreign key: deleting a server must not erase what was measured).
    server_id: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # The measured hosts' data drives per host and which catalog drive (migration 0011; None: not said).
    data_drives: Mapped[int | None] = mapped_column(Integer, nullable=True)
    drive_id: Mapped[str | None] = mapped_column(String(80), nullable=True)


class MeasurementFileRecord(Base):
    """One imported tool output, kept as the tool wrote it (re-read on load) with its provenance."""

    __tablename__ = "measurement_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile: Mapped[str] = mapped_column(
        String(80), ForeignKey("measurement_profiles.name", ondelete="CASCADE"), index=True)
    file_name: Mapped[str] = mapped_column(String(255))
    kind: Mapped[str] = mapped_column(String(16))
    measured_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    hosts: Mapped[str] = mapped_column(Text, server_default="")  # comma-separated, as the output names them
    content: Mapped[str] = mapped_column(Text)
    imported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)

class ChangeSetRecord(Base):
    """One write to the catalog (an edit, an import, a quote, a rate change, a revert): who, when, from which file.

    Migration 0008. `reverted_by` names the change set that undid this one (a set is reverted once at most)."""

    __tablename__ = "change_sets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now, index=True)
    who: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(32))
    source: Mapped[str | None] = mapped_column(Text, nullable=True)
    reverts: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reverted_by: Mapped[int | None] = mapped_column(Integer, nullable=True)


class RowChangeRecord(Base):
    """One row a change set changed: the part's (or rate's) fields before and after, as JSON objects in the
    catalog file format (NULL before: added; NULL after: deleted), and the row version the change left."""

    __tablename__ = "row_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    change_set_id: Mapped[int] = mapped_column(Integer, ForeignKey("change_sets.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # a part kind, or "rate"
    row_id: Mapped[str] = mapped_column(String(80), index=True)
    before: Mapped[str | None] = mapped_column(Text, nullable=True)
    after: Mapped[str | None] = mapped_column(Text, nullable=True)
    version_after: Mapped[int | None] = mapped_column(Integer, nullable=True)


RECORDS: Mapping[PartKind, type[PartTable]] = {
    "cpu": CpuRecord,
    "server": ServerRecord,
    "drive": DriveRecord,
    "nic": NicRecord,
    "dimm": DimmRecord,
    "switch": SwitchRecord,
    "cable": CableRecord,
    "rack": RackRecord,
    "pdu": PduRecord,
    "licence": LicenceRecord,
    "support": SupportRecord,
    "controller": ControllerRecord,
    "accessory": AccessoryRecord,
}
CATALOG_TABLES = frozenset(
    {*(r.__tablename__ for r in RECORDS.values()), MetaRecord.__tablename__, RateRecord.__tablename__,
     MeasurementProfileRecord.__tablename__, MeasurementFileRecord.__tablename__,
     ChangeSetRecord.__tablename__, RowChangeRecord.__tablename__}
)

"""The catalog row format (docs/DESIGN.md) as pydantic models, and rows <-> `models.hardware` parts.

One model per kind checks one row on its own: types, required fields, counts
that must be positive, enums, dates. Checks across rows (duplicate ids, a
server's `cpu_id`) need the whole file and the database, and live in
`catalog.validation`. Field names are the file's column names, the ORM's column
names and the dataclasses' field names, so conversion is by name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from models.hardware import (
    ACCESSORY_USES,
    PART_KINDS,
    Accessory,
    Cable,
    Controller,
    Cpu,
    Dimm,
    Drive,
    Licence,
    Nic,
    Part,
    PartKind,
    Pdu,
    Rack,
    Server,
    Support,
    Switch,
    kind_of,
)
from models.pricing import quoted_in

# Bays take these; a drive may also be M.2 (boot devices), which no data bay takes.
BayFormFactor = Literal["LFF", "SFF", "U.2", "U.3", "E3.S", "E1.S"]
DriveFormFactor = Literal["LFF", "SFF", "U.2", "U.3", "E3.S", "E1.S", "M.2"]
DriveInterfaceName = Literal["SATA", "SAS", "NVMe Gen3", "NVMe Gen4", "NVMe Gen5"]
MemoryTypeName = Literal["DDR3", "DDR4", "DDR5"]

SLUG_RE = re.compile(r"[a-z0-9]+(?:[._-][a-z0-9]+)*")
ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
DERIVED_COLUMNS = frozenset({"cores_total"})  # written on export for readers, ignored on import


def _no_bool(value: Any) -> Any:
    # JSON `true` would otherwise pass as the number 1.
    if isinstance(value, bool):
        raise ValueError("expected a number, got a boolean")
    return value


def _iso_date(value: Any) -> Any:
    # pydantic alone would also take timestamps and datetimes; the format says YYYY-MM-DD.
    if isinstance(value, date):
        return value
    if isinstance(value, str) and ISO_DATE_RE.fullmatch(value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"'{value}' is not a real date") from None
    raise ValueError(f"expected a date as YYYY-MM-DD, got {value!r}")


# A price or rate is dated when it was quoted or published: before 1990 no part of a current catalog was sold,
# and a date more than a year ahead is a typing slip (0001-01-01 and 9999-12-31 made "Capex 0.00" reports).
EARLIEST_DATE = date(1990, 1, 1)
MAX_DAYS_AHEAD = 366


def latest_date() -> date:
    return date.fromordinal(date.today().toordinal() + MAX_DAYS_AHEAD)


def date_in_range(value: date) -> date:
    if value < EARLIEST_DATE:
        raise ValueError(f"must be on or after {EARLIEST_DATE.isoformat()}, got {value.isoformat()}")
    if value > latest_date():
        raise ValueError(f"must be at most {MAX_DAYS_AHEAD} days ahead of today (on or before "
                         f"{latest_date().isoformat()}), got {value.isoformat()}")
    return value


Count = Annotated[int, BeforeValidator(_no_bool), Field(gt=0)]
CountOrZero = Annotated[int, BeforeValidator(_no_bool), Field(ge=0)]
Positive = Annotated[float, BeforeValidator(_no_bool), Field(gt=0)]
PcieGen = Annotated[int, BeforeValidator(_no_bool), Field(ge=1, le=7)]  # PCI Express 1.0 to 7.0
PcieLanes = Annotated[int, BeforeValidator(_no_bool), Field(ge=1, le=32)]
LinkGbps = Annotated[float, BeforeValidator(_no_bool), Field(gt=0, le=100)]  # SATA 1.5-6, SAS 3-24 Gbit/s
# Stored as NUMERIC(14, 4): rounding here keeps SQLite (which would keep every digit) and
# PostgreSQL (which rounds) returning the same price.
Money = Annotated[float, BeforeValidator(_no_bool), Field(ge=0, lt=1e10), AfterValidator(lambda v: round(v, 4))]
Text = Annotated[str, Field(min_length=1, max_length=200)]
LongText = Annotated[str, Field(min_length=1, max_length=2000)]
PartNumber = Annotated[str, Field(max_length=80)]
Slug = Annotated[str, Field(pattern=f"^{SLUG_RE.pattern}$", max_length=80)]  # pydantic searches: anchor it
Currency = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
IsoDate = Annotated[date, BeforeValidator(_iso_date), AfterValidator(date_in_range)]


class PartRow(BaseModel):
    """Columns every part has. `source` says where the price and specs come from."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, allow_inf_nan=False, frozen=True)

    id: Slug
    vendor: Text
    model: Text
    # The vendor's SKU / manufacturer part number; absent in older files and unknown for many parts (empty).
    part_number: PartNumber = ""
    price: Money
    currency: Currency
    price_as_of: IsoDate
    source: LongText
    # Absent in older files: a source the quote import wrote ("quote FILE DATE") is a quote, one that says
    # "estimate" is one, anything else a list price.
    price_basis: Literal["list", "quote", "estimate"] | None = None

    @model_validator(mode="after")
    def _basis_from_source(self) -> PartRow:
        if self.price_basis is None:
            basis = "quote" if quoted_in(self.source) else \
                "estimate" if "estimate" in self.source.lower() else "list"
            object.__setattr__(self, "price_basis", basis)
        return self


class CpuRow(PartRow):
    cores: Count
    threads: Count
    base_ghz: Positive
    tdp_w: Positive

    @field_validator("threads")
    @classmethod
    def _threads_cover_cores(cls, threads: int, info: ValidationInfo) -> int:
        cores = info.data.get("cores")
        if cores is not None and threads < cores:
            raise ValueError(f"must be at least cores ({cores})")
        return threads


class ServerRow(PartRow):
    form_factor: Text
    rack_u: Count
    sockets: Count
    cpu_id: Slug
    numa_nodes_per_socket: Count
    memory_gib: Count
    dimm_slots: Count
    data_bays: CountOrZero  # compute-only nodes have none
    data_bay_form_factor: BayFormFactor
    os_drives: CountOrZero
    psu_w: Positive
    idle_w: Positive
    max_w: Positive
    # Schema revision 0005; absent or empty: unknown (never guessed). PCIe add-in slots bound the NICs per host.
    pcie_slots: Count | None = None
    memory_type: MemoryTypeName | None = None
    # Revision 0010; empty: unknown. The PCIe generation of its slots, the SAS/SATA line rate of its drive controller.
    pcie_gen: PcieGen | None = None
    drive_link_gbps: LinkGbps | None = None

    @field_validator("max_w")
    @classmethod
    def _max_covers_idle(cls, max_w: float, info: ValidationInfo) -> float:
        idle = info.data.get("idle_w")
        if idle is not None and max_w < idle:
            raise ValueError(f"must be at least idle_w ({idle:g})")
        return max_w


class DriveRow(PartRow):
    interface: DriveInterfaceName
    form_factor: DriveFormFactor
    capacity_tb: Positive
    seq_read_mb_s: Positive
    seq_write_mb_s: Positive
    random_read_iops: Positive
    random_write_iops: Positive
    watts: Positive
    link_gbps: LinkGbps | None = None  # revision 0010: a SAS/SATA drive's line rate; empty: unknown or NVMe


class NicRow(PartRow):
    ports: Count
    speed_gbps: Positive
    watts: Positive
    # Revision 0010; empty: unknown. The card's host interface, e.g. PCIe 4.0 x16.
    pcie_gen: PcieGen | None = None
    pcie_lanes: PcieLanes | None = None


class DimmRow(PartRow):
    size_gib: Count
    speed_mt_s: Count
    memory_type: MemoryTypeName | None = None  # revision 0005; empty: unknown


class SwitchRow(PartRow):
    ports: Count
    speed_gbps: Positive
    uplink_ports: CountOrZero  # 0: uplinks come out of `ports`
    uplink_speed_gbps: Positive
    rack_u: Count
    watts: Positive


class CableRow(PartRow):
    medium: Literal["DAC", "AOC", "optic", "fibre", "copper"]
    speed_gbps: Positive
    reach_m: Positive
    watts: Annotated[float, BeforeValidator(_no_bool), Field(ge=0)]


class RackRow(PartRow):
    rack_u: Count
    max_kw: Positive


class PduRow(PartRow):
    outlets: Count
    max_kw: Positive
    rack_u: CountOrZero


class LicenceRow(PartRow):
    metric: Literal["core", "socket", "socket-pair", "host", "tb"]
    term: Literal["perpetual", "annual"]
    applies_to: Literal["vsphere", "greenplum", "sap-iq", "postgres", "os"]
    min_cores_per_cpu: CountOrZero
    min_units: CountOrZero
    # Schema revision 0006; vSphere editions: raw vSAN capacity included per licensed core, 0 for none;
    # absent or empty: not recorded.
    vsan_gib_per_core: Annotated[float, BeforeValidator(_no_bool), Field(ge=0)] | None = None


class SupportRow(PartRow):
    basis: Literal["host", "hardware-pct"]
    pct_of_hardware: Annotated[float, BeforeValidator(_no_bool), Field(ge=0, le=100)]
    applies_to: Text  # a server vendor, or "*"

    @field_validator("pct_of_hardware")
    @classmethod
    def _pct_needs_basis(cls, pct: float, info: ValidationInfo) -> float:
        if info.data.get("basis") == "hardware-pct" and pct <= 0:
            raise ValueError("must be above 0 when basis is hardware-pct")
        return pct


_INTERFACES = ("SAS", "SATA", "NVMe", "M.2")  # M.2: a boot module carrying M.2 boot drives
_RAID_NAMES = ("raid0", "raid1", "raid5", "raid6", "raid10", "raid50", "raid60")


def _listed(value: str, allowed: tuple[str, ...], what: str) -> str:
    items = [v.strip() for v in value.split(",") if v.strip()]
    bad = [v for v in items if v not in allowed]
    if bad:
        raise ValueError(f"unknown {what} {', '.join(bad)}; expected some of {', '.join(allowed)}")
    return ",".join(items)


class ControllerRow(PartRow):
    """Schema revision 0009: a storage controller or HBA."""

    interfaces: Text  # comma-separated: SAS, SATA, NVMe; M.2 for a boot module
    raid_levels: Annotated[str, Field(max_length=200)] = ""  # comma-separated RAID levels; "" for an HBA
    max_drives: Count
    applies_to: Text  # a server vendor, or "*"
    watts: Positive
    # Revision 0012: the server models it is made for, comma-separated ("PowerEdge R670, PowerEdge R770"; "Gen11"
    # names every ProLiant Gen11), "*" any server's PCIe slot; empty: not known (taken, and said so).
    servers: Annotated[str, Field(max_length=500)] = ""

    @field_validator("interfaces")
    @classmethod
    def _known_interfaces(cls, v: str) -> str:
        return _listed(v, _INTERFACES, "interface")

    @field_validator("raid_levels")
    @classmethod
    def _known_levels(cls, v: str) -> str:
        return _listed(v, _RAID_NAMES, "RAID level")


class AccessoryRow(PartRow):
    """Schema revision 0009: rails, a power cord or an installation service, per server."""

    use: Literal[ACCESSORY_USES]  # type: ignore[valid-type]  # the tuple's items, as the Literal's values
    applies_to: Text  # a server vendor, or "*"
    rack_u: CountOrZero = 0  # rails: the chassis height they fit (0: any)
    amps: Annotated[float, BeforeValidator(_no_bool), Field(ge=0, le=100)] = 0.0  # power cords: the rating

    @field_validator("amps")
    @classmethod
    def _cord_rated(cls, amps: float, info: ValidationInfo) -> float:
        if info.data.get("use") == "power-cord" and amps <= 0:
            raise ValueError("must be above 0 for a power cord (its rating, e.g. 10 for C13/C14)")
        return amps


RowModel = (
    CpuRow | ServerRow | DriveRow | NicRow | DimmRow | SwitchRow | CableRow | RackRow | PduRow | LicenceRow
    | SupportRow | ControllerRow | AccessoryRow
)
ROW_MODELS: Mapping[PartKind, type[RowModel]] = {
    "cpu": CpuRow,
    "server": ServerRow,
    "drive": DriveRow,
    "nic": NicRow,
    "dimm": DimmRow,
    "switch": SwitchRow,
    "cable": CableRow,
    "rack": RackRow,
    "pdu": PduRow,
    "licence": LicenceRow,
    "support": SupportRow,
    "controller": ControllerRow,
    "accessory": AccessoryRow,
}
COMMON_FIELDS: tuple[str, ...] = tuple(PartRow.model_fields)
KIND_FIELDS: Mapping[PartKind, tuple[str, ...]] = {
    kind: tuple(f for f in model.model_fields if f not in COMMON_FIELDS) for kind, model in ROW_MODELS.items()
}
_PART_CLASSES: Mapping[PartKind, type[Part]] = {
    "cpu": Cpu, "server": Server, "drive": Drive, "nic": Nic, "dimm": Dimm, "switch": Switch, "cable": Cable,
    "rack": Rack, "pdu": Pdu, "licence": Licence, "support": Support, "controller": Controller,
    "accessory": Accessory,
}


def columns_for(kinds: tuple[PartKind, ...] = PART_KINDS) -> list[str]:
    """File columns in a stable, readable order: common ones first, then each kind's."""
    columns = ["id", "kind", *COMMON_FIELDS[1:]]
    for kind in kinds:
        for name in KIND_FIELDS[kind]:
            if name not in columns:
                columns.append(name)
            if name == "cpu_id":
                columns.append("cores_total")
    return columns


def part_from_fields(kind: PartKind, fields: Mapping[str, Any], cpus: Mapping[str, Cpu]) -> Part:
    """Build the dataclass from a row's fields (validated, or read back from the database).

    A server carries its `Cpu`, so `cpus` must hold the one its `cpu_id` names.
    """
    names = (*COMMON_FIELDS, *KIND_FIELDS[kind])
    values = {name: fields[name] for name in names if name != "cpu_id"}
    values["price"] = float(values["price"])
    if kind == "server":
        values["cpu"] = cpus[fields["cpu_id"]]
    return _PART_CLASSES[kind](**values)


def part_from_row(row: RowModel, cpus: Mapping[str, Cpu]) -> Part:
    return part_from_fields(kind_of_row(row), row.model_dump(), cpus)


def kind_of_row(row: RowModel) -> PartKind:
    for kind, model in ROW_MODELS.items():
        if type(row) is model:
            return kind
    raise TypeError(f"not a catalog row: {type(row).__name__}")


def part_to_row(part: Part) -> dict[str, Any]:
    """The file form of a part: JSON-ready values, `kind`, and for servers `cpu_id` + `cores_total`."""
    kind = kind_of(part)
    row: dict[str, Any] = {"id": part.id, "kind": kind}
    for name in (*COMMON_FIELDS[1:], *KIND_FIELDS[kind]):
        value = part.cpu_id if isinstance(part, Server) and name == "cpu_id" else getattr(part, name)
        row[name] = value.isoformat() if isinstance(value, date) else value
        if name == "cpu_id" and isinstance(part, Server):
            row["cores_total"] = part.cores_total
    return row

"""Hardware value objects: what the sizing models know of a part.

These are plain frozen dataclasses, independent of how the catalog stores them
(`catalog/` maps its ORM rows onto them). Units are in the field names:
`capacity_tb` is decimal terabytes as vendors sell drives, `memory_gib` binary.
A server's `price` is its list price as configured: chassis, its CPUs and its
`memory_gib` of memory, without data drives or add-in NICs (those are their own
BOM lines).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, TypeVar

from models.money import ExchangeRates

PartKind = Literal["cpu", "server", "drive", "nic", "dimm", "switch", "cable", "rack", "pdu", "licence", "support",
                   "controller", "accessory"]
PART_KINDS: tuple[PartKind, ...] = (
    "cpu", "server", "drive", "nic", "dimm", "switch", "cable", "rack", "pdu", "licence", "support", "controller",
    "accessory",
)
# How a price was obtained: a vendor's list price, a quote to this customer, or refarch's estimate.
PriceBasis = Literal["list", "quote", "estimate"]
PRICE_BASES: tuple[PriceBasis, ...] = ("list", "quote", "estimate")

DriveInterface = Literal["SATA", "SAS", "NVMe Gen3", "NVMe Gen4", "NVMe Gen5"]
DRIVE_INTERFACES: tuple[DriveInterface, ...] = ("SATA", "SAS", "NVMe Gen3", "NVMe Gen4", "NVMe Gen5")

# Physical drive form factors, and which ones a bay of each kind takes.
# LFF = 3.5in, SFF = 2.5in SAS/SATA; U.2/U.3/E3.S/E1.S are NVMe.
FormFactor = Literal["LFF", "SFF", "U.2", "U.3", "E3.S", "E1.S", "M.2"]
BAY_ACCEPTS: Mapping[str, frozenset[str]] = {
    "LFF": frozenset({"LFF", "SFF"}),  # SFF drives fit LFF bays with a converter carrier
    "SFF": frozenset({"SFF"}),
    "U.2": frozenset({"U.2"}),
    "U.3": frozenset({"U.2", "U.3", "SFF"}),  # tri-mode bays take SAS/SATA and NVMe
    "E3.S": frozenset({"E3.S"}),
    "E1.S": frozenset({"E1.S"}),
    "M.2": frozenset({"M.2"}),
}
# DRAM generations: a server takes DIMMs of its own generation only (the slots are keyed differently).
MemoryType = Literal["DDR3", "DDR4", "DDR5"]
MEMORY_TYPES: tuple[MemoryType, ...] = ("DDR3", "DDR4", "DDR5")


@dataclass(frozen=True, slots=True)
class PartBase:
    id: str
    vendor: str
    model: str
    price: float
    currency: str
    price_as_of: date
    source: str
    price_basis: str = field(default="list", kw_only=True)
    # The vendor's orderable SKU / manufacturer part number (e.g. "MZWLO7T6HBLA-00A07"); "" when unknown.
    # `id` is refarch's own key; this is what procurement orders by.
    part_number: str = field(default="", kw_only=True)
    # Set on parts of a catalog converted to a project currency (`models.money`): what the
    # catalog said before conversion and discount. None on the catalog's own parts.
    origin: PriceOrigin | None = field(default=None, kw_only=True, compare=False)


@dataclass(frozen=True, slots=True)
class PriceOrigin:
    """A converted part's catalog price: the list price in its own currency, the rate and discount applied."""

    list_price: float
    currency: str
    rate: float  # project-currency units per unit of `currency`
    rate_as_of: date | None
    discount_pct: float


@dataclass(frozen=True, slots=True)
class Cpu(PartBase):
    cores: int
    threads: int
    base_ghz: float
    tdp_w: float


@dataclass(frozen=True, slots=True)
class Server(PartBase):
    form_factor: str  # e.g. "1U rack", "2U rack", "tower"
    rack_u: int
    sockets: int
    cpu: Cpu
    numa_nodes_per_socket: int
    memory_gib: int
    dimm_slots: int
    data_bays: int
    data_bay_form_factor: str
    os_drives: int
    psu_w: float
    idle_w: float
    max_w: float
    # Add-in PCIe card slots of the server's fullest riser configuration (the most any build offers; OCP 3.0,
    # FlexibleLOM or AIOM mezzanines not counted); None: unknown (no source read), not checked but said so.
    pcie_slots: int | None = field(default=None, kw_only=True)
    # The DRAM generation its DIMM slots take; None: unknown, so any catalog DIMM may be added.
    memory_type: str | None = field(default=None, kw_only=True)
    # Revision 0010. The PCI Express generation of its slots (2-5) and the SAS/SATA line rate of its drive controller
    # and backplane (Gbit/s: 6, 12, 24); None: unknown, not checked.
    pcie_gen: int | None = field(default=None, kw_only=True)
    drive_link_gbps: float | None = field(default=None, kw_only=True)

    def takes(self, dimm: Dimm) -> bool:
        """Whether the DIMM fits this server's slots: same DRAM generation (unknown on the server: not checked)."""
        return self.memory_type is None or dimm.memory_type == self.memory_type

    @property
    def cpu_id(self) -> str:
        return self.cpu.id

    @property
    def cores_total(self) -> int:
        return self.sockets * self.cpu.cores

    @property
    def threads_total(self) -> int:
        """Logical cores (hardware threads) of all sockets: what the density check counts."""
        return self.sockets * self.cpu.threads

    @property
    def numa_nodes(self) -> int:
        return self.sockets * self.numa_nodes_per_socket

    @property
    def cores_per_numa_node(self) -> int:
        return self.cores_total // self.numa_nodes

    def accepts(self, drive: Drive) -> bool:
        return drive.form_factor in BAY_ACCEPTS.get(self.data_bay_form_factor, frozenset())

    def of_its_generation(self, drive: Drive) -> bool:
        """Whether the drive's link is no faster than the server's: a SAS/SATA drive's line rate within the drive
        controller's, an NVMe drive's PCIe generation within the slots' (either unknown: not checked). A faster
        drive would run at the server's rate, and its vendor does not list it for the server."""
        if drive.interface.startswith("NVMe"):
            gen = drive_pcie_gen(drive)
            return self.pcie_gen is None or gen is None or gen <= self.pcie_gen
        return self.drive_link_gbps is None or drive.link_gbps is None or drive.link_gbps <= self.drive_link_gbps


DriveMedia = Literal["nvme", "ssd", "hdd"]
# No spinning disk reaches even 1,000 random IOPS; every flash device in the catalog is far above 5,000.
FLASH_MIN_IOPS = 5_000.0
# A line rate in Gb/s as MB/s (decimal units, as NICs and drives are sold); one constant for every model.
MB_S_PER_GBPS = 125.0


@dataclass(frozen=True, slots=True)
class Drive(PartBase):
    interface: DriveInterface
    form_factor: str
    capacity_tb: float
    seq_read_mb_s: float
    seq_write_mb_s: float
    random_read_iops: float
    random_write_iops: float
    watts: float
    # Revision 0010: a SAS/SATA drive's line rate (Gbit/s: 6, 12, 24); None for NVMe (its interface names the PCIe
    # generation) and where unknown.
    link_gbps: float | None = field(default=None, kw_only=True)

    @property
    def media(self) -> DriveMedia:
        """'nvme' for NVMe, 'ssd' for SAS/SATA flash, 'hdd' for spinning disks (by their random IOPS)."""
        if self.interface.startswith("NVMe"):
            return "nvme"
        return "ssd" if self.random_read_iops >= FLASH_MIN_IOPS else "hdd"

    @property
    def spinning(self) -> bool:
        """A hard disk (a spindle with a head to position), by its datasheet's random reads (`is_spinning`)."""
        return is_spinning(self.random_read_iops)


def is_spinning(random_read_iops: float) -> bool:
    """True for a drive whose random reads are a hard disk's (below any flash device's, `FLASH_MIN_IOPS`).

    >>> is_spinning(250.0), is_spinning(200_000.0)
    (True, False)
    """
    return random_read_iops < FLASH_MIN_IOPS


def drive_pcie_gen(drive: Drive) -> int | None:
    """The PCIe generation of an NVMe drive's interface ("NVMe Gen4": 4); None for SAS and SATA.

    >>> drive_pcie_gen(Drive("d", "v", "m", 1.0, "USD", date(2026, 1, 1), "s", "NVMe Gen5", "U.2", 7.68, 1, 1, 1, 1, 1))
    5
    """
    return int(drive.interface.removeprefix("NVMe Gen")) if drive.interface.startswith("NVMe Gen") else None


@dataclass(frozen=True, slots=True)
class Nic(PartBase):
    ports: int
    speed_gbps: float
    watts: float
    # Revision 0010: the card's PCI Express generation and lanes (its host interface, e.g. PCIe 4.0 x16); None: unknown.
    pcie_gen: int | None = field(default=None, kw_only=True)
    pcie_lanes: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Dimm(PartBase):
    size_gib: int
    speed_mt_s: int
    memory_type: str | None = field(default=None, kw_only=True)  # DDR3/DDR4/DDR5; None: unknown


@dataclass(frozen=True, slots=True)
class Switch(PartBase):
    """An Ethernet switch: `ports` at `speed_gbps` for hosts, plus dedicated uplink ports (0: uplinks use `ports`)."""

    ports: int
    speed_gbps: float
    uplink_ports: int
    uplink_speed_gbps: float
    rack_u: int
    watts: float


CableMedium = Literal["DAC", "AOC", "optic", "fibre", "copper"]


@dataclass(frozen=True, slots=True)
class Cable(PartBase):
    """A cable or transceiver: DAC/AOC is a whole link; an `optic` is one transceiver end; `fibre` a patch cord;
    `copper` a twisted-pair (RJ45) patch cord, as management ports take."""

    medium: str
    speed_gbps: float
    reach_m: float
    watts: float


@dataclass(frozen=True, slots=True)
class Rack(PartBase):
    rack_u: int
    max_kw: float  # what the enclosure and its cooling are rated for


@dataclass(frozen=True, slots=True)
class Pdu(PartBase):
    outlets: int
    max_kw: float
    rack_u: int  # 0 for a vertical (zero-U) PDU


LicenceMetric = Literal["core", "socket", "socket-pair", "host", "tb"]
LicenceTerm = Literal["perpetual", "annual"]
LicenceScope = Literal["vsphere", "greenplum", "sap-iq", "postgres", "os"]


@dataclass(frozen=True, slots=True)
class Licence(PartBase):
    """Software priced per core, socket, host or TB; `price` is per unit (per year when `term` is annual).

    "socket-pair": one unit per 1-2 sockets of a physical host or per 1-2 virtual machines (how SUSE and Red Hat
    sell their server subscriptions): on vSphere the guests are what run the OS.
    """

    metric: str
    term: str
    applies_to: str
    min_cores_per_cpu: int  # e.g. vSphere counts at least 16 cores per CPU
    min_units: int  # the smallest order, in `metric` units
    # vSphere editions: raw vSAN capacity included per licensed core (0: none, vSAN cannot run on it);
    # None: not recorded (the design asks to confirm)
    vsan_gib_per_core: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Support(PartBase):
    """A hardware support contract, per year: `price` per host, or `pct_of_hardware` % of the hosts' net price."""

    basis: str  # "host" or "hardware-pct"
    pct_of_hardware: float
    applies_to: str  # a server vendor, or "*" for any


@dataclass(frozen=True, slots=True)
class Controller(PartBase):
    """A storage controller or HBA for a server's data bays: the drive interfaces it drives (comma-separated,
    e.g. "SAS,SATA,NVMe" for a tri-mode card), the RAID levels it builds in hardware ("" for an HBA that passes
    drives through), the drives one card connects and the server vendor it fits ("*": any); `servers` (revision
    0012) the server models it is made for ("*": any server's PCIe slot, "": not known; `sizing.controller_fit`)."""

    interfaces: str
    raid_levels: str
    max_drives: int
    applies_to: str
    watts: float
    servers: str = field(default="", kw_only=True)

    def drives_interface(self, interface: str) -> bool:
        """Whether it connects drives of `interface` ("NVMe Gen4" counts as NVMe)."""
        family = "NVMe" if interface.startswith("NVMe") else interface
        return family in {i.strip() for i in self.interfaces.split(",")}

    def builds(self, raid: str) -> bool:
        """Whether it builds RAID level `raid` ("raid5") in hardware."""
        return raid in {r.strip() for r in self.raid_levels.split(",") if r.strip()}


AccessoryUse = Literal["rails", "power-cord", "installation"]
ACCESSORY_USES: tuple[AccessoryUse, ...] = ("rails", "power-cord", "installation")


@dataclass(frozen=True, slots=True)
class Accessory(PartBase):
    """What a server ships with or is installed with, per server: a rail kit (`rack_u`: the chassis height it
    fits, 0 any), a power cord (`amps`: its rating, one per power supply) or an installation service; for a
    server vendor's servers (`applies_to`, "*": any)."""

    use: str
    applies_to: str
    rack_u: int
    amps: float


Part = Cpu | Server | Drive | Nic | Dimm | Switch | Cable | Rack | Pdu | Licence | Support | Controller | Accessory
P = TypeVar("P", bound=PartBase)
CURRENT_WITHIN_YEARS = 5

KIND_OF: Mapping[type, PartKind] = {
    Cpu: "cpu", Server: "server", Drive: "drive", Nic: "nic", Dimm: "dimm", Switch: "switch", Cable: "cable",
    Rack: "rack", Pdu: "pdu", Licence: "licence", Support: "support", Controller: "controller",
    Accessory: "accessory",
}


def kind_of(part: Part) -> PartKind:
    return KIND_OF[type(part)]


class UnknownPartError(KeyError):
    """An id that is not in the catalog; carries the closest ids as suggestions."""

    def __init__(self, part_id: str, kind: PartKind | None, suggestions: list[str]) -> None:
        self.part_id = part_id
        self.kind = kind
        self.suggestions = suggestions
        what = kind or "part"
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"unknown {what} id '{part_id}'{hint}")

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class HardwareCatalog:
    """An immutable snapshot of the catalog that the models size against."""

    parts: tuple[Part, ...]
    rates: ExchangeRates = field(default_factory=lambda: ExchangeRates(()))
    # The project currency once `models.money.in_currency` converted every price; None: the catalog's own prices.
    currency: str | None = None
    _by_id: dict[str, Part] = field(init=False, repr=False, compare=False)
    # what is derived from the parts (those of a class, the newest price date): a sizing asks many times and the
    # parts never change
    _memo: dict[object, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {p.id: p for p in self.parts})
        object.__setattr__(self, "_memo", {})

    @classmethod
    def of(cls, parts: Iterable[Part], rates: ExchangeRates | None = None) -> HardwareCatalog:
        return cls(tuple(parts), rates if rates is not None else ExchangeRates(()))

    def __iter__(self) -> Iterator[Part]:
        return iter(self.parts)

    def __len__(self) -> int:
        return len(self.parts)

    def __contains__(self, part_id: object) -> bool:
        return part_id in self._by_id

    def of_kind(self, kind: PartKind) -> list[Part]:
        return [p for p in self.parts if KIND_OF[type(p)] == kind]

    @property
    def servers(self) -> list[Server]:
        return self.typed(Server)

    @property
    def drives(self) -> list[Drive]:
        return self.typed(Drive)

    @property
    def nics(self) -> list[Nic]:
        return self.typed(Nic)

    @property
    def cpus(self) -> list[Cpu]:
        return self.typed(Cpu)

    @property
    def switches(self) -> list[Switch]:
        return self.typed(Switch)

    @property
    def cables(self) -> list[Cable]:
        return self.typed(Cable)

    @property
    def racks(self) -> list[Rack]:
        return self.typed(Rack)

    @property
    def pdus(self) -> list[Pdu]:
        return self.typed(Pdu)

    @property
    def licences(self) -> list[Licence]:
        return self.typed(Licence)

    @property
    def supports(self) -> list[Support]:
        return self.typed(Support)

    @property
    def dimms(self) -> list[Dimm]:
        return self.typed(Dimm)

    @property
    def controllers(self) -> list[Controller]:
        return self.typed(Controller)

    @property
    def accessories(self) -> list[Accessory]:
        return self.typed(Accessory)

    def current(self, parts: list[P]) -> list[P]:
        """The parts one could buy today: priced within CURRENT_WITHIN_YEARS of the newest price in the catalog.

        Older entries are history (a study's test bed): "older hardware is no longer available for
        purchase" (002_feb9b45e1f157a35.txt, Architecture cost analysis). A scenario can still name any
        part by id; this only limits what refarch picks on its own.
        """
        if not parts or not self.parts:
            return parts
        newest: date | None = self._memo.get("newest")
        if newest is None:
            newest = self._memo["newest"] = max(p.price_as_of for p in self.parts)
        cutoff = newest.replace(year=newest.year - CURRENT_WITHIN_YEARS)
        return [p for p in parts if p.price_as_of >= cutoff]

    def closest_ids(self, part_id: str, kind: PartKind | None = None, n: int = 3) -> list[str]:
        pool = [p.id for p in self.parts if kind is None or KIND_OF[type(p)] == kind]
        return difflib.get_close_matches(part_id, pool, n=n, cutoff=0.4)

    def get(self, part_id: str, kind: PartKind | None = None) -> Part:
        part = self._by_id.get(part_id)
        if part is None or (kind is not None and KIND_OF[type(part)] != kind):
            raise UnknownPartError(part_id, kind, self.closest_ids(part_id, kind))
        return part

    def server(self, part_id: str) -> Server:
        part = self.get(part_id, "server")
        assert isinstance(part, Server)
        return part

    def drive(self, part_id: str) -> Drive:
        part = self.get(part_id, "drive")
        assert isinstance(part, Drive)
        return part

    def typed(self, cls: type[P]) -> list[P]:
        """The parts of class `cls`, in catalog order (a new list each call: callers may change it)."""
        held: tuple[P, ...] | None = self._memo.get(cls)
        if held is None:
            held = self._memo[cls] = tuple(p for p in self.parts if isinstance(p, cls))
        return list(held)

    def nic(self, part_id: str) -> Nic:
        part = self.get(part_id, "nic")
        assert isinstance(part, Nic)
        return part

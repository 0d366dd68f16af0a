"""What `size` returns: the design, its estimates, the BOM, the reasons and the warnings.

`SizingResult.to_dict()` is the JSON of `refarch size --format json`; the GUI,
the PDF report, `compare` and the optimizer all read these objects, never the JSON.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final, Literal

from models.perf.measured import Measured
from models.plain_dict import plain_dict
from models.references import Citation, citations, reference_parts
from models.sizing.iq_result import IqMultiplex as IqMultiplex  # moved there; named here as before
from models.sizing.settings import GreenplumSettings, SettingGroup
from models.uncertainty import Estimate
from models.vocabulary import KINDS, RAIDS, raid_label
from models.warning_codes import Severity as Severity  # re-exported: producers import both from here
from models.warning_codes import Warning as Warning


@dataclass(frozen=True, slots=True, init=False)
class Rationale:
    """A decision of the design, why, and the references behind it: `source` is a tuple, each entry one document
    and locator ("002_feb9b45e1f157a35.txt, Table 4") or an input ("scenario", "catalog"), repeats dropped. A
    producer may still write them as one "; "-joined text, split once here (`models.references.reference_parts`)."""

    decision: str
    text: str
    source: tuple[str, ...]

    def __init__(self, decision: str, text: str, source: str | Iterable[str]) -> None:
        parts = reference_parts(source) if isinstance(source, str) else tuple(
            dict.fromkeys(p.strip() for p in source if p.strip()))
        object.__setattr__(self, "decision", decision)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "source", parts)

    @property
    def source_text(self) -> str:
        """The references as one text, "; " between them (the JSON's "source", a configuration file's comment)."""
        return "; ".join(self.source)

    def citations(self) -> tuple[Citation, ...]:
        """The documents and locators `source` names, for a numbered reference list (models.references)."""
        return citations(self.source)

    def to_dict(self) -> dict[str, str]:
        return {"decision": self.decision, "text": self.text, "source": self.source_text}


@dataclass(frozen=True, slots=True)
class NotUsed:
    """A field this design has no use for; `text` says so in words ("not used with group mirroring")."""

    text: str


@dataclass(frozen=True, slots=True)
class UsedValue:
    """The value the engine used for the empty field `field` (a `models.field_words.FIELDS` path, or a database's
    "workload.databases[i].peak_tps"). `value` is a number in `unit`, a choice's code ("raid10", "network"), a
    range (low, high) where each VM was sized apart, words where no code exists ("vSAN", a segment tier's label),
    or `NotUsed`. `source` holds the references ("study file, locator") a figure was taken from; `basis` what the
    value follows from in this scenario, in words ("from 20 concurrent queries")."""

    field: str
    value: float | str | tuple[float, float] | NotUsed
    unit: str = ""
    source: tuple[str, ...] = ()
    basis: str = ""

    @property
    def used(self) -> bool:
        return not isinstance(self.value, NotUsed)


SCENARIO_WIDE: Final[None] = None  # a warning's field when it concerns the design as a whole, no one input
TargetStatus = Literal["met", "missed", "unreachable"]


@dataclass(frozen=True, slots=True)
class TargetCheck:
    """The verdict on one scenario target: `estimate` (the P50, or the total for a budget) against `limit`.

    met: the design meets it; missed: the design was sized for it but its P50 (or total) misses it;
    unreachable: no design the engine could build meets it, the nearest one is shown. `text` says by how much.
    """

    target: str  # the field of `Scenario.targets`, e.g. max_full_scan_s
    metric: str  # the estimate or total it bounds (models.vocabulary.TARGETS[target].metric)
    limit: float
    estimate: float
    unit: str
    status: TargetStatus
    text: str = ""
    achievable: float | None = None  # unreachable: the best value this hardware reaches within the host cap
    binding: str = ""  # unreachable: the resource that stops it
    hosts_for_achievable: int | None = None  # unreachable: the fewest segment hosts that reach `achievable`

    @property
    def met(self) -> bool:
        return self.status == "met"

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "metric": self.metric, "limit": self.limit, "estimate": self.estimate,
                "unit": self.unit, "status": self.status, "text": self.text, "achievable": self.achievable,
                "binding": self.binding or None, "hosts_for_achievable": self.hosts_for_achievable}


# How a BOM line's price reads: its own, inside another line's, or to come from the vendor's quote
PriceStatus = Literal["priced", "included", "on_quote"]


@dataclass(frozen=True, slots=True)
class BomLine:
    role: str  # "segment host", "coordinator host", "ETL host", "database host", "IQ node"
    part_id: str
    description: str
    qty_per_host: int
    hosts: int
    unit_price: float
    currency: str
    kind: str  # catalog kind: server, cpu, drive, nic, dimm, controller, switch, cable, rack, pdu, licence, support;
    # boot-drive, base-dimm (the server's own DIMMs), rails, power-cord, installation (accessories by use)
    price_as_of: str = ""
    category: str = "compute"  # compute | network | rack | software | support: how the BOM groups lines
    recurring: bool = False  # a price per year (subscriptions, support) rather than a one-time purchase
    price_basis: str = "list"  # list | quote | estimate
    list_unit_price: float | None = None  # before discount, in `currency` (None: not converted, = unit_price)
    discount_pct: float = 0.0
    source_currency: str = ""  # the catalog's currency, when it differs from the project's
    source_unit_price: float | None = None  # the catalog's list price in source_currency
    fx_rate: float = 1.0  # project-currency units per source_currency unit
    note: str = ""  # how the quantity was counted (licence minimums, boot mirror, ...)
    part_number: str = ""  # the vendor's SKU / manufacturer part number ("" when the catalog does not know it)
    # priced: unit_price is the part's price; included: priced inside another line (a server's CPUs and base DIMMs);
    # on_quote: no public price, the vendor's quote prices it (unit_price 0 until then, and out of every total)
    price_status: PriceStatus = "priced"
    quote: str = ""  # price_basis "quote": the vendor quote the price comes from (its file and date)

    @property
    def qty(self) -> int:
        return self.qty_per_host * self.hosts

    @property
    def extended_price(self) -> float:
        # half-cents round up, as in every BOM total (models/sizing/bom.py), so lines and totals agree
        cents = (Decimal(str(self.unit_price)) * self.qty).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        return float(cents)

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "part_id": self.part_id,
            "description": self.description,
            "part_number": self.part_number,
            "kind": self.kind,
            "qty_per_host": self.qty_per_host,
            "hosts": self.hosts,
            "qty": self.qty,
            "unit_price": self.unit_price,
            "extended_price": self.extended_price,
            "currency": self.currency,
            "price_as_of": self.price_as_of,
            "category": self.category,
            "recurring": self.recurring,
            "price_basis": self.price_basis,
            "quote": self.quote,
            "list_unit_price": self.list_unit_price if self.list_unit_price is not None else self.unit_price,
            "discount_pct": self.discount_pct,
            "source_currency": self.source_currency or self.currency,
            "source_unit_price": self.source_unit_price if self.source_unit_price is not None else self.unit_price,
            "fx_rate": self.fx_rate,
            "note": self.note,
            "price_status": self.price_status,
        }


@dataclass(frozen=True, slots=True)
class VmLayout:
    """One VM pinned to one NUMA node (vSphere), or the whole host (bare metal)."""

    numa_node: int | None
    vcpus: int
    memory_gib: float
    data_drives: int
    primary_segments: int = 0
    mirror_segments: int = 0
    databases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HostLayout:
    """What one host of a role looks like; the GUI and PDF draw it."""

    role: str
    count: int
    server_id: str
    sockets: int
    numa_nodes_per_socket: int
    cores_per_numa_node: int
    memory_gib: float
    data_drives: int
    drive_id: str | None
    raid: str
    vms: tuple[VmLayout, ...]
    nic_ports: int
    nic_speed_gbps: float
    priced_as: str = ""  # the BOM role its hosts are priced under, when one layout per host numbers them

    @property
    def bom_role(self) -> str:
        """The role of its BOM lines: "database host" for "database host 2" (each PostgreSQL host is drawn)."""
        return self.priced_as or self.role


@dataclass(frozen=True, slots=True)
class DatabaseDisks:
    """The disks one PostgreSQL database needs on its VM, and the load that sized them."""

    database: str
    data_gb: float
    wal_gb: float
    peak_tps: float
    data_write_iops: float
    wal_write_iops: float
    wal_mb_s: float
    # what its VM carries for it at the busiest hour (models.perf.pg_tps; its share of the VM's clients)
    tps_p10: float | None = None
    tps_p50: float | None = None
    tps_p90: float | None = None
    tps_binding: str | None = None  # CPU, storage IOPS, storage latency or WAL flush


@dataclass(frozen=True, slots=True)
class PlacedVm:
    """One PostgreSQL VM as placed: on which host (1-based) and NUMA node (None: wider than a node)."""

    name: str
    host: int
    numa_node: int | None
    vcpus: int
    memory_gib: float
    databases: tuple[str, ...]
    disks: tuple[DatabaseDisks, ...]
    memory_reservation_gib: float = 0.0  # vSphere reservation: all its memory where huge pages need it, else none


@dataclass(frozen=True, slots=True)
class Survivor:
    """One surviving host after a host failure, once vSphere HA has restarted what it could on it."""

    host: int  # 1-based, as the host layouts number them
    overcommit_rate: float  # Equation 1 on its configured and available memory
    safe_overcommit_rate: float  # the most its working sets allow
    performance_preserved: float  # study 001's curve for the VM on it that keeps least
    restarted: tuple[str, ...] = ()  # the failed host's VMs HA restarted here


@dataclass(frozen=True, slots=True)
class HostFailure:
    """The worst single-host failure of a vSphere cluster, simulated: every host failed in turn, its VMs restarted
    as vSphere HA would place them; the worst is the one that strands most VMs, then keeps least throughput."""

    failed_host: int  # 1-based
    tolerated: int  # host failures admission control reserves capacity for (workload.ha_host_failures; 0 without HA)
    survivors: tuple[Survivor, ...]
    not_restarted: tuple[str, ...] = ()  # VMs of the failed host no survivor could restart
    why_not: str = ""  # why they cannot restart: no room, HA off, disks on the failed host

    @property
    def performance_preserved(self) -> float:
        return min((s.performance_preserved for s in self.survivors), default=0.0)


@dataclass(frozen=True)
class Design:
    kind: str
    deployment: str
    server_id: str
    drive_id: str | None
    nic_id: str | None
    segment_hosts: int  # the worker hosts of any kind (segment hosts, database hosts, IQ nodes)
    data_drives_per_host: int
    raid: str
    memory_gib_per_host: float
    vms_per_host: int
    vm: VmLayout | None
    primary_segments_per_host: int | None = None
    mirror_segments_per_host: int | None = None
    raw_capacity_tb: float = 0.0
    usable_capacity_tb: float = 0.0  # user data the cluster holds, before compression is applied
    data_needed_tb: float = 0.0  # on disk at the horizon, after compression
    coordinator_hosts: int = 0
    etl_hosts: int = 0
    nics_per_host: int = 0
    network_gbps_per_host: float = 0.0
    gp_vmem_protect_limit_mb: int | None = None
    shared_buffers_ratio: float | None = None
    shared_buffers_gib: float | None = None
    overcommit_rate: float | None = None
    safe_overcommit_rate: float | None = None
    dqp_mode: str | None = None
    iq_main_cache_gib: float | None = None
    iq_temp_cache_gib: float | None = None
    hosts: tuple[HostLayout, ...] = ()
    greenplum_version: str | None = None  # the release the settings are written for (Greenplum designs)
    # product settings (gpconfig, postgresql.conf, SAP IQ switches...) with reason and source: see settings.py
    settings: tuple[SettingGroup, ...] = ()
    host_failure: HostFailure | None = None  # PostgreSQL on vSphere: the worst single-host failure, simulated
    vsan_architecture: str | None = None  # PostgreSQL on vSAN: "osa" (disk groups) or "esa" (one NVMe tier)

    @property
    def worker_hosts(self) -> int:
        """The hosts that hold the data and do the work: segment hosts, database hosts or IQ nodes."""
        return self.segment_hosts

    @property
    def total_hosts(self) -> int:
        """Every host of the design: workers, coordinators and ETL hosts."""
        return self.segment_hosts + self.coordinator_hosts + self.etl_hosts

    def to_dict(self) -> dict[str, Any]:
        d = plain_dict(self)  # asdict's dict, without deep-copying its ~200,000 leaves on an estate of thousands
        d["vm"] = plain_dict(self.vm) if self.vm else None
        d = {k: v for k, v in d.items() if v is not None or k not in ("host_failure", "vsan_architecture")}  # PG only
        d["worker_hosts"] = self.worker_hosts
        d["total_hosts"] = self.total_hosts
        return d


@dataclass(frozen=True)
class Totals:
    """All money in `currency`. capex + recurring_per_year = the sum of the BOM lines (to the cent)."""

    capex: float  # one-time lines: hardware, network, racks, perpetual licences
    power_w: float
    rack_u: int
    currency: str
    kwh_per_year: float
    energy_cost_3y: float
    recurring_per_year: float = 0.0  # subscriptions and support, per year
    energy_cost_per_year: float = 0.0
    racks: int = 0
    tco_years: int = 0
    tco: float = 0.0  # the sum of the TCO rows
    list_total: float = 0.0  # the BOM (first year) at list prices, before discounts
    space_per_rack_year: float = 0.0  # what the TCO counts for one rack's space a year (models.sizing.running_costs)
    operations_per_host_year: float = 0.0  # and for one host's operations a year

    @property
    def bom_total(self) -> float:
        from models.money import total

        return total((self.capex, self.recurring_per_year))

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "bom_total": self.bom_total}


@dataclass(frozen=True, slots=True)
class TcoYear:
    """One year of the cost of ownership; `total` is the sum of the other money fields."""

    year: int
    hardware: float  # purchases that year (the growth plan's, or everything in year 1)
    licences: float  # perpetual licences bought that year plus subscriptions
    support: float
    energy: float
    space: float
    total: float
    cumulative: float
    hosts: int
    operations: float = 0.0  # the hosts' operations staff time that year

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class RackSlot:
    u_bottom: int  # 1 = the lowest U
    u_height: int
    label: str
    kind: str  # server | switch | pdu
    role: str
    peak_w: float


@dataclass(frozen=True, slots=True)
class RackLayout:
    name: str
    rack_id: str
    u_total: int
    slots: tuple[RackSlot, ...]
    peak_kw: float
    budget_kw: float
    zero_u_pdus: int = 0

    @property
    def u_used(self) -> int:
        return sum(s.u_height for s in self.slots)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "u_used": self.u_used}


@dataclass(frozen=True)
class SizingResult:
    scenario_name: str
    design: Design
    estimates: dict[str, Estimate]
    binding_resource: str
    bom: tuple[BomLine, ...]
    totals: Totals
    rationale: tuple[Rationale, ...]
    warnings: tuple[Warning, ...]
    main_metric: str  # the estimate a scenario of this kind is judged by (e.g. full_scan_s, tps)
    target_checks: tuple[TargetCheck, ...] = ()  # one per target the scenario sets and its kind is judged by
    # what only one kind has, typed: Greenplum's memory settings, PostgreSQL's VMs, SAP IQ's multiplex
    greenplum: GreenplumSettings | None = None
    vms: tuple[PlacedVm, ...] = ()
    iq: IqMultiplex | None = None
    tco: tuple[TcoYear, ...] = ()
    racks: tuple[RackLayout, ...] = ()
    exchange_rates: tuple[dict[str, Any], ...] = ()  # the rate rows the conversion used (for the report)
    calibration: dict[str, Any] | None = None  # measured vs modelled (models.measurements.calibration.report)
    # the measured factors and curves it was sized on (models.perf.measured.using), for estimates derived later
    measured: Measured | None = field(default=None, compare=False, repr=False)
    # what the engine used for each optional field the scenario leaves empty (models.sizing.values_used)
    values_used: tuple[UsedValue, ...] = ()
    workload_key: str = field(default="", compare=False, repr=False)  # the work asked (models.sizing.workload_key)

    def __post_init__(self) -> None:
        # One rule for the whole result: a warning two producers (or two roles of one server) raise alike is said
        # once, in the order first raised; the reader counts findings, not repetitions.
        if len(set(self.warnings)) != len(self.warnings):
            object.__setattr__(self, "warnings", tuple(dict.fromkeys(self.warnings)))

    def check(self, target: str) -> TargetCheck | None:
        """The verdict on `target` (a field of `Scenario.targets`), None when the scenario does not set it."""
        return next((c for c in self.target_checks if c.target == target), None)

    def to_dict(self) -> dict[str, Any]:
        estimates: dict[str, Any] = {k: v.to_dict() for k, v in self.estimates.items()}
        estimates["binding_resource"] = self.binding_resource
        return {
            "scenario": self.scenario_name,
            "design": self.design.to_dict(),
            "estimates": estimates,
            "main_metric": self.main_metric,
            "bom": [line.to_dict() for line in self.bom],
            "totals": self.totals.to_dict(),
            "tco": [y.to_dict() for y in self.tco],
            "racks": [r.to_dict() for r in self.racks],
            "exchange_rates": list(self.exchange_rates),
            "rationale": [r.to_dict() for r in self.rationale],
            "warnings": [w.to_dict() for w in self.warnings],
            "target_checks": [c.to_dict() for c in self.target_checks],
        } | ({"calibration": self.calibration} if self.calibration is not None else {}) | self._databases() | (
            {"iq": self.iq.to_dict()} if self.iq is not None else {})

    def _databases(self) -> dict[str, Any]:
        """PostgreSQL: each database's stated peak and what its VM carries for it ({} when no VM carries TPS)."""
        rows = [{"database": d.database, "vm": v.name, "peak_tps": d.peak_tps, "tps": {
                    "p10": d.tps_p10, "p50": d.tps_p50, "p90": d.tps_p90, "unit": "TPS"}, "binding": d.tps_binding}
                for v in self.vms for d in v.disks if d.tps_p50 is not None]
        return {"databases": rows} if rows else {}


def data_elsewhere(d: Design) -> str | None:
    """Where the data lives when the hosts have no data drives ("dbspaces on the external SAN"); None when they
    have drives, or no shared storage stands in for them."""
    if d.data_drives_per_host or d.raid in RAIDS:  # drives, or a RAID level of local drives
        return None
    return f"{KINDS[d.kind].stores if d.kind in KINDS else 'data'} on the {raid_label(d.raid)}"

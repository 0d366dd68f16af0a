"""The words refarch speaks, declared once: workload kinds, scenario fields, metrics, targets, RAID levels.

Every layer reads its labels, units and directions from here: the engine (which targets a
kind is judged by, which way a metric is better), the GUI form, the PDF, the CLI and the
XLSX. Adding a target is one `Target` entry here (plus the model that estimates its
metric); adding a RAID level is one `RaidLevel` entry (plus its capacity and bandwidth rule).

>>> TARGETS["max_full_scan_s"].metric, TARGETS["max_full_scan_s"].bound
('full_scan_s', 'max')
>>> TARGETS["min_tps"].met(5_000.0, 4_000.0)
True
>>> raid_code("raid5"), RAID_LEVELS[2]
(2, 'raid5')
>>> field_label("workload.databases[1].size_gb")
'Database 2, Size (GB)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

# --------------------------------------------------------------------------- choices

WorkloadKind = Literal["greenplum-analytics", "greenplum-oltp", "postgres-consolidation", "sap-iq-multiplex"]
WORKLOAD_KINDS: tuple[WorkloadKind, ...] = get_args(WorkloadKind)
GREENPLUM_KINDS: tuple[WorkloadKind, ...] = ("greenplum-analytics", "greenplum-oltp")

Deployment = Literal["bare-metal", "vsphere"]
DEPLOYMENTS: tuple[Deployment, ...] = get_args(Deployment)

Raid = Literal["none", "raid1", "raid5", "raid10"]
RAID_LEVELS: tuple[Raid, ...] = get_args(Raid)  # a level's position is its code in candidate arrays

OltpMix = Literal["tpcb", "select", "update", "insert"]
OLTP_MIXES: tuple[OltpMix, ...] = get_args(OltpMix)

Placement = Literal["vm-per-database", "shared-vm"]
PLACEMENTS: tuple[Placement, ...] = get_args(Placement)

SharedBuffersPolicy = Literal["recommended", "conventional"]

# How SAP IQ distributed query processing exchanges intermediate results (study 003 measured both)
DqpMode = Literal["storage-transfer", "network-transfer"]
DQP_MODES: tuple[DqpMode, ...] = get_args(DqpMode)

MirrorPolicy = Literal["group", "spread", "block"]  # gpinitsystem mirror placement
MIRROR_POLICIES: tuple[MirrorPolicy, ...] = get_args(MirrorPolicy)
# The Greenplum release the design is configured for: its resource-group attributes, gpconfig names and the
# sysctl of its installation guide (Apache Cloudberry 2 and WarehousePG 7 are Greenplum 7 forks)
GreenplumVersion = Literal["6", "7", "cloudberry-2", "warehousepg-7"]
GREENPLUM_VERSIONS: tuple[GreenplumVersion, ...] = get_args(GreenplumVersion)
SegmentTier = Literal["type-1", "type-2", "type-3"]  # study 002's primary-segment tiers (8, 16, 32 per 48 cores)

Better = Literal["lower", "higher"]
Bound = Literal["max", "min"]


@dataclass(frozen=True)
class Kind:
    """A workload kind: how it is named and what its worker hosts are called."""

    name: WorkloadKind
    label: str
    worker_role: str  # one worker host
    worker_roles: str  # several
    main_metric: str  # the estimate a design of this kind is judged by (SAP IQ: power for a single stream)
    stores: str = "data"  # what lives on the storage: "none: dbspaces on the external SAN" when hosts have no drives
    short: str = ""  # where room is short (a tab title, a list's subtitle): "Greenplum analytics"; empty: the label

    @property
    def short_label(self) -> str:
        return self.short or self.label

    def workers(self, count: int) -> str:
        return self.worker_role if count == 1 else self.worker_roles


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("greenplum-analytics", "Greenplum analytics (MPP data warehouse)", "segment host", "segment hosts",
             "full_scan_s", short="Greenplum analytics"),
        Kind("greenplum-oltp", "Greenplum OLTP", "segment host", "segment hosts", "tps"),
        Kind("postgres-consolidation", "PostgreSQL consolidation on vSphere", "database host", "database hosts",
             "performance_preserved", "databases"),
        Kind("sap-iq-multiplex", "SAP IQ multiplex", "IQ node", "IQ nodes", "throughput_metric", "dbspaces"),
    )
}


def kind_label(kind: str) -> str:
    return KINDS[kind].label if kind in KINDS else kind


def kind_short_label(kind: str) -> str:
    """The kind's name where room is short, without its explanation: "Greenplum analytics"."""
    return KINDS[kind].short_label if kind in KINDS else kind


DEPLOYMENT_LABELS: dict[str, str] = {"bare-metal": "bare metal", "vsphere": "VMware vSphere"}


def deployment_label(deployment: str) -> str:
    return DEPLOYMENT_LABELS.get(deployment, deployment)


@dataclass(frozen=True)
class RaidLevel:
    """A RAID level of the data drives; `min_drives` is the smallest set the level can be built on."""

    name: Raid
    label: str
    min_drives: int
    mirrored: bool  # every write lands on two drives (RAID 1 and 10)

    @property
    def code(self) -> int:
        return RAID_LEVELS.index(self.name)


RAIDS: dict[str, RaidLevel] = {
    r.name: r
    for r in (
        RaidLevel("none", "no RAID", 1, False),
        RaidLevel("raid1", "RAID 1", 2, True),
        RaidLevel("raid5", "RAID 5", 3, False),
        RaidLevel("raid10", "RAID 10", 4, True),
    )
}

# Storage that is not a RAID level of ours but can stand in a design's `raid` (SAP IQ on Virtual SAN).
_OTHER_STORAGE_LABELS = {
    "vsan": "vSAN",
    "vsan-raid1-ftt1": "vSAN RAID-1 mirror, FTT=1",
    "vsan-raid5-ftt1": "vSAN RAID-5 erasure coding, FTT=1",
    "vsan-raid6-ftt2": "vSAN RAID-6 erasure coding, FTT=2",
    "external-san": "external SAN",
}


def raid_code(level: str) -> int:
    """The integer code of a level in candidate arrays (its position in `RAID_LEVELS`)."""
    return RAIDS[level].code


def raid_label(level: str) -> str:
    if level in RAIDS:
        return RAIDS[level].label
    return _OTHER_STORAGE_LABELS.get(level, level)


def greenplum_release_label(version: str) -> str:
    """How a Greenplum release reads in the report: "Greenplum 6", "Apache Cloudberry 2".

    >>> greenplum_release_label("warehousepg-7")
    'WarehousePG 7'
    """
    return dict(FIELDS["workload.greenplum_version"].choices).get(version, version)


# --------------------------------------------------------------------------- metrics


@dataclass(frozen=True)
class Metric:
    """An estimate (`SizingResult.estimates`) or a total (`SizingResult.totals`) a design is measured by.

    `better` is None for a description that has no better direction. `performance` marks work
    done, worth dividing by money and watts; `rate_label` names the rate a time stands for; `whole` marks a
    count of whole units (rack units), so a target bounding it is a whole number.
    """

    name: str
    label: str
    unit: str
    better: Better | None
    kinds: tuple[WorkloadKind, ...]
    performance: bool = False
    rate_label: str = ""
    whole: bool = False

    @property
    def lower_is_better(self) -> bool:
        return self.better == "lower"


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("full_scan_s", "Full-scan time", "s", "lower", ("greenplum-analytics",), True, "Full scans per hour"),
        Metric("load_tb_per_hour", "Load rate", "TB/h", "higher", ("greenplum-analytics",), True),
        Metric("queries_per_hour", "Report queries per hour", "queries/h", "higher", ("greenplum-analytics",), True),
        Metric("tps", "Transactions per second", "TPS", "higher", ("greenplum-oltp",), True),
        Metric("throughput_metric", "TPC-H throughput", "QthH@Size", "higher", ("sap-iq-multiplex",), True),
        Metric("power_metric", "TPC-H power", "QppH@Size", "higher", ("sap-iq-multiplex",), True),
        Metric("overcommit_rate", "Memory overcommit", "fraction", "higher", ("postgres-consolidation",)),
        Metric(
            "performance_preserved", "Throughput preserved", "fraction of baseline throughput", "higher",
            ("postgres-consolidation",),
        ),
        Metric("capex", "Capex", "", "lower", WORKLOAD_KINDS),  # unit: the catalog's currency
        Metric("power_w", "Power", "W", "lower", WORKLOAD_KINDS),
        Metric("rack_u", "Rack space", "U", "lower", WORKLOAD_KINDS, whole=True),
    )
}

_SUFFIXES = ("_per_hour", "_tb", "_gib", "_gb", "_ms", "_s", "_w", "_pct")


def metric_label(name: str) -> str:
    """The label of a metric; an undeclared name reads as words without its unit suffix."""
    if name in METRICS:
        return METRICS[name].label
    base = name
    for suffix in _SUFFIXES:
        if base.endswith(suffix) and len(base) > len(suffix):
            base = base[: -len(suffix)]
            break
    text = base.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def lower_is_better(metric: str) -> bool:
    return metric in METRICS and METRICS[metric].lower_is_better


# --------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    """A scenario target (`Scenario.targets.<name>`): the metric it bounds, which way, for which kinds."""

    name: str
    metric: str
    bound: Bound
    label: str  # the form's label, without the unit
    words: str  # how prose names it: "The {words} target is out of reach"
    kinds: tuple[WorkloadKind, ...]

    @property
    def unit(self) -> str:
        return METRICS[self.metric].unit

    @property
    def whole(self) -> bool:
        """The limit is a whole number (the form's spin box, `Targets`' int field): the metric counts units."""
        return METRICS[self.metric].whole

    @property
    def budget(self) -> bool:
        """A budget bounds a total every kind has (capex, power, rack space), not a performance estimate."""
        return self.kinds == WORKLOAD_KINDS

    def met(self, value: float, limit: float) -> bool:
        return value <= limit if self.bound == "max" else value >= limit


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("max_full_scan_s", "full_scan_s", "max", "Max full-scan time", "full-scan time",
               ("greenplum-analytics",)),
        Target("min_load_tb_per_hour", "load_tb_per_hour", "min", "Min load rate", "load rate",
               ("greenplum-analytics",)),
        Target("min_queries_per_hour", "queries_per_hour", "min", "Min query throughput", "query throughput",
               ("greenplum-analytics",)),
        Target("min_tps", "tps", "min", "Min throughput", "transactions per second", ("greenplum-oltp",)),
        Target("max_capex", "capex", "max", "Max capex", "capex budget", WORKLOAD_KINDS),
        Target("max_power_w", "power_w", "max", "Max power", "power budget", WORKLOAD_KINDS),
        Target("max_rack_u", "rack_u", "max", "Max rack space", "rack space", WORKLOAD_KINDS),
    )
}

# Checks a design must pass that are not scenario targets.
CAPACITY = "capacity"
_CHECK_WORDS = {CAPACITY: "capacity for the data at the horizon"}


def target_words(name: str) -> str:
    """How prose names a target or a check: "full-scan time", "capacity for the data at the horizon"."""
    if name in TARGETS:
        return TARGETS[name].words
    return _CHECK_WORDS.get(name, name)


def target_of_metric(metric: str) -> Target | None:
    """The target that bounds `metric`, if any."""
    return next((t for t in TARGETS.values() if t.metric == metric), None)


def targets_for(kind: str) -> tuple[Target, ...]:
    return tuple(t for t in TARGETS.values() if kind in t.kinds)


# --------------------------------------------------------------------------- scenario fields


@dataclass(frozen=True)
class FieldInfo:
    """How a scenario field reads: label, unit and help; `choices` are (JSON value, label) pairs."""

    label: str
    unit: str = ""
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """The label with its unit: "Data before compression (TB)"."""
        return f"{self.label} ({self.unit})" if self.unit else self.label

    def choice_label(self, value: object) -> str:
        return next((label for v, label in self.choices if v == value), str(value))


def _targets_fields() -> dict[str, FieldInfo]:
    return {f"targets.{t.name}": FieldInfo(t.label, t.unit or "project currency") for t in TARGETS.values()}


# Keyed by JSON path; list items as `[]` (`workload.databases[].size_gb`).
FIELDS: dict[str, FieldInfo] = {
    "name": FieldInfo("Scenario name"),
    "customer": FieldInfo("Customer"),
    "prepared_by": FieldInfo("Prepared by"),
    "notes": FieldInfo("Notes"),
    "workload": FieldInfo("Workload"),
    "workload.kind": FieldInfo("Workload", choices=tuple((k.name, k.label) for k in KINDS.values())),
    "workload.data_tb": FieldInfo("Data before compression", "TB", "Data as the customer stores it today, decimal TB"),
    "workload.compression_ratio": FieldInfo("Compression ratio", "x", "1 = no compression; 3 = a third on disk"),
    "workload.growth_pct_per_year": FieldInfo("Growth per year", "%"),
    "workload.horizon_years": FieldInfo("Planning horizon", "years", "Capacity is sized for the data at this horizon"),
    "workload.mirrors": FieldInfo("Mirror segments (HA)", help="Greenplum mirrors double the data on disk"),
    "workload.mirroring": FieldInfo(
        "Mirror placement",
        help="Where each host's mirrors go: group (the gpinitsystem default), spread, or block",
        choices=(("group", "Group (default)"), ("spread", "Spread"), ("block", "Block")),
    ),
    "workload.mirror_block_hosts": FieldInfo("Segment hosts per mirror block", help="Block mirroring only"),
    "workload.greenplum_version": FieldInfo(
        "Greenplum release",
        help="The release the configuration is written for: resource-group attributes, gpconfig names,"
             " MASTER/COORDINATOR naming and the installation guide's sysctl",
        choices=(("6", "Greenplum 6"), ("7", "Greenplum 7"), ("cloudberry-2", "Apache Cloudberry 2"),
                 ("warehousepg-7", "WarehousePG 7")),
    ),
    "workload.concurrent_queries": FieldInfo(
        "Concurrent queries", help="Reports submitted at the same time at peak; those memory cannot run at once queue"
    ),
    "workload.segment_tier": FieldInfo(
        "Segment tier",
        help="Study 002's primary segments per 48-core host: Type 1 (8, concurrency above 30), Type 2 (16, 10-30),"
             " Type 3 (32, 1-5); empty: by the concurrent queries. The study asks an experienced Greenplum"
             " architect to review the choice",
        choices=(("type-1", "Type 1 (8 per 48 cores)"), ("type-2", "Type 2 (16 per 48 cores)"),
                 ("type-3", "Type 3 (32 per 48 cores)")),
    ),
    "workload.scan_fraction_pct": FieldInfo(
        "Data scanned per query", "%", "Share of the fact data a typical report scans"
    ),
    "workload.landing_pct": FieldInfo(
        "Backup and load landing area", "% of data on disk",
        "Segment-host space kept for backup files and load files, beside the data, mirrors and work space",
    ),
    "workload.clients": FieldInfo("Concurrent clients"),
    "workload.target_tps": FieldInfo("Target throughput", "TPS"),
    "workload.mix": FieldInfo(
        "Transaction mix",
        choices=(("tpcb", "TPC-B like"), ("select", "Select only"), ("update", "Update"), ("insert", "Insert")),
    ),
    "workload.databases": FieldInfo("Databases"),
    "workload.databases[].name": FieldInfo("Database"),
    "workload.databases[].size_gb": FieldInfo("Size", "GB"),
    "workload.databases[].peak_clients": FieldInfo("Peak clients"),
    "workload.databases[].working_set_gb": FieldInfo("Working set", "GB"),
    "workload.databases[].peak_tps": FieldInfo("Peak throughput", "TPS", "Transactions per second at the busiest hour"),
    "workload.databases[].writes_per_txn": FieldInfo("Writes per transaction", help="Rows written per transaction"),
    "workload.databases[].busy_hours": FieldInfo("Busy hours", help="Hours of the day (0-23) at peak load"),
    "workload.databases[].offpeak_load_pct": FieldInfo("Off-peak load", "% of peak"),
    "workload.databases[].current.vcpus": FieldInfo("Current vCPUs", "vCPU"),
    "workload.databases[].current.memory_gib": FieldInfo("Current memory", "GiB"),
    "workload.databases[].current.cpu_used_mhz": FieldInfo("CPU used", "MHz"),
    "workload.databases[].current.memory_used_gib": FieldInfo("Memory used", "GiB"),
    "workload.databases[].current.cpu_model": FieldInfo("Current processor"),
    "workload.databases[].current.source": FieldInfo("Observed in"),
    "workload.placement": FieldInfo(
        "Placement", choices=(("vm-per-database", "One VM per database"), ("shared-vm", "Shared VMs"))
    ),
    "workload.vm_vcpus": FieldInfo("VM size", "vCPU"),
    "workload.vm_memory_gib": FieldInfo("VM memory", "GiB"),
    "workload.host_memory_available_gib": FieldInfo("Host memory for VMs", "GiB"),
    "workload.shared_buffers_policy": FieldInfo(
        "shared_buffers policy",
        choices=(("recommended", "Recommended (study)"), ("conventional", "Conventional 25 %")),
    ),
    "workload.vsphere_ha": FieldInfo(
        "vSphere HA reserve (N+1)", help="Reserve one host's capacity for vSphere HA restarts"
    ),
    "workload.postgres_version": FieldInfo("PostgreSQL release", help="Major release the settings are written for"),
    "workload.ha_host_failures": FieldInfo(
        "Host failures HA tolerates", help="Host failures vSphere HA admission control reserves room for: 1, 2 or 0"),
    "workload.query_streams": FieldInfo("Concurrent query streams"),
    "workload.shared_storage": FieldInfo(
        "Shared storage", help="Where the database (or IQ dbspace) disks live; vSphere HA restarts need shared disks",
        choices=(("vsan", "vSAN on the hosts"), ("san", "External SAN (SAP IQ)"), ("local", "Local RAID per host"
                                                                                  " (PostgreSQL)")),
    ),
    "workload.nodes": FieldInfo("Multiplex nodes"),
    "workload.dqp_mode": FieldInfo(
        "DQP mode",
        help="How distributed queries exchange intermediate results; empty: recommended from the query streams",
        choices=(("network-transfer", "Network transfer (private interconnect)"),
                 ("storage-transfer", "Storage transfer (shared temp store)")),
    ),
    "workload.vsan_policy": FieldInfo(
        "vSAN storage policy",
        choices=(("raid1-ftt1", "RAID-1 mirror, FTT=1 (3+ hosts)"), ("raid5-ftt1", "RAID-5 erasure coding (4+ hosts)"),
                 ("raid6-ftt2", "RAID-6 erasure coding, FTT=2 (6+ hosts)")),
    ),
    "workload.san_price_per_tb": FieldInfo("SAN price", "per usable TB", "External SAN price per usable TB"),
    "workload.san_currency": FieldInfo("SAN currency", help="ISO 4217 code of the SAN price"),
    "workload.writer_nodes": FieldInfo("Writer nodes", help="Nodes that load data besides the coordinator"),
    "workload.temp_to_main_ratio": FieldInfo("Temp to main dbspace", "ratio", "Temp dbspace per TB of main store"),
    "platform.deployment": FieldInfo(
        "Deployment", choices=tuple((d, label[:1].upper() + label[1:]) for d, label in DEPLOYMENT_LABELS.items())
    ),
    "platform.server_id": FieldInfo("Server"),
    "platform.drive_id": FieldInfo("Data drive"),
    "platform.nic_id": FieldInfo("Network card"),
    "platform.drives_per_host": FieldInfo("Data drives per host"),
    "platform.memory_gib": FieldInfo("Memory per host", "GiB"),
    "platform.swap_gib": FieldInfo("Swap per host", "GiB"),
    "platform.raid": FieldInfo("RAID", choices=tuple((r.name, r.label) for r in RAIDS.values())),
    "platform.nics_per_host": FieldInfo("NICs per host"),
    "platform.hypervisor_reserve_gib": FieldInfo("Hypervisor reserve", "GiB", "Host memory kept for ESXi (vSphere)"),
    "platform.measurements": FieldInfo(
        "Measurement profiles",
        help="Profiles imported with `refarch measure import` (gpcheckperf, pgbench, HammerDB): their measured "
             "disk, network and throughput replace the modelled rates",
    ),
    "platform.vendors": FieldInfo("Server vendors", help="Only servers of these vendors, as the catalog spells them"
                                  " (in the form: comma-separated, e.g. Dell, HPE); empty: any vendor"),
    "platform.excluded_parts": FieldInfo("Excluded parts", help="Catalog part ids never chosen, of any kind (in the"
                                         " form: comma-separated)"),
    **_targets_fields(),
    "targets.confidence": FieldInfo(
        "Sized on the estimate",
        help="Every performance target is met on this estimate: P50 (the median) or P90 (nine designs in ten)",
        choices=(("P50", "P50 (median)"), ("P90", "P90 (9 in 10 meet it)")),
    ),
    "assumptions.energy_price_per_kwh": FieldInfo("Energy price per kWh", "project currency"),
    "assumptions.pue": FieldInfo("Data-centre PUE", "x", "Power usage effectiveness"),
    "assumptions.utilization_pct": FieldInfo("Average utilization", "%", "Average load for energy"),
    "commercial.currency": FieldInfo(
        "Project currency", "ISO code", "Every price is converted to it at the catalog's dated exchange rates"),
    "commercial.discounts_pct": FieldInfo("Discounts", "%", "Off list, by part id or vendor name"),
    "commercial.price_max_age_months": FieldInfo("Flag prices older than", "months"),
    "commercial.valuation_date": FieldInfo("Prices judged as of", help="Empty: today"),
    "commercial.network": FieldInfo("Price the network", help="Leaf/spine switches, cables and optics"),
    "commercial.racks": FieldInfo("Price racks and PDUs"),
    "commercial.switch_id": FieldInfo("Leaf switch"),
    "commercial.spine_switch_id": FieldInfo("Spine switch"),
    "commercial.rack_id": FieldInfo("Rack"),
    "commercial.pdu_id": FieldInfo("PDU"),
    "commercial.boot_drive_id": FieldInfo("Boot drive"),
    "commercial.rack_power_kw": FieldInfo("Rack power budget", "kW", "Peak draw allowed per rack"),
    "commercial.network_oversubscription": FieldInfo("Leaf oversubscription", "x", "Host bandwidth : uplinks"),
    "commercial.licence_ids": FieldInfo("Software licences", help="Empty: the cheapest per product"),
    "commercial.support_id": FieldInfo("Support contract", help="Empty: the cheapest for the server vendor"),
    "commercial.support": FieldInfo("Price hardware support"),
    "commercial.tco_years": FieldInfo("TCO horizon", "years"),
    "commercial.purchase": FieldInfo(
        "Purchases", choices=(("upfront", "All up front"), ("as-you-grow", "As the data grows"))),
    "commercial.rack_cost_per_year": FieldInfo("Rack space cost per rack per year", "project currency"),
    "commercial.optimize_for": FieldInfo(
        "Design minimises", choices=(("capex", "Capex"), ("tco", "Cost of ownership"))),
}

_INDEX = re.compile(r"\[(\d+)\]")


def field_info(path: str) -> FieldInfo | None:
    """The declaration of a JSON path; list indices do not matter (`databases[3]` is `databases[]`)."""
    return FIELDS.get(_INDEX.sub("[]", path))


def field_label(path: str) -> str:
    """The label (with unit) a user reads for a JSON path; a list item says which one.

    >>> field_label("workload.data_tb")
    'Data before compression (TB)'
    """
    info = field_info(path)
    if info is None:
        return path
    m = re.match(r"^(.*)\[(\d+)\]\.\w+$", path)
    if m:
        owner = FIELDS.get(_INDEX.sub("[]", m.group(1)) + "[].name")
        return f"{owner.label if owner else 'Item'} {int(m.group(2)) + 1}, {info.text}"
    return info.text

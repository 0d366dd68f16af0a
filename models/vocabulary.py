"""The words refarch speaks, declared once: workload kinds, metrics, targets, RAID levels.

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

How each scenario field reads (label, unit, help, choices) is in `models.field_words`, beside this module: the
words of the fields the scenario files carry, which grow with every input.
"""

from __future__ import annotations

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


GREENPLUM_RELEASE_LABELS: dict[str, str] = {
    "6": "Greenplum 6", "7": "Greenplum 7", "cloudberry-2": "Apache Cloudberry 2", "warehousepg-7": "WarehousePG 7"}


def greenplum_release_label(version: str) -> str:
    """How a Greenplum release reads in the report: "Greenplum 6", "Apache Cloudberry 2".

    >>> greenplum_release_label("warehousepg-7")
    'WarehousePG 7'
    """
    return GREENPLUM_RELEASE_LABELS.get(version, version)


# --------------------------------------------------------------------------- metrics

# A share of 1 (0.65 is 65 %): the units estimates of shares carry, and how each prints (in percent). Renderers look
# a unit up here; they never read a unit's words.
SHARE = "fraction"
SHARE_OF_BASELINE = "fraction of baseline throughput"
SHARE_UNITS: dict[str, str] = {SHARE: "%", SHARE_OF_BASELINE: "% of baseline throughput"}


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
        # a latency at the stated concurrency, not work done: no per-money or per-watt rate of it
        Metric("report_s", "Report response time", "s", "lower", ("greenplum-analytics",)),
        Metric("tps", "Transactions per second", "TPS", "higher", ("greenplum-oltp", "postgres-consolidation"), True),
        Metric("throughput_metric", "TPC-H throughput", "QthH@Size", "higher", ("sap-iq-multiplex",), True),
        Metric("power_metric", "TPC-H power", "QppH@Size", "higher", ("sap-iq-multiplex",), True),
        Metric("overcommit_rate", "Memory overcommit", SHARE, "higher", ("postgres-consolidation",)),
        Metric(
            "performance_preserved", "Throughput preserved", SHARE_OF_BASELINE, "higher",
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
        Target("max_report_s", "report_s", "max", "Max report response time", "report response time",
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

"""What the form shows: one `FieldSpec` per scenario field, with its label, unit and help.

The form is built from these tables so that labels and units live in one place
and every widget knows the JSON path its errors come back on. Defaults here are
starting values for a blank form, not sizing decisions: the engine decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from app.gui.draft import MISSING, Path, model_default, with_defaults

FieldKind = Literal["float", "int", "bool", "choice", "text"]


@dataclass(frozen=True)
class FieldSpec:
    path: Path
    label: str  # with the unit, as the user reads it
    kind: FieldKind
    optional: bool = False  # empty means None: "let refarch recommend" or "no target"
    placeholder: str = ""
    help: str = ""
    choices: tuple[tuple[str, Any], ...] = ()  # (label, JSON value)


def _w(name: str, label: str, kind: FieldKind, **kw: Any) -> FieldSpec:
    return FieldSpec(("workload", name), label, kind, **kw)


_DATA = _w("data_tb", "Data (TB, before compression)", "float", help="Data as the customer stores it today, decimal TB")
_COMPRESSION = _w("compression_ratio", "Compression ratio (x)", "float", help="1 = no compression; 3 = a third on disk")
_GROWTH = _w("growth_pct_per_year", "Growth (%/year)", "float")
_HORIZON = _w("horizon_years", "Planning horizon (years)", "int", help="Capacity is sized for the data at this horizon")
_MIRRORS = _w("mirrors", "Mirror segments (HA)", "bool", help="Greenplum mirrors double the data on disk")

WORKLOAD_FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    "greenplum-analytics": (
        _DATA,
        _COMPRESSION,
        _GROWTH,
        _HORIZON,
        _w("concurrent_queries", "Concurrent queries", "int", help="Reports running at the same time at peak"),
        _w(
            "scan_fraction_pct",
            "Data scanned per query (%)",
            "float",
            help="Share of the fact data a typical report scans",
        ),
        _MIRRORS,
    ),
    "greenplum-oltp": (
        _w("clients", "Concurrent clients", "int"),
        _w("target_tps", "Target throughput (TPS)", "float", optional=True, placeholder="none"),
        _w(
            "mix",
            "Transaction mix",
            "choice",
            choices=(("TPC-B like", "tpcb"), ("Select only", "select"), ("Update", "update"), ("Insert", "insert")),
        ),
        _DATA,
        _COMPRESSION,
        _GROWTH,
        _HORIZON,
        _MIRRORS,
    ),
    "postgres-consolidation": (
        _w(
            "placement",
            "Placement",
            "choice",
            choices=(("One VM per database", "vm-per-database"), ("Shared VMs", "shared-vm")),
        ),
        _w("vm_vcpus", "VM size (vCPU)", "int", optional=True, placeholder="recommend"),
        _w("vm_memory_gib", "VM memory (GiB)", "float", optional=True, placeholder="recommend"),
        _w("host_memory_available_gib", "Host memory for VMs (GiB)", "float", optional=True, placeholder="recommend"),
        _w(
            "shared_buffers_policy",
            "shared_buffers policy",
            "choice",
            choices=(("Recommended (study)", "recommended"), ("Conventional 25 %", "conventional")),
        ),
    ),
    "sap-iq-multiplex": (
        _DATA,
        _COMPRESSION,
        _GROWTH,
        _HORIZON,
        _w("query_streams", "Concurrent query streams", "int"),
        _w("nodes", "Multiplex nodes", "int", optional=True, placeholder="recommend"),
    ),
}

KIND_LABELS: dict[str, str] = {
    "greenplum-analytics": "Greenplum analytics (MPP)",
    "greenplum-oltp": "Greenplum OLTP",
    "postgres-consolidation": "PostgreSQL consolidation on vSphere",
    "sap-iq-multiplex": "SAP IQ multiplex",
}

# Columns of the PostgreSQL databases table: (key, header, kind)
PG_DATABASE_COLUMNS: tuple[tuple[str, str, FieldKind], ...] = (
    ("name", "Database", "text"),
    ("size_gb", "Size\n(GB)", "float"),
    ("peak_clients", "Peak\nclients", "int"),
    ("working_set_gb", "Working\nset (GB)", "float"),
)
NEW_PG_DATABASE: dict[str, Any] = {"name": "db", "size_gb": 100.0, "peak_clients": 50, "working_set_gb": 20.0}


def _p(name: str, label: str, kind: FieldKind, **kw: Any) -> FieldSpec:
    return FieldSpec(("platform", name), label, kind, **kw)


PLATFORM_FIELDS: tuple[FieldSpec, ...] = (
    _p("deployment", "Deployment", "choice", choices=(("Bare metal", "bare-metal"), ("vSphere VMs", "vsphere"))),
    _p("drives_per_host", "Data drives per host", "int", optional=True, placeholder="recommend"),
    _p(
        "raid",
        "RAID",
        "choice",
        choices=(("Recommend", None), ("None (JBOD)", "none"), ("RAID 1", "raid1"), ("RAID 5", "raid5"),
                 ("RAID 10", "raid10")),
    ),
    _p("memory_gib", "Memory per host (GiB)", "int", optional=True, placeholder="server default"),
    _p("swap_gib", "Swap per host (GiB)", "float"),
    _p("nics_per_host", "NICs per host", "int", optional=True, placeholder="recommend"),
    _p(
        "hypervisor_reserve_gib",
        "Hypervisor reserve (GiB)",
        "float",
        optional=True,
        placeholder="recommend",
        help="Host memory kept for ESXi (vSphere only)",
    ),
)


def _t(name: str, label: str, kind: FieldKind) -> FieldSpec:
    return FieldSpec(("targets", name), label, kind, optional=True, placeholder="no target")


TARGET_FIELDS: tuple[FieldSpec, ...] = (
    _t("max_full_scan_s", "Max full-scan time (s)", "float"),
    _t("min_load_tb_per_hour", "Min load rate (TB/h)", "float"),
    _t("min_queries_per_hour", "Min queries per hour", "float"),
    _t("min_tps", "Min throughput (TPS)", "float"),
    _t("max_capex", "Max capex (catalog currency)", "float"),
    _t("max_power_w", "Max power (W)", "float"),
    _t("max_rack_u", "Max rack space (U)", "int"),
)

ASSUMPTION_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(("assumptions", "energy_price_per_kwh"), "Energy price (per kWh)", "float"),
    FieldSpec(("assumptions", "pue"), "Data-centre PUE (x)", "float", help="Power usage effectiveness"),
    FieldSpec(("assumptions", "utilization_pct"), "Average utilization (%)", "float", help="Average load for energy"),
)

SCENARIO_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(("name",), "Scenario name", "text"),
    FieldSpec(("customer",), "Customer", "text"),
    FieldSpec(("prepared_by",), "Prepared by", "text"),
)

# The part pickers: (path, catalog kind, label)
PART_FIELDS: tuple[tuple[Path, str, str], ...] = (
    (("platform", "server_id"), "server", "Server"),
    (("platform", "drive_id"), "drive", "Data drive"),
    (("platform", "nic_id"), "nic", "Network card"),
)

# Fields several kinds share keep their value when the user switches kind.
_CARRIED = ("data_tb", "compression_ratio", "growth_pct_per_year", "horizon_years", "mirrors")

_STARTING_WORKLOAD: dict[str, dict[str, Any]] = {
    "greenplum-analytics": {"data_tb": 50.0, "concurrent_queries": 20},
    "greenplum-oltp": {"clients": 200, "data_tb": 5.0},
    "postgres-consolidation": {"databases": [dict(NEW_PG_DATABASE, name="db1")]},
    "sap-iq-multiplex": {"data_tb": 50.0, "query_streams": 10},
}


def workload_for_kind(kind: str, previous: dict[str, Any] | None) -> dict[str, Any]:
    """The workload JSON after switching to `kind`, keeping what the kinds have in common; every other field
    holds the schema's default explicitly, so the form shows what the engine will size."""
    new: dict[str, Any] = {"kind": kind, **_STARTING_WORKLOAD[kind]}
    if previous:
        accepted = {f.path[1] for f in WORKLOAD_FIELDS[kind]}
        for key in _CARRIED:
            if key in previous and key in accepted:
                new[key] = previous[key]
    partial = {"workload": new}
    for spec in WORKLOAD_FIELDS[kind]:
        key = spec.path[1]
        if key not in new and (default := model_default(partial, spec.path)) is not MISSING:
            new[key] = default
    return new


def new_scenario_json(name: str) -> dict[str, Any]:
    """A new scenario with explicit, visible defaults (mirrors on, RAID none, bare metal, ...)."""
    return with_defaults({"name": name, "workload": workload_for_kind("greenplum-analytics", None)})


def _all_specs() -> dict[str, str]:
    specs = [*SCENARIO_FIELDS, *PLATFORM_FIELDS, *TARGET_FIELDS, *ASSUMPTION_FIELDS]
    for kind_specs in WORKLOAD_FIELDS.values():
        specs += kind_specs
    labels = {".".join(str(p) for p in s.path): s.label for s in specs}
    labels.update({".".join(str(p) for p in path): label for path, _, label in PART_FIELDS})
    labels["workload.kind"] = "Workload"
    labels["workload.databases"] = "Databases"
    return labels


_LABELS = _all_specs()
_DB_CELL = re.compile(r"^workload\.databases\[(\d+)\]\.(\w+)$")


def label_of(path: str) -> str:
    """The label the user sees for a JSON path: "workload.data_tb" -> "Data (TB, before compression)"."""
    if path in _LABELS:
        return _LABELS[path]
    m = _DB_CELL.match(path)
    if m:
        header = next((h for key, h, _ in PG_DATABASE_COLUMNS if key == m.group(2)), m.group(2))
        return f"Database {int(m.group(1)) + 1}, {header.replace(chr(10), ' ')}"
    return path


_LEADING_PATH = re.compile(r"^([a-z_]+(?:\.[a-z_]+|\[\d+\])+):\s*")


def pretty_problem(line: str) -> str:
    """An engine problem line with its leading JSON path replaced by the field's label."""
    m = _LEADING_PATH.match(line)
    return f"{label_of(m.group(1))}: {line[m.end():]}" if m else line

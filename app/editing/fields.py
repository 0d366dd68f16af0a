"""What the form shows: one `FieldSpec` per scenario field: its widget, and the JSON path its errors come back on.

Labels, units, help and choices are read from `models.vocabulary`, so the form, the PDF and
the CLI say the same thing. Defaults here are starting values for a blank form, not sizing
decisions: the engine decides.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any, Literal

from app.editing.draft import MISSING, Path, model_default
from models.field_words import FIELDS, FieldInfo, field_info, field_label
from models.hardware import PartKind
from models.problems import ROOT, Problem
from models.vocabulary import TARGETS

FieldKind = Literal["float", "int", "bool", "choice", "text", "names"]  # names: a comma-separated list of text


@dataclass(frozen=True)
class FieldSpec:
    """A form row: the JSON path and how the widget behaves; label, unit, help and choices come from
    `models.vocabulary` (the same words the PDF and the CLI use)."""

    path: Path
    kind: FieldKind
    optional: bool = False  # empty means None: "let refarch recommend" or "no target"
    placeholder: str = ""  # "Recommend": sized, then "Recommend: <what the engine used>"; else replaced by it
    recommend_choice: bool = False  # a choice whose empty entry means "let refarch recommend"
    only: tuple[str, ...] = ()  # the choices this workload kind accepts, when the vocabulary lists more

    @property
    def info(self) -> FieldInfo:
        info = field_info(".".join(str(p) for p in self.path))
        if info is None:
            raise KeyError(f"{self.path} is not declared in models.field_words.FIELDS")
        return info

    @property
    def label(self) -> str:
        return self.info.text

    @property
    def help(self) -> str:
        return self.info.help

    @property
    def choices(self) -> tuple[tuple[str, Any], ...]:
        """(label, JSON value) pairs for a choice widget."""
        pairs = tuple((label, v) for v, label in self.info.choices if not self.only or v in self.only)
        return (("Recommend", None), *pairs) if self.recommend_choice else pairs


def _w(name: str, kind: FieldKind, **kw: Any) -> FieldSpec:
    return FieldSpec(("workload", name), kind, **kw)


_DATA = _w("data_tb", "float")
_COMPRESSION = _w("compression_ratio", "float")
_GROWTH = _w("growth_pct_per_year", "float")
_HORIZON = _w("horizon_years", "int")
_MIRRORS = _w("mirrors", "bool")
_MIRRORING = _w("mirroring", "choice")
_BLOCK = _w("mirror_block_hosts", "int", optional=True, placeholder="block mirroring only")
_LANDING = _w("landing_pct", "float")
_VERSION = _w("greenplum_version", "choice")

WORKLOAD_FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    "greenplum-analytics": (
        _DATA,
        _COMPRESSION,
        _GROWTH,
        _HORIZON,
        _w("concurrent_queries", "int"),
        _w("scan_fraction_pct", "float"),
        _w("segment_tier", "choice", recommend_choice=True),
        _MIRRORS,
        _MIRRORING,
        _BLOCK,
        _LANDING,
        _VERSION,
    ),
    "greenplum-oltp": (
        _w("clients", "int"),
        _w("target_tps", "float", optional=True, placeholder="no target"),
        _w("mix", "choice"),
        _DATA,
        _COMPRESSION,
        _GROWTH,
        _HORIZON,
        _MIRRORS,
        _MIRRORING,
        _BLOCK,
        _LANDING,
        _VERSION,
    ),
    "postgres-consolidation": (
        _w("placement", "choice"),
        _w("vm_vcpus", "int", optional=True, placeholder="Recommend"),
        _w("vm_memory_gib", "float", optional=True, placeholder="Recommend"),
        _w("host_memory_available_gib", "float", optional=True, placeholder="Recommend"),
        _w("shared_buffers_policy", "choice"),
        _w("vsphere_ha", "bool"),
        _w("ha_host_failures", "int"),
        _w("postgres_version", "int"),
        _w("shared_storage", "choice", recommend_choice=True, only=("vsan", "local")),
        _w("vsan_policy", "choice"),
        _w("vsan_architecture", "choice", recommend_choice=True),
    ),
    "sap-iq-multiplex": (
        _DATA,
        _COMPRESSION,
        _GROWTH,
        _HORIZON,
        _w("query_streams", "int"),
        _w("dqp_mode", "choice", recommend_choice=True),
        _w("nodes", "int", optional=True, placeholder="Recommend"),
        _w("shared_storage", "choice", recommend_choice=True, only=("vsan", "san")),
        _w("vsan_policy", "choice"),
        _w("vsan_architecture", "choice", recommend_choice=True),
        _w("writer_nodes", "int", optional=True, placeholder="Recommend"),
        _w("temp_to_main_ratio", "float", optional=True, placeholder="Recommend"),
        _w("san_price_per_tb", "float", optional=True, placeholder="not priced"),
        _w("san_currency", "text"),
    ),
}

# Columns of the PostgreSQL databases table: (key, header, kind). The header's tooltip has the whole label.
_PG_SHORT_HEADERS = {"peak_tps": "Peak\nTPS"}  # "Peak throughput (TPS)": "throughput" alone is wider than a column
_PG_COLUMN_KINDS: tuple[tuple[str, FieldKind], ...] = (
    ("name", "text"), ("size_gb", "float"), ("peak_clients", "int"), ("working_set_gb", "float"), ("peak_tps", "float"))
PG_DATABASE_COLUMNS: tuple[tuple[str, str, FieldKind], ...] = tuple(
    # headers broken to about eight characters: five columns share a form panel of about 310 pixels
    (key, _PG_SHORT_HEADERS.get(key) or textwrap.fill(FIELDS[f"workload.databases[].{key}"].text, 8), kind)
    for key, kind in _PG_COLUMN_KINDS
)
# Columns a database may leave empty: the engine uses its own figure, shown in grey in the empty cell
PG_DATABASE_OPTIONAL = frozenset({"peak_tps"})
NEW_PG_DATABASE: dict[str, Any] = {"name": "db", "size_gb": 100.0, "peak_clients": 50, "working_set_gb": 20.0}


def names_of(text: str) -> list[str]:
    """A "names" field's text as its list: comma-separated, blanks dropped.

    >>> names_of(" lab-gen5, , tpcb-lab ")
    ['lab-gen5', 'tpcb-lab']
    """
    return [n.strip() for n in text.split(",") if n.strip()]


def _p(name: str, kind: FieldKind, **kw: Any) -> FieldSpec:
    return FieldSpec(("platform", name), kind, **kw)


PLATFORM_FIELDS: tuple[FieldSpec, ...] = (
    _p("deployment", "choice"),
    _p("drives_per_host", "int", optional=True, placeholder="Recommend"),
    _p("raid", "choice", recommend_choice=True),
    _p("memory_gib", "int", optional=True, placeholder="Recommend"),
    _p("swap_gib", "float"),
    _p("nics_per_host", "int", optional=True, placeholder="Recommend"),
    _p("hypervisor_reserve_gib", "float", optional=True, placeholder="Recommend"),
    _p("measurements", "names", placeholder="none: the modelled rates"),
    _p("vendors", "names", optional=True, placeholder="any vendor"),
    _p("excluded_parts", "names", placeholder="none"),
)

TARGET_FIELDS: tuple[FieldSpec, ...] = (
    *(FieldSpec(("targets", t.name), "int" if t.whole else "float", optional=True,
                placeholder="no target")
      for t in TARGETS.values()),
    FieldSpec(("targets", "confidence"), "choice"),
)

ASSUMPTION_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(("assumptions", "energy_price_per_kwh"), "float"),
    FieldSpec(("assumptions", "pue"), "float"),
    FieldSpec(("assumptions", "utilization_pct"), "float"),
    FieldSpec(("commercial", "currency"), "text"),
    FieldSpec(("commercial", "tco_years"), "int"),
    FieldSpec(("commercial", "purchase"), "choice"),
    FieldSpec(("commercial", "rack_power_kw"), "float"),
    FieldSpec(("commercial", "rack_cost_per_year"), "float", optional=True, placeholder="Recommend"),
    FieldSpec(("commercial", "host_operations_per_year"), "float", optional=True,
              placeholder="Recommend"),
    FieldSpec(("commercial", "price_max_age_months"), "int"),
    FieldSpec(("commercial", "optimize_for"), "choice"),
)

SCENARIO_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(("name",), "text"),
    FieldSpec(("customer",), "text"),
    FieldSpec(("prepared_by",), "text"),
)

# The part pickers: (path, catalog kind, label)
_PART_KINDS: tuple[tuple[str, PartKind], ...] = (("server_id", "server"), ("drive_id", "drive"), ("nic_id", "nic"))
PART_FIELDS: tuple[tuple[Path, PartKind, str], ...] = tuple(
    (("platform", name), kind, FIELDS[f"platform.{name}"].label)
    for name, kind in _PART_KINDS
)

# Fields several kinds share keep their value when the user switches kind.
_CARRIED = ("data_tb", "compression_ratio", "growth_pct_per_year", "horizon_years", "mirrors", "mirroring",
            "mirror_block_hosts", "landing_pct", "greenplum_version")

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
        key = str(spec.path[1])  # ("workload", name), as `_w` builds every workload field
        if key not in new and (default := model_default(partial, spec.path)) is not MISSING:
            new[key] = default
    return new


def new_scenario_json(name: str) -> dict[str, Any]:
    """A new scenario with explicit, visible defaults (mirrors on, RAID none, bare metal, ...): the Greenplum
    analytics template of `refarch new`."""
    from app.editing.templates import scenario_template  # it builds on workload_for_kind above

    return scenario_template("greenplum-analytics", name)


def problem_text(problem: Problem) -> str:
    """A problem as the user reads it: the field's label, then what is wrong."""
    if problem.path in ("", ROOT):
        return problem.message
    return f"{field_label(problem.path)}: {problem.message}"

"""Scenario and project files: what the customer runs, what we may sell, what must hold.

A scenario is the unit the CLI sizes (`refarch size FILE.json`) and a project
(`.refarch.json`) is a list of them. pydantic validates the files; every
problem comes back with its JSON path and the allowed range, so a user can fix
all of them in one pass.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from models import file_input
from models.problems import ROOT, FieldRuleError, Problem, problems_of
from models.vocabulary import (
    WORKLOAD_KINDS,
    Deployment,
    DqpMode,
    GreenplumVersion,
    MirrorPolicy,
    OltpMix,
    Placement,
    Raid,
    SegmentTier,
    SharedBuffersPolicy,
)

SCHEMA_VERSION = 1
MAX_FILE_BYTES = file_input.SCENARIO_MAX_BYTES  # a scenario is a few KB; anything larger is not one
MAX_PROJECT_BYTES = file_input.PROJECT_MAX_BYTES  # the same limit applies when a project is saved



class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


# Default factories are functions of this module, not the builtins `dict` and `list`: pydantic reads a factory's
# signature, and a builtin's comes from its text through `tokenize`, whose first use compiles a large regular
# expression (3 ms of every `refarch size`). The defaults are the same empty containers.
def _no_discounts() -> dict[str, float]:
    return {}


def _no_scenarios() -> list[Scenario]:
    return []


class _Mirrored(_Strict):
    @model_validator(mode="after")
    def _block_needs_size(self) -> _Mirrored:
        if getattr(self, "mirrors", False) and getattr(self, "mirroring", None) == "block" and getattr(
            self, "mirror_block_hosts", None
        ) is None:
            raise FieldRuleError(
                "mirror_block_hosts", "mirroring 'block' needs the segment hosts per block (2 or more)"
            )
        return self


class GreenplumAnalytics(_Mirrored):
    kind: Literal["greenplum-analytics"] = "greenplum-analytics"
    data_tb: float = Field(gt=0, le=100_000, description="data as stored before compression, TB")
    compression_ratio: float = Field(default=1.0, ge=1, le=50)
    growth_pct_per_year: float = Field(default=0.0, ge=0, le=500)
    horizon_years: int = Field(default=3, ge=0, le=20)
    concurrent_queries: int = Field(ge=1, le=100_000)
    mirrors: bool = True
    mirroring: MirrorPolicy = Field(
        default="group", description="mirror placement: group (gpinitsystem default), spread, or block"
    )
    mirror_block_hosts: int | None = Field(
        default=None, ge=2, le=1000, description="segment hosts per block (block mirroring only)"
    )
    greenplum_version: GreenplumVersion = Field(
        default="6", description="the release the configuration is written for: 6, 7, cloudberry-2 or warehousepg-7"
    )
    scan_fraction_pct: float = Field(
        default=10.0, gt=0, le=100, description="share of the fact data a typical report scans"
    )
    segment_tier: SegmentTier | None = Field(
        default=None, description="study 002's primary-segment tier set by the architect (type-1: 8, type-2: 16,"
        " type-3: 32 per 48-core host); empty: by the concurrent queries"
    )
    landing_pct: float = Field(
        default=0.0, ge=0, le=300, description="space for landing backup and load files on the segment hosts, % of"
        " the user data on disk (Greenplum docs: extra space you may want; 0 = none reserved)"
    )


class GreenplumOltp(_Mirrored):
    kind: Literal["greenplum-oltp"] = "greenplum-oltp"
    clients: int = Field(ge=1, le=100_000)
    target_tps: float | None = Field(default=None, gt=0, le=10_000_000)
    mix: OltpMix = "tpcb"
    min_segment_hosts: int | None = Field(
        default=None, ge=1, le=1000, description="the fewest segment hosts: a cluster already built, or a study's;"
        " more when the data or a target needs them"
    )
    coordinator_on_segment_host: bool = Field(
        default=False, description="the coordinator runs on the first segment host and shares its cores (no"
        " coordinator host, no standby): a test or study cluster, as study 004's one 192-core environment"
    )
    data_tb: float = Field(gt=0, le=100_000)
    compression_ratio: float = Field(default=1.0, ge=1, le=50)
    growth_pct_per_year: float = Field(default=0.0, ge=0, le=500)
    horizon_years: int = Field(default=3, ge=0, le=20)
    mirrors: bool = True
    mirroring: MirrorPolicy = Field(
        default="group", description="mirror placement: group (gpinitsystem default), spread, or block"
    )
    mirror_block_hosts: int | None = Field(
        default=None, ge=2, le=1000, description="segment hosts per block (block mirroring only)"
    )
    greenplum_version: GreenplumVersion = Field(
        default="6", description="the release the configuration is written for: 6, 7, cloudberry-2 or warehousepg-7"
    )
    landing_pct: float = Field(
        default=0.0, ge=0, le=300, description="space for landing backup and load files on the segment hosts, % of"
        " the user data on disk (Greenplum docs: extra space you may want; 0 = none reserved)"
    )


class CurrentVm(_Strict):
    """The VM a database runs in today, as an estate export (RVTools) observed it: what the report sets beside the
    right-sized VM. It describes; the sizing reads the database's own fields."""

    vcpus: int = Field(ge=1, le=768, description="vCPUs configured today")
    memory_gib: float = Field(gt=0, le=24_576, description="memory configured today, GiB")
    cpu_used_mhz: float | None = Field(default=None, ge=0, le=10_000_000, description="CPU the VM used, MHz")
    memory_used_gib: float | None = Field(default=None, ge=0, le=24_576, description="memory the VM used, GiB")
    iops: float | None = Field(default=None, ge=0, le=100_000_000, description="I/O operations per second it ran")
    cpu_model: str = Field(default="", max_length=200, description="the processor of its host")
    source: str = Field(default="", max_length=300, description="where the figures come from (the export)")
    cpu_basis: str = Field(default="", max_length=300, description="how its CPU use was carried over to the target"
                           " CPU (the benchmark ratio, or a core counted as a core)")


class PgDatabase(_Strict):
    name: str = Field(min_length=1, max_length=200)
    size_gb: float = Field(gt=0, le=1_000_000)
    peak_clients: int = Field(ge=1, le=100_000)
    working_set_gb: float = Field(gt=0, le=100_000)
    peak_tps: float | None = Field(
        default=None, gt=0, le=10_000_000, description="transactions per second at the busiest hour; default:"
        " the zero-think-time DBT-2 rate per client of study 001 (an upper bound)"
    )
    writes_per_txn: float | None = Field(
        default=None, gt=0, le=10_000, description="rows inserted/updated/deleted per transaction; default: pgbench's 4"
    )
    busy_hours: list[int] | None = Field(
        default=None, min_length=1, max_length=24,
        description="hours of the day (0-23) at peak load; null: busy all day. Databases busy at different hours"
        " share CPU and memory (study 001's complementary streams)",
    )
    offpeak_load_pct: float | None = Field(
        default=None, ge=0, le=100, description="load outside the busy hours as % of peak; default: study 001's 2 of 30"
        " clients"
    )
    current: CurrentVm | None = Field(
        default=None, description="the VM it runs in today, as observed (an RVTools import fills it); null: not known"
    )

    @field_validator("busy_hours")
    @classmethod
    def _hours(cls, hours: list[int] | None) -> list[int] | None:
        if hours is None:
            return None
        bad = sorted({h for h in hours if not 0 <= h <= 23})
        if bad:
            raise ValueError(f"hours are 0-23; got {', '.join(map(str, bad))}")
        if len(set(hours)) != len(hours):
            raise ValueError("hours must not repeat")
        return sorted(hours)


class PostgresConsolidation(_Strict):
    kind: Literal["postgres-consolidation"] = "postgres-consolidation"
    databases: list[PgDatabase] = Field(min_length=1, max_length=10_000)
    placement: Placement = "vm-per-database"
    vm_vcpus: int | None = Field(default=None, ge=1, le=768)
    vm_memory_gib: float | None = Field(default=None, gt=0, le=24_576)
    host_memory_available_gib: float | None = Field(default=None, gt=0, le=65_536)
    shared_buffers_policy: SharedBuffersPolicy = "recommended"
    vsphere_ha: bool = Field(
        default=True, description="reserve one host's capacity for vSphere HA restarts (N+1); false: a warning"
    )
    postgres_version: int = Field(
        default=17, description="PostgreSQL major release the settings are written for: one the community"
        " supports (14-18)"
    )
    ha_host_failures: int = Field(
        default=1, ge=0, le=2, description="host failures vSphere HA admission control reserves capacity for"
        " (N+1: 1, N+2: 2); 0 reserves none: a failed host's VMs restart only where there is room"
    )
    shared_storage: Literal["vsan", "local"] | None = Field(
        default=None, description="datastore of the DATA and WAL disks: vSAN across the hosts (HA restarts need"
        " shared storage) or each host's local RAID; default vsan with vsphere_ha, local without"
    )
    vsan_policy: Literal["raid1-ftt1", "raid5-ftt1", "raid6-ftt2"] = Field(
        default="raid1-ftt1", description="vSAN storage policy: mirroring (3+ hosts) or erasure coding (4+ / 6+)"
    )
    vsan_architecture: Literal["osa", "esa"] | None = Field(
        default=None, description="vSAN Original Storage Architecture (disk groups: a flash cache device in front of"
        " SAS/SATA capacity drives) or Express Storage Architecture (one tier of NVMe devices; hosts of 32+ cores,"
        " 512+ GB and 25 GbE); null: the cheaper the server allows"
    )

    @field_validator("postgres_version")
    @classmethod
    def _supported(cls, version: int) -> int:
        from models.calibration_data import figure

        oldest = int(figure("pg_tuning_docs", "postgres_oldest_supported_major"))
        newest = int(figure("pg_tuning_docs", "postgres_newest_major"))
        if not oldest <= version <= newest:
            raise ValueError(f"PostgreSQL {version} is not a release the community supports: {oldest} to {newest}")
        return version

    @field_validator("databases")
    @classmethod
    def _unique_names(cls, dbs: list[PgDatabase]) -> list[PgDatabase]:
        counts = Counter(d.name for d in dbs)  # one pass: an estate holds thousands of databases
        dupes = sorted(n for n, k in counts.items() if k > 1)
        if dupes:
            raise ValueError(f"database names must be unique; repeated: {', '.join(dupes)}")
        return dbs


class SapIqMultiplex(_Strict):
    kind: Literal["sap-iq-multiplex"] = "sap-iq-multiplex"
    data_tb: float = Field(gt=0, le=100_000)
    compression_ratio: float = Field(default=1.0, ge=1, le=50)
    growth_pct_per_year: float = Field(default=0.0, ge=0, le=500)
    horizon_years: int = Field(default=3, ge=0, le=20)
    query_streams: int = Field(ge=1, le=10_000)
    dqp_mode: DqpMode | None = Field(
        default=None, description="DQP mode the design runs: network-transfer or storage-transfer; default the"
        " mode study 003 measured ahead for the query streams"
    )
    nodes: int | None = Field(default=None, ge=1, le=128)
    shared_storage: Literal["vsan", "san"] | None = Field(
        default=None, description="where the shared main and temp dbspaces live: vSAN on the IQ hosts, or an"
        " external SAN; default vsan on vSphere, san on bare metal (a multiplex needs shared disks)"
    )
    vsan_policy: Literal["raid1-ftt1", "raid5-ftt1", "raid6-ftt2"] = Field(
        default="raid1-ftt1", description="vSAN storage policy: mirroring (3+ hosts) or erasure coding (4+ / 6+)"
    )
    vsan_architecture: Literal["osa", "esa"] | None = Field(
        default=None, description="vSAN Original Storage Architecture (disk groups: a flash cache device in front of"
        " SAS/SATA capacity drives) or Express Storage Architecture (one tier of NVMe devices; hosts of 32+ cores,"
        " 512+ GB and 25 GbE); null: the cheaper the server allows"
    )
    san_price_per_tb: float | None = Field(
        default=None, ge=0, le=1_000_000, description="external SAN price per usable TB"
    )
    san_currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$", description="ISO 4217 currency of san_price_per_tb")
    writer_nodes: int | None = Field(default=None, ge=0, le=127, description="nodes that load data besides the"
                                     " coordinator; default 1 when there are 3+ nodes")
    temp_to_main_ratio: float | None = Field(default=None, gt=0, le=10, description="temp dbspace per TB of main"
                                             " dbspace; SAP sizes the temp store from the queries, their concurrency"
                                             " and the data (no fixed ratio); default study 003's 1:1 layout")


Workload = Annotated[
    GreenplumAnalytics | GreenplumOltp | PostgresConsolidation | SapIqMultiplex,
    Field(discriminator="kind"),
]


class Platform(_Strict):
    deployment: Deployment = "bare-metal"
    server_id: str | None = None
    drive_id: str | None = None
    drives_per_host: int | None = Field(default=None, ge=1, le=256)
    nic_id: str | None = None
    memory_gib: int | None = Field(default=None, ge=1, le=65_536)
    swap_gib: float = Field(default=32.0, ge=0, le=65_536)
    raid: Raid | None = "none"
    nics_per_host: int | None = Field(default=None, ge=1, le=16)
    hypervisor_reserve_gib: float | None = Field(default=None, ge=0, le=1024)
    datastore_iops: float | None = Field(
        default=None, gt=0, le=1e9, description="random read IOPS of each host's datastore on external storage "
                                                "(PostgreSQL TPS); null: the data drives' IOPS")
    datastore_latency_ms: float | None = Field(
        default=None, gt=0, le=10_000, description="one random read's latency on that storage; null: not bounded")
    measurements: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(
        default_factory=list, max_length=20,
        description="measurement profiles in the catalog (refarch measure import) whose measured rates and "
                    "sweeps the design uses in place of the modelled ones",
    )
    vendors: list[Annotated[str, Field(min_length=1, max_length=80)]] | None = Field(
        default=None, min_length=1, max_length=20,
        description="server vendors to choose from, as the catalog spells them (case-insensitive), e.g. [\"Dell\"];"
                    " None: any vendor")
    excluded_parts: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        default_factory=list, max_length=500, description="catalog part ids never chosen (any kind)")


class Targets(_Strict):
    confidence: Literal["P50", "P90"] = Field(
        default="P50", description="the estimate every target is sized on: P50 (median) or P90 (9 in 10 meet it)"
    )
    max_full_scan_s: float | None = Field(default=None, gt=0)
    min_load_tb_per_hour: float | None = Field(default=None, gt=0)
    min_queries_per_hour: float | None = Field(default=None, gt=0)
    max_report_s: float | None = Field(
        default=None, gt=0, description="response time of one report (scanning the workload's scan fraction) while"
        " the stated concurrent queries run, from submission to result, s"
    )
    min_tps: float | None = Field(default=None, gt=0)
    max_capex: float | None = Field(default=None, gt=0)
    max_power_w: float | None = Field(default=None, gt=0)
    max_rack_u: int | None = Field(default=None, gt=0)

    def limit(self, name: str, workload: Workload) -> float | None:
        """The limit set on target `name` (a `models.vocabulary.TARGETS` key), None when it is not set; an OLTP
        workload's own `target_tps` stands in for a missing `min_tps`."""
        value = getattr(self, name)
        if value is None and name == "min_tps" and isinstance(workload, GreenplumOltp):
            value = workload.target_tps
        return None if value is None else float(value)


class Assumptions(_Strict):
    """Commercial assumptions for the report: energy price and who prepared it."""

    energy_price_per_kwh: float = Field(default=0.15, ge=0, le=10)
    pue: float = Field(default=1.5, ge=1, le=5, description="data-centre power usage effectiveness")
    utilization_pct: float = Field(default=60.0, ge=0, le=100, description="average load for energy")


class Commercial(_Strict):
    """How the bill of materials is priced and what it includes beyond the hosts; TCO horizon and its costs."""

    currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$", description="project currency (ISO 4217)")
    discounts_pct: dict[str, float] = Field(
        default_factory=_no_discounts, description="discount off list, by part id or vendor name (a part id wins)"
    )
    price_max_age_months: int = Field(default=12, ge=1, le=240, description="older prices are flagged")
    valuation_date: date | None = Field(default=None, description="the date prices are judged against (today)")
    network: bool = Field(default=True, description="price leaf/spine and management switches, cables and optics")
    racks: bool = Field(default=True, description="price racks and PDUs")
    switch_id: str | None = None
    spine_switch_id: str | None = None
    rack_id: str | None = None
    pdu_id: str | None = None
    boot_drive_id: str | None = None
    rack_power_kw: float = Field(default=10.0, gt=0, le=100, description="power budget per rack, peak kW")
    network_oversubscription: float = Field(default=1.0, ge=1, le=20, description="leaf downlink:uplink ratio")
    licence_ids: list[str] | None = Field(default=None, max_length=50, description="None: the cheapest per product")
    support_id: str | None = Field(default=None, description="None: the cheapest for the server vendor")
    support: bool = True
    installation_services: bool = Field(
        default=False, description="add the server vendor's installation service per server to the BOM (optional)")
    tco_years: int = Field(default=5, ge=1, le=20)
    purchase: Literal["upfront", "as-you-grow"] = Field(
        default="upfront", description="buy for the horizon now, or add hosts in the year growth needs them"
    )
    rack_cost_per_year: float | None = Field(
        default=None, ge=0, le=10_000_000, description="space cost per rack per year; empty: the rack's power budget"
        " at a published colocation rate per kW (resources/calibration/tco_defaults.json); 0 counts none")
    host_operations_per_year: float | None = Field(
        default=None, ge=0, le=10_000_000, description="operations staff cost per host per year; empty: an"
        " administrator's published mean wage over the servers one runs (resources/calibration/tco_defaults.json);"
        " 0 counts none")
    optimize_for: Literal["capex", "tco"] = Field(
        default="tco", description="what the recommended design minimises (size and the optimizer): the cost of"
        " ownership over tco_years by default, or capex")

    @field_validator("discounts_pct")
    @classmethod
    def _discounts_in_range(cls, v: dict[str, float]) -> dict[str, float]:
        bad = [f"{k}={p:g}" for k, p in v.items() if not 0 <= p < 100]
        if bad:
            raise ValueError(f"discounts must be 0-99.99 %; got {', '.join(bad)}")
        return v


class Scenario(_Strict):
    schema_version: int = SCHEMA_VERSION
    name: str = Field(min_length=1, max_length=200)
    customer: str = Field(default="", max_length=200)
    prepared_by: str = Field(default="", max_length=200)
    workload: Workload
    platform: Platform = Field(default_factory=Platform)
    targets: Targets = Field(default_factory=Targets)
    assumptions: Assumptions = Field(default_factory=Assumptions)
    commercial: Commercial = Field(default_factory=Commercial)
    notes: str = Field(default="", max_length=20_000)

    @field_validator("schema_version")
    @classmethod
    def _supported(cls, v: int) -> int:
        if v != SCHEMA_VERSION:
            raise ValueError(f"schema_version {v} is not supported (this refarch reads {SCHEMA_VERSION})")
        return v

    @model_validator(mode="after")
    def _platform_fits_kind(self) -> Scenario:
        if isinstance(self.workload, PostgresConsolidation) and self.platform.deployment != "vsphere":
            raise FieldRuleError(
                "platform.deployment", "postgres-consolidation places databases in VMs: must be 'vsphere'"
            )
        if isinstance(self.workload, SapIqMultiplex) and self.workload.shared_storage == "vsan" \
                and self.platform.deployment != "vsphere":
            raise FieldRuleError("workload.shared_storage",
                                 "'vsan' runs on vSphere: set platform.deployment to 'vsphere' or use 'san'")
        return self


class Project(_Strict):
    # Built when first validated: a command reading one scenario file wraps it without validating again
    # (`parse_project`), and does not pay 4-5 ms to build the validator of a list of scenarios.
    model_config = ConfigDict(extra="forbid", validate_assignment=True, defer_build=True)

    schema_version: int = SCHEMA_VERSION
    kind: Literal["refarch-project"] = "refarch-project"
    name: str = Field(default="Untitled project", min_length=1, max_length=200)
    scenarios: list[Scenario] = Field(default_factory=_no_scenarios, max_length=500)

    @field_validator("schema_version")
    @classmethod
    def _supported(cls, v: int) -> int:
        if v != SCHEMA_VERSION:
            raise ValueError(f"schema_version {v} is not supported (this refarch reads {SCHEMA_VERSION})")
        return v


class ScenarioFileError(ValueError):
    """A scenario or project file that cannot be used; `problems` lists every reason with its JSON path."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(str(p) for p in problems))


def describe_validation_error(exc: ValidationError) -> list[Problem]:
    """Every problem of a scenario validation error (see `models.problems.problems_of`)."""
    return problems_of(exc, WORKLOAD_KINDS, Scenario)


def _load_json(path: Path, max_bytes: int = MAX_FILE_BYTES, what: str = "scenario") -> Any:
    """The hardened reader (`models.file_input`): regular files only, bounded, no duplicate keys or NaN."""
    try:
        return file_input.load_json(path, max_bytes=max_bytes, what=what)
    except file_input.FileInputError as exc:
        raise ScenarioFileError(str(path), list(exc.problems)) from None


M = TypeVar("M", bound=BaseModel)


def _validate(model: type[M], data: Any, source: str, what: str) -> M:
    if not isinstance(data, dict):
        raise ScenarioFileError(source, [Problem(ROOT, f"a {what} is a JSON object")])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ScenarioFileError(source, problems_of(exc, WORKLOAD_KINDS, model)) from None


def parse_scenario(data: Any, source: str = "scenario") -> Scenario:
    return _validate(Scenario, data, source, "scenario")


def load_scenario(path: Path) -> Scenario:
    return parse_scenario(_load_json(path), str(path))


def parse_project(data: Any, source: str = "project") -> Project:
    if isinstance(data, dict) and "workload" in data:  # a lone scenario opens as a one-scenario project
        scenario = parse_scenario(data, source)
        # Nothing left to validate: the name is the scenario's, valid by the same rule (1-200 characters).
        return Project.model_construct(name=scenario.name, scenarios=[scenario])
    return _validate(Project, data, source, "project")


def load_project(path: Path) -> Project:
    return parse_project(_load_json(path, MAX_PROJECT_BYTES, "project"), str(path))


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    return scenario.model_dump(mode="json")


def project_to_json(project: Project) -> dict[str, Any]:
    return project.model_dump(mode="json")

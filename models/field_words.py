"""How each scenario field reads, declared once: label, unit, help and choices by JSON path.

The form, the PDF, the CLI, the XLSX and `docs/SCENARIO.md` read a field's words from `FIELDS`; the kinds, metrics,
targets and RAID levels they name are declared in `models.vocabulary`.

>>> field_label("workload.databases[1].size_gb")
'Database 2, Size (GB)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models.vocabulary import DEPLOYMENT_LABELS, GREENPLUM_RELEASE_LABELS, GREENPLUM_VERSIONS, KINDS, RAIDS, TARGETS

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
        choices=tuple((v, GREENPLUM_RELEASE_LABELS[v]) for v in GREENPLUM_VERSIONS),
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
    "workload.min_segment_hosts": FieldInfo(
        "Segment hosts at least", help="The fewest segment hosts the design gets (a cluster already built, or a"
        " study's); more when the data or a target needs them",
    ),
    "workload.coordinator_on_segment_host": FieldInfo(
        "Coordinator on a segment host", help="The coordinator runs on the first segment host and shares its cores:"
        " no coordinator host and no standby (a test or study cluster); production keeps it apart",
    ),
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
    "workload.databases[].current.iops": FieldInfo("I/O observed", "IOPS"),
    "workload.databases[].current.cpu_model": FieldInfo("Current processor"),
    "workload.databases[].current.source": FieldInfo("Observed in"),
    "workload.databases[].current.cpu_basis": FieldInfo("CPU carried over by"),
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
    "workload.vsan_architecture": FieldInfo(
        "vSAN architecture", help="Disk groups of a flash cache and SAS/SATA capacity drives (OSA), or one tier of"
        " NVMe devices (ESA); empty: the cheaper the server allows",
        choices=(("osa", "Original (OSA): cache + capacity"), ("esa", "Express (ESA): NVMe only")),
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
    "platform.hypervisor_reserve_gib": FieldInfo(
        "Hypervisor reserve", "GiB", "Host memory kept for ESXi (vSphere only)"
    ),
    "platform.datastore_iops": FieldInfo(
        "Datastore IOPS", "IOPS", "Random read IOPS of each host's datastore on external storage (PostgreSQL)"),
    "platform.datastore_latency_ms": FieldInfo(
        "Datastore latency", "ms", "One random read's latency on that storage, and one WAL flush's (pg_test_fsync;"
        " PostgreSQL: each client waits on both)"),
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
    "commercial.network": FieldInfo("Price the network",
                                    help="Leaf/spine and management switches, cables and optics"),
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
    "commercial.installation_services": FieldInfo(
        "Add installation services", help="The server vendor's installation service per server, as an optional "
                                          "BOM line (priced by the vendor's quote)"),
    "commercial.tco_years": FieldInfo("TCO horizon", "years"),
    "commercial.purchase": FieldInfo(
        "Purchases", choices=(("upfront", "All up front"), ("as-you-grow", "As the data grows"))),
    "commercial.rack_cost_per_year": FieldInfo("Rack space cost per rack per year", "project currency"),
    "commercial.host_operations_per_year": FieldInfo("Operations cost per host per year", "project currency"),
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

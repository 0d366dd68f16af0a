"""The warning codes refarch raises, declared once with the title a customer reads.

A `Warning`'s code is stable (tests and scripts match it); its title is what the PDF, the GUI and
the CLI print above the warning's text. Renderers never derive a title from the code: "vsan-no-rebuild-host"
is not "Vsan no rebuild host". A new warning is one entry here (tests/models/sizing/test_warnings.py checks
that every code a sizing raises has one, worded, not the code with its case changed).

>>> WARNING_TITLES["dqp-mode-not-recommended"]
'DQP mode other than recommended'
>>> warning_title("vsan-no-rebuild-host")
'No host left for a vSAN rebuild'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

WARNING_TITLES: dict[str, str] = {
    # targets and checks (models/sizing/targets.py, gp_verdicts.py)
    "target-missed": "Target not met",
    "target-unreachable": "Target out of reach",
    "target-not-applicable": "Target does not apply",
    "capacity-unmet": "Capacity out of reach",
    "no-target-service-level": "No performance target set",
    "pg-tps-short": "Database VM below its peak TPS",
    "pg-tps-cpu-unscored": "Processor without a benchmark score",
    # prices and currencies (commercial.py)
    "price-old": "Prices older than the limit",
    "price-estimate": "Prices by estimate",
    "price-missing": "Parts without a public price",
    "no-rate": "No exchange rate",
    "rate-old": "Exchange rate out of date",
    # parts the catalog lacks (infrastructure.py, software.py, sap_iq/design.py)
    "no-boot-drive": "Boot drives not priced",
    "no-switch": "Network switches not priced",
    "no-spine": "Spine switches not priced",
    "no-rack": "Racks not priced",
    "no-pdu": "PDUs not priced",
    "no-cable": "Cables and optics not priced",
    "no-controller": "Storage controller not in the BOM",
    "controller-fit": "Storage controller not stated for the server",
    "no-accessory": "Rails or power cords not in the BOM",
    "racks-unbounded": "Racks not laid out",
    "rack-power": "Rack power budget exceeded",
    "no-licence": "Licence not priced",
    "no-support": "Support contract not priced",
    "vsan-not-licensed": "vSphere edition without vSAN",
    "vsan-capacity-licence": "vSAN capacity licence not priced",
    "licence-maintenance": "Licence maintenance not priced",
    "licensed-cores-idle": "Licensed cores without work",
    "san-unpriced": "External SAN not priced",
    "nic-slots-unknown": "Server PCIe slots unknown",  # the text starts "NIC slots not checked: ..."
    "nic-slot-slower": "NIC faster than the server's PCIe slots",
    "drive-link-faster": "Drive faster than the server's controller",
    # Greenplum hosts and settings (gp_explain.py, gp_density.py, gp_memory.py, oltp_advice.py)
    "numa-multi-socket": "Segments cross NUMA nodes",
    "segments-off-tier": "Segment tier and data drives do not fit",
    "memory-below-reference": "Memory below the reference minimum",
    "memory-below-base": "Memory below the server's base configuration",
    "density-low": "Few cores or little memory per TB on disk",
    "single-segment-host": "One segment host only",
    "coordinator-on-segment-host": "Coordinator on a segment host",
    "no-redundancy": "Neither mirrors nor RAID",
    "few-data-drives": "Fewer data drives than the reference",
    "network-below-minimum": "Network slower than the minimum",
    "network-ports": "Too few network ports",
    "low-statement-mem": "Low statement_mem per query",
    "queued-queries": "Queries wait in the resource group's queue",
    "low-vmem-per-segment": "Low gp_vmem_protect_limit per segment",
    "oltp-beyond-measured": "OLTP throughput beyond the measured TPS",
    "mirroring-cost": "Mirroring policy adds segment hosts",
    # PostgreSQL on vSphere (sizing/postgres/warnings.py)
    "no-raid": "Database drives without RAID",
    "wide-vm": "VM wider than a NUMA node",
    "connection-pooler": "Connection pooler needed",
    "connection-pooler-cpu": "Connection pooler advised",
    "overcommit-above-safe": "Memory overcommit above the safe level",
    "available-above-host": "Host memory for VMs above the server's",
    "no-ha": "vSphere HA off",
    "ha-local-storage": "vSphere HA on local disks",
    "failover-throughput": "Throughput after a host failure",
    "ha-cannot-restart": "VMs vSphere HA cannot restart",
    "small-vm": "VMs small for their load",
    # SAP IQ (sizing/sap_iq/warnings.py, failure.py)
    "extrapolated": "Outside the measured range",
    "p90-band": "P90 sizing set by the extrapolation band",
    "nodes-capped": "Node count capped",
    "vsan-cluster-size": "vSAN cluster larger than studied",
    "iq-caches-short": "IQ caches short of the data and streams",
    "dqp-mode-not-recommended": "DQP mode other than recommended",
    "node-failure-stops": "Single node: no failover",
    "node-failure-streams": "Query streams after a node failure",
    "vsan-no-rebuild-host": "No host left for a vSAN rebuild",
    # sizing on measurement profiles (measurements/calibration.py)
    "measured-design": "Sized on measured rates",
    "measured-below-model": "Measured rate below the model",
    "measured-slow-hosts": "Slow hosts measured",
    "measured-no-good-links": "Network links below gpcheckperf's rule",
    "measured-sweep-short": "Measured sweep stops before its peak",
}


def warning_title(code: str) -> str:
    """The title of a registered warning code (KeyError for one not declared here)."""
    return WARNING_TITLES[code]


Severity = Literal["info", "warning", "critical"]


@dataclass(frozen=True, slots=True)
class MeasuredRange:
    """One input of a design against the range the studies measured it over (an "extrapolated" warning's rows):
    `name` in words, `field` the scenario path that sets it (None: the design derives it), `value` the design's."""

    name: str
    field: str | None
    value: float
    low: float
    high: float
    unit: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "field": self.field, "value": self.value, "low": self.low, "high": self.high,
                "unit": self.unit}


@dataclass(frozen=True, slots=True)
class Warning:
    """Something to review before the design is quoted.

    `code` is stable (tests and scripts match it) and declared with its title in `models.warning_codes`;
    `severity` says how much it matters
    (critical: the design misses what was asked; info: worth knowing, nothing to change); `field` is the
    JSON path of the scenario field it concerns (a `models.field_words.FIELDS` path), or `SCENARIO_WIDE`.
    Neither has a default, so a new producer has to say both (the GUI marks the field, the PDF orders by severity).
    """

    code: str
    text: str
    severity: Severity
    field: str | None
    # what only the team reads, after `text`: catalog ids and what to do in refarch (the customer edition of a
    # report leaves it out, `text` reads whole without it)
    internal: str = ""
    # "extrapolated": each input outside what the studies measured, with the measured range
    ranges: tuple[MeasuredRange, ...] = ()

    def __post_init__(self) -> None:
        if self.code not in WARNING_TITLES:  # every code has a title a customer reads, declared once
            raise ValueError(f"warning code {self.code!r} is not declared in models.warning_codes")

    @property
    def full_text(self) -> str:
        """The text with its internal part: what the window, the CLI and the internal edition print."""
        return f"{self.text} {self.internal}" if self.internal else self.text

    @property
    def title(self) -> str:
        """What the report, the form and the CLI print above the text: "No host left for a vSAN rebuild"."""
        return WARNING_TITLES[self.code]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "text": self.full_text, "severity": self.severity,
                               "field": self.field}
        if self.ranges:
            out["ranges"] = [r.to_dict() for r in self.ranges]
        return out

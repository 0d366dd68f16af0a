"""Product settings a design sets, each with the reason and the source behind it.

The sizers put these on `Design.settings`; `refarch size` shows them and the configuration
exporter (`app/export/config`) renders them as gpconfig lines, postgresql.conf entries, SAP IQ
start switches or storage-policy rules. The exporter computes nothing: a value that is not
here is not in the generated files.

`product` says which syntax a group is rendered in and `target` where it applies:

| product                    | target                          | rendered as                                |
| -------------------------- | ------------------------------- | ------------------------------------------ |
| `greenplum`                | `cluster`                       | `gpconfig -c NAME -v VALUE`                |
| `greenplum-init`           | `cluster`                       | gpinitsystem flags (`mirror_mode`)         |
| `greenplum-not-set`        | `cluster`                       | a commented-out gpconfig line: left unset  |
| `greenplum-resource-group` | the group's name                | `CREATE/ALTER RESOURCE GROUP ... WITH (...)` |
| `postgresql`               | the VM's name (design VM names) | `NAME = 'VALUE UNIT'` and `ALTER SYSTEM`   |
| `sap-iq-server`            | `all nodes` or a node's name    | a start_iq switch `-NAME VALUE`            |
| `sap-iq-multiplex`         | `multiplex`                     | `SET OPTION PUBLIC.NAME = VALUE`           |
| `vsan-policy`              | the policy's name               | a vSAN storage-policy rule (`VSAN.NAME`)   |
| `linux-sysctl`             | `segment hosts` (or a role)     | a sysctl.conf line (e.g. vm.overcommit_ratio) |
| `linux-block`              | `data drives`                   | /sys/block/DEV/queue/scheduler (data-disks.sh) |
| `pgbouncer`                | `coordinator`                   | a pgbouncer.ini `[pgbouncer]` line          |
"""

from __future__ import annotations

from dataclasses import dataclass

PRODUCTS = (
    "greenplum",
    "greenplum-init",
    "greenplum-not-set",
    "greenplum-resource-group",
    "postgresql",
    "sap-iq-server",
    "sap-iq-multiplex",
    "vsan-policy",
    "linux-sysctl",
    "linux-block",
    "pgbouncer",
)


@dataclass(frozen=True, slots=True)
class Setting:
    """One parameter: `value` in `unit` exactly as the product reads it (`unit` "" when it has none).

    >>> Setting("gp_vmem_protect_limit", 8192, "MB", "why", "where").value
    8192
    """

    name: str
    value: int | float | str | bool
    unit: str
    reason: str
    source: str


@dataclass(frozen=True, slots=True)
class SettingGroup:
    product: str
    target: str
    settings: tuple[Setting, ...]

    def __post_init__(self) -> None:
        if self.product not in PRODUCTS:
            raise ValueError(f"unknown settings product {self.product!r}; known: {', '.join(PRODUCTS)}")

    def get(self, name: str) -> Setting | None:
        return next((s for s in self.settings if s.name == name), None)


def groups_for(groups: tuple[SettingGroup, ...], product: str) -> list[SettingGroup]:
    """The groups of one product, in design order."""
    return [g for g in groups if g.product == product]


@dataclass(frozen=True)
class GreenplumSettings:
    """The Greenplum server and OS settings of a design, as values a deployment config can write.

    Per segment host as Greenplum sees it (a VM on vSphere). Sized for the worst single
    physical-host failure (`max_acting_primary_segments`).
    """

    mirroring: str | None  # "group", "spread", "block"; None without mirrors
    mirror_block_hosts: int | None
    mirror_anti_affinity: bool  # vSphere: a primary's VM and its mirror's VM on different physical hosts
    primaries_per_segment_host: int
    max_acting_primary_segments: int
    gp_vmem_protect_limit_mb: int
    gp_resource_manager: str
    gp_resource_group_memory_limit: float
    vm_overcommit_memory: int
    vm_overcommit_ratio: int
    resource_group_concurrency: int
    memory_spill_ratio: int
    rg_perseg_mem_mb: int
    statement_mem_mb: int
    max_statement_mem_mb: int
    max_connections_coordinator: int
    max_connections_segment: int
    max_prepared_transactions: int
    pooled_sessions: int = 0  # client sessions PgBouncer takes beyond max_connections (0: no pooler)
    pool_size: int = 0  # server connections PgBouncer opens to the coordinator
    coordinator_on_host: int = 0  # coordinator instances a segment host runs beside its primaries (1: the first one)
    greenplum_version: str = "6"  # the release the values are for; its words (master or coordinator) in the reasons

    @property
    def host_instances(self) -> int:
        """Instances sharing a segment host's memory in the worst case: its acting primaries, and the coordinator
        where it runs on the host."""
        return max(self.max_acting_primary_segments, 1) + self.coordinator_on_host

"""Greenplum memory per segment and per query: gp_vmem_protect_limit, resource groups, statement_mem.

All of it is sized for the worst single host failure: the acting primaries of `mirroring.py`.

* gp_vmem = ((SWAP + RAM) - (7.5 GB + 0.05 x RAM)) / 1.7 (1.17 from 256 GB of RAM), and
  gp_vmem_protect_limit = gp_vmem / max_acting_primary_segments (resource queues; Greenplum 6
  documentation, Configuring Segment Host Memory).
* Resource groups (gp_resource_manager=group, the recommended manager): each active primary gets
  rg_perseg_mem = ((RAM x vm.overcommit_ratio / 100 + SWAP) x gp_resource_group_memory_limit)
  / active primaries. With memory_spill_ratio = 0 a query gets statement_mem on each segment
  before it spills; refarch sets statement_mem to the smaller of rg_perseg_mem / concurrency and
  the documented 0.9 x gp_vmem_protect_limit / concurrency, so the stated concurrency fits even
  with a host down.
* max_connections: at least Greenplum's default on the coordinator and what the workload opens,
  segments 5 x the coordinator, max_prepared_transactions = the coordinator's max_connections.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.calibration_data import figure, point
from models.sizing.result import Rationale, Warning
from models.sizing.rules import gp_vmem_mb

DOCS = "vendor_docs"
MB_PER_GIB = 1024.0
SUPERUSER_RESERVED = 3  # PostgreSQL's superuser_reserved_connections default: admin access when full


def _cite(pid: str) -> str:
    return point(DOCS, pid).source.cite()


def statement_mem_mb(
    ram_gib: float, swap_gib: float, acting_primaries: int, concurrency: int, vmem_limit_mb: float | None = None
) -> int:
    """Memory one query gets on each segment before it spills, with the stated concurrency running.

    >>> statement_mem_mb(512, 32, 32, 20)
    580
    >>> statement_mem_mb(512, 32, 32, 40) <= statement_mem_mb(512, 32, 32, 20)
    True
    """
    per_seg = rg_perseg_mem_mb(ram_gib, swap_gib, acting_primaries)
    limit = vmem_limit_mb if vmem_limit_mb is not None else float(gp_vmem_mb(ram_gib, swap_gib)) / max(
        acting_primaries, 1
    )
    c = max(int(concurrency), 1)
    return int(min(per_seg, limit * figure(DOCS, "gp_statement_mem_formula")) // c)


def rg_perseg_mem_mb(ram_gib: float, swap_gib: float, acting_primaries: int) -> float:
    """rg_perseg_mem at `acting_primaries` active primaries, in MB."""
    ratio = figure(DOCS, "vm_overcommit_ratio_pct") / 100.0
    share = figure(DOCS, "gp_resource_group_memory_limit_default")
    return (ram_gib * ratio + swap_gib) * share * MB_PER_GIB / max(acting_primaries, 1)


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


@dataclass(frozen=True)
class MemoryPlan:
    settings: GreenplumSettings
    rationale: tuple[Rationale, ...]
    warnings: tuple[Warning, ...]


def memory_plan(
    ram_gib: float,
    swap_gib: float,
    primaries: int,
    acting_primaries: int,
    concurrency: int,
    sessions: int,
    mirroring: str | None,
    block_hosts: int | None,
    anti_affinity: bool,
) -> MemoryPlan:
    """Every memory and connection setting of a segment host (VM on vSphere), argued.

    `concurrency` is what runs at once (concurrent queries, or OLTP clients); `sessions` what
    connects to the coordinator.
    """
    vmem = float(gp_vmem_mb(ram_gib, swap_gib))
    vmem_limit = int(vmem // max(acting_primaries, 1))
    large = ram_gib >= figure(DOCS, "gp_vmem_large_ram_threshold_gb")
    divisor = figure(DOCS, "gp_vmem_divisor_large_ram" if large else "gp_vmem_divisor_small_ram")
    per_seg = rg_perseg_mem_mb(ram_gib, swap_gib, acting_primaries)
    c = max(int(concurrency), 1)
    stmt = statement_mem_mb(ram_gib, swap_gib, acting_primaries, c, vmem_limit)
    max_stmt = int(ram_gib * MB_PER_GIB // c)
    coord = max(int(figure(DOCS, "gp_max_connections_coordinator_default")), sessions + SUPERUSER_RESERVED)
    seg_conn = coord * int(figure(DOCS, "gp_max_connections_segment_factor"))
    ratio = int(figure(DOCS, "vm_overcommit_ratio_pct"))
    share = figure(DOCS, "gp_resource_group_memory_limit_default")
    default_conn = int(figure(DOCS, "gp_max_connections_coordinator_default"))
    factor = int(figure(DOCS, "gp_max_connections_segment_factor"))
    settings = GreenplumSettings(
        mirroring=mirroring,
        mirror_block_hosts=block_hosts,
        mirror_anti_affinity=anti_affinity,
        primaries_per_segment_host=primaries,
        max_acting_primary_segments=acting_primaries,
        gp_vmem_protect_limit_mb=vmem_limit,
        gp_resource_manager="group",
        gp_resource_group_memory_limit=share,
        vm_overcommit_memory=2,
        vm_overcommit_ratio=ratio,
        resource_group_concurrency=c,
        memory_spill_ratio=0,
        rg_perseg_mem_mb=int(per_seg),
        statement_mem_mb=stmt,
        max_statement_mem_mb=max(max_stmt, stmt),
        max_connections_coordinator=coord,
        max_connections_segment=seg_conn,
        max_prepared_transactions=coord,
    )
    why = [
        Rationale(
            "gp_vmem_protect_limit",
            f"gp_vmem = ((SWAP {swap_gib:g} + RAM {ram_gib:g}) - (7.5 + 0.05 x RAM)) / {divisor:g} = {vmem:,.0f} MB,"
            f" divided by the {acting_primaries} primaries a segment host runs after the worst host failure"
            f" (max_acting_primary_segments) = {vmem_limit:,} MB.",
            f"{_cite('gp_vmem_os_reserve_gb')}; {_cite('gp_vmem_max_acting_primaries')}",
        ),
        Rationale(
            "Resource groups",
            f"gp_resource_manager=group with vm.overcommit_memory=2 and vm.overcommit_ratio={ratio}:"
            f" rg_perseg_mem = (({ram_gib:g} GiB x {ratio}/100 + {swap_gib:g} GiB) x {share:g}) / {acting_primaries}"
            f" active primaries = {per_seg:,.0f} MB per segment with a host down. The default resource group runs"
            f" CONCURRENCY={c} with MEMORY_SPILL_RATIO=0, so each query gets statement_mem = min({per_seg:,.0f},"
            f" 0.9 x {vmem_limit:,}) / {c} = {stmt:,} MB per segment before it spills (max_statement_mem"
            f" {max(max_stmt, stmt):,} MB).",
            f"{_cite('gp_rg_perseg_mem_formula')}; {_cite('gp_resource_group_memory_limit_default')};"
            f" {_cite('vm_overcommit_ratio_pct')}; {_cite('gp_statement_mem_formula')}",
        ),
        Rationale(
            "Connections",
            f"max_connections {coord} on the coordinator (Greenplum's default {default_conn}"
            f" or the {sessions} sessions plus {SUPERUSER_RESERVED} reserved for superusers), {seg_conn} on segments"
            f" ({factor} x), max_prepared_transactions {coord}.",
            f"{_cite('gp_max_connections_coordinator_default')}; {_cite('gp_max_connections_segment_factor')}",
        ),
    ]
    warnings: list[Warning] = []
    floor = figure(DOCS, "gp_statement_mem_default_mb")
    if stmt < floor:
        warnings.append(Warning(
            "low-statement-mem",
            f"statement_mem is {stmt:,} MB per query per segment ({per_seg:,.0f} MB per segment with {acting_primaries}"
            f" acting primaries, shared by {c} concurrent queries): below Greenplum's default of {floor:g} MB, so"
            " queries spill to disk early. Add memory, run fewer primaries per host, or cap the resource group's"
            " concurrency.",
        ))
    if vmem_limit < 4096:
        warnings.append(Warning(
            "low-vmem-per-segment",
            f"gp_vmem_protect_limit is {vmem_limit:,} MB per segment with {acting_primaries} acting primaries after a"
            " host failure: queries will spill early or fail while a host is down; add memory or use fewer segments"
            " per host.",
        ))
    return MemoryPlan(settings, tuple(why), tuple(warnings))


def wal_gib_per_instance() -> float:
    """WAL one segment instance keeps: (2 x checkpoint_segments + 1) x 64 MB.

    >>> round(wal_gib_per_instance(), 3)
    1.062
    """
    segs = figure(DOCS, "gp_checkpoint_segments_default")
    return (2 * segs + 1) * figure(DOCS, "gp_wal_segment_mb") / MB_PER_GIB

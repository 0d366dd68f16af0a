"""The Greenplum 7 line's resource-group memory, argued: Greenplum 7, WarehousePG 7 and Apache Cloudberry 2.

These releases have no gp_resource_group_memory_limit share of the host. They hold every segment instance to
gp_vmem_protect_limit under resource groups too; a group's MEMORY_LIMIT (MEMORY_QUOTA in Cloudberry 2's source) is
memory in MB on each segment, and each query of the group gets MEMORY_LIMIT / CONCURRENCY on every segment, or
statement_mem where that is more (Greenplum 7 Administrator Guide, Using Resource Groups, Memory Limits; resgroup.c,
ResourceGroupGetQueryMemoryLimit). `memory.memory_plan` sizes statement_mem = 0.9 x gp_vmem_protect_limit /
CONCURRENCY (the 7 Reference Guide's estimate, `memory.segment_pool_mb`); default_group's MEMORY_LIMIT is that x
CONCURRENCY (`design_settings.greenplum_dialect`). This module says so, with the per-host total gpdb#17195 asked for.
"""

from __future__ import annotations

from typing import NamedTuple

from models.calibration_data import figure, point
from models.sizing.greenplum.releases import group_memory_keyword, release_name
from models.sizing.result import Rationale
from models.sizing.settings import GreenplumSettings

DOCS = "vendor_docs"
MB_PER_GIB = 1024.0


class Admission(NamedTuple):
    """What the resource group was asked to run and how it runs it: the concurrent queries asked for, whether
    PgBouncer's server connections bound what runs at once, and the release (its rule and words)."""

    requested: int
    by_pool: bool
    version: str


def _cite(pid: str) -> str:
    return point(DOCS, pid).source.cite()


def resource_group_rationale_7(ram_gib: float, s: GreenplumSettings, a: Admission, count: str, coordinator: str
                               ) -> Rationale:
    """The "Resource groups" reason on the Greenplum 7 line. `count`: the instances sharing a segment host's memory
    with a host down, in words ("32 active primaries"); `coordinator`: the sentence a coordinator on the host adds.

    >>> s = GreenplumSettings("group", None, False, 16, 32, 27276, "group", 0.7, 2, 95, 80, 0, 22507, 306, 13107,
    ...                       250, 1250, 250)
    >>> r = resource_group_rationale_7(1024, s, Admission(80, False, "7"), "32 active primaries", "")
    >>> "MEMORY_LIMIT=24,480 MB per segment" in r.text, "783,360 MB on a segment host" in r.text
    (True, True)
    """
    c, stmt, limit = s.resource_group_concurrency, s.statement_mem_mb, s.gp_vmem_protect_limit_mb
    word = group_memory_keyword(a.version)
    share = figure(DOCS, "gp7_statement_mem_formula")
    group_mb = stmt * c
    n = s.host_instances
    text = (
        f"{release_name(a.version)} (gp_resource_manager=group-v2, vm.overcommit_memory={s.vm_overcommit_memory},"
        f" vm.overcommit_ratio={s.vm_overcommit_ratio}) holds every segment instance to gp_vmem_protect_limit"
        f" {limit:,} MB under resource groups too, and has no host share (gp_resource_group_memory_limit) any more: a"
        f" group's {word} is memory in MB on each segment, not on the host, and each query of the group gets"
        f" {word} / CONCURRENCY on every segment (statement_mem where that is more). statement_mem = {share:g} x"
        f" {limit:,} / {c} = {stmt:,} MB per segment, the release's estimate for {c} queries at once, so"
        f" default_group gets CONCURRENCY={c} and {word}={group_mb:,} MB per segment (statement_mem x CONCURRENCY):"
        f" {group_mb * n:,} MB on a segment host running {count} with a host down. Queries that bypass the group"
        " (catalog only, plan cost under MIN_COST) get statement_mem too. max_statement_mem ="
        f" {ram_gib * MB_PER_GIB:,.0f} MB of host memory / {c} = {s.max_statement_mem_mb:,} MB caps what a session"
        " may SET statement_mem to."
        + _admission(s, a, share) + coordinator
    )
    queued = s.resource_group_concurrency < a.requested and not a.by_pool
    source = "; ".join(_cite(p) for p in (
        "gp7_vmem_protect_limit_both_managers", "gp7_rg_memory_limit_per_segment", "gp7_rg_memory_limit_mb",
        "cloudberry2_rg_memory_quota_source" if a.version == "cloudberry-2" else "gp7_rg_query_memory_source",
        "gp7_rg_statement_mem_floor", "gp7_statement_mem_formula", "gp7_max_statement_mem_formula",
        "vm_overcommit_ratio_pct",
        *(("gp_statement_mem_default_mb", "gp_resource_group_queuing_timeout_default_s") if queued else ()),
        *(("gp_rg_host_segments_coordinator",) if s.coordinator_on_host else ())))
    return Rationale("Resource groups", text, source)


def _admission(s: GreenplumSettings, a: Admission, share: float) -> str:
    c = s.resource_group_concurrency
    if a.by_pool:
        return (f" Of the {a.requested:,} clients, the {c:,} PgBouncer's server connections carry run at once;"
                " the others wait in PgBouncer for a connection (see Connections).")
    if c >= a.requested:
        return ""
    floor = figure(DOCS, "gp_statement_mem_default_mb")
    return (f" Of the {a.requested:,} concurrent queries asked for, the group admits {c:,}: the most that keep each"
            f" at Greenplum's default statement_mem of {floor:g} MB per segment ({share:g} x"
            f" {s.gp_vmem_protect_limit_mb:,} / {floor:g} = {c:,}); the other {a.requested - c:,} wait in its queue,"
            " first in first out, and run as slots free (gp_resource_group_queuing_timeout"
            f" {figure(DOCS, 'gp_resource_group_queuing_timeout_default_s'):g}: no timeout).")

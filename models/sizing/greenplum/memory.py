"""Greenplum memory per segment and per query: gp_vmem_protect_limit, resource groups, statement_mem.

All of it is sized for the worst single host failure: the acting primaries of `mirroring.py`.

* gp_vmem = ((SWAP + RAM) - (7.5 GB + 0.05 x RAM)) / 1.7 (1.17 from 256 GB of RAM), and
  gp_vmem_protect_limit = gp_vmem / max_acting_primary_segments (resource queues; Greenplum 6
  documentation, Configuring Segment Host Memory).
* Resource groups (gp_resource_manager=group, the recommended manager): each active primary gets
  rg_perseg_mem = ((RAM x vm.overcommit_ratio / 100 + SWAP) x gp_resource_group_memory_limit)
  / active primaries. With memory_spill_ratio = 0 a query gets statement_mem on each segment
  before it spills; refarch sets statement_mem to the smaller of rg_perseg_mem / concurrency and
  the documented 0.9 x gp_vmem_protect_limit / concurrency, with a host down. For reports the
  concurrency is what the resource group admits (`admitted_queries`, its CONCURRENCY): as many of
  the requested as keep Greenplum's default statement_mem each; Greenplum queues the rest
  (Administrator Guide, Using Resource Groups, Transaction Concurrency Limit), and `queue_warning`
  says how many wait and what waiting adds to a query's response time.
* Greenplum 7 and its forks (`releases.GP7_FAMILY`) have no gp_resource_group_memory_limit share: they enforce
  gp_vmem_protect_limit on every segment instance under resource groups too, a group's memory is MEMORY_LIMIT in MB
  on each segment and a query gets MEMORY_LIMIT / CONCURRENCY. There the groups' memory is the Reference Guide's 0.9 x
  gp_vmem_protect_limit: statement_mem = 0.9 x gp_vmem_protect_limit / concurrency and MEMORY_LIMIT = statement_mem x
  CONCURRENCY (`segment_pool_mb`, `memory_gp7`).
* max_connections: Greenplum's default on the coordinator, raised only to what runs at once (the reports the
  resource group admits) plus the superuser slots; sessions beyond go through PgBouncer (`coordinator_connections`,
  `pooler_warning`); segments 5 x the coordinator, max_prepared_transactions = the coordinator's max_connections.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure, point
from models.sizing.greenplum.memory_gp7 import Admission, resource_group_rationale_7
from models.sizing.greenplum.releases import gp7_family, role_word
from models.sizing.result import Rationale, Warning
from models.sizing.rules import RULES, gp_vmem_mb
from models.sizing.settings import GreenplumSettings

DOCS = "vendor_docs"
MB_PER_GIB = 1024.0
SUPERUSER_RESERVED = 3  # PostgreSQL's superuser_reserved_connections default: admin access when full
VM_OVERCOMMIT_STRICT = 2  # vm.overcommit_memory=2: the mode the resource-group formula (overcommit_ratio) assumes


def _cite(pid: str) -> str:
    return point(DOCS, pid).source.cite()


def statement_mem_mb(
    ram_gib: float, swap_gib: float, acting_primaries: int, concurrency: int, vmem_limit_mb: float | None = None,
    version: str = "6",
) -> int:
    """Memory one query gets on each segment before it spills, with the stated concurrency running.

    >>> statement_mem_mb(512, 32, 32, 20), statement_mem_mb(512, 32, 32, 20, version="7")
    (580, 628)
    >>> statement_mem_mb(512, 32, 32, 40) <= statement_mem_mb(512, 32, 32, 20)
    True
    """
    limit = vmem_limit_mb if vmem_limit_mb is not None else float(gp_vmem_mb(ram_gib, swap_gib)) / max(
        acting_primaries, 1
    )
    pool = float(segment_pool_mb(ram_gib, swap_gib, acting_primaries, limit, version))
    return int(pool // max(int(concurrency), 1))


def segment_pool_mb(ram_gib: ArrayLike, swap_gib: float, acting_primaries: ArrayLike, vmem_limit_mb: ArrayLike,
                    version: str = "6") -> NDArray[np.float64]:
    """The memory the resource groups give queries on one segment (MB), at `acting_primaries` per host: Greenplum 6
    the smaller of rg_perseg_mem and 0.9 x gp_vmem_protect_limit; the Greenplum 7 line (no host share any more)
    0.9 x gp_vmem_protect_limit, the release's statement_mem estimate. Vectorised like `admitted_queries`.

    >>> round(float(segment_pool_mb(1024, 32, 32, 27276)), 1), round(float(segment_pool_mb(1024, 32, 32, 27276,
    ...                                                                                   "7")), 1)
    (22507.5, 24548.4)
    """
    limit = np.asarray(vmem_limit_mb, dtype=float)
    if gp7_family(version):
        gp7: NDArray[np.float64] = limit * figure(DOCS, "gp7_statement_mem_formula")
        return gp7
    ram = np.asarray(ram_gib, dtype=float)
    acting = np.maximum(np.asarray(acting_primaries, dtype=float), 1.0)
    ratio = figure(DOCS, "vm_overcommit_ratio_pct") / 100.0
    per_seg = (ram * ratio + swap_gib) * figure(DOCS, "gp_resource_group_memory_limit_default") * MB_PER_GIB / acting
    out: NDArray[np.float64] = np.minimum(per_seg, limit * figure(DOCS, "gp_statement_mem_formula"))
    return out


def admitted_queries(ram_gib: ArrayLike, swap_gib: float, acting_primaries: ArrayLike, requested: int,
                     version: str = "6") -> NDArray[np.int64]:
    """Queries the resource group runs at once (its CONCURRENCY): as many of the `requested` as keep each at
    Greenplum's default statement_mem on every segment with `acting_primaries` per host, at least one; the
    rest wait in the group's queue. Vectorised over hosts (the optimizer's candidates).

    >>> admitted_queries(np.array([512.0, 512.0, 64.0]), 32, np.array([16, 2, 16]), 2000).tolist()
    [185, 1486, 23]
    >>> admitted_queries(np.array([512.0, 512.0, 64.0]), 32, np.array([16, 2, 16]), 2000, "7").tolist()
    [201, 1609, 23]
    >>> admitted_queries(512.0, 32, 16, 20).tolist()  # memory enough: every query runs
    20
    """
    acting = np.maximum(np.asarray(acting_primaries, dtype=float), 1.0)
    ram = np.asarray(ram_gib, dtype=float)
    limit = np.floor_divide(np.asarray(gp_vmem_mb(ram, swap_gib), dtype=float), acting)  # as `memory_plan` rounds
    pool = segment_pool_mb(ram, swap_gib, acting, limit, version)
    fits = np.floor(pool / figure(DOCS, "gp_statement_mem_default_mb"))
    out: NDArray[np.int64] = np.clip(fits, 1, max(int(requested), 1)).astype(np.int64)
    return out


def rg_perseg_mem_mb(ram_gib: float, swap_gib: float, acting_primaries: int) -> float:
    """rg_perseg_mem at `acting_primaries` active primaries, in MB."""
    ratio = figure(DOCS, "vm_overcommit_ratio_pct") / 100.0
    share = figure(DOCS, "gp_resource_group_memory_limit_default")
    return (ram_gib * ratio + swap_gib) * share * MB_PER_GIB / max(acting_primaries, 1)


@dataclass(frozen=True)
class MemoryPlan:
    settings: GreenplumSettings
    rationale: tuple[Rationale, ...]
    warnings: tuple[Warning, ...]


class OltpHost(NamedTuple):
    """A transactional workload's segment host: its statements need little memory, and (`coordinator_here`) the
    coordinator may run on it beside its primaries (`GreenplumOltp.coordinator_on_segment_host`)."""

    coordinator_here: bool = False

    @property
    def extra_instances(self) -> int:
        """Instances the host runs beyond its primaries and mirrors: the coordinator, counted as one more of the
        host's segments (Greenplum 6 divides the host's resource-group memory by primaries + coordinator)."""
        return int(figure(DOCS, "gp_rg_host_segments_coordinator")) if self.coordinator_here else 0


class MirrorLayout(NamedTuple):
    """How a design's mirrors are laid out, as its settings record it: the mirroring policy ("group", "spread",
    "block"; None without mirrors), the block size of block mirroring, and whether a primary's VM and its mirror's
    VM sit on different physical hosts (vSphere)."""

    mirroring: str | None
    block_hosts: int | None
    anti_affinity: bool


def memory_plan(
    ram_gib: float,
    swap_gib: float,
    primaries: int,
    acting_primaries: int,
    concurrency: int,
    sessions: int,
    mirrors: MirrorLayout,
    oltp: OltpHost | None = None,
    *,
    version: str = "6",
) -> MemoryPlan:
    """Every memory and connection setting of a segment host (VM on vSphere), argued.

    `concurrency` is what runs at once (concurrent queries, or OLTP clients); `sessions` what
    connects to the coordinator. `oltp` (a transactional workload): short statements, no spill warning; a coordinator
    on the host (`OltpHost`) makes gp_vmem_protect_limit and rg_perseg_mem divide by one instance more; `version`
    gives the release's memory rule (`segment_pool_mb`) and words."""
    mirroring, block_hosts, anti_affinity = mirrors
    short_statements = oltp is not None
    instances = max(acting_primaries, 1) + (oltp.extra_instances if oltp is not None else 0)
    vmem_limit = int(float(gp_vmem_mb(ram_gib, swap_gib)) // instances)
    requested = max(int(concurrency), 1)
    # reports: the resource group runs what memory gives the default statement_mem, the rest queue
    c = requested if short_statements else int(admitted_queries(ram_gib, swap_gib, instances, requested, version))
    coord, pooled = coordinator_connections(sessions, None if short_statements else c)
    by_pool = c > coord - SUPERUSER_RESERVED
    c = min(c, coord - SUPERUSER_RESERVED)  # a pooler in front runs no more at once than it has server connections
    stmt = statement_mem_mb(ram_gib, swap_gib, instances, c, vmem_limit, version)
    settings = GreenplumSettings(
        mirroring=mirroring,
        mirror_block_hosts=block_hosts,
        mirror_anti_affinity=anti_affinity,
        primaries_per_segment_host=primaries,
        max_acting_primary_segments=acting_primaries,
        gp_vmem_protect_limit_mb=vmem_limit,
        gp_resource_manager="group",
        gp_resource_group_memory_limit=figure(DOCS, "gp_resource_group_memory_limit_default"),
        vm_overcommit_memory=VM_OVERCOMMIT_STRICT,
        vm_overcommit_ratio=int(figure(DOCS, "vm_overcommit_ratio_pct")),
        resource_group_concurrency=c,
        memory_spill_ratio=0,
        rg_perseg_mem_mb=int(rg_perseg_mem_mb(ram_gib, swap_gib, instances)),
        statement_mem_mb=stmt,
        max_statement_mem_mb=max(int(ram_gib * MB_PER_GIB // c), stmt),
        max_connections_coordinator=coord,
        max_connections_segment=coord * int(figure(DOCS, "gp_max_connections_segment_factor")),
        max_prepared_transactions=coord,
        pooled_sessions=sessions if pooled else 0,
        pool_size=coord - SUPERUSER_RESERVED if pooled else 0,
        coordinator_on_host=instances - max(acting_primaries, 1),
        greenplum_version=version,
    )
    why, warnings = _argued(ram_gib, swap_gib, settings, sessions, Admission(requested, by_pool, version))
    pooler = pooler_warning(settings)
    if pooler is not None:
        warnings = (*warnings, dataclasses.replace(pooler, field="workload.clients") if short_statements else pooler)
    if short_statements:
        warnings = tuple(w for w in warnings if w.code != "low-statement-mem")
    return MemoryPlan(settings, why, warnings)


def _argued(ram_gib: float, swap_gib: float, s: GreenplumSettings, sessions: int, a: Admission
            ) -> tuple[tuple[Rationale, ...], tuple[Warning, ...]]:
    """`memory_plan`'s reasons (memory per segment, the release's resource groups, connections) and its memory
    warnings, in the release's rule (`segment_pool_mb`)."""
    n = s.host_instances
    if gp7_family(a.version):
        count, coordinator = _coordinator_words(s, "gpconfig gives its instance the same gp_vmem_protect_limit as"
                                                   " each primary, so the group's memory is taken once more on it")
        groups = resource_group_rationale_7(ram_gib, s, a, count, coordinator)
        pool = float(segment_pool_mb(ram_gib, swap_gib, n, s.gp_vmem_protect_limit_mb, a.version))
    else:
        groups = _resource_group_rationale(ram_gib, swap_gib, s, a.requested, a.by_pool)
        pool = rg_perseg_mem_mb(ram_gib, swap_gib, n)
    why = (_vmem_rationale(ram_gib, swap_gib, s), groups, _connections_rationale(sessions, s))
    return why, _warnings(s, pool)


def coordinator_connections(sessions: int, admitted: int | None) -> tuple[int, bool]:
    """max_connections on the coordinator and whether a connection pooler must take the sessions beyond it.

    The coordinator keeps Greenplum's default, raised only to what can run at once: the reports the resource group
    admits (`admitted`) plus the superuser slots. OLTP (`admitted` None) stays at the default, above study 004's
    busiest 200 clients. Sessions beyond go through PgBouncer (pooled: True), whose server connections fill
    max_connections less the superuser slots.

    >>> coordinator_connections(40, 40), coordinator_connections(100_000, 272), coordinator_connections(3000, None)
    ((250, False), (275, True), (250, True))
    """
    default = int(figure(DOCS, "gp_max_connections_coordinator_default"))
    bound = default if admitted is None else max(default, admitted + SUPERUSER_RESERVED)
    coord = max(default, min(sessions + SUPERUSER_RESERVED, bound))
    return coord, sessions + SUPERUSER_RESERVED > coord


def _coordinator_words(s: GreenplumSettings, what: str) -> tuple[str, str]:
    """How a divisor's instances read with the coordinator on the host ("9 (the 8 acting primaries and the
    coordinator)"), and the sentence that says why; the primaries alone and no sentence without it."""
    acting, w = s.max_acting_primary_segments, role_word(s.greenplum_version)
    if not s.coordinator_on_host:
        return f"{acting} active primaries", ""
    return (f"{s.host_instances} instances (the {acting} active primaries and the {w})",
            f" The first segment host also runs the {w}: {what}. Every segment host takes that host's"
            " values (the settings are cluster-wide).")


def _vmem_rationale(ram_gib: float, swap_gib: float, s: GreenplumSettings) -> Rationale:
    large = ram_gib >= figure(DOCS, "gp_vmem_large_ram_threshold_gb")
    divisor = figure(DOCS, "gp_vmem_divisor_large_ram" if large else "gp_vmem_divisor_small_ram")
    reserve = figure(DOCS, "gp_vmem_os_reserve_gb")
    fraction = figure(DOCS, "gp_vmem_os_reserve_ram_fraction")
    _, why = _coordinator_words(s, "gpconfig gives its instance the same gp_vmem_protect_limit as each"
                                       " primary, so refarch divides gp_vmem by one instance more (a refarch rule:"
                                       " the documentation's formula counts primaries only)")
    return Rationale(
        "gp_vmem_protect_limit",
        f"gp_vmem = ((SWAP {swap_gib:g} + RAM {ram_gib:g}) - ({reserve:g} + {fraction:g} x RAM)) / {divisor:g}"
        f" = {float(gp_vmem_mb(ram_gib, swap_gib)):,.0f} MB, divided by the {s.max_acting_primary_segments}"
        " primaries a segment host runs after the worst host failure (max_acting_primary_segments)"
        + (f" plus the {role_word(s.greenplum_version)} ({s.host_instances} instances)" if s.coordinator_on_host
           else "")
        + f" = {s.gp_vmem_protect_limit_mb:,} MB." + why,
        f"{_cite('gp_vmem_os_reserve_gb')}; {_cite('gp_vmem_max_acting_primaries')}"
        + (f"; {_cite('gp_rg_host_segments_coordinator')}" if s.coordinator_on_host else ""),
    )


def _resource_group_rationale(ram_gib: float, swap_gib: float, s: GreenplumSettings, requested: int,
                              by_pool: bool = False) -> Rationale:
    per_seg = rg_perseg_mem_mb(ram_gib, swap_gib, s.host_instances)
    count, coordinator = _coordinator_words(s, f"Greenplum counts the {role_word(s.greenplum_version)} as one more"
                                               " of that host's"
                                               " segments and divides the host's resource-group memory among them all")
    c = s.resource_group_concurrency
    admission = ""
    if by_pool:
        admission = (f" Of the {requested:,} clients, the {c:,} PgBouncer's server connections carry run at once;"
                     " the others wait in PgBouncer for a connection (see Connections).")
    elif c < requested:
        floor = figure(DOCS, "gp_statement_mem_default_mb")
        admission = (
            f" Of the {requested:,} concurrent queries asked for, the group admits {c:,}: the most that keep each"
            f" at Greenplum's default statement_mem of {floor:g} MB per segment (min({per_seg:,.0f},"
            f" {figure(DOCS, 'gp_statement_mem_formula'):g} x {s.gp_vmem_protect_limit_mb:,}) / {floor:g} = {c:,});"
            f" the other {requested - c:,} wait in its queue, first in first out, and run as slots free"
            f" (gp_resource_group_queuing_timeout"
            f" {figure(DOCS, 'gp_resource_group_queuing_timeout_default_s'):g}: no timeout)."
        )
    return Rationale(
        "Resource groups",
        f"gp_resource_manager=group with vm.overcommit_memory={s.vm_overcommit_memory} and vm.overcommit_ratio="
        f"{s.vm_overcommit_ratio}: rg_perseg_mem = (({ram_gib:g} GiB x {s.vm_overcommit_ratio}/100 + {swap_gib:g} GiB)"
        f" x {s.gp_resource_group_memory_limit:g}) / {count} ="
        f" {per_seg:,.0f} MB per segment with a host down. The default resource group runs CONCURRENCY={c} with"
        f" MEMORY_SPILL_RATIO={s.memory_spill_ratio}, so each query gets statement_mem = min({per_seg:,.0f},"
        f" {figure(DOCS, 'gp_statement_mem_formula'):g} x {s.gp_vmem_protect_limit_mb:,}) / {c} ="
        f" {s.statement_mem_mb:,} MB per segment before it spills (max_statement_mem {s.max_statement_mem_mb:,} MB)."
        + admission + coordinator + _commit_limit_words(ram_gib, swap_gib, s, per_seg),
        f"{_cite('gp_rg_perseg_mem_formula')}; {_cite('gp_resource_group_memory_limit_default')};"
        f" {_cite('vm_overcommit_ratio_pct')}; {_cite('gp_statement_mem_formula')}"
        + (f"; {_cite('gp_statement_mem_default_mb')}; {_cite('gp_resource_group_queuing_timeout_default_s')}"
           if admission and not by_pool else "")
        + (f"; {_cite('gp_rg_host_segments_coordinator')}" if s.coordinator_on_host else ""),
    )


def _commit_limit_words(ram_gib: float, swap_gib: float, s: GreenplumSettings, per_seg: float) -> str:
    """With the coordinator on the host: what its instance and the primaries take of the kernel's commit limit."""
    if not s.coordinator_on_host:
        return ""
    commit = (ram_gib * s.vm_overcommit_ratio / 100.0 + swap_gib) * MB_PER_GIB
    n = s.host_instances
    return (f" The {n} instances take {n} x {per_seg:,.0f} = {n * per_seg:,.0f} MB, the"
            f" {s.gp_resource_group_memory_limit:g} share of the commit limit vm.overcommit_memory="
            f"{s.vm_overcommit_memory} enforces (RAM x {s.vm_overcommit_ratio}/100 + SWAP = {commit:,.0f} MB).")


def queue_warning(s: GreenplumSettings, requested: int, queries_per_hour: float, memory_helps: bool = True
                  ) -> Warning | None:
    """The reports that wait in the resource group's queue, and what waiting adds to a query's response time.

    With `requested` queries always submitted and `queries_per_hour` completing, a query spends requested /
    queries_per_hour from submission to result (Little's law), of which CONCURRENCY / queries_per_hour running.
    More memory admits more at once, but shortens that only where the admitted ones leave the hardware idle
    (`memory_helps`): else the throughput, and so the time from submission, stays; more hosts raise it.

    >>> s = memory_plan(512, 32, 8, 16, 2000, 2000, MirrorLayout("group", None, False)).settings
    >>> w = queue_warning(s, 2000, 4000.0); (s.resource_group_concurrency, w is not None and w.code)
    (185, 'queued-queries')
    >>> queue_warning(s, 185, 4000.0) is None
    True
    """
    c = s.resource_group_concurrency
    if c >= requested:
        return None
    per_s = max(queries_per_hour, 1e-9) / 3600.0
    run_s, total_s = c / per_s, requested / per_s
    return Warning(
        "queued-queries",
        f"{requested - c:,} of the {requested:,} concurrent queries wait in the resource group's queue at any"
        f" moment: it admits {c:,} at once (CONCURRENCY={c:,}), the most that keep each at statement_mem"
        f" {s.statement_mem_mb:,} MB per segment with {s.max_acting_primary_segments} acting primaries per host."
        f" At {queries_per_hour:,.0f} queries/h (P50) a query runs about {run_s:,.0f} s and waits"
        f" {total_s - run_s:,.0f} s before it: {total_s:,.0f} s from submission to result. "
        + ("Add memory per host to admit more at once, or set a queries/h target to size the hosts for the"
           " response time." if memory_helps else
           "The admitted queries already keep the hardware busy: more memory would admit more but finish none"
           " sooner (each would run longer); set a queries/h target to size the hosts for the response time."),
        "warning", "workload.concurrent_queries",
    )


def _segment_factor_words(version: str) -> str:
    """'5 x', and on the Greenplum 7 line the range its Reference Guide gives, which refarch's multiple sits in."""
    factor = figure(DOCS, "gp_max_connections_segment_factor")
    if not gp7_family(version):
        return f"{factor:g} x"
    low, high = (figure(DOCS, f"gp7_max_connections_segment_factor_{e}") for e in ("min", "max"))
    return f"{factor:g} x, within the {low:g} to {high:g} times the coordinator's the Greenplum 7 Reference Guide gives"


def _connections_rationale(sessions: int, s: GreenplumSettings) -> Rationale:
    seven = gp7_family(s.greenplum_version)  # the Greenplum 7 line cites its own Reference Guide
    default = figure(DOCS, f"gp{'7' if seven else ''}_max_connections_coordinator_default")
    w = role_word(s.greenplum_version)
    pooled = (f" The {sessions:,} sessions exceed it: PgBouncer on the {w} takes them (max_client_conn"
              f" {s.pooled_sessions:,}) and runs them over {s.pool_size:,} server connections in transaction mode;"
              f" every connection the {w} holds costs a backend on each primary and semaphores, and more than"
              " run at once would only wait in the resource group's queue." if s.pooled_sessions else "")
    return Rationale(
        "Connections",
        f"max_connections {s.max_connections_coordinator} on the {w} (Greenplum's default {default:g}, or"
        f" what runs at once ({s.resource_group_concurrency:,}) plus {SUPERUSER_RESERVED} reserved for superusers"
        f" when more), {s.max_connections_segment} on segments ({_segment_factor_words(s.greenplum_version)}),"
        f" max_prepared_transactions {s.max_prepared_transactions}." + pooled,
        (f"{_cite('gp7_max_connections_coordinator_default')}; {_cite('gp7_max_connections_segment_factor_min')}"
         if seven else
         f"{_cite('gp_max_connections_coordinator_default')}; {_cite('gp_max_connections_segment_factor')}")
        + ("; Greenplum Database Administrator Guide, Using the PgBouncer Connection Pooler" if pooled else ""),
    )


def pooler_warning(s: GreenplumSettings) -> Warning | None:
    """Sessions beyond max_connections: PgBouncer is part of the design (os and greenplum/pgbouncer.ini)."""
    if not s.pooled_sessions:
        return None
    w = role_word(s.greenplum_version)
    return Warning(
        "connection-pooler",
        f"{s.pooled_sessions:,} sessions are more than the {w}'s max_connections"
        f" ({s.max_connections_coordinator:,}): clients must connect through PgBouncer on the {w}"
        f" (greenplum/pgbouncer.ini), which runs them over {s.pool_size:,} server connections in transaction mode;"
        " session state (SET, temporary tables, session advisory locks) does not survive between transactions.",
        "warning", "workload.concurrent_queries",
    )


def _warnings(s: GreenplumSettings, per_seg: float) -> tuple[Warning, ...]:
    warnings: list[Warning] = []
    floor = figure(DOCS, "gp_statement_mem_default_mb")
    if s.statement_mem_mb < floor:
        warnings.append(Warning(
            "low-statement-mem",
            f"statement_mem is {s.statement_mem_mb:,} MB per query per segment ({per_seg:,.0f} MB per segment"
            f" with {s.max_acting_primary_segments} acting primaries, shared by {s.resource_group_concurrency}"
            f" concurrent queries): below Greenplum's default of {floor:g} MB, so queries spill to disk early. Add"
            " memory, run fewer primaries per host, or cap the resource group's concurrency.",
            "warning", "platform.memory_gib",
        ))
    vmem_floor = figure(RULES, "gp_vmem_protect_limit_floor_mb")
    if s.gp_vmem_protect_limit_mb < vmem_floor:
        # the primaries are bounded by this floor (`segments.for_memory`): below it only a host too small for one
        why = (f"even one primary per segment host cannot keep the {vmem_floor:,.0f} MB floor on this memory"
               if s.primaries_per_segment_host <= 1 else f"below the {vmem_floor:,.0f} MB floor")
        warnings.append(Warning(
            "low-vmem-per-segment",
            f"gp_vmem_protect_limit is {s.gp_vmem_protect_limit_mb:,} MB per segment with"
            f" {s.max_acting_primary_segments} acting primaries after a host failure ({why}): queries will spill"
            " early or fail while a host is down; add memory or use fewer segments per host.",
            "warning", "platform.memory_gib",
        ))
    return tuple(warnings)


def wal_gib_per_instance() -> float:
    """WAL one segment instance keeps: (2 x checkpoint_segments + 1) x 64 MB.

    >>> round(wal_gib_per_instance(), 3)
    1.062
    """
    segs = figure(DOCS, "gp_checkpoint_segments_default")
    return (2 * segs + 1) * figure(DOCS, "gp_wal_segment_mb") / MB_PER_GIB

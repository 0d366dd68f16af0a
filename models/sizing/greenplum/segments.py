"""Primary segments per host that follow the hardware: cores, memory per segment, data drives.

Study 002 gives three tiers for its 48-core reference host (Type 1: 8, Type 2: 16, Type 3: 32
primaries per host, by concurrency) and says primaries "should almost never exceed" the cores.
A 96-core host running the reference host's 16 primaries would leave half its cores idle on a
single query, so:

* hosts up to the reference size keep the tier count, capped at their cores;
* bigger hosts keep the tier's cores per primary: tier x cores / 48 (the study: more cores
  "likely to improve performance" on concurrent workloads), never above the cores;
* memory: after the worst host failure gp_vmem_protect_limit must stay at its floor (half
  Greenplum's 8,192 MB default) and each query still get Greenplum's default statement_mem
  (125 MB) on every segment with up to 30 queries running (study 002's high-concurrency line), else
  fewer primaries. Above 30 the primaries stay at what 30 allow: Greenplum's resource group runs as
  many queries at once as memory gives that statement_mem (`admitted`, its CONCURRENCY) and queues
  the rest, so 2,000 requested reports do not shrink a 48-core host to one primary;
* drives: at most 4 primaries per data drive (Type 3's 32 on the reference host's 8 drives).

On vSphere the count is per host and spread evenly over its VMs (one per NUMA node, each with
its node's cores as vCPUs), so it is a multiple of the VM count. OLTP uses the Type 1 tier
(short transactions touch few segments) without the statement_mem bound (they need little memory).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure, point
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform
from models.sizing.greenplum.candidates import Candidates
from models.sizing.greenplum.memory import admitted_queries
from models.sizing.result import Rationale
from models.sizing.rules import RULES, SegmentChoice, gp_vmem_mb, segments_for_concurrency

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
GP002 = "gp_nvme_ra_002"
DOCS = "vendor_docs"
MB_PER_GIB = 1024.0


def _cite(dataset: str, pid: str) -> str:
    return point(dataset, pid).source.cite()


def reference_cores() -> int:
    return int(figure(RULES, "segments_more_cores_help_concurrency"))


def tier_choice(workload: GreenplumAnalytics | GreenplumOltp) -> SegmentChoice:
    """Study 002's tier for the workload (the architect's `segment_tier` where set), before the host's cores."""
    if isinstance(workload, GreenplumAnalytics):
        return segments_for_concurrency(workload.concurrent_queries, 10**6, workload.segment_tier)
    return segments_for_concurrency(10**6, 10**6)


def tier_primaries(workload: GreenplumAnalytics | GreenplumOltp) -> int:
    return tier_choice(workload).primaries_per_host


def for_cores(tier: int, cores: FloatArray | float) -> IntArray:
    """The tier count on a host of `cores`: capped up to the reference size, scaled beyond it.

    >>> for_cores(16, np.array([8, 16, 48, 96, 192])).tolist()
    [8, 16, 16, 32, 64]
    >>> for_cores(32, np.array([16, 64])).tolist()
    [16, 43]
    """
    c = np.asarray(cores, dtype=float)
    ref = reference_cores()
    scaled = np.where(c <= ref, np.minimum(tier, c), np.minimum(np.round(tier * c / ref), c))
    primaries: NDArray[np.int64] = np.maximum(scaled, 1).astype(np.int64)
    return primaries


def for_drives(drives: ArrayLike) -> IntArray:
    return (np.asarray(drives, dtype=float) * figure(RULES, "segments_max_primaries_per_data_drive")).astype(np.int64)


def segment_vm_memory_gib(memory_gib: FloatArray, vms: IntArray, virtual: NDArray[np.bool_], platform: Platform
                          ) -> FloatArray:
    """Memory the Greenplum instances of one segment host (one VM on vSphere) see."""
    frac = figure(RULES, "hypervisor_reserve_fraction")
    floor = figure(RULES, "hypervisor_reserve_min_gib")
    reserve = (np.full_like(memory_gib, platform.hypervisor_reserve_gib) if platform.hypervisor_reserve_gib
               is not None else np.maximum(memory_gib * frac, floor))
    per_vm = np.floor((memory_gib - reserve) / np.maximum(vms, 1) * 10) / 10
    return np.where(virtual, per_vm, memory_gib)


def acting_for(policy: str | None, p: IntArray, block_hosts: int | None) -> IntArray:
    """Acting primaries after a failure, for enough hosts (spread: one more each)."""
    if policy is None:
        return p
    if policy == "group":
        return 2 * p
    if policy == "spread":
        return p + 1
    b = max(int(block_hosts or 2), 2)
    return p + -(-p // (b - 1))


def running_floor(workload: GreenplumAnalytics | GreenplumOltp) -> int | None:
    """The reports the primaries leave each the default statement_mem for: all of them up to the admission
    floor (30), the floor above it (the resource group queues the rest). None for OLTP (short statements)."""
    if not isinstance(workload, GreenplumAnalytics):
        return None
    return min(workload.concurrent_queries, int(figure(RULES, "gp_admission_floor_queries")))


def admitted(workload: GreenplumAnalytics | GreenplumOltp, memory_gib: FloatArray, virtualized: NDArray[np.bool_],
             numa_nodes: FloatArray | IntArray, primaries: IntArray, platform: Platform | None
             ) -> FloatArray | None:
    """The reports each candidate's resource group runs at once (`memory.admitted_queries` at its acting
    primaries after the worst failure); None where every candidate runs all of them (none queue) and for OLTP:
    the workload's concurrency then stands for all, a scalar. Vectorised over the candidates."""
    out = admitted_raw(workload, memory_gib, virtualized, numa_nodes, primaries, platform)
    return queued(workload, out) if out is not None and isinstance(workload, GreenplumAnalytics) else None


def queued(workload: GreenplumAnalytics, out: NDArray[Any]) -> FloatArray | None:
    """`admitted`'s answer from `admitted_queries`'s: None where every candidate runs all the reports."""
    return None if bool(np.all(out >= workload.concurrent_queries)) else out.astype(float)


def admitted_raw(workload: GreenplumAnalytics | GreenplumOltp, memory_gib: FloatArray, virtualized: NDArray[np.bool_],
                 numa_nodes: FloatArray | IntArray, primaries: IntArray, platform: Platform | None
                 ) -> NDArray[Any] | None:
    """`admitted` before its "every report runs" test (None for OLTP): per element, for a table of layouts."""
    if not isinstance(workload, GreenplumAnalytics) or len(primaries) == 0:
        return None
    plat = platform or Platform()
    vms = np.where(virtualized, numa_nodes, 1).astype(np.int64)
    ram = segment_vm_memory_gib(np.asarray(memory_gib, dtype=float), vms, virtualized, plat)
    policy = workload.mirroring if workload.mirrors else None
    acting = acting_for(policy, np.maximum(np.asarray(primaries, dtype=np.int64) // vms, 1),
                        workload.mirror_block_hosts)
    return admitted_queries(ram, plat.swap_gib, acting, workload.concurrent_queries)


def vmem_floor_mb() -> float:
    """The least gp_vmem_protect_limit a design may run with a host down (the low-vmem warning's line too)."""
    return figure(RULES, "gp_vmem_protect_limit_floor_mb")


def for_memory(
    ram_gib: FloatArray, swap_gib: float, concurrency: int | None, policy: str | None, block_hosts: int | None,
    cap: IntArray,
) -> IntArray:
    """The most primaries per segment host (VM) that keep, after the worst failure, gp_vmem_protect_limit at
    its floor and (with a `concurrency`) each query the default statement_mem.

    gp_vmem_protect_limit = gp_vmem / acting, and statement_mem = min(rg_perseg_mem, 0.9 x
    gp_vmem_protect_limit) / concurrency, where both terms are a host constant divided by the acting
    primaries, so the bound is the largest p with acting(p) <= gp_vmem / floor and acting(p) <= K /
    (concurrency x 125 MB). OLTP (`concurrency` None) keeps only the first: short statements need little.

    >>> for_memory(np.array([512.0, 96.0]), 32, None, "group", None, np.array([64, 16])).tolist()
    [54, 8]
    """
    vmem = gp_vmem_mb(ram_gib, swap_gib)
    most_acting = np.floor(vmem / vmem_floor_mb())
    if concurrency is not None:
        ratio = figure(DOCS, "vm_overcommit_ratio_pct") / 100.0
        share = figure(DOCS, "gp_resource_group_memory_limit_default")
        k = np.minimum((ram_gib * ratio + swap_gib) * share * MB_PER_GIB,
                       figure(DOCS, "gp_statement_mem_formula") * vmem)
        most_acting = np.minimum(
            most_acting, np.floor(k / (max(concurrency, 1) * figure(DOCS, "gp_statement_mem_default_mb"))))
    p = np.asarray(cap, dtype=np.int64).copy()
    for _ in range(64):  # acting() is monotone in p: step down where it is too high (at most a few steps)
        over = (acting_for(policy, p, block_hosts) > most_acting) & (p > 1)
        if not np.any(over):
            break
        # jump close to the bound first, then settle by single steps
        guess = np.floor(most_acting / np.maximum(acting_for(policy, p, block_hosts) / np.maximum(p, 1), 1))
        p = np.where(over, np.maximum(np.minimum(p - 1, guess), 1), p).astype(np.int64)
    cap_arr = np.asarray(cap, dtype=np.int64)
    for _ in range(64):  # the jump may land below the bound (block's ceil): settle up by single steps
        up = (p < cap_arr) & (acting_for(policy, p + 1, block_hosts) <= most_acting)
        if not np.any(up):
            break
        p = np.where(up, p + 1, p).astype(np.int64)
    return np.maximum(p, 1)


@dataclass(frozen=True)
class SegmentPlan:
    primaries_per_host: IntArray
    vms_per_host: IntArray
    by_cores: IntArray
    by_drives: IntArray
    by_memory: IntArray  # per host (per-VM bound x VMs)


def plan(
    workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None = None
) -> SegmentPlan:
    """Primaries and VMs per host for every candidate."""
    layouts = server_layouts(c)
    if layouts is not None:  # a function of (server, drive count, deployment) only: once per such layout
        rep, which = layouts
        one = _plan(workload, c, platform, rep)
        return SegmentPlan(*(getattr(one, f)[which] for f in SegmentPlan.__dataclass_fields__))
    return _plan(workload, c, platform)


def counts(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None,
           layouts: tuple[IntArray, IntArray] | None) -> tuple[IntArray, IntArray]:
    """`plan`'s primaries and VMs per host alone, with the candidates' `server_layouts` (or `host_layouts`: any
    groups of one server, drive count and deployment each) already found."""
    if layouts is None:
        one = _plan(workload, c, platform)
        return one.primaries_per_host, one.vms_per_host
    rep, which = layouts
    one = _plan(workload, c, platform, rep)
    return one.primaries_per_host.take(which), one.vms_per_host.take(which)  # `take`: half an index's cost


def _plan(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None,
          rows: IntArray | None = None) -> SegmentPlan:
    """The plan of candidates `rows` (all where None): only the columns it reads are taken."""
    def col(a: NDArray[Any]) -> NDArray[Any]:
        return a if rows is None else a[rows]

    plat = platform or Platform()
    virtualized, numa_nodes, memory_gib = col(c.virtualized), col(c.numa_nodes), col(c.memory_gib)
    vms = np.where(virtualized, numa_nodes, 1).astype(np.int64)
    tier = tier_primaries(workload)
    cores = for_cores(tier, col(c.cores_total))
    drives = np.maximum(for_drives(col(c.drives_per_host)), vms)
    cap_unit = np.maximum(np.minimum(cores, drives) // vms, 1)
    policy = (workload.mirroring if workload.mirrors else None)
    ram = segment_vm_memory_gib(memory_gib, vms, virtualized, plat)
    queries = running_floor(workload)
    # memory's own limit (up to the cores), so the rationale's "by memory" is what memory allows, not the drives' cap
    mem_unit = for_memory(ram, plat.swap_gib, queries, policy, workload.mirror_block_hosts,
                          np.maximum(cores // vms, 1))
    unit = np.maximum(np.minimum(cap_unit, mem_unit), 1)
    return SegmentPlan(unit * vms, vms, cores, drives, mem_unit * vms)


def server_layouts(c: Candidates) -> tuple[IntArray, IntArray] | None:
    """(one row of each (server, drive count, deployment) among the candidates, each candidate's layout), or None
    where that would not save work: the optimizer's chunks hold each layout once per drive and RAID level."""
    return _groups(c, False)


class HostLayouts(NamedTuple):
    """One row of each (server, drive count, deployment, RAID level) among the candidates (`rep`) and each
    candidate's group (`which`, an index into `rep`): a host but its drive model. Whatever is a function of these
    alone (the segments, the scan's CPU rate, the RAID factors, the admitted reports) is computed once per group
    and spread (the same arithmetic, element by element); a chunk of the optimizer holds a few hundred groups."""

    rep: IntArray
    which: IntArray


def host_layouts(c: Candidates) -> HostLayouts | None:
    """The candidates' `HostLayouts`, or None where grouping would not save work."""
    groups = _groups(c, True)
    return None if groups is None else HostLayouts(*groups)


def _groups(c: Candidates, raid: bool) -> tuple[IntArray, IntArray] | None:
    """(one row of each group, each candidate's group) of the candidates sharing server, drive count, deployment
    (and, with `raid`, RAID level), or None where that would not save work.

    The groups are found by a direct table over the key (no sort): the chunk's servers are few and contiguous. The
    key is built in place (a chunk's column each step, no temporaries).
    """
    n = len(c)
    if n < 256:
        return None
    first = int(c.server_idx.min())
    counts = int(c.drives_per_host.max()) + 1
    key = np.subtract(c.server_idx, first, dtype=np.int64)
    key *= counts
    key += c.drives_per_host
    key *= 2
    key += c.virtualized
    if raid:
        if int(c.raid_code.min()) < 0:
            return None
        key *= int(c.raid_code.max()) + 1
        key += c.raid_code
    size = int(key.max()) + 1
    if size > 4 * n:
        return None
    rep = np.full(size, -1, dtype=np.int64)
    rep[key] = np.arange(n)
    present = np.flatnonzero(rep >= 0)
    if present.size * 4 > n:
        return None
    slot = np.zeros(size, dtype=np.int64)
    slot[present] = np.arange(present.size)
    return rep[present], slot[key]


class HostSegments(NamedTuple):
    """One design's host as its primaries were chosen: its cores and data drives, its VMs (1 on bare metal), the
    primaries chosen per host, what its memory allows and whether it is virtualized."""

    cores: int
    drives: int
    vms: int
    chosen: int
    by_memory: int
    virtual: bool


def rationale(workload: GreenplumAnalytics | GreenplumOltp, host: HostSegments) -> list[Rationale]:
    """The arithmetic behind one design's primaries per host."""
    cores, drives, vms, chosen, by_memory, virtual = host
    queries = workload.concurrent_queries if isinstance(workload, GreenplumAnalytics) else 10**6
    seg = tier_choice(workload)
    tier = seg.primaries_per_host
    ref = reference_cores()
    by_cores = int(for_cores(tier, np.array([cores]))[0])
    text = seg.rationale.text
    if isinstance(workload, GreenplumOltp):
        text = f"OLTP: short transactions touch few segments, so the Type 1 count ({tier} per host) keeps per-host" \
               " process load low."
    if cores <= ref:
        text += f" The tiers are set for the {ref}-core reference host; this host has {cores} cores, so" \
                f" min({tier}, {cores}) = {by_cores}."
    else:
        text += f" The tiers are set for the {ref}-core reference host; this host has {cores} cores, so the tier's" \
                f" cores per primary give min({tier} x {cores} / {ref}, {cores}) = {by_cores}."
    by_drives = int(for_drives(drives))
    limits = [f"by cores {by_cores}", f"by data drives {drives} x" \
              f" {figure(RULES, 'segments_max_primaries_per_data_drive'):g} = {by_drives}"]
    floor = f"gp_vmem_protect_limit at least {vmem_floor_mb():,.0f} MB"
    # the memory bound is searched up to the cores: at the cores it does not bind
    most = max(by_cores // max(vms, 1), 1) * max(vms, 1)  # the cores' count spread evenly over the VMs
    memory = f"by memory {by_memory}" if by_memory < most else f"by memory all {most}"
    run = running_floor(workload)
    if run is not None and run < queries:
        limits.append(f"{memory} ({floor} and the default statement_mem for each of {run} concurrent queries, with"
                      f" a host down: above {run} the resource group admits what memory allows at these primaries"
                      f" and queues the rest of the {queries:,}, see Resource groups)")
    elif run is not None:
        limits.append(f"{memory} ({floor} and the default statement_mem for each of"
                      f" {queries} concurrent queries, with a host down)")
    else:
        limits.append(f"{memory} ({floor} with a host down)")
    if isinstance(workload, GreenplumAnalytics) and workload.segment_tier is None:
        text += " The study leaves the tier to an experienced Greenplum architect's review; the scenario's segment" \
                " tier sets another."
    text += f" Limits: {'; '.join(limits)}."
    if virtual:
        text += f" Spread evenly over {vms} VMs: {chosen} per host, {chosen // vms} per VM."
    else:
        text += f" Chosen: {chosen} per host."
    src = "; ".join((seg.rationale.source_text, _cite(RULES, "segments_more_cores_help_concurrency"),
                     _cite(GP002, "max_primaries_per_core"), _cite(RULES, "segments_max_primaries_per_data_drive"),
                     _cite(DOCS, "gp_statement_mem_default_mb"), _cite(RULES, "gp_vmem_protect_limit_floor_mb"))
                    + ((_cite(RULES, "gp_admission_floor_queries"),) if run is not None and run < queries else ()))
    return [Rationale("Primary segments per host", text, src)]


def busy_cores(workload: GreenplumAnalytics | GreenplumOltp, cores: int, primaries: int) -> float:
    """The cores a host's primaries keep at work: its cores' share that the primaries fill at study 002's tier
    (`for_cores`: the primaries its cores take); fewer primaries (drives, memory) leave the rest without a segment.

    >>> from models.scenario import GreenplumAnalytics
    >>> w = GreenplumAnalytics(data_tb=60, concurrent_queries=20)
    >>> busy_cores(w, 48, 16), round(busy_cores(w, 184, 40), 1)
    (48.0, 120.7)
    """
    take = int(for_cores(tier_primaries(workload), float(cores)))
    return float(cores) * min(1.0, primaries / max(take, 1))

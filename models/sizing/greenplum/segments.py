"""Primary segments per host that follow the hardware: cores, memory per segment, data drives and volumes.

Study 002 gives three tiers for its 48-core reference host (Type 1: 8, Type 2: 16, Type 3: 32
primaries per host, by concurrency) and says primaries "should almost never exceed" the cores.
One rule carries the tiers to any host: a tier is a number of cores per primary on the reference
host (Type 1: 6, Type 2: 3, Type 3: 1.5), so a host runs at most tier x cores / 48 primaries
(`for_cores`; the study: more cores "likely to improve performance" on concurrent workloads), never
above its cores. Then, each per segment host (one VM on vSphere):

* memory: after the worst host failure gp_vmem_protect_limit must stay at its floor (half
  Greenplum's 8,192 MB default) and each query still get Greenplum's default statement_mem
  (125 MB) on every segment with up to 30 queries running (study 002's high-concurrency line), else
  fewer primaries. Above 30 the primaries stay at what 30 allow: Greenplum's resource group runs as
  many queries at once as memory gives that statement_mem (`admitted`, its CONCURRENCY) and queues
  the rest, so 2,000 requested reports do not shrink a 48-core host to one primary;
* drives: at most 4 primaries per flash data drive (Type 3's 32 on the reference host's 8 NVMe
  drives) and one per hard disk (the installation guide's logical disk: one primary file system and
  optionally one mirror file system; study 000 ran one instance per disk);
* volumes (`even_on_volumes`): gpinitsystem's DATA_DIRECTORY and MIRROR_DATA_DIRECTORY lists go
  round-robin over the data volumes (one per drive without RAID, one RAID volume), so the primaries
  are a multiple of the volumes, or, fewer than the volumes, one instance per volume (study 000's 8
  primaries and 8 mirrors on 16 disks): every volume then carries the same load.

On vSphere the count is per host and spread evenly over its VMs (one per NUMA node, each with
its node's cores as vCPUs), so it is a multiple of the VM count. OLTP uses the Type 1 tier
(short transactions touch few segments) without the statement_mem bound (they need little memory).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure, point
from models.hardware import FLASH_MIN_IOPS
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform
from models.sizing.greenplum.candidates import Candidates
from models.sizing.greenplum.memory import OltpHost, admitted_queries, segment_pool_mb
from models.sizing.greenplum.volumes import data_volumes, even_on_volumes, fewest_even, for_drives, is_even, per_drive
from models.sizing.result import Rationale
from models.sizing.rules import RULES, SegmentChoice, gp_vmem_mb, segments_for_concurrency

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
DOCS = "vendor_docs"
MB_PER_GIB = 1024.0


def _cite(dataset: str, pid: str) -> str:
    return point(dataset, pid).source.cite()


def reference_cores() -> int:
    return int(figure(RULES, "segments_more_cores_help_concurrency"))


def tier_choice(workload: GreenplumAnalytics | GreenplumOltp) -> SegmentChoice:
    """Study 002's tier for the workload (the architect's `segment_tier` where set), before the host's cores."""
    if isinstance(workload, GreenplumAnalytics):
        return segments_for_concurrency(workload.concurrent_queries, workload.segment_tier)
    return segments_for_concurrency(10**6)


def tier_primaries(workload: GreenplumAnalytics | GreenplumOltp) -> int:
    return tier_choice(workload).primaries_per_host


def for_cores(tier: int, cores: FloatArray | float) -> IntArray:
    """The most primaries a host of `cores` runs at a tier of `tier` primaries on study 002's reference host: the
    tier's cores per primary held on every host, tier x cores / 48 rounded down, at least 1, never above the cores.

    >>> for_cores(16, np.array([8, 16, 48, 64, 96, 192])).tolist()
    [2, 5, 16, 21, 32, 64]
    >>> for_cores(32, np.array([16, 32, 48, 64, 96])).tolist()
    [10, 21, 32, 42, 64]
    """
    c = np.asarray(cores, dtype=float)
    scaled = np.minimum(np.floor(tier * c / reference_cores()), c * figure(RULES, "segments_not_above_cores"))
    primaries: NDArray[np.int64] = np.maximum(scaled, 1).astype(np.int64)
    return primaries


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
    return admitted_queries(ram, plat.swap_gib, acting, workload.concurrent_queries, workload.greenplum_version)


def vmem_floor_mb() -> float:
    """The least gp_vmem_protect_limit a design may run with a host down (the low-vmem warning's line too)."""
    return figure(RULES, "gp_vmem_protect_limit_floor_mb")


def for_memory(
    ram_gib: FloatArray, swap_gib: float, concurrency: int | None, policy: str | None, block_hosts: int | None,
    cap: IntArray, extra_instances: int = 0, version: str = "6",
) -> IntArray:
    """The most primaries per segment host (VM) that keep, after the worst failure, gp_vmem_protect_limit at
    its floor and (with a `concurrency`) each query the default statement_mem; `extra_instances` (a coordinator on
    the host) share the same memory beside the acting primaries (`memory.OltpHost`).

    gp_vmem_protect_limit = gp_vmem / acting, and statement_mem = min(rg_perseg_mem, 0.9 x
    gp_vmem_protect_limit) / concurrency (0.9 x gp_vmem_protect_limit / concurrency on the Greenplum 7 line,
    `memory.segment_pool_mb`), where both terms are a host constant divided by the acting
    primaries, so the bound is the largest p with acting(p) <= gp_vmem / floor and acting(p) <= K /
    (concurrency x 125 MB). OLTP (`concurrency` None) keeps only the first: short statements need little.

    >>> for_memory(np.array([512.0, 96.0]), 32, None, "group", None, np.array([64, 16])).tolist()
    [54, 8]
    """
    vmem = gp_vmem_mb(ram_gib, swap_gib)
    most_acting = np.floor(vmem / vmem_floor_mb())
    if concurrency is not None:
        k = segment_pool_mb(ram_gib, swap_gib, 1, vmem, version)  # the pool of one acting primary = the host's
        most_acting = np.minimum(
            most_acting, np.floor(k / (max(concurrency, 1) * figure(DOCS, "gp_statement_mem_default_mb"))))
    most_acting = most_acting - extra_instances
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
    by_cores: IntArray  # the tier's count on the host's cores (`for_cores`)
    by_drives: IntArray  # per host (per-VM bound x VMs)
    by_memory: IntArray  # per host (per-VM bound x VMs), memory's own limit up to the cores
    volumes: IntArray  # data volumes per segment host (VM)
    # where the count that loads the volumes evenly differs from the tier's on the cores, memory and drives (or no
    # count does): a part warning, so a search with the drive count free prefers drives that carry the tier's count
    off_tier: NDArray[np.bool_]
    wanted: IntArray  # per host: the count the tier, cores, memory and drives give before the volumes


def plan(
    workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None = None
) -> SegmentPlan:
    """Primaries and VMs per host for every candidate."""
    return _plan(workload, c, platform, server_layouts(c))


def counts(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None,
           layouts: tuple[IntArray, IntArray] | None) -> tuple[IntArray, IntArray]:
    """`plan`'s primaries and VMs per host alone, with the candidates' `server_layouts` (or `host_layouts`: any
    groups of one server, drive count and deployment each) already found."""
    one = fitted(workload, c, platform, layouts)
    return one.primaries_per_host, one.vms_per_host


def fitted(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None,
           layouts: tuple[IntArray, IntArray] | None) -> SegmentPlan:
    """`plan` with the candidates' `server_layouts` (or `host_layouts`) already found."""
    return _plan(workload, c, platform, layouts)


class _HostBounds(NamedTuple):
    """What a (server, drive count, deployment) allows per host, whatever its drive model and RAID level: VMs, the
    tier's count on its cores, and per VM the cores and what memory allows."""

    vms: IntArray
    by_cores: IntArray
    cores_unit: IntArray
    memory_unit: IntArray

    def take(self, which: IntArray) -> _HostBounds:
        return _HostBounds(*(a.take(which) for a in self))  # `take`: half an index's cost


def _host_bounds(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None,
                 rows: IntArray | None) -> _HostBounds:
    """`_HostBounds` of candidates `rows` (all where None): only the columns it reads are taken."""
    def col(a: NDArray[Any]) -> NDArray[Any]:
        return a if rows is None else a[rows]

    plat = platform or Platform()
    virtualized, numa_nodes, memory_gib = col(c.virtualized), col(c.numa_nodes), col(c.memory_gib)
    vms = np.where(virtualized, numa_nodes, 1).astype(np.int64)
    cores_total = col(c.cores_total)
    by_cores = for_cores(tier_primaries(workload), cores_total)
    cores_unit = np.maximum(cores_total.astype(np.int64) // vms, 1)  # never more primaries than cores
    policy = (workload.mirroring if workload.mirrors else None)
    ram = segment_vm_memory_gib(memory_gib, vms, virtualized, plat)
    # memory's own limit (up to the cores), so the rationale's "by memory" is what memory allows, not another cap
    coordinator = OltpHost(workload.coordinator_on_segment_host) if isinstance(workload, GreenplumOltp) else None
    mem_unit = for_memory(ram, plat.swap_gib, running_floor(workload), policy, workload.mirror_block_hosts,
                          cores_unit, coordinator.extra_instances if coordinator else 0, workload.greenplum_version)
    return _HostBounds(vms, by_cores, cores_unit, mem_unit)


def _plan(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None,
          layouts: tuple[IntArray, IntArray] | None) -> SegmentPlan:
    """The plan of every candidate: the host's bounds once per `layouts` group (each (server, drive count,
    deployment); None: per candidate), then per candidate the drives (flash or hard disks) and the data volumes
    (RAID or not), element by element."""
    if layouts is None:
        b = _host_bounds(workload, c, platform, None)
    else:
        b = _host_bounds(workload, c, platform, layouts[0]).take(layouts[1])
    return _fit(workload, b, c.drives_per_host, c.spinning, c.raid_code)


def _fit(workload: GreenplumAnalytics | GreenplumOltp, b: _HostBounds, drives: IntArray, spinning: NDArray[np.bool_],
         raid_codes: IntArray) -> SegmentPlan:
    """The plan of hosts with bounds `b` and these data drives, hard disks where `spinning`, at these RAID levels."""
    vms = b.vms
    drives_unit = drives // vms
    by_drives = np.maximum(for_drives(drives_unit, spinning), 1)
    hard = np.minimum(np.minimum(b.memory_unit, b.cores_unit), by_drives)
    volumes = data_volumes(drives_unit, raid_codes)
    soft = np.maximum(b.by_cores // vms, 1)
    unit = even_on_volumes(soft, hard, volumes, workload.mirrors)
    wanted = np.maximum(np.minimum(soft, hard), 1)
    off = (unit != wanted) | ~is_even(unit, volumes, workload.mirrors)
    return SegmentPlan(unit * vms, vms, b.by_cores, by_drives * vms, b.memory_unit * vms, volumes, off, wanted * vms)


def by_layout(workload: GreenplumAnalytics | GreenplumOltp, c: Candidates, platform: Platform | None,
              layouts: HostLayouts) -> tuple[IntArray, IntArray, NDArray[np.bool_]]:
    """Primaries and VMs per host and `SegmentPlan.off_tier` of candidates whose `layouts` hold one server, drive
    count, deployment, RAID level and drive kind each (`by_spindles` of `host_layouts`): the whole plan once per
    group and spread, the same numbers as `plan`."""
    rep, which = layouts
    one = _fit(workload, _host_bounds(workload, c, platform, rep), c.drives_per_host[rep],
               c.drive_random_read_iops[rep] < FLASH_MIN_IOPS, c.raid_code[rep])
    return one.primaries_per_host.take(which), one.vms_per_host.take(which), one.off_tier.take(which)


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


def by_spindles(layouts: HostLayouts | None, spinning: NDArray[np.bool_]) -> HostLayouts | None:
    """`layouts` with each group that holds hard disks and flash drives alike split in two: their primaries differ
    (one per spindle), so what the evaluation computes once per group must see one kind. As it is where the
    candidates' drives are all of one kind."""
    if layouts is None:
        return None
    first = bool(spinning[0]) if spinning.size else False
    if not spinning.size or bool(np.all(spinning == first)):
        return layouts
    rep, which = layouts
    key = which * 2 + spinning
    table = np.full(2 * rep.size, -1, dtype=np.int64)
    table[key] = np.arange(key.size)
    present = np.flatnonzero(table >= 0)
    slot = np.zeros(table.size, dtype=np.int64)
    slot[present] = np.arange(present.size)
    return HostLayouts(table[present], slot[key])


class HostSegments(NamedTuple):
    """One design's host as its primaries were chosen: its cores and data drives, its VMs (1 on bare metal), the
    primaries chosen per host, what its memory allows, whether it is virtualized, its data volumes per host (VM)
    and whether its drives are hard disks."""

    cores: int
    drives: int
    vms: int
    chosen: int
    by_memory: int
    virtual: bool
    volumes: int = 1
    spinning: bool = False


def rationale(workload: GreenplumAnalytics | GreenplumOltp, host: HostSegments) -> list[Rationale]:
    """The arithmetic behind one design's primaries per host."""
    cores, _, vms, chosen, _, virtual, _, _ = host
    seg = tier_choice(workload)
    tier = seg.primaries_per_host
    ref = reference_cores()
    by_cores = int(for_cores(tier, np.array([cores]))[0])
    text = seg.rationale.text
    if isinstance(workload, GreenplumOltp):
        text = f"OLTP: short transactions touch few segments, so the Type 1 count ({tier} per host) keeps per-host" \
               " process load low."
    text += f" The tiers are set for the {ref}-core reference host, so each is a number of cores per primary" \
            f" ({ref / tier:g} at this tier), held on any host: this host has {cores} cores, so" \
            f" min({tier} x {cores} / {ref}, {cores}) = {by_cores}."
    if isinstance(workload, GreenplumAnalytics) and workload.segment_tier is None:
        text += " The study leaves the tier to an experienced Greenplum architect's review; the scenario's segment" \
                " tier sets another."
    text += f" Limits: {'; '.join(_limits(workload, host, by_cores))}. {_volumes_text(workload, host, by_cores)}"
    if virtual:
        text += f" Spread evenly over {vms} VMs: {chosen} per host, {chosen // vms} per VM."
    else:
        text += f" Chosen: {chosen} per host."
    run = running_floor(workload)
    queries = workload.concurrent_queries if isinstance(workload, GreenplumAnalytics) else 10**6
    src = "; ".join((seg.rationale.source_text, _cite(RULES, "segments_more_cores_help_concurrency"),
                     _cite(RULES, "segments_not_above_cores"), _cite(RULES, "segments_max_primaries_per_data_drive"),
                     _cite(RULES, "segments_max_primaries_per_spindle"),
                     _cite(RULES, "segments_even_over_data_volumes"),
                     _cite(DOCS, "gp_statement_mem_default_mb"), _cite(RULES, "gp_vmem_protect_limit_floor_mb"))
                    + ((_cite(RULES, "gp_admission_floor_queries"),) if run is not None and run < queries else ()))
    return [Rationale("Primary segments per host", text, src)]


def _limits(workload: GreenplumAnalytics | GreenplumOltp, host: HostSegments, by_cores: int) -> list[str]:
    """The bounds on a host's primaries, in words: cores, drives, memory."""
    cores, drives, vms, _, by_memory, _, _, spinning = host
    per = float(per_drive(spinning))
    by_drives = int(for_drives(drives, spinning))
    kind = "hard disks, one primary (and one mirror) per spindle" if spinning else "flash, the reference's 4 per drive"
    limits = [f"by cores {by_cores} (never above the {cores} cores)",
              f"by data drives {drives} x {per:g} = {by_drives} ({kind})"]
    floor = f"gp_vmem_protect_limit at least {vmem_floor_mb():,.0f} MB"
    most = max(cores // max(vms, 1), 1) * max(vms, 1)  # the cores spread evenly over the VMs
    memory = f"by memory {by_memory}" if by_memory < most else f"by memory all {most}"
    run = running_floor(workload)
    queries = workload.concurrent_queries if isinstance(workload, GreenplumAnalytics) else 10**6
    if run is not None and run < queries:
        limits.append(f"{memory} ({floor} and the default statement_mem for each of {run} concurrent queries, with"
                      f" a host down: above {run} the resource group admits what memory allows at these primaries"
                      f" and queues the rest of the {queries:,}, see Resource groups)")
    elif run is not None:
        limits.append(f"{memory} ({floor} and the default statement_mem for each of"
                      f" {queries} concurrent queries, with a host down)")
    else:
        limits.append(f"{memory} ({floor} with a host down)")
    return limits


def _volumes_text(workload: GreenplumAnalytics | GreenplumOltp, host: HostSegments, by_cores: int) -> str:
    """How the chosen primaries sit on the data volumes of one segment host (VM)."""
    cores, drives, vms, chosen, by_memory, virtual, volumes, spinning = host
    unit, where = chosen // max(vms, 1), "VM" if virtual else "host"
    wanted = min(by_cores, by_memory, cores, int(for_drives(drives, spinning))) // max(vms, 1)
    what = f"{volumes} data volume{'s' if volumes != 1 else ''} per {where}"
    lowest = int(fewest_even(np.array([volumes]), workload.mirrors)[0])
    if unit % max(volumes, 1) == 0:
        k = unit // max(volumes, 1)
        out = (f"Even over the {what}: {unit} primaries = {k} on each volume"
               + (", with as many mirrors." if workload.mirrors else "."))
    elif unit == lowest:
        out = (f"Even over the {what}: {unit} primaries and {unit} mirrors, one instance per volume"
               if workload.mirrors else f"Even over the {what}: one primary per volume")
        out += f" (more than the tier's {by_cores // max(vms, 1)}: fewer would leave volumes idle)." \
            if unit > by_cores // max(vms, 1) else "."
    else:
        out = (f"Uneven: no count within the limits loads the {what} evenly (a multiple of {volumes}, or {lowest});"
               f" {unit} primaries leave some volumes with more segments than others.")
    if unit < wanted:
        out += f" The limits allow {wanted} per {where}, which would load them unevenly."
    return out


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

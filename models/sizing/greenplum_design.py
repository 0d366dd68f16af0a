"""The explained Greenplum design: candidates evaluated, the best one laid out, estimated, priced and argued."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from models.calibration_data import figure
from models.hardware import Dimm, Drive, HardwareCatalog, Server
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing import bom, gp_memory, greenplum, metrics, mirroring, segments
from models.sizing.candidates import (
    Candidates,
    NetworkChoice,
    count_candidates,
    enumerate_candidates,
    iter_candidates,
)
from models.sizing.design_settings import greenplum_settings
from models.sizing.parts import (
    ResolvedParts,
    SizingInputError,
    candidate_servers,
    choose_nic,
    current,
    nics_per_host,
)
from models.sizing.result import Design, HostLayout, Rationale, SizingResult, TargetCheck, Totals, VmLayout, Warning
from models.sizing.rules import (
    RULES,
    capacity_rationale,
    cite,
    coordinator_count,
    coordinator_drive_count,
    coordinator_rationale,
    hypervisor_reserve_gib,
    network_rationale,
    raid5_alignment_advice,
    vm_memory_gib,
    vsphere_layout_rationale,
)
from models.sizing.stream import CheapestFeasible, RunningBest
from models.sizing.targets import estimate_at, judge, target_limit
from models.uncertainty import Estimate
from models.vocabulary import CAPACITY, KINDS, METRICS, RAID_LEVELS, TARGETS, target_words

GpWorkload = GreenplumAnalytics | GreenplumOltp
SEARCH_CHUNK = 65_536  # candidates per evaluation: bounded memory, and a progress report per chunk


def chosen_raid(scenario: Scenario, workload: GpWorkload) -> tuple[str, Rationale]:
    raid = scenario.platform.raid
    if raid is not None:
        return raid, Rationale("RAID", f"RAID level {raid} as specified.", "scenario")
    if workload.mirrors:
        return "none", Rationale(
            "RAID",
            "No RAID on segment data drives: Greenplum mirrors already keep a second copy on another host, and the"
            " reference architecture does not recommend RAID on this configuration yet.",
            "002_feb9b45e1f157a35.txt, Future work: performance optimization for RAID",
        )
    return "raid5", Rationale(
        "RAID",
        "Without mirrors a drive failure would lose data, so segment drives use RAID-5, the lowest-cost redundancy"
        " (one drive of each group holds parity).",
        "002_feb9b45e1f157a35.txt, Future work: performance optimization for RAID",
    )


def recommended_memory_gib(server: Server, floor_gib: float, dimm: Dimm | None) -> int:
    """Memory refarch recommends for a host left on "server default": the server's base memory, raised with DIMMs
    to `floor_gib` (the reference architecture's minimum) when the server's DIMM slots can hold it, so the
    recommendation never trips the minimum it cites.

    >>> from datetime import date
    >>> d = Dimm("d", "v", "32 GiB", 100.0, "USD", date(2025, 1, 1), "s", 32, 4800)
    >>> s = Server("s", "v", "m", 1.0, "USD", date(2025, 1, 1), "s", "1U", 1, 1, None, 1, 384, 24, 8, "SFF", 2,
    ...            800, 100, 500)
    >>> recommended_memory_gib(s, 512, d), recommended_memory_gib(s, 0, d), recommended_memory_gib(s, 2048, d)
    (512, 384, 384)
    """
    base = server.memory_gib
    if dimm is None or floor_gib <= base:
        return base
    target = base + math.ceil((floor_gib - base) / dimm.size_gib) * dimm.size_gib
    return int(target) if target <= server.dimm_slots * dimm.size_gib else base


@dataclass(frozen=True)
class HostMemory:
    """Memory of one server model as sized: what the hosts get and the DIMMs added to its base."""

    memory_gib: float
    dimm: Dimm | None
    extra_dimms: int
    price: float
    fits: bool  # False: the DIMM slots cannot hold it with any DIMM of the catalog


def host_memory(server: Server, wanted_gib: float, dimms: Sequence[Dimm]) -> HostMemory:
    """Memory above the base is added in whole DIMMs that fit the free slots (the base counted in the same DIMMs).

    The cheapest DIMM that fits wins. Below the base the server keeps its base DIMMs (no credit).

    >>> from datetime import date
    >>> d32 = Dimm("d32", "v", "32 GiB", 100.0, "USD", date(2025, 1, 1), "s", 32, 4800)
    >>> d128 = Dimm("d128", "v", "128 GiB", 1250.0, "USD", date(2025, 1, 1), "s", 128, 5600)
    >>> s = Server("s", "v", "m", 1.0, "USD", date(2025, 1, 1), "s", "1U", 1, 1, None, 1, 384, 24, 8, "SFF", 2,
    ...            800, 100, 500)
    >>> m = host_memory(s, 512, [d32, d128]); (m.dimm.id, m.extra_dimms, m.fits)
    ('d32', 4, True)
    >>> m = host_memory(s, 2048, [d32, d128]); (m.dimm.id, m.extra_dimms, m.fits)
    ('d128', 13, True)
    >>> host_memory(s, 65536, [d32, d128]).fits
    False
    """
    base = server.memory_gib
    if wanted_gib <= base or not dimms:
        return HostMemory(float(wanted_gib), None, 0, 0.0, wanted_gib <= base)
    options = []
    for d in dimms:
        extra = math.ceil((wanted_gib - base) / d.size_gib)
        if math.ceil(base / d.size_gib) + extra <= server.dimm_slots:
            options.append((extra * d.price, extra, d))
    if not options:
        return HostMemory(float(wanted_gib), None, 0, 0.0, False)
    price, extra, d = min(options, key=lambda o: (o[0], o[1]))
    return HostMemory(float(wanted_gib), d, extra, float(price), True)


def max_memory_gib(server: Server, dimms: Sequence[Dimm]) -> int:
    """The most memory a server's slots hold with the catalog's DIMMs (its base when none is bigger)."""
    best = server.memory_gib
    for d in dimms:
        free = server.dimm_slots - math.ceil(server.memory_gib / d.size_gib)
        best = max(best, server.memory_gib + max(free, 0) * d.size_gib)
    return int(best)


def memory_plan(
    servers: list[Server], memory_gib: int | None, dimms: Sequence[Dimm], floor_gib: float = 0.0
) -> list[HostMemory]:
    """Per server: the scenario's memory, or the recommendation (base raised to `floor_gib` where slots allow)."""
    cheapest = min(dimms, key=lambda d: (d.price / d.size_gib, -d.size_gib)) if dimms else None
    return [host_memory(s, memory_gib or recommended_memory_gib(s, floor_gib, cheapest), dimms) for s in servers]


@dataclass(frozen=True)
class Search:
    """Evaluated candidates of a set of platforms, with what is needed to explain one of them."""

    servers: list[Server]
    drives: list[Drive]
    net: NetworkChoice
    nic_why: Rationale | None
    memory: list[HostMemory]  # per server: memory, DIMMs added to reach it, their price
    ev: greenplum.Evaluated


class SearchCancelled(Exception):
    pass


@dataclass(frozen=True)
class SearchSpace:
    """Every candidate of a set of platforms, ready to be evaluated chunk by chunk.

    The one evaluation path behind `size` (one platform, or every server and drive when none is
    named) and the optimizer (the whole catalog): `chunks` streams (offset, evaluated chunk) pairs
    through `evaluate_chunk`, so memory stays bounded by the chunk and a long search reports
    progress and stops when asked. Reducers (`models.sizing.stream`, the optimizer's front) keep
    what they report.
    """

    scenario: Scenario
    workload: GpWorkload
    servers: list[Server]
    drives: list[Drive]
    deployments: tuple[str, ...]
    raids: tuple[str, ...]
    drives_per_host: int | None
    net: NetworkChoice
    nic_why: Rationale | None
    memory: list[HostMemory]  # per server: memory, DIMMs added to reach it, their price
    memory_gib: np.ndarray  # per server: memory per host in the design
    extra_memory_price: np.ndarray  # per server: price of the added DIMMs

    def count(self) -> int:
        return count_candidates(self.servers, self.drives, self.deployments, self.raids, self.drives_per_host,
                                greenplum.min_data_drives())

    def chunks(
        self,
        chunk: int = SEARCH_CHUNK,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        total: int | None = None,
    ) -> Iterator[tuple[int, greenplum.Evaluated]]:
        total = self.count() if progress is not None and total is None else (total or 0)
        for offset, cands in iter_candidates(self.servers, self.drives, self.deployments, self.raids,
                                             self.drives_per_host, greenplum.min_data_drives(), chunk):
            if cancelled is not None and cancelled():
                raise SearchCancelled()
            yield offset, evaluate_chunk(self, cands)
            if progress is not None:
                progress(offset + len(cands), total)

    def found(self, ev: greenplum.Evaluated) -> Search:
        return Search(self.servers, self.drives, self.net, self.nic_why, self.memory, ev)


def search_space(
    scenario: Scenario,
    workload: GpWorkload,
    catalog: HardwareCatalog,
    parts: ResolvedParts,
    servers: list[Server],
    drives: list[Drive],
    deployments: Sequence[str],
    raids: Sequence[str],
    drives_per_host: int | None,
) -> SearchSpace:
    plat = scenario.platform
    nic, nic_why = choose_nic(catalog, parts)
    net = NetworkChoice(nic, nics_per_host(nic, plat.nics_per_host))
    dimms = current(catalog.dimms, catalog)
    floor = figure(RULES, "min_memory_gib_per_segment_host") if isinstance(workload, GreenplumAnalytics) else 0.0
    memory = memory_plan(servers, plat.memory_gib, dimms, floor)
    fitting = [s for s, m in zip(servers, memory, strict=True) if m.fits]
    if not fitting:
        most = max(max_memory_gib(s, dimms) for s in servers)
        raise SizingInputError([Problem(
            "platform.memory_gib",
            f"{plat.memory_gib:,} GiB does not fit the DIMM slots of any server that could be chosen"
            f" (at most {most:,} GiB with the catalog's DIMMs; allowed 1-{most:,})",
        )])
    memory = [m for m in memory if m.fits]
    mem = np.array([m.memory_gib for m in memory])
    extra_price = np.array([m.price for m in memory])
    return SearchSpace(scenario, workload, fitting, drives, tuple(deployments), tuple(raids), drives_per_host, net,
                       nic_why, memory, mem, extra_price)


def evaluate_chunk(space: SearchSpace, cands: Candidates) -> greenplum.Evaluated:
    """The per-chunk evaluation kernel: one chunk of candidates through the Greenplum sizing rules.

    The seam where the evaluation semantics live; everything around it (enumeration, streaming,
    reducers) only moves arrays.
    """
    cands = dataclasses.replace(cands, memory_gib=space.memory_gib[cands.server_idx])
    util = space.scenario.assumptions.utilization_pct / 100.0
    return greenplum.evaluate(space.workload, space.scenario.targets, cands, space.net, util,
                              space.extra_memory_price[cands.server_idx], platform=space.scenario.platform)


def search(
    scenario: Scenario,
    workload: GpWorkload,
    catalog: HardwareCatalog,
    parts: ResolvedParts,
    servers: list[Server],
    drives: list[Drive],
    deployments: Sequence[str],
    raids: Sequence[str],
    drives_per_host: int | None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Search:
    """Every candidate evaluated and kept (for small spaces and tests; the optimizer streams)."""
    space = search_space(scenario, workload, catalog, parts, servers, drives, deployments, raids, drives_per_host)
    parts_ev = [ev for _, ev in space.chunks(progress=progress, cancelled=cancelled)]
    if not parts_ev:
        empty = enumerate_candidates(servers, drives, deployments, raids, drives_per_host, greenplum.min_data_drives())
        parts_ev = [evaluate_chunk(space, empty)]
    cands = parts_ev[0].candidates if len(parts_ev) == 1 else Candidates(**{
        f.name: np.concatenate([getattr(e.candidates, f.name) for e in parts_ev])
        for f in dataclasses.fields(Candidates)})
    return space.found(greenplum.Evaluated.concat(parts_ev, cands))


def explain_candidate(scenario: Scenario, workload: GpWorkload, found: Search, i: int, feasible: bool) -> SizingResult:
    c = found.ev.candidates
    raid = RAID_LEVELS[int(c.raid_code[i])]
    server = found.servers[int(c.server_idx[i])]
    reasons = [r for r in (chosen_raid(scenario, workload)[1], found.nic_why) if r]
    return explain(scenario, workload, found.ev, i, feasible, server, found.drives[int(c.drive_idx[i])], found.net,
                   raid, reasons, found.memory[int(c.server_idx[i])])


def size_greenplum(
    scenario: Scenario, workload: GpWorkload, catalog: HardwareCatalog, parts: ResolvedParts
) -> SizingResult:
    servers = candidate_servers(catalog, parts)
    drives = [parts.drive] if parts.drive else current(catalog.drives, catalog)
    if not servers or not drives:
        raise SizingInputError([Problem("catalog", "no servers or no drives to size with (import or seed it)")])
    raid, _ = chosen_raid(scenario, workload)
    space = search_space(scenario, workload, catalog, parts, servers, drives, [scenario.platform.deployment], [raid],
                         scenario.platform.drives_per_host)
    best, cheapest = RunningBest(), CheapestFeasible()
    for offset, ev in space.chunks():
        best.add(offset, ev)
        cheapest.add(offset, ev)
    n = scenario.platform.drives_per_host
    most = max(s.data_bays for s in servers)
    if best.row is None and n is not None and n > most:
        raise SizingInputError([Problem(
            "platform.drives_per_host",
            f"{n} is more than the data bays of every server that could be chosen (the most is {most};"
            f" allowed 1-{most})",
        )])
    if best.row is None:
        what = f"server {parts.server.id}" if parts.server else "any server"
        raise SizingInputError(
            [Problem("platform", f"no drive in the catalog fits {what} with {raid} and the requested drive count")]
        )
    _, settled, feasible = settled_pick(scenario, workload, space.found(settled_pool(best, cheapest)))
    return explain_candidate(scenario, workload, space.found(settled), 0, feasible)


def settled_pool(best: RunningBest, cheapest: CheapestFeasible) -> greenplum.Evaluated:
    """What `settled_pick` needs of a streamed search: the cheapest feasible rows, else the nearest design."""
    pool = cheapest.pool if cheapest.pool is not None else best.row
    assert pool is not None
    return pool


def settled_pick(scenario: Scenario, workload: GpWorkload, found: Search) -> tuple[int, greenplum.Evaluated, bool]:
    """The cheapest candidate sized on the estimate it reports (`greenplum.pick_settled`)."""
    c = found.ev.candidates
    extra_price = np.array([m.price for m in found.memory])
    return greenplum.pick_settled(
        workload, scenario.targets, found.ev, found.net, scenario.assumptions.utilization_pct / 100.0,
        extra_price[c.server_idx], scenario.platform,
    )


def explain_settled(
    scenario: Scenario, workload: GpWorkload, found: Search, i: int, settled: greenplum.Evaluated, feasible: bool
) -> SizingResult:
    """Explain candidate `i` of the search with its settled evaluation (one row)."""
    return explain_candidate(scenario, workload, dataclasses.replace(found, ev=settled), 0, feasible)


@dataclass(frozen=True)
class _Pick:
    """The chosen candidate's numbers, read once from the evaluated arrays."""

    hosts: int
    etl: int
    drives: int
    vms: int
    primaries: int
    mirrors: int
    memory_gib: float
    virtual: bool
    need_tb: float
    server: Server
    drive: Drive
    net: NetworkChoice
    raid: str


@dataclass(frozen=True)
class _Layout:
    vm: VmLayout | None
    vms: tuple[VmLayout, ...]
    memory: gp_memory.MemoryPlan
    mirror_why: Rationale | None


def explain(
    scenario: Scenario,
    workload: GpWorkload,
    ev: greenplum.Evaluated,
    i: int,
    feasible: bool,
    server: Server,
    drive: Drive,
    net: NetworkChoice,
    raid: str,
    choice_reasons: list[Rationale],
    host_mem: HostMemory,
) -> SizingResult:
    """Lay out, argue, estimate and price candidate `i` of `ev`."""
    c = ev.candidates
    p = _Pick(
        hosts=int(ev.segment_hosts[i]),
        etl=int(ev.etl_hosts[i]),
        drives=int(c.drives_per_host[i]),
        vms=int(ev.vms_per_host[i]),
        primaries=int(ev.primaries_per_host[i]),
        mirrors=int(ev.primaries_per_host[i]) if workload.mirrors else 0,
        memory_gib=float(c.memory_gib[i]),
        virtual=bool(c.virtualized[i]),
        need_tb=greenplum.needed_tb(workload),
        server=server,
        drive=drive,
        net=net,
        raid=raid,
    )
    mem_bound = int(segments.plan(workload, c.take(np.array([i])), scenario.platform).by_memory[0])
    rationale: list[Rationale] = _segment_rationale(workload, p, mem_bound)
    warnings: list[Warning] = []
    layout = _host_layout(scenario, workload, p, rationale, warnings)
    rationale += _capacity_rationale(workload, p, float(ev.user_capacity_tb[i]), choice_reasons)
    coordinators = coordinator_count()
    rationale += _network_and_hosts_rationale(p, coordinators, warnings)

    single = c.take(np.array([i]))
    ctx = metrics.GpContext.of(workload, single, ev.primaries_per_host[[i]], ev.vms_per_host[[i]], net, p.need_tb)
    estimates, binding = metrics.gp_ranges(workload, ctx, p.hosts, p.etl)

    lines = bom.host_lines("segment host", p.hosts, server, drive, p.drives, net.nic, net.nics_per_host,
                           host_mem.dimm, host_mem.extra_dimms)
    lines += bom.host_lines("coordinator host", coordinators, server, drive, coordinator_drive_count(), net.nic,
                            net.nics_per_host)
    lines += bom.host_lines("ETL host", p.etl, server, drive, p.drives, net.nic, net.nics_per_host)
    totals = bom.totals(lines, float(ev.power_w[i]), int(ev.rack_u[i]), scenario)
    unreachable, search_warnings = _search_verdicts(ev, i, scenario, estimates, totals)
    warnings += search_warnings
    warnings += _implicit_service_level(workload, scenario, estimates)
    design = _design(scenario, workload, p, layout, coordinators, float(ev.user_capacity_tb[i]))
    main = KINDS[workload.kind].main_metric
    return SizingResult(
        scenario_name=scenario.name,
        design=design,
        estimates=estimates,
        binding_resource=binding,
        bom=tuple(lines),
        totals=totals,
        rationale=tuple(rationale),
        warnings=tuple(warnings),
        main_metric=main,
        target_checks=tuple(unreachable),
        extra={"greenplum": layout.memory.settings},  # the typed values behind design.settings
    )


def _segment_rationale(workload: GpWorkload, p: _Pick, mem_bound: int) -> list[Rationale]:
    out = segments.rationale(workload, p.server.cores_total, p.drives, p.vms, p.primaries, mem_bound, p.virtual)
    out.append(Rationale(
        "Mirrors",
        f"{p.mirrors} mirror segments per host (as many as primaries)" if workload.mirrors
        else "No mirrors, as specified: a failed host takes its segments' data offline.",
        "vendor_docs: Greenplum Database Administrator Guide, Overview of Segment Mirroring",
    ))
    return out


def _host_layout(
    scenario: Scenario, workload: GpWorkload, p: _Pick, rationale: list[Rationale], warnings: list[Warning]
) -> _Layout:
    """VMs per host (or bare metal), gp_vmem_protect_limit and the per-host checks; appends their reasons."""
    plat, server, d, vms = scenario.platform, p.server, p.drives, p.vms
    if p.virtual:
        reserve = plat.hypervisor_reserve_gib if plat.hypervisor_reserve_gib is not None \
            else hypervisor_reserve_gib(p.memory_gib)
        vm_mem = vm_memory_gib(p.memory_gib, vms, reserve)
        vm: VmLayout | None = VmLayout(
            None, server.cores_per_numa_node, vm_mem, d // vms, p.primaries // vms, p.mirrors // vms
        )
        vm_list = tuple(
            VmLayout(n, server.cores_per_numa_node, vm_mem, d // vms, p.primaries // vms, p.mirrors // vms)
            for n in range(vms)
        )
        rationale.append(vsphere_layout_rationale(
            server.sockets, server.numa_nodes_per_socket, server.cores_per_numa_node, vm_mem, d // vms
        ))
        ram_for_vmem, per_unit_primaries = vm_mem, p.primaries // vms
    else:
        vm = None
        vm_list = (VmLayout(None, server.cores_total, p.memory_gib, d, p.primaries, p.mirrors),)
        ram_for_vmem, per_unit_primaries = p.memory_gib, p.primaries
        if server.sockets > 1:
            warnings.append(Warning(
                "numa-multi-socket",
                f"{server.model} has {server.sockets} sockets: bare-metal segments will cross NUMA nodes. The"
                " reference architecture prefers single-socket hosts; on vSphere, one VM per NUMA node avoids it.",
            ))
            rationale.append(Rationale(
                "NUMA", "Single-socket hosts avoid NUMA overhead and scheduling issues of multi-socket designs.",
                "002_feb9b45e1f157a35.txt, Key hardware components: CPU",
            ))

    policy = greenplum.mirror_policy(workload)
    fo = mirroring.failover(policy, per_unit_primaries, vms if p.virtual else 1, p.hosts, p.virtual,
                            workload.mirror_block_hosts)
    rationale.extend(fo.rationale)
    concurrency = workload.concurrent_queries if isinstance(workload, GreenplumAnalytics) else workload.clients
    plan = gp_memory.memory_plan(
        ram_for_vmem, plat.swap_gib, per_unit_primaries, fo.acting_primaries, concurrency, concurrency,
        policy, workload.mirror_block_hosts if policy == "block" else None, p.virtual and policy is not None,
    )
    rationale.extend(plan.rationale)
    warnings.extend(plan.warnings)
    warnings.extend(_host_warnings(workload, p, plat.memory_gib is not None))
    if plat.memory_gib is None and p.memory_gib > server.memory_gib:
        rationale.append(Rationale(
            "Memory per host",
            f"{p.memory_gib:g} GiB per host: the server's base {server.memory_gib} GiB raised with DIMMs to the"
            f" {figure(RULES, 'min_memory_gib_per_segment_host'):g} GB the reference architecture sets as minimum"
            " for a segment host.",
            cite(RULES, "min_memory_gib_per_segment_host"),
        ))
    return _Layout(vm, vm_list, plan, fo.rationale[0] if policy is not None else None)


def _host_warnings(workload: GpWorkload, p: _Pick, memory_gib_given: bool) -> list[Warning]:
    out: list[Warning] = []
    if p.memory_gib < p.server.memory_gib:
        out.append(Warning(
            "memory-below-base",
            f"{p.memory_gib:g} GiB per host is below the {p.server.memory_gib} GiB {p.server.model} is priced with:"
            " the design is sized on the smaller memory, the price keeps the base DIMMs (no credit is taken).",
        ))
    if p.hosts < 2:
        out.append(Warning(
            "single-segment-host",
            "One segment host: it is a single point of failure, and Greenplum cannot place mirrors on another host.",
        ))
    if not workload.mirrors and p.raid == "none":
        out.append(Warning(
            "no-redundancy",
            "No mirrors and no RAID: one failed drive loses the data of the segments on it. Use mirrors or RAID.",
        ))
    if p.drives < min(greenplum.min_data_drives(), p.server.data_bays):
        out.append(Warning(
            "few-data-drives",
            f"{p.drives} data drive(s) per segment host: the reference architecture calls"
            f" {greenplum.min_data_drives()} drives per segment node a necessity.",
        ))
    min_mem = figure(RULES, "min_memory_gib_per_segment_host")
    if isinstance(workload, GreenplumAnalytics) and p.memory_gib < min_mem:
        why = (" (as specified)" if memory_gib_given else
               f": the {p.server.dimm_slots} DIMM slots of {p.server.model} cannot reach it with the catalog's"
               " DIMMs")
        out.append(Warning(
            "memory-below-reference",
            f"{p.memory_gib:g} GiB per host is below the {min_mem:g} GB the reference architecture sets as minimum"
            f"{why}.",
        ))
    return out


def _capacity_rationale(
    workload: GpWorkload, p: _Pick, user_capacity_tb: float, choice_reasons: list[Rationale]
) -> list[Rationale]:
    per_host_tb = user_capacity_tb / p.hosts
    h_cap = greenplum.hosts_for(p.need_tb, per_host_tb)
    out = [capacity_rationale(workload.mirrors, p.raid)]
    host_text = (
        f"{p.hosts} segment hosts with {p.drives} x {p.drive.capacity_tb:g} TB each: {p.need_tb:,.1f} TB on disk at"
        f" the {workload.horizon_years}-year horizon needs {h_cap} host(s) at {per_host_tb:,.2f} TB of user data each"
    )
    if p.hosts > h_cap:
        host_text += f"; the performance targets need {p.hosts}"
    out.append(Rationale("Segment hosts", host_text + ".", cite("vendor_docs", "gp_capacity_max_fill")))
    out.extend(choice_reasons)
    if p.raid == "raid5":
        out.append(raid5_alignment_advice(p.drives // p.vms if p.virtual else p.drives))
    return out


def _network_and_hosts_rationale(p: _Pick, coordinators: int, warnings: list[Warning]) -> list[Rationale]:
    """The interconnect, the coordinators and the ETL hosts; appends the network warnings."""
    out: list[Rationale] = []
    net = p.net
    if net.nic:
        out.append(network_rationale(net.ports, net.nic.speed_gbps))
        if net.nic.speed_gbps < figure(RULES, "network_min_gbps"):
            warnings.append(Warning(
                "network-below-minimum",
                f"{net.nic.speed_gbps:g} GbE ports are below the 25 GbE minimum of the reference architecture.",
            ))
        if net.ports < figure(RULES, "network_min_ports"):
            warnings.append(Warning("network-ports", f"{net.ports} port(s) per host; at least 2 are advised."))
    else:
        warnings.append(Warning("no-nic", "The catalog has no NIC: the BOM has no network cards."))
    out.append(coordinator_rationale(coordinators, coordinator_drive_count(), f"{p.drive.capacity_tb:g} TB"))
    if p.etl:
        out.append(Rationale(
            "ETL hosts",
            f"{p.etl} ETL host(s) running gpfdist to reach the load target; each streams its share of the files in"
            " parallel to all segments.",
            "000_b2a3159111482e98.txt, Test and Measurement Tools (Data Loading)",
        ))
    return out


def _design(
    scenario: Scenario, workload: GpWorkload, p: _Pick, layout: _Layout, coordinators: int, user_capacity_tb: float
) -> Design:
    server, drive, net = p.server, p.drive, p.net
    speed = net.nic.speed_gbps if net.nic else 0.0
    host_layouts = (
        HostLayout("segment host", p.hosts, server.id, server.sockets, server.numa_nodes_per_socket,
                   server.cores_per_numa_node, p.memory_gib, p.drives, drive.id, p.raid, layout.vms, net.ports,
                   speed),
        HostLayout("coordinator host", coordinators, server.id, server.sockets, server.numa_nodes_per_socket,
                   server.cores_per_numa_node, float(server.memory_gib), coordinator_drive_count(), drive.id,
                   "raid1", (VmLayout(None, server.cores_total, float(server.memory_gib), 2),), net.ports, speed),
    )
    return Design(
        kind=workload.kind,
        deployment=scenario.platform.deployment,
        server_id=server.id,
        drive_id=drive.id,
        nic_id=net.nic.id if net.nic else None,
        segment_hosts=p.hosts,
        data_drives_per_host=p.drives,
        raid=p.raid,
        memory_gib_per_host=p.memory_gib,
        vms_per_host=p.vms if p.virtual else 1,
        vm=layout.vm,
        primary_segments_per_host=p.primaries,
        mirror_segments_per_host=p.mirrors,
        raw_capacity_tb=round(p.drives * drive.capacity_tb * p.hosts, 3),
        usable_capacity_tb=round(user_capacity_tb, 3),
        data_needed_tb=round(p.need_tb, 3),
        coordinator_hosts=coordinators,
        etl_hosts=p.etl,
        nics_per_host=net.nics_per_host,
        network_gbps_per_host=net.gbps_per_host,
        gp_vmem_protect_limit_mb=layout.memory.settings.gp_vmem_protect_limit_mb,
        hosts=host_layouts,
        settings=greenplum_settings(layout.memory, layout.mirror_why),
    )


def _implicit_service_level(
    workload: GpWorkload, scenario: Scenario, estimates: dict[str, Estimate]
) -> list[Warning]:
    """With no performance target, the least a customer would expect: every concurrent query slot turns over
    at least once an hour (queries/h >= concurrent queries). Said plainly when the design falls short."""
    t = scenario.targets
    if not isinstance(workload, GreenplumAnalytics) or any(
        v is not None for v in (t.max_full_scan_s, t.min_load_tb_per_hour, t.min_queries_per_hour)
    ):
        return []
    qph = estimates.get("queries_per_hour")
    if qph is None or qph.p50 >= workload.concurrent_queries:
        return []
    scan = estimates.get("full_scan_s")
    scan_text = f"; a full scan takes {scan.p50 / 3600:,.1f} h" if scan is not None else ""
    return [Warning(
        "no-target-service-level",
        f"No performance target was set, and this design serves {qph.p50:,.1f} queries/h for"
        f" {workload.concurrent_queries} concurrent queries: each query would run longer than an hour{scan_text}."
        f" Set a target (e.g. min queries/h = {workload.concurrent_queries}) to size the hosts for it.",
        "warning", "targets.min_queries_per_hour",
    )]


def _search_verdicts(
    ev: greenplum.Evaluated, i: int, scenario: Scenario, estimates: dict[str, Estimate], totals: Totals
) -> tuple[list[TargetCheck], list[Warning]]:
    """What the search could not reach: the targets no candidate met with the others (the nearest design is
    shown), and capacity. The targets it met are judged on the P50 estimates by `targets.check_targets`."""
    checks: list[TargetCheck] = []
    warnings: list[Warning] = []
    for name, met in ev.meets.items():
        if bool(met[i]):
            continue
        shortfall = _shortfall(name, ev, i, scenario.targets)
        if name == CAPACITY:
            warnings.append(Warning(
                "capacity-unmet", f"The {target_words(name)} is out of reach with this hardware: the nearest design is"
                f" shown ({shortfall}).", "critical", "workload.data_tb"))
            continue
        target = TARGETS[name]
        limit = target_limit(scenario, name)
        confidence = scenario.targets.confidence
        e = estimates.get(target.metric)
        value = float(getattr(totals, target.metric)) if e is None else estimate_at(e, target.metric, confidence)
        if limit is not None:
            unit = totals.currency if target.metric == "capex" else target.unit
            text = f"no design with this hardware meets it; the nearest is shown ({shortfall})."
            achievable, binding = None, ""
            if name in ev.out_of_reach:  # no host count reaches it: say the best any gives and what binds
                achievable, binding = ev.out_of_reach[name]
                text = (
                    f"even {greenplum.MAX_SEGMENT_HOSTS:,} segment hosts give {achievable:,.1f}"
                    f" {METRICS[target.metric].unit}, bound by {binding}. The design is sized for capacity and the"
                    f" other targets instead ({shortfall}). To move it: {LEVERS.get(binding, 'faster hardware')}."
                )
            check = judge(name, limit, value, unit, unreachable_text=text, confidence=confidence)
            checks.append(dataclasses.replace(check, achievable=achievable, binding=binding))
    return checks, warnings


LEVERS = {
    "drives": "faster data drives or more of them per host",
    "cpu": "more cores per segment host (a bigger CPU) or a lower concurrency tier with more primaries",
    "network": "more interconnect bandwidth per host (faster or more NIC ports)",
    "loader": "more or faster ETL hosts",
    "coordinator CPU": "a bigger coordinator host (more cores)",
    "segment CPU": "more cores per segment host",
    "segment hosts (WAL flush / lock capacity)": "faster WAL drives on the segment hosts",
}


def _shortfall(name: str, ev: greenplum.Evaluated, i: int, t: object) -> str:
    m = ev.metrics
    if name == "max_full_scan_s":
        return f"full scan {m['full_scan_s'][i]:,.0f} s vs {t.max_full_scan_s:,.0f} s"  # type: ignore[attr-defined]
    if name == "min_load_tb_per_hour":
        return f"load {m['load_tb_per_hour'][i]:,.2f} TB/h vs {t.min_load_tb_per_hour:,.2f}"  # type: ignore[attr-defined]
    if name == "min_queries_per_hour":
        return f"{m['queries_per_hour'][i]:,.0f} queries/h vs {t.min_queries_per_hour:,.0f}"  # type: ignore[attr-defined]
    if name == "min_tps":
        return f"{m['tps'][i]:,.0f} TPS"
    if name == "max_capex":
        return f"capex {ev.capex[i]:,.0f} vs {t.max_capex:,.0f}"  # type: ignore[attr-defined]
    if name == "max_power_w":
        return f"{ev.power_w[i]:,.0f} W vs {t.max_power_w:,.0f} W"  # type: ignore[attr-defined]
    if name == "max_rack_u":
        return f"{ev.rack_u[i]:,.0f} U vs {t.max_rack_u} U"  # type: ignore[attr-defined]
    return f"{ev.segment_hosts[i]} hosts, the most this tool sizes"

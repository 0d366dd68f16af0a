"""The chosen Greenplum candidate laid out, argued, estimated and priced: the `SizingResult` of a design."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from models.calibration_data import figure, point
from models.hardware import Drive, Server
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing import bom
from models.sizing.greenplum import capacity, density, evaluation, metrics, mirroring, segments
from models.sizing.greenplum import memory as gp_memory
from models.sizing.greenplum import volumes as gp_volumes
from models.sizing.greenplum.context import needed_tb
from models.sizing.greenplum.coordinator import coordinator_hosts, on_segment_host_why
from models.sizing.greenplum.design_settings import greenplum_settings
from models.sizing.greenplum.releases import role_word
from models.sizing.greenplum.search import Search
from models.sizing.greenplum.verdicts import implicit_service_level, search_verdicts, stop_rationale
from models.sizing.parts import NetworkChoice
from models.sizing.result import SCENARIO_WIDE, Design, HostLayout, Rationale, SizingResult, VmLayout, Warning
from models.sizing.rules import (
    DOCS,
    RULES,
    cite,
    coordinator_drive_count,
    coordinator_rationale,
    hypervisor_reserve_gib,
    network_rationale,
    raid5_alignment_advice,
    vm_memory_gib,
    vsphere_layout_rationale,
)
from models.uncertainty import Estimate
from models.vocabulary import KINDS, RAID_LEVELS, raid_code

GpWorkload = GreenplumAnalytics | GreenplumOltp


OLTP = "gp6_oltp_004"  # the coordinator-bound OLTP study (its coordinator CPU share)

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
    coordinator: tuple[Server, Drive] | None = None  # OLTP: the coordinator's own server and catalog drive

    @property
    def coord_server(self) -> Server:
        return self.coordinator[0] if self.coordinator else self.server

    @property
    def coord_drive(self) -> Drive:
        return self.coordinator[1] if self.coordinator else self.drive


@dataclass(frozen=True)
class _Layout:
    vm: VmLayout | None
    vms: tuple[VmLayout, ...]
    memory: gp_memory.MemoryPlan
    mirror_why: Rationale | None


def explain(scenario: Scenario, workload: GpWorkload, found: Search, i: int, feasible: bool,
            choice_reasons: list[Rationale]) -> SizingResult:
    """Lay out, argue, estimate and price candidate `i` of the search `found` (its parts, network, memory and, OLTP,
    its coordinator's own server), with the reasons its parts were chosen."""
    ev, net = found.ev, found.net
    c = ev.candidates
    server, drive = found.servers[int(c.server_idx[i])], found.drives[int(c.drive_idx[i])]
    host_mem = found.memory[int(c.server_idx[i])]
    k = int(ev.coordinator_idx[i])
    coordinator = (found.coordinators.servers[k], found.coordinators.drives[k]) \
        if found.coordinators is not None and k >= 0 else None
    p = dataclasses.replace(_pick_of(workload, ev, i, server, drive, net), coordinator=coordinator)
    rationale, warnings = _segments_said(workload, p, segments.plan(workload, c.take(np.array([i])), scenario.platform))
    layout = _host_layout(scenario, workload, p, rationale, warnings)
    running = layout.memory.settings.resource_group_concurrency  # reports: what the resource group admits
    rationale += _capacity_rationale(workload, p, float(ev.user_capacity_tb[i]), choice_reasons, running,
                                     bool(ev.out_of_reach))
    dense_why, dense_warnings = density.density_check(workload, server, p.hosts, p.memory_gib, p.need_tb, running)
    rationale, warnings = rationale + dense_why, warnings + dense_warnings
    coordinators = coordinator_hosts(workload)
    rationale += _network_and_hosts_rationale(p, coordinators, warnings, role_word(workload.greenplum_version))

    single = c.take(np.array([i]))
    ctx = metrics.GpContext.of(workload, single, ev.primaries_per_host[[i]], ev.vms_per_host[[i]], net, p.need_tb)
    ctx = dataclasses.replace(ctx, coordinator_cores=np.array([float(p.coord_server.cores_total)]),
                              queries=np.array([float(running)]) if ctx.queries is not None else None)
    estimates, binding = metrics.gp_ranges(workload, ctx, p.hosts, p.etl)
    rationale += _load_assumption(workload, ctx, p, estimates)

    lines = bom.host_lines("segment host", p.hosts, bom.HostBuild(server, drive, p.drives, net.nic,
                                                                  net.nics_per_host, host_mem.dimm,
                                                                  host_mem.extra_dimms))
    lines += bom.host_lines("coordinator host", coordinators, bom.HostBuild(
        p.coord_server, p.coord_drive, coordinator_drive_count(), net.nic, net.nics_per_host))
    lines += bom.host_lines("ETL host", p.etl, bom.HostBuild(server, drive, p.drives, net.nic, net.nics_per_host))
    totals = bom.totals(lines, float(ev.power_w[i]), int(ev.rack_u[i]), scenario)
    stop = stop_rationale(ev, i, scenario, ctx, sum(x.unit_price * x.qty_per_host for x in lines
                                                    if x.role == "segment host" and not x.recurring))
    rationale += [stop] if stop is not None else []
    unreachable, search_warnings = search_verdicts(ev, i, scenario, estimates, totals)
    warnings += search_warnings
    warnings += implicit_service_level(workload, scenario, estimates) + _queued(workload, layout, estimates, ctx,
                                                                                p.hosts)
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
        greenplum=layout.memory.settings,  # the typed values behind design.settings
    )


def _queued(workload: GpWorkload, layout: _Layout, estimates: dict[str, Estimate], ctx: metrics.GpContext,
            hosts: int) -> list[Warning]:
    """The reports waiting in the resource group's queue (analytics), with the response time waiting adds, and
    whether admitting more (more memory) would finish more per hour: not where the cores, drives or network are
    already busy with the admitted ones (queries/h at one more admitted is no higher)."""
    if not isinstance(workload, GreenplumAnalytics) or ctx.queries is None:
        return []
    at = np.array([hosts])
    more = dataclasses.replace(ctx, queries=ctx.queries + 1.0)
    helps = bool(metrics.gp_queries_per_hour(more, at, workload)[0] > metrics.gp_queries_per_hour(ctx, at, workload)[0])
    queued = gp_memory.queue_warning(layout.memory.settings, workload.concurrent_queries,
                                     estimates["queries_per_hour"].p50, memory_helps=helps)
    return [queued] if queued is not None else []


def _pick_of(workload: GpWorkload, ev: evaluation.Evaluated, i: int, server: Server, drive: Drive, net: NetworkChoice
             ) -> _Pick:
    c = ev.candidates
    return _Pick(
        hosts=int(ev.segment_hosts[i]),
        etl=int(ev.etl_hosts[i]),
        drives=int(c.drives_per_host[i]),
        vms=int(ev.vms_per_host[i]),
        primaries=int(ev.primaries_per_host[i]),
        mirrors=int(ev.primaries_per_host[i]) if workload.mirrors else 0,
        memory_gib=float(c.memory_gib[i]),
        virtual=bool(c.virtualized[i]),
        need_tb=needed_tb(workload),
        server=server,
        drive=drive,
        net=net,
        raid=RAID_LEVELS[int(c.raid_code[i])],
    )


def _segments_said(workload: GpWorkload, p: _Pick, sp: segments.SegmentPlan) -> tuple[list[Rationale], list[Warning]]:
    """The primaries' rationale and, where the drives do not carry what the tier, cores and memory give, the
    warning (`sp`: the design's segment plan)."""
    warnings: list[Warning] = []
    if bool(sp.off_tier[0]):
        warnings.append(gp_volumes.off_tier_warning(workload, p.drives, p.vms, p.primaries, int(sp.volumes[0]),
                                                    gp_volumes.Wanted(int(sp.wanted[0]), p.drive.spinning,
                                                                      p.server.data_bays)))
    return _segment_rationale(workload, p, int(sp.by_memory[0]), int(sp.volumes[0])), warnings


def _host_segments(p: _Pick, mem_bound: int, volumes: int) -> segments.HostSegments:
    return segments.HostSegments(p.server.cores_total, p.drives, p.vms, p.primaries, mem_bound, p.virtual, volumes,
                                 p.drive.spinning)


def _segment_rationale(workload: GpWorkload, p: _Pick, mem_bound: int, volumes: int) -> list[Rationale]:
    out = segments.rationale(workload, _host_segments(p, mem_bound, volumes))
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
                "warning", "platform.server_id",
            ))
            rationale.append(Rationale(
                "NUMA", "Single-socket hosts avoid NUMA overhead and scheduling issues of multi-socket designs.",
                "002_feb9b45e1f157a35.txt, Key hardware components: CPU",
            ))

    policy = evaluation.mirror_policy(workload)
    fo = mirroring.failover(policy, per_unit_primaries, vms if p.virtual else 1, p.hosts, p.virtual,
                            workload.mirror_block_hosts)
    rationale.extend(fo.rationale)
    concurrency = workload.concurrent_queries if isinstance(workload, GreenplumAnalytics) else workload.clients
    plan = gp_memory.memory_plan(
        ram_for_vmem, plat.swap_gib, per_unit_primaries, fo.acting_primaries, concurrency, concurrency,
        gp_memory.MirrorLayout(policy, workload.mirror_block_hosts if policy == "block" else None,
                               p.virtual and policy is not None),
        gp_memory.OltpHost(workload.coordinator_on_segment_host) if isinstance(workload, GreenplumOltp) else None,
        version=workload.greenplum_version,
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
            "info", "platform.memory_gib",
        ))
    if p.hosts < 2:
        out.append(Warning(
            "single-segment-host",
            "One segment host: it is a single point of failure, and Greenplum cannot place mirrors on another host.",
            "warning", SCENARIO_WIDE,
        ))
    if not workload.mirrors and p.raid == "none":
        out.append(Warning(
            "no-redundancy",
            "No mirrors and no RAID: one failed drive loses the data of the segments on it. Use mirrors or RAID.",
            "warning", "workload.mirrors",
        ))
    if p.drives < min(evaluation.min_data_drives(), p.server.data_bays):
        out.append(Warning(
            "few-data-drives",
            f"{p.drives} data drive(s) per segment host: the reference architecture calls"
            f" {evaluation.min_data_drives()} drives per segment node a necessity.",
            "warning", "platform.drives_per_host",
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
            "warning", "platform.memory_gib",
        ))
    return out


def _capacity_rationale(
    workload: GpWorkload, p: _Pick, user_capacity_tb: float, choice_reasons: list[Rationale], running: int,
    reach: bool = False,
) -> list[Rationale]:
    """Usable capacity and the segment hosts (`reach`: some target is out of reach at any host count)."""
    per_host_tb = user_capacity_tb / p.hosts
    h_cap = evaluation.hosts_for(p.need_tb, per_host_tb)
    held = int(gp_volumes.used_drives(np.array([p.drives]), np.array([p.vms]), np.array([p.primaries]),
                                      np.array([raid_code(p.raid)]), workload.mirrors)[0])
    # the drives holding an instance: those without one add no capacity (the design's warning names them)
    out = [capacity.capacity_rationale(workload, p.raid, held, p.drive.capacity_tb, p.primaries, running)]
    host_text = (
        f"{p.hosts} segment hosts with {p.drives} x {p.drive.capacity_tb:g} TB each: {p.need_tb:,.1f} TB on disk at"
        f" the {workload.horizon_years}-year horizon needs {h_cap} host(s) at {per_host_tb:,.2f} TB of user data each"
    )
    if p.hosts > h_cap:
        host_text += "; " + _beyond_capacity(workload, p, h_cap, reach)
    out.append(Rationale("Segment hosts", host_text + ".", cite("vendor_docs", "gp_capacity_max_fill")))
    out.extend(choice_reasons)
    if p.raid == "raid5":
        out.append(raid5_alignment_advice(p.drives // p.vms if p.virtual else p.drives))
    return out


def _beyond_capacity(workload: GpWorkload, p: _Pick, h_cap: int, reach: bool = False) -> str:
    """Why more hosts than the data needs: the mirroring policy's minimum (spread, group, whole blocks), else the
    performance targets."""
    policy = evaluation.mirror_policy(workload)
    per_unit = p.primaries // max(p.vms, 1)
    least = max(h_cap, int(evaluation.min_hosts(workload, per_unit)))
    floor = int(mirroring.round_hosts(policy, [least], p.vms, workload.mirror_block_hosts)[0])
    if p.hosts <= floor:
        given = workload.min_segment_hosts if isinstance(workload, GreenplumOltp) else None
        if given is not None and p.hosts <= given:
            return f"the scenario asks for at least {given} segment hosts"
        return mirroring.floor_reason(policy, per_unit, p.hosts, h_cap, p.virtual, workload.mirror_block_hosts)
    if reach:
        return f"{p.hosts} is where growing for the targets out of reach stops (see Where the host count stops)"
    return f"the performance targets need {p.hosts}"


def _network_and_hosts_rationale(p: _Pick, coordinators: int, warnings: list[Warning], word: str) -> list[Rationale]:
    """The interconnect, the coordinators and the ETL hosts; appends the network warnings."""
    out: list[Rationale] = []
    net = p.net
    if net.nic:
        out.append(network_rationale(net.ports, net.nic.speed_gbps))
        if net.nic.speed_gbps < figure(RULES, "network_min_gbps"):
            warnings.append(Warning(
                "network-below-minimum",
                f"{net.nic.speed_gbps:g} GbE ports are below the {figure(RULES, 'network_min_gbps'):g} GbE minimum of"
                " the reference architecture.",
                "warning", "platform.nic_id",
            ))
        if net.ports < figure(RULES, "network_min_ports"):
            warnings.append(Warning("network-ports", f"{net.ports} port(s) per host; at least 2 are advised.",
                                    "warning", "platform.nics_per_host"))
    # no else: search_space refuses a Greenplum scenario when the catalog has no NIC
    if not coordinators:
        why, warning = on_segment_host_why(p.server, p.primaries, word)
        warnings.append(warning)
        return [*out, why]
    drives = f"{p.coord_drive.capacity_tb:g} TB"
    out.append(coordinator_rationale(coordinators, coordinator_drive_count(), drives, word))
    if not p.coordinator:
        out.append(Rationale(
            "Coordinator server",
            f"The {word}s are built on the segment hosts' server ({p.server.vendor} {p.server.model}) with their"
            f" mirrored pair of drives. The Greenplum documentation asks of the {word} only a fast, dedicated CPU"
            " for query planning, connections and loading, with little disk load since it holds no user data, and"
            " gives no core or memory figure of its own; the Greenplum NVMe reference architecture builds its two"
            f" {word} machines from its segment server, differing only in the drives. A warehouse that returns"
            f" large results through the {word} or runs ETL and reporting tools on it needs a bigger one.",
            f"{cite(DOCS, 'gp_coordinator_dedicated_cpu')}; {cite(RULES, 'coordinator_drives_raid1')}",
        ))
    else:
        cs = p.coord_server
        out.append(Rationale(
            "Coordinator server",
            f"OLTP: every transaction passes the active {word}, so it is sized on its own, not as a copy of a"
            f" segment host: {cs.vendor} {cs.model} ({cs.cores_total} cores), the {word} with which the design"
            " meets its TPS target at the lowest capex among the catalog's servers (the cheapest for each core"
            " count); with none, the one giving the most TPS.",
            point(OLTP, "coordinator_cpu_share_select").source.cite(),
        ))
    if p.etl:
        out.append(Rationale(
            "ETL hosts",
            f"{p.etl} ETL host(s) running gpfdist to reach the load target; each streams its share of the files in"
            " parallel to all segments.",
            "000_b2a3159111482e98.txt, Test and Measurement Tools (Data Loading)",
        ))
    return out


def _load_assumption(workload: GpWorkload, ctx: metrics.GpContext, p: _Pick, estimates: dict[str, Estimate]
                     ) -> list[Rationale]:
    """With no ETL host in the design the load estimate still needs a source of files: say which one it assumes
    (one gpfdist host with the segment hosts' NIC, outside the BOM) and what the cluster itself would take."""
    load = estimates.get("load_tb_per_hour")
    if p.etl or load is None or not isinstance(workload, GreenplumAnalytics):
        return []
    cluster = metrics.gp_ranges(workload, ctx, p.hosts, evaluation.MAX_ETL_HOSTS)[0]["load_tb_per_hour"]
    text = (f"No load target, so no ETL host is sized: the load estimate ({load.p50:,.1f} TB/h at P50) assumes the"
            f" files come from one gpfdist host outside this BOM with the segment hosts' network"
            f" ({p.net.gbps_per_host:g} Gbit/s"
            + (f"; {p.net.model_gbps_per_host:.3g} Gbit/s at the measured link rate"
               if p.net.model_gbps_per_host != p.net.gbps_per_host else "") + ")")
    if cluster.p50 > load.p50 * 1.01:
        text += (f", which bounds it; the {p.hosts} segment hosts themselves take {cluster.p50:,.1f} TB/h with"
                 " enough gpfdist hosts. Set a load target to size the ETL hosts.")
    else:
        text += "; the segment hosts, not that host, bound it."
    return [Rationale("Load rate", text, "000_b2a3159111482e98.txt, Test and Measurement Tools (Data Loading)")]


def _design(
    scenario: Scenario, workload: GpWorkload, p: _Pick, layout: _Layout, coordinators: int, user_capacity_tb: float
) -> Design:
    server, drive, net = p.server, p.drive, p.net
    cs = p.coord_server
    speed = net.nic.speed_gbps if net.nic else 0.0
    host_layouts = (
        HostLayout("segment host", p.hosts, server.id, server.sockets, server.numa_nodes_per_socket,
                   server.cores_per_numa_node, p.memory_gib, p.drives, drive.id, p.raid, layout.vms, net.ports,
                   speed),
    ) + (() if not coordinators else (
        HostLayout("coordinator host", coordinators, cs.id, cs.sockets, cs.numa_nodes_per_socket,
                   cs.cores_per_numa_node, float(cs.memory_gib), coordinator_drive_count(), p.coord_drive.id,
                   "raid1", (VmLayout(None, cs.cores_total, float(cs.memory_gib), 2),), net.ports, speed),
    ))
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

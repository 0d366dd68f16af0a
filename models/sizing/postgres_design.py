"""PostgreSQL databases consolidated on vSphere: VMs, shared_buffers, hosts and memory overcommit (study 001)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.calibration_data import figure, point
from models.hardware import Drive, HardwareCatalog, Server
from models.perf import cost_power, memory
from models.scenario import PgDatabase, PostgresConsolidation, Scenario
from models.sizing import bom
from models.sizing.candidates import NetworkChoice
from models.sizing.design_settings import postgres_settings
from models.sizing.parts import (
    ResolvedParts,
    SizingInputError,
    candidate_drives,
    candidate_servers,
    choose_nic,
    nics_per_host,
)
from models.sizing.result import Design, HostLayout, Rationale, SizingResult, VmLayout, Warning
from models.sizing.rules import DOCS, RULES, cite, hypervisor_reserve_gib, raid_capacity_factor
from models.sizing.shared_buffers import SharedBuffersChoice, recommend_shared_buffers
from models.uncertainty import Estimate

GIB_PER_GB = 1e9 / 2**30
STORAGE_HEADROOM = 2.0  # data + WAL, indexes growth and backups staged locally: twice the database size


@dataclass(frozen=True)
class PgVm:
    name: str
    databases: tuple[PgDatabase, ...]
    vcpus: int
    memory_gib: float
    working_set_gib: float  # what must stay resident: database working sets plus the non-discretionary part


@dataclass(frozen=True)
class Packing:
    server: Server
    drive: Drive | None
    hosts: list[list[PgVm]]
    drives_per_host: int
    available_gib: float
    capex: float


def _overhead_gib(clients: int) -> float:
    """Non-discretionary VM memory beyond shared_buffers: the VM working-set knee less the
    shared_buffers the study held fixed while reading it (001 Figures 7 and 9)."""
    fixed_sb_mb = float(point("pg_vfabric_001", "ws_vm_30c_mb").conditions["shared_buffers_mb"])
    return max(float(memory.vm_memory_working_set_mb(clients)) - fixed_sb_mb, 0.0) / 1024.0


def _vcpus_for(clients: int, node_cores: int, requested: int | None) -> int:
    if requested is not None:
        return requested
    return int(min(node_cores, max(2, math.ceil(clients / figure(RULES, "pg_clients_per_vcpu")))))


def plan_vms(w: PostgresConsolidation, server: Server, ratio: float, host_available_gib: float) -> list[PgVm]:
    node_cores = server.cores_per_numa_node
    if w.placement == "vm-per-database":
        vms = []
        for db in w.databases:
            ws = db.working_set_gb * GIB_PER_GB
            resident = ws + _overhead_gib(db.peak_clients)
            mem = w.vm_memory_gib or max(2.0, math.ceil(max(ws / ratio, resident)))
            vms.append(PgVm(f"vm-{db.name}", (db,), _vcpus_for(db.peak_clients, node_cores, w.vm_vcpus), mem, resident))
        return vms
    # shared VMs: each sized to one NUMA node, databases placed first-fit by working set
    node_mem = w.vm_memory_gib or math.floor(host_available_gib / server.numa_nodes)
    vcpus = w.vm_vcpus or node_cores
    groups: list[list[PgDatabase]] = []
    used: list[tuple[float, int]] = []
    for db in sorted(w.databases, key=lambda d: -d.working_set_gb):
        need = db.working_set_gb * GIB_PER_GB
        for gi, (mem_used, clients) in enumerate(used):
            if mem_used + need + _overhead_gib(clients + db.peak_clients) <= node_mem and \
                    math.ceil((clients + db.peak_clients) / figure(RULES, "pg_clients_per_vcpu")) <= vcpus:
                groups[gi].append(db)
                used[gi] = (mem_used + need, clients + db.peak_clients)
                break
        else:
            groups.append([db])
            used.append((need, db.peak_clients))
    return [
        PgVm(f"shared-vm-{i + 1}", tuple(g), vcpus, float(node_mem),
             sum(d.working_set_gb * GIB_PER_GB for d in g) + _overhead_gib(sum(d.peak_clients for d in g)))
        for i, g in enumerate(groups)
    ]


def pack_hosts(vms: list[PgVm], cores: int, available_gib: float) -> list[list[PgVm]] | None:
    """First-fit decreasing: a host takes VMs while their vCPUs fit its cores and their resident
    working sets fit its available memory (so the overcommit stays within what the working sets allow)."""
    hosts: list[list[PgVm]] = []
    for vm in sorted(vms, key=lambda v: (-v.working_set_gib, -v.vcpus)):
        if vm.vcpus > cores or vm.working_set_gib > available_gib:
            return None
        for h in hosts:
            if sum(v.vcpus for v in h) + vm.vcpus <= cores and \
                    sum(v.working_set_gib for v in h) + vm.working_set_gib <= available_gib:
                h.append(vm)
                break
        else:
            hosts.append([vm])
    return hosts


def size_postgres(
    scenario: Scenario, w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts
) -> SizingResult:
    conventional = w.shared_buffers_policy == "conventional"
    sb = recommend_shared_buffers(w.placement, conventional)
    nic, nic_why = choose_nic(catalog, parts)
    net = NetworkChoice(nic, nics_per_host(nic, scenario.platform.nics_per_host))
    raid = scenario.platform.raid or "raid10"
    best: Packing | None = None
    for server in candidate_servers(catalog, parts):
        host_mem = float(scenario.platform.memory_gib or server.memory_gib)
        available = w.host_memory_available_gib or host_mem - hypervisor_reserve_gib(host_mem)
        vms = plan_vms(w, server, sb.ratio, available)
        packed = pack_hosts(vms, server.cores_total, available)
        if packed is None:
            continue
        drives = candidate_drives(catalog, parts, server)
        for drive in drives:
            per_host = _drives_per_host(packed, drive, raid, scenario.platform.drives_per_host)
            if per_host is None or per_host > server.data_bays:
                continue
            capex = len(packed) * (server.price + per_host * drive.price + net.price_per_host)
            if best is None or capex < best.capex:
                best = Packing(server, drive, packed, per_host, available, capex)
    if best is None:
        raise SizingInputError([
            "workload.databases: no server in the catalog can hold the largest database VM (its vCPUs within the"
            " host's cores and its working set within the available memory) with drives for the data"
        ])
    return _explain(scenario, w, best, sb, net, nic_why, raid)


def _drives_per_host(hosts: list[list[PgVm]], drive: Drive, raid: str, requested: int | None) -> int | None:
    if requested is not None:
        return requested
    most_gb = max(sum(db.size_gb for vm in h for db in vm.databases) for h in hosts)
    need_tb = most_gb * STORAGE_HEADROOM / 1000.0 / figure(DOCS, "gp_capacity_max_fill")
    for n in range(1, 257):
        usable = n * drive.capacity_tb * float(raid_capacity_factor(raid, n))
        valid = {"raid1": n == 2, "raid10": n >= 4 and n % 2 == 0, "raid5": n >= 3}.get(raid, True)
        if valid and usable >= need_tb:
            return n
    return None


def _explain(
    scenario: Scenario,
    w: PostgresConsolidation,
    p: Packing,
    sb: SharedBuffersChoice,
    net: NetworkChoice,
    nic_why: Rationale | None,
    raid: str,
) -> SizingResult:
    server, drive = p.server, p.drive
    all_vms = [vm for h in p.hosts for vm in h]
    configured = [sum(vm.memory_gib for vm in h) for h in p.hosts]
    resident = [sum(vm.working_set_gib for vm in h) for h in p.hosts]
    rates = [float(memory.overcommit_rate(p.available_gib, c)) for c in configured]
    safe = [float(memory.safe_overcommit_rate(c, r)) for c, r in zip(configured, resident, strict=True)]
    worst = max(range(len(rates)), key=lambda i: rates[i])
    rationale = [
        Rationale("shared_buffers", sb.reason, sb.source),
        Rationale(
            "Database VMs",
            f"{len(all_vms)} VM(s) ({w.placement}); vCPUs cover peak clients at"
            f" {figure(RULES, 'pg_clients_per_vcpu'):g} clients per vCPU and memory holds each working set"
            f" {'inside shared_buffers' if sb.ratio >= 0.5 else 'plus the non-discretionary VM memory'}.",
            f"{cite(RULES, 'pg_clients_per_vcpu')}; 001_8432df66bbca52f5.txt, Working set sizes",
        ),
        Rationale(
            "Hosts and overcommit",
            f"{len(p.hosts)} host(s) of {server.model}; VMs packed while their vCPUs fit the {server.cores_total}"
            f" cores and their working sets fit the {p.available_gib:,.0f} GiB available. Memory overcommit rate"
            f" (Equation 1: 1 - available / configured) is {rates[worst]:.0%} on the busiest host; the working sets"
            f" allow up to {safe[worst]:.0%}.",
            "001_8432df66bbca52f5.txt, Equation 1",
        ),
    ]
    if nic_why:
        rationale.append(nic_why)
    warnings: list[Warning] = []
    for i, (r, s) in enumerate(zip(rates, safe, strict=True)):
        if r > s + 1e-9:
            warnings.append(Warning(
                "overcommit-above-safe",
                f"Host {i + 1}: {r:.0%} memory overcommit exceeds the {s:.0%} the working sets allow; expect"
                " ballooning and hypervisor swapping.",
            ))
    if raid == "none":
        warnings.append(Warning("no-raid", "Database drives without RAID: a drive failure loses the datastore."))
    scheme = "vm-per-database" if w.placement == "vm-per-database" else "shared-instance"
    preserved = memory.performance_preserved(min(rates[worst], 0.999), scheme, sb.ratio)
    estimates = {
        "overcommit_rate": Estimate.exact(rates[worst], "fraction"),
        "performance_preserved": preserved if isinstance(preserved, Estimate)
        else Estimate.exact(float(preserved), "fraction of baseline throughput"),
    }
    vm_layouts = tuple(
        VmLayout(i % server.numa_nodes, vm.vcpus, vm.memory_gib, 0, databases=tuple(d.name for d in vm.databases))
        for i, vm in enumerate(p.hosts[worst])
    )
    layout = HostLayout(
        "database host", len(p.hosts), server.id, server.sockets, server.numa_nodes_per_socket,
        server.cores_per_numa_node, float(scenario.platform.memory_gib or server.memory_gib), p.drives_per_host,
        drive.id if drive else None, raid, vm_layouts, net.ports, net.nic.speed_gbps if net.nic else 0.0,
    )
    first = all_vms[0]
    design = Design(
        kind=w.kind, deployment="vsphere", server_id=server.id, drive_id=drive.id if drive else None,
        nic_id=net.nic.id if net.nic else None, segment_hosts=len(p.hosts), data_drives_per_host=p.drives_per_host,
        raid=raid, memory_gib_per_host=float(scenario.platform.memory_gib or server.memory_gib),
        vms_per_host=max(len(h) for h in p.hosts), vm=VmLayout(None, first.vcpus, first.memory_gib, 0),
        nics_per_host=net.nics_per_host, network_gbps_per_host=net.gbps_per_host,
        shared_buffers_ratio=sb.ratio, shared_buffers_gib=round(first.memory_gib * sb.ratio, 2),
        overcommit_rate=round(rates[worst], 4), safe_overcommit_rate=round(safe[worst], 4), hosts=(layout,),
        data_needed_tb=round(sum(d.size_gb for d in w.databases) / 1000.0, 3),
        settings=postgres_settings([(vm.name, vm.memory_gib) for vm in all_vms], sb.ratio, sb.reason, sb.source),
    )
    lines = bom.host_lines("database host", len(p.hosts), server, drive, p.drives_per_host, net.nic,
                           net.nics_per_host)
    power = len(p.hosts) * float(cost_power.host_power_w(
        server.idle_w, server.max_w, scenario.assumptions.utilization_pct / 100.0, p.drives_per_host,
        drive.watts if drive else 0.0, net.nics_per_host, net.nic.watts if net.nic else 0.0,
    ))
    totals = bom.totals(lines, power, len(p.hosts) * server.rack_u, scenario)
    return SizingResult(
        scenario_name=scenario.name, design=design, estimates=estimates, binding_resource="memory",
        bom=tuple(lines), totals=totals, rationale=tuple(rationale), warnings=tuple(warnings),
        main_metric="performance_preserved",
        extra={"vms": [{"name": vm.name, "vcpus": vm.vcpus, "memory_gib": vm.memory_gib,
                        "databases": [d.name for d in vm.databases]} for vm in all_vms]},
    )

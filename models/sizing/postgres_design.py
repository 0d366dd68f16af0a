"""PostgreSQL databases consolidated on vSphere: VMs, hosts with HA, storage and each VM's configuration.

Databases -> VMs -> hosts come from `pg_placement` (busiest-hour sums, NUMA, vSphere HA N+1),
the I/O per database from `pg_storage`, the postgresql.conf values from `pg_config`; this module
picks the cheapest server and drive that hold it all and explains the result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.calibration_data import figure, point
from models.hardware import Drive, HardwareCatalog, Server
from models.perf import cost_power, memory
from models.problems import Problem
from models.scenario import PostgresConsolidation, Scenario
from models.sizing import bom
from models.sizing.candidates import NetworkChoice
from models.sizing.parts import (
    ResolvedParts,
    SizingInputError,
    candidate_drives,
    candidate_servers,
    choose_nic,
    current,
    nics_per_host,
)
from models.sizing.pg_config import PgConfig, PgVmInputs, drive_kind, postgres_config
from models.sizing.pg_placement import HOURS, HostPlan, PgVm, clients_per_vcpu, pack_hosts, plan_vms
from models.sizing.pg_storage import load_at, tps_per_client
from models.sizing.result import (
    DatabaseDisks,
    Design,
    HostLayout,
    PlacedVm,
    Rationale,
    SizingResult,
    VmLayout,
    Warning,
)
from models.sizing.rules import (
    DOCS,
    RULES,
    cite,
    drives_valid_for_raid,
    hypervisor_reserve_gib,
    raid_capacity_factor,
)
from models.sizing.shared_storage import VsanLayout, is_flash, policy_min_hosts, vsan_layout, write_penalty
from models.uncertainty import Estimate
from models.vocabulary import KINDS, RAIDS

DS = "pg_tuning_docs"
VS = "vsan_storage"
MAX_EXTRA_STORAGE_HOSTS = 64  # hosts added only for vSAN capacity before a server is given up
GB_PER_TB = 1000.0


def _penalty(raid: str) -> float:
    if RAIDS[raid].mirrored:
        return figure(DS, "raid_write_penalty_mirror")
    if raid == "raid5":
        return figure(DS, "raid_write_penalty_raid5")
    return 1.0


@dataclass(frozen=True)
class HostStorage:
    """What one host's datastore must serve at its busiest hour, and hold."""

    capacity_gb: float  # DATA + WAL virtual disks
    read_iops: float
    write_iops: float
    wal_mb_s: float


def host_storage(plan: HostPlan) -> HostStorage:
    reads = np.zeros(HOURS)
    writes = np.zeros(HOURS)
    wal = np.zeros(HOURS)
    for vm in plan.vms:
        for db, io in zip(vm.databases, vm.io, strict=True):
            loads = np.array([load_at(db, h) for h in range(HOURS)])
            reads += io.data_read_iops * loads
            writes += io.write_iops * loads
            wal += io.wal_mb_s * loads
    cap = sum(io.data_disk_gb + io.wal_disk_gb for vm in plan.vms for io in vm.io)
    disk_io = reads + writes  # the busiest hour of the mix
    h = int(np.argmax(disk_io)) if len(disk_io) else 0
    return HostStorage(cap, float(reads[h]), float(writes[h]), float(wal.max()))


def drives_for(storage: HostStorage, drive: Drive, raid: str, requested: int | None, bays: int) -> int | None:
    """Fewest drives (valid for the RAID level) that hold the disks and serve the busiest hour's I/O."""
    busy = figure(DS, "storage_busy_max")
    pen = _penalty(raid)
    per_drive_load = (storage.read_iops / max(drive.random_read_iops, 1e-9)
                      + storage.write_iops * pen / max(drive.random_write_iops, 1e-9))
    bw = storage.wal_mb_s * pen / max(drive.seq_write_mb_s, 1e-9)
    need_for_io = max(per_drive_load, bw) / busy

    def holds(n: int) -> bool:  # capacity and I/O: both only improve with more drives
        usable_gb = n * drive.capacity_tb * float(raid_capacity_factor(raid, n)) * GB_PER_TB
        return usable_gb >= storage.capacity_gb and n >= need_for_io

    def fits(n: int) -> bool:
        return 1 <= n <= bays and bool(drives_valid_for_raid(raid, n)) and holds(n)

    if requested is not None:
        return requested if fits(requested) else None
    if not math.isfinite(need_for_io) or not math.isfinite(storage.capacity_gb):
        return None
    # Closed form for the capacity bound (RAID-5 loses one drive, mirrors half), then a step or two
    # of the exact test around it, so rounding cannot move the answer; was one test per bay count.
    per_drive_gb = max(drive.capacity_tb * GB_PER_TB, 1e-9)
    if RAIDS[raid].mirrored:
        per_drive_gb *= float(raid_capacity_factor(raid, 2))
    n = max(1, math.ceil(storage.capacity_gb / per_drive_gb) + (1 if raid == "raid5" else 0), math.ceil(need_for_io))
    n = min(n, bays + 1)
    while n > 1 and holds(n - 1):
        n -= 1
    while n <= bays and not holds(n):
        n += 1
    for m in range(n, min(n + 4, bays + 1)):  # the RAID level's minimum and parity: a few counts up
        if fits(m):
            return m
    return next((m for m in range(min(n + 4, bays + 1), bays + 1) if fits(m)), None)


@dataclass(frozen=True)
class Packing:
    server: Server
    drive: Drive
    hosts: list[HostPlan]
    storage: list[HostStorage]
    drives_per_host: int
    available_gib: float
    capex: float
    vsan: VsanLayout | None = None


def cluster_storage(hosts: list[HostPlan]) -> HostStorage:
    """The busiest hour of the whole cluster: what one vSAN datastore serves."""
    return host_storage(HostPlan(tuple(vm for h in hosts for vm in h.vms), ()))


def vsan_for(storage: HostStorage, policy: str, hosts: int, drive: Drive, flash: list[Drive], bays: int,
             requested: int | None) -> VsanLayout | None:
    """Disk groups holding the DATA and WAL disks and serving the busiest hour's I/O at the policy's write penalty."""
    busy = figure(DS, "storage_busy_max")
    load = (storage.read_iops / max(drive.random_read_iops, 1e-9)
            + storage.write_iops * write_penalty(policy) / max(drive.random_write_iops, 1e-9))
    bw = storage.wal_mb_s * write_penalty(policy) / max(drive.seq_write_mb_s, 1e-9)
    per_host_for_io = math.ceil(max(load, bw) / busy / hosts - 1e-9)
    caches = [d for d in flash if d.id != drive.id] or flash
    return vsan_layout(storage.capacity_gb / GB_PER_TB, policy, hosts, drive, caches, bays,
                       max(per_host_for_io, requested or 1))


def _host_memory(scenario: Scenario, w: PostgresConsolidation, server: Server) -> tuple[float, float]:
    """(host memory, memory left for VMs) in GiB: the workload's stated figure, else the host's memory less the
    hypervisor reserve (the platform's, else the rule's); may be <= 0 for a host too small for any VM."""
    host_mem = float(scenario.platform.memory_gib or server.memory_gib)
    reserve = scenario.platform.hypervisor_reserve_gib
    available = w.host_memory_available_gib or host_mem - (hypervisor_reserve_gib(host_mem) if reserve is None
                                                           else reserve)
    return host_mem, available


def _cheapest_vsan(
    scenario: Scenario, w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts, server: Server,
    vms: list[PgVm], hosts: list[HostPlan], available: float, net: NetworkChoice,
) -> Packing | None:
    """The cheapest capacity drive for one vSAN datastore over `server` hosts; when no drive fits the bays of the
    hosts the VMs need, hosts are added (up to MAX_EXTRA_STORAGE_HOSTS) until one does."""
    flash = [d for d in current(catalog.drives, catalog) if server.accepts(d) and is_flash(d)]
    whole = cluster_storage(hosts)
    drives = candidate_drives(catalog, parts, server)
    best: Packing | None = None
    for n in range(len(hosts), len(hosts) + MAX_EXTRA_STORAGE_HOSTS + 1):
        spread = hosts if n == len(hosts) else pack_hosts(
            vms, server.cores_total, available, w.vsphere_ha, server.numa_nodes, server.cores_per_numa_node, n)
        if spread is None:
            continue
        found = False
        for drive in drives:
            lay = vsan_for(whole, w.vsan_policy, len(spread), drive, flash, server.data_bays,
                           scenario.platform.drives_per_host)
            if lay is None:
                continue
            found = True
            per_host = lay.capacity_per_host * drive.price + lay.disk_groups_per_host * lay.cache_drive.price
            capex = len(spread) * (server.price + per_host + net.price_per_host)
            if best is None or capex < best.capex:
                best = Packing(server, drive, spread, [host_storage(h) for h in spread], lay.drives_per_host,
                               available, capex, lay)
        if found:
            break
    return best


def _cheapest_local(
    scenario: Scenario, catalog: HardwareCatalog, parts: ResolvedParts, server: Server, hosts: list[HostPlan],
    available: float, net: NetworkChoice, raid: str,
) -> Packing | None:
    """The cheapest drive for each host's local datastore at `raid`: every host gets the drive count its busiest
    host needs."""
    storage = [host_storage(h) for h in hosts]
    best: Packing | None = None
    for drive in candidate_drives(catalog, parts, server):
        counts = [drives_for(s, drive, raid, scenario.platform.drives_per_host, server.data_bays) for s in storage]
        if any(c is None for c in counts):
            continue
        per_host = max(c for c in counts if c is not None)
        capex = len(hosts) * (server.price + per_host * drive.price + net.price_per_host)
        if best is None or capex < best.capex:
            best = Packing(server, drive, hosts, storage, per_host, available, capex)
    return best


def size_postgres(
    scenario: Scenario, w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts
) -> SizingResult:
    """The cheapest server and drive that hold the database VMs on hosts (with HA when asked) and their storage."""
    nic, nic_why = choose_nic(catalog, parts)
    net = NetworkChoice(nic, nics_per_host(nic, scenario.platform.nics_per_host))
    vsan = (w.shared_storage or ("vsan" if w.vsphere_ha else "local")) == "vsan"
    raid = f"vsan-{w.vsan_policy}" if vsan else (scenario.platform.raid or "raid10")
    fill = figure(DOCS, "gp_capacity_max_fill")
    best: Packing | None = None
    too_small: list[str] = []
    for server in candidate_servers(catalog, parts):
        host_mem, available = _host_memory(scenario, w, server)
        if available <= 0:
            too_small.append(f"{server.id}: {host_mem:g} GiB leaves nothing after the hypervisor reserve")
            continue
        available = min(available, host_mem)
        vms = plan_vms(w, server.cores_per_numa_node, available / server.numa_nodes, server.cores_total, fill)
        hosts = pack_hosts(vms, server.cores_total, available, w.vsphere_ha, server.numa_nodes,
                           server.cores_per_numa_node, policy_min_hosts(w.vsan_policy) if vsan else 1)
        if hosts is None:
            big = max(vms, key=lambda v: v.memory_gib)
            too_small.append(f"{server.id}: VM {big.name} ({big.memory_gib:g} GiB, {big.vcpus} vCPU) against"
                             f" {available:,.0f} GiB available and {server.cores_total} cores")
            continue
        found = (_cheapest_vsan(scenario, w, catalog, parts, server, vms, hosts, available, net) if vsan
                 else _cheapest_local(scenario, catalog, parts, server, hosts, available, net, raid))
        if found is not None and (best is None or found.capex < best.capex):
            best = found
    if best is None:
        detail = "; ".join(too_small[:3])
        raise SizingInputError([Problem(
            "workload.databases",
            "no server and drive in the catalog hold the database VMs (each VM within the host's memory and cores)"
            " with drives for their data, WAL and IOPS" + (f" ({detail})" if detail else ""),
        )])
    return _explain(scenario, w, best, net, nic_why, raid)


def _configs(p: Packing, w: PostgresConsolidation, overcommitted: list[bool]) -> list[PgConfig]:
    kind = drive_kind(p.drive)
    out = []
    for hi, host in enumerate(p.hosts):
        for vm in host.vms:
            out.append(postgres_config(PgVmInputs(
                vm.name, vm.memory_gib, vm.vcpus, vm.clients_at_once, len(vm.databases) == 1, overcommitted[hi],
                kind, p.drives_per_host, sum(io.wal_mb_per_checkpoint for io in vm.io),
                w.shared_buffers_policy == "conventional",
            )))
    return out


def _explain(
    scenario: Scenario,
    w: PostgresConsolidation,
    p: Packing,
    net: NetworkChoice,
    nic_why: Rationale | None,
    raid: str,
) -> SizingResult:
    server, drive = p.server, p.drive
    host_mem = float(scenario.platform.memory_gib or server.memory_gib)
    configured = [h.configured_gib for h in p.hosts]
    resident = [max(h.resident_peak_gib, 1e-9) for h in p.hosts]
    rates = [float(memory.overcommit_rate(p.available_gib, c)) if c > 0 else 0.0 for c in configured]
    safe = [float(memory.safe_overcommit_rate(c, r)) if c > 0 else 0.0
            for c, r in zip(configured, resident, strict=True)]
    worst = max(range(len(rates)), key=lambda i: rates[i])
    configs = _configs(p, w, [r > 0 for r in rates])
    by_vm = {c.group.target: c for c in configs}
    all_vms = [vm for h in p.hosts for vm in h.vms]
    sum_peaks = sum(h.sum_of_peaks_gib for h in p.hosts)
    busiest = sum(h.resident_peak_gib for h in p.hosts)
    estimated = sorted({io.name for vm in all_vms for io in vm.io if io.tps_estimated})

    first_cfg = by_vm[all_vms[0].name]
    lay = p.vsan
    if lay is not None:
        penalty = write_penalty(lay.policy)
        where = (f"one vSAN datastore across the {len(p.hosts)} hosts (policy {lay.policy}: VMs of a failed host"
                 f" restart on the others with their disks; at least {policy_min_hosts(lay.policy)} hosts), per host"
                 f" {lay.disk_groups_per_host} disk group(s) of 1 x {lay.cache_drive.model} cache in front of"
                 f" {lay.capacity_per_host} x {drive.capacity_tb:g} TB {drive.model} in all,"
                 f" {figure(VS, 'slack_fraction'):.0%} slack kept free")
    else:
        penalty = _penalty(raid)
        where = f"each host's local {raid} datastore of {p.drives_per_host} x {drive.capacity_tb:g} TB {drive.model}"
    rationale = [
        Rationale("shared_buffers", first_cfg.get("shared_buffers").reason, first_cfg.get("shared_buffers").source),
        Rationale(
            "Database VMs",
            f"{len(all_vms)} VM(s) ({w.placement}) for {len(w.databases)} database(s); vCPUs cover the clients"
            f" connected at once at {clients_per_vcpu():g} clients per vCPU; memory is sized so"
            f" effective_cache_size ({figure(DS, 'effective_cache_size_ratio'):.0%} of it) holds the working sets plus"
            " the per-client memory. VMs are pinned to one NUMA node where their vCPUs and memory fit one.",
            f"{cite(RULES, 'pg_clients_per_vcpu')}; {point(DS, 'effective_cache_size_ratio').source.cite()};"
            " 001_8432df66bbca52f5.txt, Working set sizes",
        ),
        Rationale(
            "Busy hours",
            f"CPU and memory are sized on the busiest hour: the highest hourly sum of resident memory is"
            f" {busiest:,.0f} GiB against {sum_peaks:,.0f} GiB for the sum of the peaks (databases outside their busy"
            " hours run at the off-peak share, study 001's 2 of 30 clients unless given).",
            "001_8432df66bbca52f5.txt, Table 2 (complementary traffic streams)",
        ),
        Rationale(
            "Hosts and overcommit",
            f"{len(p.hosts)} host(s) of {server.model}"
            + (", one host's capacity kept free for vSphere HA restarts (admission control: the VMs of any one"
               " failed host fit in the others)" if w.vsphere_ha else ", no vSphere HA reserve (opted out)")
            + f". Memory overcommit (Equation 1: 1 - available / configured) is {rates[worst]:.0%} on the busiest"
            f" host; the working sets allow up to {safe[worst]:.0%}.",
            f"{point(DS, 'ha_min_hosts').source.cite()}; 001_8432df66bbca52f5.txt, Equation 1",
        ),
        Rationale(
            "Storage",
            f"Each VM gets a DATA and a WAL virtual disk (study 001 best practice) on {where}: capacity for every"
            f" database at the {figure(DOCS, 'gp_capacity_max_fill'):.0%} fill limit plus 2x max_wal_size of WAL, and"
            " IOPS for the busiest hour (data pages written back once per checkpoint at most, one WAL flush per"
            f" commit, write penalty {penalty:g}) at most {figure(DS, 'storage_busy_max'):.0%} busy."
            + (f" Transactions for {', '.join(estimated)} are estimated at {tps_per_client():.0f} per client per"
               " second (study 001's zero-think-time DBT-2 clients, an upper bound): give peak_tps for a tighter"
               " design." if estimated else ""),
            "001_8432df66bbca52f5.txt, Performance Best Practices; "
            f"{point(DS, 'raid_write_penalty_mirror').source.cite()};"
            f" {point(DS, 'dbt2_new_orders_per_client_s').source.cite()}",
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
    if not w.vsphere_ha:
        most = max(len(h.vms) for h in p.hosts)
        warnings.append(Warning("no-ha", f"vSphere HA is off: a host failure stops its {most} VM(s) until the host"
                                         " is repaired; no capacity is reserved for restarts."))
    elif lay is None:
        warnings.append(Warning(
            "ha-local-storage",
            "vSphere HA restarts VMs only from shared storage, and shared_storage is 'local': the capacity is"
            " reserved but a failed host's VMs cannot restart until their datastore is back.",
        ))
    small = [f"{vm.name} ({vm.vcpus} vCPU for {vm.clients_at_once} clients)" for vm in all_vms
             if vm.vcpus < math.ceil(vm.clients_at_once / clients_per_vcpu() - 1e-9)]
    small += [f"{vm.name} ({vm.memory_gib:g} GiB for a {vm.resident_peak_gib:,.1f} GiB working set)" for vm in all_vms
              if vm.memory_gib < vm.resident_peak_gib]
    if small:
        warnings.append(Warning(
            "small-vm", f"VMs too small for their clients: {', '.join(small[:5])}{' ...' if len(small) > 5 else ''};"
            f" study 001 ran {clients_per_vcpu():g} clients per vCPU with the working set resident. Expect queueing"
            " or reads from disk; split the database or give the VM more.",
        ))
    if raid == "none":
        warnings.append(Warning("no-raid", "Database drives without RAID: a drive failure loses the datastore."))
    wide = [vm.name for h in p.hosts for vm, n in zip(h.vms, h.numa_nodes, strict=True) if n is None]
    if wide:
        warnings.append(Warning("wide-vm", f"{', '.join(wide[:5])}{' ...' if len(wide) > 5 else ''}: larger than one"
                                           " NUMA node; configure vNUMA so the guest sees the nodes."))
    for c in configs:
        for note in c.notes:
            if "pooler" in note:
                warnings.append(Warning("connection-pooler", f"{c.group.target}: {note}"))
    scheme: memory.Scheme = "vm-per-database" if w.placement == "vm-per-database" else "shared-instance"
    ratios = [float(by_vm[vm.name].get("shared_buffers").value) / (vm.memory_gib * 1024.0) for vm in all_vms]
    main_ratio = max(sorted({round(r, 2) for r in ratios}), key=lambda r: sum(round(x, 2) == r for x in ratios))
    preserved = memory.performance_preserved(min(rates[worst], 0.999), scheme, main_ratio)
    estimates = {
        "overcommit_rate": Estimate.exact(rates[worst], "fraction"),
        "performance_preserved": Estimate.exact(float(preserved), "fraction of baseline throughput"),
    }
    # layouts and the design count the capacity drives; vSAN cache devices are their own BOM line
    capacity_drives = lay.capacity_per_host if lay is not None else p.drives_per_host
    layouts = []
    for hi, h in enumerate(p.hosts):
        vm_layouts = tuple(
            VmLayout(n, vm.vcpus, vm.memory_gib, 0, databases=tuple(d.name for d in vm.databases))
            for vm, n in zip(h.vms, h.numa_nodes, strict=True)
        )
        layouts.append(HostLayout(
            f"database host {hi + 1}", 1, server.id, server.sockets, server.numa_nodes_per_socket,
            server.cores_per_numa_node, host_mem, capacity_drives, drive.id, raid, vm_layouts, net.ports,
            net.nic.speed_gbps if net.nic else 0.0,
        ))
    if lay is not None:
        raw_tb, usable_tb = lay.raw_tb, lay.usable_tb
    else:
        raw_tb = len(p.hosts) * p.drives_per_host * drive.capacity_tb
        usable_tb = raw_tb * float(raid_capacity_factor(raid, p.drives_per_host))
    first = all_vms[0]
    design = Design(
        kind=w.kind, deployment="vsphere", server_id=server.id, drive_id=drive.id,
        nic_id=net.nic.id if net.nic else None, segment_hosts=len(p.hosts), data_drives_per_host=capacity_drives,
        raid=raid, memory_gib_per_host=host_mem,
        vms_per_host=max(len(h.vms) for h in p.hosts), vm=VmLayout(None, first.vcpus, first.memory_gib, 0),
        nics_per_host=net.nics_per_host, network_gbps_per_host=net.gbps_per_host,
        shared_buffers_ratio=main_ratio,
        shared_buffers_gib=round(float(by_vm[first.name].get("shared_buffers").value) / 1024.0, 2),
        overcommit_rate=round(rates[worst], 4), safe_overcommit_rate=round(safe[worst], 4), hosts=tuple(layouts),
        raw_capacity_tb=round(raw_tb, 3), usable_capacity_tb=round(usable_tb, 3),
        data_needed_tb=round(sum(s.capacity_gb for s in p.storage) / GB_PER_TB, 3),
        settings=tuple(c.group for c in configs),
    )
    lines = bom.host_lines("database host", len(p.hosts), server, drive, capacity_drives, net.nic,
                           net.nics_per_host)
    if lay is not None:
        lines.insert(2, bom.line("database host", lay.cache_drive, lay.disk_groups_per_host, len(p.hosts), "drive"))
    power = len(p.hosts) * float(cost_power.host_power_w(
        server.idle_w, server.max_w, scenario.assumptions.utilization_pct / 100.0, p.drives_per_host,
        drive.watts, net.nics_per_host, net.nic.watts if net.nic else 0.0,
    ))
    totals = bom.totals(lines, power, len(p.hosts) * server.rack_u, scenario)
    placed = tuple(
        PlacedVm(vm.name, hi + 1, n, vm.vcpus, vm.memory_gib, tuple(d.name for d in vm.databases), tuple(
            DatabaseDisks(io.name, round(io.data_disk_gb, 1), round(io.wal_disk_gb, 1), round(io.tps, 1),
                          round(io.data_write_iops, 1), round(io.wal_write_iops, 1), round(io.wal_mb_s, 2))
            for io in vm.io))
        for hi, h in enumerate(p.hosts) for vm, n in zip(h.vms, h.numa_nodes, strict=True)
    )
    return SizingResult(
        scenario_name=scenario.name, design=design, estimates=estimates, binding_resource="memory",
        bom=tuple(lines), totals=totals, rationale=tuple(rationale), warnings=tuple(warnings),
        main_metric=KINDS[w.kind].main_metric,
        vms=placed,
    )

"""What bounds a PostgreSQL consolidation before any packing: the memory a host leaves for VMs, one database
too large for every host, and the most hosts one cluster takes (vSphere's, and vSAN's with a vSAN datastore)."""

from __future__ import annotations

import math

from models.calibration_data import figure, point
from models.hardware import HardwareCatalog, Nic, Server
from models.percent import percent
from models.perf import memory
from models.problems import Problem
from models.scenario import PostgresConsolidation, Scenario
from models.sizing.parts import ResolvedParts, candidate_servers, choose_nic, current
from models.sizing.postgres.datastore import DS, VS
from models.sizing.postgres.placement import make_vm, plan_vms
from models.sizing.postgres.storage import GIB_PER_GB
from models.sizing.postgres.tps_vcpus import host_cpu
from models.sizing.result import Rationale
from models.sizing.rules import DOCS, hypervisor_reserve_gib
from models.sizing.shared_storage import vsan_max_hosts


def vsphere_max_hosts() -> int:
    """The most hosts one vSphere cluster holds (VMware configuration maximums, as VMware Validated Design plans):
    vSphere HA restarts a failed host's VMs only within its cluster, so a consolidation needing more hosts is
    several clusters, each sized on its own.

    >>> vsphere_max_hosts()
    64
    """
    return int(figure(DS, "vsphere_max_hosts_per_cluster"))


def host_memory(scenario: Scenario, w: PostgresConsolidation, server: Server) -> tuple[float, float]:
    """(host memory, memory left for VMs) in GiB: the workload's stated figure, else the host's memory less the
    hypervisor reserve (the platform's, else the rule's); may be <= 0 for a host too small for any VM."""
    host_mem, physical = physical_memory(scenario, server)
    # a stated figure above what the host has after the hypervisor cannot be: the host's memory bounds it
    available = min(w.host_memory_available_gib, physical) if w.host_memory_available_gib else physical
    return host_mem, available


def physical_memory(scenario: Scenario, server: Server) -> tuple[float, float]:
    """(host memory, the host's memory less the hypervisor reserve) in GiB: the most vRAM one VM can be configured
    with on the host. Below it, the memory made available to the VMs (`host_memory`) may be less than the VMs'
    configured memory: that is memory overcommit (study 001, Equation 1), bounded by their working sets."""
    host_mem = float(scenario.platform.memory_gib or server.memory_gib)
    reserve = scenario.platform.hypervisor_reserve_gib
    return host_mem, host_mem - (hypervisor_reserve_gib(host_mem) if reserve is None else reserve)


def largest_working_set(
    w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts
) -> tuple[float, float]:
    """(resident GiB, configured GiB) of the VM whose working set is the largest, on the candidate server where it
    is least: the memory a host must make available for that VM to run at all. Below the configured memory is
    overcommit (Equation 1); below the resident working set the overcommit passes what the working sets allow."""
    fill = figure(DOCS, "gp_capacity_max_fill")
    one_each = w.model_copy(update={"placement": "vm-per-database"})  # shared VMs can shrink to one database
    found = [max(((vm.resident_peak_gib, vm.memory_gib) for vm in plan_vms(
        one_each, s.cores_per_numa_node, float("inf"), host_cpu(s, "P50"), fill)), default=(0.0, 0.0))
        for s in candidate_servers(catalog, parts)]
    return min(found, default=(0.0, 0.0))


def below_working_sets(stated: float, resident_gib: float, configured_gib: float) -> Problem:
    """A stated host memory for VMs below the largest VM's resident working set: the limit named, with the
    overcommit it would mean against the most Equation 1 allows that VM (study 001's safe rate)."""
    over = float(memory.overcommit_rate(stated, configured_gib))
    safe = float(memory.safe_overcommit_rate(configured_gib, max(resident_gib, 1e-9)))
    return Problem(
        "workload.host_memory_available_gib",
        f"{stated:g} GiB per host is less than the working set the largest database VM keeps resident at its"
        f" busiest hour ({resident_gib:,.2f} GiB of its {configured_gib:g} GiB): that is {percent(over)} memory"
        f" overcommit (Equation 1) where its working sets allow at most {percent(safe)}; give at least"
        f" {resident_gib:,.2f} GiB, or leave it empty for the host's memory less the hypervisor reserve",
    )


def larger_than_any_host(
    scenario: Scenario, w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts
) -> list[Problem]:
    """Each database whose own VM is larger than the memory the biggest candidate host leaves for VMs, with the
    most working set that host could cache.

    Refused rather than sized on a VM too small for it: the rest of the working set would be read from disk, a
    regime study 001 did not measure, so refarch would have no throughput to give for it; and one PostgreSQL
    database cannot be split over VMs the way several databases can.
    """
    if w.vm_memory_gib is not None:
        return []  # a stated VM size is checked against the host on its own
    servers = [(s, host_memory(scenario, w, s)[1]) for s in candidate_servers(catalog, parts)]
    if not servers:
        return []
    biggest, most_gib = max(servers, key=lambda t: (t[1], t[0].id))
    ecs = figure(DS, "effective_cache_size_ratio")
    fill = figure(DOCS, "gp_capacity_max_fill")
    out = []
    for i, db in enumerate(w.databases):
        vm = make_vm(f"vm-{db.name}", (db,), host_cpu(biggest, scenario.targets.confidence,
                                                            scenario.platform.datastore_latency_ms), w, fill)
        if vm.memory_gib <= most_gib:
            continue
        clients_gib = vm.resident_peak_gib - db.working_set_gb * GIB_PER_GB
        # a VM's memory is whole GiB rounded up (make_vm), so the working set must fit the whole GiB below
        most_ws_gb = max(0.0, math.floor((math.floor(most_gib) * ecs - clients_gib) / GIB_PER_GB))
        out.append(Problem(
            f"workload.databases[{i}].working_set_gb",
            f"{db.name}: a {db.working_set_gb:,.0f} GB working set needs a {vm.memory_gib:,.0f} GiB VM (the working"
            f" set at the effective_cache_size share, {percent(ecs)}, plus its clients' memory), more than the"
            f" {most_gib:,.0f} GiB the largest host in the catalog ({biggest.id}) leaves for VMs: at most"
            f" {most_ws_gb:,.0f} GB of working set fits. Add a server with more memory to the catalog, or give only"
            " the data the busy hours touch as the working set (PostgreSQL reads the rest from disk, which refarch's"
            " calibration does not cover, so it gives no throughput for it)",
        ))
    return out


def vsan_nic(catalog: HardwareCatalog, parts: ResolvedParts) -> tuple[Nic | None, Rationale | None]:
    """The NIC of a vSAN datastore's hosts: the one named, else the lowest price per port among those at the host
    bandwidth vSAN OSA needs for all-flash (more than a hybrid datastore needs), else the general rule
    (`parts.choose_nic`, Greenplum's study-002 speeds)."""
    floor = figure(VS, "vsan_osa_all_flash_min_gbps")
    fast = [n for n in current(catalog.nics, catalog) if n.speed_gbps >= floor]
    if parts.nic or not fast:
        return choose_nic(catalog, parts)
    nic = min(fast, key=lambda n: (n.price / n.ports, n.price))
    why = (f"{nic.vendor} {nic.model}: the lowest price per port at the {floor:g} GbE vSAN needs for an all-flash"
           " datastore.")
    return nic, Rationale("NIC", why, point(VS, "vsan_osa_all_flash_min_gbps").source.cite())


def cluster_max_hosts(vsan: bool) -> int:
    """The most hosts the design may take: one vSphere cluster (HA restarts VMs only within it), and with vSAN
    also one vSAN cluster (its datastore spans only its own hosts)."""
    return min(vsphere_max_hosts(), vsan_max_hosts()) if vsan else vsphere_max_hosts()


CLUSTER_WORDS = {True: "one vSAN cluster", False: "one vSphere cluster"}


def cluster_limit_source(vsan: bool) -> str:
    """Where the binding cluster limit is stated, cited once in the refusal."""
    if vsan and vsan_max_hosts() <= vsphere_max_hosts():
        return f"{CLUSTER_WORDS[True]}: {point(VS, 'vsan_max_hosts_per_cluster').source.cite()}"
    return f"{CLUSTER_WORDS[False]}: {point(DS, 'vsphere_max_hosts_per_cluster').source.cite()}"

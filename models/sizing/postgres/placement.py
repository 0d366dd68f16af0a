"""Databases -> VMs -> hosts for PostgreSQL on vSphere, sized on the busiest hour, with vSphere HA N+1.

* Each database runs at its peak in its busy hours and at the off-peak share otherwise
  (study 001: complementary streams of 30 and 2 clients). A VM's CPU demand and resident memory
  are computed for each hour of the day; a host holds VMs while the highest hourly sum fits, not
  the sum of the peaks.
* VM memory: the working sets plus the per-client memory (study 001 working-set knees) must fit
  the effective_cache_size share of VM memory; at least 2 GiB. vCPUs: peak clients at once / 10
  (study 001's consolidation VMs). A VM never exceeds the host's memory; it is pinned to one NUMA
  node when its vCPUs and memory fit one, else it is a wide VM (vNUMA).
* A database with a stated peak_tps also needs the vCPUs whose CPU rate reaches it at `targets.confidence` on the
  server's CPU (`tps_vcpus`: the throughput model's rate, at P90 its band's P10), or a measured sweep's rate per
  vCPU. A VM never gets more vCPUs than the host has cores; the design then warns with what binds it.
* vSphere HA N+1 (or N+2, workload.ha_host_failures): the smallest host count on which the VMs of any failed
  host (pair) restart in the free capacity of the others, placed as HA would (`restart`: hour by hour, VM by VM).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from models.calibration_data import figure, point
from models.perf import memory
from models.scenario import PgDatabase, PostgresConsolidation
from models.sizing.postgres import quick_place
from models.sizing.postgres.config import memory_for_connections_gib
from models.sizing.postgres.quick_place import HOURS, BinSums, bin_sums
from models.sizing.postgres.storage import GIB_PER_GB, DbIo, database_io, load_profile
from models.sizing.postgres.tps_vcpus import (
    HostCpu,
    clients_per_vcpu,
    clients_tps,
    commit_bound_tps,
    storage_margin,
    tps_vcpus,
    vcpus_tps,
)
from models.sizing.result import DatabaseDisks, PlacedVm

RULES = "sizing_rules"
DS = "pg_tuning_docs"
MIN_VM_GIB = 2.0  # a guest OS and PostgreSQL with room for shared_buffers


@dataclass(frozen=True)
class PgVm:
    name: str
    databases: tuple[PgDatabase, ...]
    vcpus: int
    memory_gib: float
    cpu_by_hour: np.ndarray  # physical cores busy, per hour
    resident_by_hour: np.ndarray  # GiB that must stay resident, per hour
    clients_at_once: int  # most clients connected at the same hour
    io: tuple[DbIo, ...]
    vcpus_needed: float = 0.0  # vCPUs its clients and stated transaction rates take at the busiest hour
    tps_reachable: float = 0.0  # median TPS its vCPUs carry for its clients on the host's CPU (`vcpus_tps`)
    clients_tps: float = 0.0  # median TPS its clients at once would drive there (`clients_tps`)

    @cached_property
    def resident_peak_gib(self) -> float:  # taken once: every placement and failure sorts the VMs by it
        return float(self.resident_by_hour.max())

    @cached_property
    def cpu_peak(self) -> float:
        return float(self.cpu_by_hour.max())

    @cached_property
    def io_by_hour(self) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]:
        """Per database: its data reads and writes (IOPS) and WAL (MB/s) hour by hour; taken once, summed per host
        by every datastore a server candidate is sized with."""
        return tuple((io.data_read_iops * loads, io.write_iops * loads, io.wal_mb_s * loads)
                     for db, io in zip(self.databases, self.io, strict=True) for loads in (load_profile(db),))


def _vcpus_by_hour(dbs: tuple[PgDatabase, ...], host: HostCpu) -> np.ndarray:
    """vCPUs the databases take per hour: their clients at 10 per vCPU, or the vCPUs their stated transaction
    rate takes on the host's CPU when that is more."""
    def need(d: PgDatabase) -> float:
        return max(d.peak_clients / clients_per_vcpu(), tps_vcpus(d, host))
    return _hourly(dbs, need)


def _hourly(dbs: tuple[PgDatabase, ...], weight: Callable[[PgDatabase], float]) -> np.ndarray:
    """Per hour, the sum over `dbs` of weight x the database's load, added in the databases' order as per-hour
    sums add them (the same bits); each weight is computed once, not once per hour."""
    total = np.zeros(HOURS)
    for d in dbs:
        w = weight(d)
        total = total + w * load_profile(d)
    return total


def _overhead_gib(clients: np.ndarray | float) -> np.ndarray:
    """Per-client VM memory beyond the cached data: the VM working-set knee less the shared_buffers the
    study held fixed while reading it (001 Figures 7 and 9)."""
    fixed_sb_mb = float(point("pg_vfabric_001", "ws_vm_30c_mb").conditions["shared_buffers_mb"])
    return np.maximum(np.asarray(memory.vm_memory_working_set_mb(np.asarray(clients, dtype=float))) - fixed_sb_mb,
                      0.0) / 1024.0


def _clients_by_hour(dbs: tuple[PgDatabase, ...]) -> np.ndarray:
    return _hourly(dbs, lambda d: d.peak_clients)


def _rates(dbs: tuple[PgDatabase, ...], carried: float, host: HostCpu, caches: dict[str, float]) -> dict[str, float]:
    """The busiest-hour rate each database is sized for: a stated peak as it is; an unstated one at what its clients
    drive by the throughput model on the host's CPU (`clients_tps`), at most its share by clients of what the VM
    carries (`carried`) less the stated rates, so storage is not sized for a rate the VM never runs (the host's cores
    or vm_vcpus capping it), and at most what its clients commit where the datastore states its latency
    (`commit_bound_tps`, with `caches`: each database's share of the VM's cache, GiB).
    """
    estimated = [d for d in dbs if d.peak_tps is None]
    clients = sum(d.peak_clients for d in estimated)
    room = max(0.0, carried - sum(d.peak_tps for d in dbs if d.peak_tps is not None))
    out = {d.name: d.peak_tps for d in dbs if d.peak_tps is not None}
    out.update({d.name: min(clients_tps(d.peak_clients, host), room * d.peak_clients / clients,
                            commit_bound_tps(d, caches[d.name], host)) for d in estimated})
    return out


@dataclass(frozen=True)
class _Demand:
    """What a VM of some databases takes whatever the host: its clients at once, its resident GiB and vCPUs needed
    per hour, and the vCPUs its clients and stated rates take at the busiest hour."""

    at_once: int
    resident: np.ndarray
    demand: np.ndarray
    needed: float

    @cached_property
    def resident_peak(self) -> float:  # read by every server candidate's VM of these databases
        return float(self.resident.max())


def _demand(dbs: tuple[PgDatabase, ...], host: HostCpu) -> _Demand:
    clients = _clients_by_hour(dbs)
    at_once = math.ceil(clients.max() - 1e-9)
    resident = sum(d.working_set_gb for d in dbs) * GIB_PER_GB + _overhead_gib(clients)
    demand = _vcpus_by_hour(dbs, host)
    return _Demand(at_once, resident, demand, float(max(demand.max(), at_once / clients_per_vcpu())))


@dataclass
class VmCache:
    """The VMs of one design, sized once and shared by its server candidates: what a VM takes whatever the host per
    set of databases, the memory a VM grows to for its connections, and each VM by what makes it differ (its
    databases, vCPUs and memory). Keyed on the databases' identities: one cache serves one workload."""

    demands: dict[tuple[tuple[int, ...], HostCpu | None], _Demand] = field(default_factory=dict)
    memory: dict[tuple[int, int, bool, bool, float, float], float] = field(default_factory=dict)
    vms: dict[tuple[str, tuple[int, ...], HostCpu | None, tuple[float | None, float | None], int, float, float],
              PgVm] = field(default_factory=dict)
    renamed: dict[tuple[int, int], PgVm] = field(default_factory=dict)  # `alike.sized_alike`: (id of a VM of `vms`, i)


def _demand_key(dbs: tuple[PgDatabase, ...], host: HostCpu) -> tuple[tuple[int, ...], HostCpu | None]:
    """Only a stated rate makes the demand depend on the host's CPU: without one, every server shares it."""
    return tuple(map(id, dbs)), (host if any(d.peak_tps is not None for d in dbs) else None)


@dataclass(frozen=True)
class VmShape:
    """A VM before its I/O is sized (`sized`): its databases, vCPUs and memory, and what they take hour by hour; the
    hourly CPU and memory, the vCPUs needed and the peaks are those of the VM it sizes to."""

    name: str
    databases: tuple[PgDatabase, ...]
    vcpus: int
    memory_gib: float
    need: _Demand
    host: HostCpu
    fill: float
    key: tuple[str, tuple[int, ...], HostCpu | None, tuple[float | None, float | None], int, float, float]  # `VmCache`

    @property
    def vcpus_needed(self) -> float:
        return self.need.needed

    @property
    def resident_peak_gib(self) -> float:
        return self.need.resident_peak

    @property
    def cpu_by_hour(self) -> np.ndarray:
        return np.minimum(self.need.demand, self.vcpus)  # type: ignore[no-any-return]  # as `_sized_vm` sets it

    @property
    def resident_by_hour(self) -> np.ndarray:
        return self.need.resident


def make_vm(name: str, dbs: tuple[PgDatabase, ...], host: HostCpu, w: PostgresConsolidation, fill: float,
            room_gib: float | None = None, cache: VmCache | None = None) -> PgVm:
    """The VM of `dbs`. `room_gib`: the most memory it may grow to so that each of its clients gets its own
    connection (`config.memory_for_connections_gib`, up to a NUMA node's memory); None keeps the working-set
    size (the host-limit checks, which ask what the working sets alone need). `cache`: VMs already sized for the
    same workload, reused where the vCPUs and memory come out the same."""
    cache = cache if cache is not None else VmCache()
    return sized(shape_of(name, dbs, host, w, fill, room_gib, cache), cache)


def shape_of(name: str, dbs: tuple[PgDatabase, ...], host: HostCpu, w: PostgresConsolidation, fill: float,
             room_gib: float | None, cache: VmCache) -> VmShape:
    """`make_vm`'s VM before its I/O is sized: its vCPUs and memory."""
    ids, on = dkey = _demand_key(dbs, host)
    need = cache.demands.get(dkey)
    if need is None:
        need = cache.demands[dkey] = _demand(dbs, host)
    ecs = figure(DS, "effective_cache_size_ratio")
    vcpus = w.vm_vcpus or int(min(host.cores, max(2, math.ceil(need.needed - 1e-9))))
    mem = w.vm_memory_gib or max(MIN_VM_GIB, float(math.ceil(need.resident_peak / ecs)))
    if w.vm_memory_gib is None and room_gib is not None:
        key = (need.at_once, vcpus, len(dbs) == 1, w.shared_buffers_policy == "conventional", float(mem), room_gib)
        if key not in cache.memory:
            cache.memory[key] = memory_for_connections_gib(*key[:4], mem, room_gib)
        mem = cache.memory[key]
    vkey = (name, ids, on, (host.specrate_per_core, host.latency_ms), vcpus, float(mem), fill)  # unstated rates
    return VmShape(name, dbs, vcpus, float(mem), need, host, fill, vkey)


def sized(shape: VmShape, cache: VmCache) -> PgVm:
    """The VM of `shape` with each database's I/O, sized once per `VmCache` key."""
    vm = cache.vms.get(shape.key)
    if vm is None:
        vm = cache.vms[shape.key] = _sized_vm(shape.name, shape.databases, shape.need, (shape.vcpus, shape.host),
                                              shape.memory_gib, shape.fill)
    return vm


def _sized_vm(name: str, dbs: tuple[PgDatabase, ...], need: _Demand, on: tuple[int, HostCpu], mem: float,
              fill: float) -> PgVm:
    """The VM with `on` = (vCPUs, host) and `mem` GiB: its CPU per hour within its vCPUs, and each database's I/O at
    its share of the cache; a stated rate's reads with the margin that meets it at the confidence asked."""
    vcpus, host = on
    cache = mem * figure(DS, "effective_cache_size_ratio")
    carried = vcpus_tps(vcpus, need.at_once, host)
    caches = {d.name: cache * d.working_set_gb / max(sum(x.working_set_gb for x in dbs), 1e-12) for d in dbs}
    rates = _rates(dbs, carried, host, caches)
    margin = storage_margin(vcpus, need.at_once, host)
    io = tuple(database_io(d, caches[d.name], fill, rates[d.name], margin if d.peak_tps is not None else 1.0)
               for d in dbs)
    return PgVm(name, dbs, vcpus, mem, np.minimum(need.demand, vcpus), need.resident, need.at_once, io, need.needed,
                carried, clients_tps(need.at_once, host))


def plan_vms(w: PostgresConsolidation, node_cores: int, node_mem_gib: float, host: HostCpu, fill: float,
             grow_for_connections: bool = False, cache: VmCache | None = None) -> list[PgVm]:
    """The VMs of `plan_shapes`, each with its I/O sized (`sized`)."""
    cache = cache if cache is not None else VmCache()
    return [sized(s, cache) for s in plan_shapes(w, node_cores, node_mem_gib, host, fill, grow_for_connections, cache)]


def plan_shapes(w: PostgresConsolidation, node_cores: int, node_mem_gib: float, host: HostCpu, fill: float,
                grow_for_connections: bool, cache: VmCache) -> list[VmShape]:
    """One VM per database, or the databases in shared VMs. Shared VMs are split, first-fit, only where one VM would
    not hold its databases: their working sets beyond the stated vm_memory_gib (else a NUMA node's memory), or, with
    vm_vcpus left free, their clients beyond a NUMA node's cores. A stated vm_vcpus is kept (the design warns with
    the throughput its shortfall costs). With `grow_for_connections`, a VM grows (within a NUMA node's memory) until
    each of its clients has a connection. `cache`: the VMs sized for this workload on other servers (`make_vm`)."""
    room = node_mem_gib if grow_for_connections else None
    if w.placement == "vm-per-database":
        return [shape_of(f"vm-{d.name}", (d,), host, w, fill, room, cache) for d in w.databases]
    limit_gib = w.vm_memory_gib or node_mem_gib
    limit_vcpus = math.inf if w.vm_vcpus is not None else node_cores
    groups: list[list[PgDatabase]] = []
    for db in sorted(w.databases, key=lambda d: (-d.working_set_gb, d.name)):
        for g in groups:
            mem, vcpus = _shared_need((*tuple(g), db), host)
            if mem <= limit_gib and vcpus <= limit_vcpus:
                g.append(db)
                break
        else:
            groups.append([db])
    return [shape_of(f"shared-vm-{i + 1}", tuple(g), host, w, fill, room, cache) for i, g in enumerate(groups)]


def _shared_need(dbs: tuple[PgDatabase, ...], host: HostCpu) -> tuple[float, int]:
    """(GiB, vCPUs) one VM holding `dbs` takes: its resident working sets at the effective_cache_size share, and
    its clients at 10 per vCPU or its stated rates, at the busiest hour."""
    clients = _clients_by_hour(dbs)
    resident = sum(d.working_set_gb for d in dbs) * GIB_PER_GB + _overhead_gib(clients)
    vcpus = math.ceil(max(float(_vcpus_by_hour(dbs, host).max()), clients.max() / clients_per_vcpu()) - 1e-9)
    return float(resident.max()) / figure(DS, "effective_cache_size_ratio"), vcpus


def shared_split(w: PostgresConsolidation, vms: list[PgVm], node_cores: int, node_mem_gib: float,
                 host: HostCpu) -> str:
    """Why shared databases are in more than one VM, in words ("" when they are in one, or one VM per database was
    asked): what one VM of them all would take beyond the stated memory, a NUMA node's memory or (vm_vcpus left
    free) a NUMA node's cores."""
    if w.placement == "vm-per-database" or len(vms) < 2:
        return ""
    mem, vcpus = _shared_need(tuple(w.databases), host)
    why = []
    if w.vm_memory_gib is not None and mem > w.vm_memory_gib:
        why.append(f"{mem:,.0f} GiB for their working sets, more than the {w.vm_memory_gib:g} GiB stated"
                   " (vm_memory_gib)")
    elif w.vm_memory_gib is None and mem > node_mem_gib:
        why.append(f"{mem:,.0f} GiB, more than a NUMA node's {node_mem_gib:,.0f} GiB (vm_memory_gib left free)")
    if w.vm_vcpus is None and vcpus > node_cores:
        why.append(f"{vcpus} vCPUs, more than a NUMA node's {node_cores} cores (vm_vcpus left free)")
    return (f"The databases are split over {len(vms)} shared VMs: one VM of them all would take "
            + " and ".join(why or ["more than one VM holds"]) + ".")


@dataclass(frozen=True)
class HostPlan:
    vms: tuple[PgVm, ...]
    numa_nodes: tuple[int | None, ...]  # per VM: the node it is pinned to, None for a wide VM

    @property
    def configured_gib(self) -> float:
        return sum(v.memory_gib for v in self.vms)

    @property
    def resident_peak_gib(self) -> float:
        return float(sum((v.resident_by_hour for v in self.vms), np.zeros(HOURS)).max()) if self.vms else 0.0

    @property
    def cpu_peak(self) -> float:
        return float(sum((v.cpu_by_hour for v in self.vms), np.zeros(HOURS)).max()) if self.vms else 0.0

    @property
    def sum_of_peaks_gib(self) -> float:
        return sum(v.resident_peak_gib for v in self.vms)


def _placing_order(vms: list[PgVm]) -> list[PgVm]:
    return sorted(vms, key=lambda v: (-v.resident_peak_gib, -v.cpu_peak, v.name))


def _place_quick(order: list[PgVm], hosts: int, cores: float, mem: float) -> tuple[list[list[PgVm]], BinSums] | None:
    """`_place` of the VMs in its order (`_placing_order`, sorted once for every host count tried), testing the hosts
    one at a time in the order its arg-min ranks them (`quick_place`), with each host's hourly sums as the placement
    added them up (`bin_sums` of the bins, the same additions in the same order)."""
    cpu, res = np.zeros((hosts, HOURS)), np.zeros((hosts, HOURS))
    bins = quick_place.place(order, cpu, res, cores, mem)
    if bins is None:
        return None
    return bins, BinSums(cpu, res, np.array([sum(v.memory_gib for v in b) for b in bins], dtype=float))


def _numa(vms: list[PgVm], nodes: int, node_cores: int, node_mem: float) -> tuple[int | None, ...]:
    free = [node_mem] * nodes
    out: dict[str, int | None] = {}
    for vm in sorted(vms, key=lambda v: (-v.memory_gib, v.name)):
        k = max(range(nodes), key=lambda n: (free[n], -n))
        # a VM larger than a node, or than what the VMs pinned before it leave on every node, spans nodes (wide):
        # pinned there, it would take memory the node does not have (60 + 60 + 60 GiB on two 100 GiB nodes)
        if vm.vcpus > node_cores or vm.memory_gib > node_mem or vm.resident_peak_gib > free[k] + 1e-9:
            out[vm.name] = None
            continue
        out[vm.name] = k
        free[k] -= vm.resident_peak_gib
    return tuple(out[v.name] for v in vms)


def least_hosts(vms: list[PgVm] | list[VmShape], cores: int, available_gib: float, ha: int, min_hosts: int = 1) -> int:
    """The host count `pack_hosts` tries first: the busiest hour's CPU and resident memory over whole hosts, plus
    one host per HA failure, and at least `min_hosts` (raised to vSphere HA's minimum where `ha`). No packing of
    the VMs takes fewer hosts, so a server's cost at this count bounds its cost from below (`search`)."""
    return hosts_for(busiest(vms), cores, available_gib, ha, min_hosts)


def busiest(vms: list[PgVm] | list[VmShape]) -> tuple[float, float]:
    """The highest hourly sums of the VMs' CPU (cores) and resident GiB."""
    return (float(sum((v.cpu_by_hour for v in vms), np.zeros(HOURS)).max()),
            float(sum((v.resident_by_hour for v in vms), np.zeros(HOURS)).max()))


def hosts_for(peaks: tuple[float, float], cores: int, available_gib: float, ha: int, min_hosts: int) -> int:
    """`least_hosts` of VMs whose busiest hours take `peaks` (`busiest`)."""
    total_cpu, total_res = peaks
    low = max(1, math.ceil(total_cpu / cores - 1e-9), math.ceil(total_res / available_gib - 1e-9))
    if ha:
        min_hosts = max(min_hosts, int(figure(DS, "ha_min_hosts")) + ha - 1)
    return int(max(low + ha, min_hosts))


def pack_hosts(vms: list[PgVm], cores: int, available_gib: float, ha: int, nodes: int, node_cores: int,
               min_hosts: int = 1, max_hosts: int | None = None) -> list[HostPlan] | None:
    """The fewest hosts holding every VM on its highest hourly sums, with room for vSphere HA to restart the VMs
    of any `ha` failed hosts (admission control's host failures cluster tolerates: 0, 1 or 2; a bool is 0 or 1).

    A VM's configured memory may exceed `available_gib` (memory overcommit, study 001's Equation 1): what must
    fit is its resident working set. None when a single VM's working set or vCPUs are larger than the host,
    nothing fits, or it takes more than `max_hosts` (one cluster's limit: vSphere's, or vSAN's).
    """
    if not vms or any(v.vcpus > cores or v.resident_peak_gib > available_gib for v in vms):
        return None
    failures = int(ha)
    if failures:
        min_hosts = max(min_hosts, int(figure(DS, "ha_min_hosts")) + failures - 1)
    first = least_hosts(vms, cores, available_gib, failures, min_hosts)
    last = max(len(vms) + 2 + failures, min_hosts + 1)
    if max_hosts is not None and first > max_hosts:
        return None  # the busiest hour alone needs more hosts than the cluster holds: no placement to try
    order = _placing_order(vms)
    for h in range(first, last if max_hosts is None else min(last, max_hosts + 1)):
        placed = _place_quick(order, h, cores, available_gib)
        if placed is None:
            continue
        bins, sums = placed
        if not failures or survives_failures(bins, failures, cores, available_gib, sums):
            node_mem = available_gib / nodes
            return [HostPlan(tuple(b), _numa(b, nodes, node_cores, node_mem)) for b in bins]
    return None


def ha_failures(w: PostgresConsolidation) -> int:
    """Host failures the packing reserves room for: workload.ha_host_failures with vSphere HA on, else none."""
    return w.ha_host_failures if w.vsphere_ha else 0


HA_RESTARTS = ("VMware vSphere 8 Availability: VM Restart Priority (failed VMs are assigned to hosts with unreserved"
               " capacity, highest priority first), Using vSphere HA and DRS Together, vSphere HA Admission Control"
               " (host failures cluster tolerates)")
MAX_PAIR_HOSTS = 24  # N+2: pairs among at most this many of the most loaded hosts are simulated


def pinned(hosts: list[HostPlan], nodes: int, node_cores: int, node_mem_gib: float) -> list[HostPlan]:
    """The hosts' VMs pinned again to NUMA nodes of `node_mem_gib`: the host's own node memory where the memory made
    available to the VMs is less than the host has (study 001's overcommitted hosts), so a VM that fits a physical
    node is not reported wider than it."""
    return [HostPlan(h.vms, _numa(list(h.vms), nodes, node_cores, node_mem_gib)) for h in hosts]


def survives_failures(bins: list[list[PgVm]], failures: int, cores: float, mem: float,
                      sums: BinSums | None = None) -> bool:
    """vSphere HA admission control for `failures` hosts: after any `failures` hosts fail, every one of their VMs
    restarts on a survivor (`restart`). Two failures: every pair of hosts, or of the MAX_PAIR_HOSTS most loaded
    ones in a larger cluster (the pairs that strand VMs are the loaded ones)."""
    if len(bins) <= failures:
        return False
    sums = sums if sums is not None else bin_sums(bins)
    if failures == 1:
        return all(not _restarted_quick(bins, (i,), cores, mem, sums)[1] for i in range(len(bins)))
    load = [float(r.max()) for r in sums.res]
    loaded = sorted(range(len(bins)), key=lambda i: (-load[i], i))[:MAX_PAIR_HOSTS]
    return all(not _restarted_quick(bins, pair, cores, mem, sums)[1]
               for pair in itertools.combinations(sorted(loaded), failures))


@dataclass(frozen=True)
class Restart:
    """The cluster once vSphere HA has restarted the VMs of the `failed` hosts: `hosts` per host index (the failed
    ones empty), where each restarted VM went (`onto`, host index) and the VMs no survivor had room for."""

    failed: tuple[int, ...]
    hosts: list[list[PgVm]]
    onto: dict[str, int]
    stranded: tuple[str, ...]


def restart(bins: list[list[PgVm]], failed: tuple[int, ...], cores: float, mem: float,
            sums: BinSums | None = None) -> Restart:
    """vSphere HA's restarts after the `failed` hosts fail: their VMs, largest working set first (one restart
    priority), each on the survivor with the most memory left unconfigured (available less its VMs' configured
    memory: the lowest Equation 1 overcommit after) among those where the VM's hourly working set and CPU fit.
    HA assigns VMs to hosts with unreserved capacity and DRS balances them, so an empty spare host takes VMs
    before a loaded one does and two VMs go one to each of two equal survivors; a VM no survivor fits is
    stranded. `sums`: `bin_sums(bins)` where the caller simulates several failures of one placement."""
    onto, stranded = _restarted_quick(bins, failed, cores, mem, sums if sums is not None else bin_sums(bins))
    out = [[] if i in failed else list(b) for i, b in enumerate(bins)]
    for vm, k in onto:
        out[k].append(vm)
    return Restart(failed, out, {vm.name: k for vm, k in onto}, stranded)


def _restarted_quick(bins: list[list[PgVm]], failed: tuple[int, ...], cores: float, mem: float,
                     sums: BinSums) -> tuple[list[tuple[PgVm, int]], tuple[str, ...]]:
    """`_restarted`, testing the survivors one at a time in the order its arg-max ranks them (`quick_place`)."""
    alive = [i not in failed for i in range(len(bins))]
    live = np.array(alive)
    configured: list[float] = np.where(live, sums.configured, 0.0).tolist()
    return quick_place.restarted(_restart_order(bins, failed), alive, np.where(live[:, None], sums.cpu, 0.0),
                                 np.where(live[:, None], sums.res, 0.0), configured, cores, mem)


def _restart_order(bins: list[list[PgVm]], failed: tuple[int, ...]) -> list[PgVm]:
    return sorted((vm for i in failed for vm in bins[i]), key=lambda v: (-v.resident_peak_gib, v.name))


def placed_vms(hosts: list[HostPlan]) -> tuple[PlacedVm, ...]:
    """Every VM where it runs, with each database's disks and I/O: what the vSphere config is written from."""
    return tuple(
        PlacedVm(vm.name, hi + 1, n, vm.vcpus, vm.memory_gib, tuple(d.name for d in vm.databases), tuple(
            DatabaseDisks(io.name, round(io.data_disk_gb, 1), round(io.wal_disk_gb, 1), round(io.tps, 1),
                          round(io.data_write_iops, 1), round(io.wal_write_iops, 1), round(io.wal_mb_s, 2))
            for io in vm.io))
        for hi, h in enumerate(hosts) for vm, n in zip(h.vms, h.numa_nodes, strict=True)
    )

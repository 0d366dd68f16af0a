"""What the customer must know about a consolidated PostgreSQL design, by subject: memory overcommit, HA,
VMs too small for their clients or their transaction rate, drives without RAID, VMs wider than a NUMA node and
where a connection pooler is needed. `design` sizes; this module only reads the result.
"""

from __future__ import annotations

import math

from models.percent import percent
from models.scenario import PostgresConsolidation
from models.sizing.postgres.config import PgConfig
from models.sizing.postgres.placement import PgVm
from models.sizing.postgres.state import Overcommit, Packing
from models.sizing.postgres.tps_vcpus import clients_per_vcpu
from models.sizing.result import HostFailure, Warning
from models.sizing.shared_storage import POLICIES, policy_min_hosts


def warnings(
    w: PostgresConsolidation, p: Packing, oc: Overcommit, raid: str, configs: list[PgConfig],
    failed: HostFailure | None = None, kept: float = 1.0,
) -> list[Warning]:
    """Every warning of the design, in the order a reader meets the subjects."""
    vms = [vm for h in p.hosts for vm in h.vms]
    out = _memory(w, p, oc) + _ha(w, p) + _after_failure(failed, kept) + _reprotect(w, p) + _small_vms(vms)
    if raid == "none":
        out.append(Warning("no-raid", "Database drives without RAID: a drive failure loses the datastore.",
                           "warning", "platform.raid"))
    wide = [vm.name for h in p.hosts for vm, n in zip(h.vms, h.numa_nodes, strict=True) if n is None]
    if wide:
        out.append(Warning("wide-vm", f"{', '.join(wide[:5])}{' ...' if len(wide) > 5 else ''}: larger than one"
                                      " NUMA node, or than the memory the other VMs leave on any node of its host;"
                                      " configure vNUMA so the guest sees the nodes.",
                           "info", "workload.vm_vcpus"))
    out += [Warning("connection-pooler", f"{c.group.target}: {note}", "warning", "workload.databases")
            for c in configs for note in c.notes if "pooler" in note]
    # the same lever when memory suffices but the clients far outnumber what the vCPUs run (worth knowing)
    out += [Warning("connection-pooler-cpu", f"{c.group.target}: {a}", "info", "workload.databases")
            for c in configs for a in c.advice]
    return out


def _memory(w: PostgresConsolidation, p: Packing, oc: Overcommit) -> list[Warning]:
    """Overcommit beyond what the working sets allow, per host; an available memory above what the host has."""
    out = [Warning(
        "overcommit-above-safe",
        f"Host {i + 1}: {percent(r)} memory overcommit exceeds the {percent(s)} the working sets allow; expect"
        " ballooning and hypervisor swapping.",
        "warning", "workload.host_memory_available_gib",
    ) for i, (r, s) in enumerate(zip(oc.rates, oc.safe, strict=True)) if r > s + 1e-9]
    if w.host_memory_available_gib is not None and w.host_memory_available_gib > p.available_gib + 1e-9:
        out.append(Warning(
            "available-above-host",
            f"The host memory for VMs given, {w.host_memory_available_gib:,.0f} GiB, is more than a"
            f" {p.server.model} has after the hypervisor reserve; sized on {p.available_gib:,.0f} GiB.",
            "warning", "workload.host_memory_available_gib",
        ))
    return out


def _ha(w: PostgresConsolidation, p: Packing) -> list[Warning]:
    """HA off stops a failed host's VMs; HA on local storage reserves room but cannot restart them."""
    if not w.vsphere_ha:
        most = max(len(h.vms) for h in p.hosts)
        return [Warning("no-ha", f"vSphere HA is off: a host failure stops its {most} VM(s) until the host"
                                 " is repaired; no capacity is reserved for restarts.",
                        "warning", "workload.vsphere_ha")]
    if p.vsan is None:
        return [Warning(
            "ha-local-storage",
            "vSphere HA restarts VMs only from shared storage, and shared_storage is 'local': the capacity is"
            " reserved but a failed host's VMs cannot restart until their datastore is back.",
            "warning", "workload.shared_storage",
        )]
    return []


def _after_failure(failed: HostFailure | None, kept: float) -> list[Warning]:
    """From the simulated worst host failure: VMs HA cannot restart (with HA on and shared disks: no survivor has
    room, N+0), and the throughput kept after the restarts when it is less than before (the survivors' higher
    overcommit at study 001's curve)."""
    if failed is None or not failed.survivors:
        return []
    out = []
    if failed.not_restarted and failed.why_not.startswith("no surviving host"):
        out.append(Warning(
            "ha-cannot-restart",
            f"When host {failed.failed_host} fails, vSphere HA cannot restart {len(failed.not_restarted)} of its VMs"
            f" ({', '.join(failed.not_restarted[:5])}{' ...' if len(failed.not_restarted) > 5 else ''}): no"
            f" surviving host has room for their working sets, as admission control reserves capacity for"
            f" {failed.tolerated} host failure(s). Set the host failures HA tolerates to 1 or more to size for the"
            " restarts.",
            "critical", "workload.ha_host_failures",
        ))
    hot = max(failed.survivors, key=lambda s: (s.overcommit_rate, -s.host))
    if failed.performance_preserved < kept - 0.005:
        out.append(Warning(
            "failover-throughput",
            f"After host {failed.failed_host} fails and vSphere HA restarts its VMs, host {hot.host} runs at"
            f" {percent(hot.overcommit_rate)} memory overcommit (its working sets allow"
            f" {percent(hot.safe_overcommit_rate)}): about {percent(failed.performance_preserved)} of baseline"
            f" throughput is kept until the host is back, against {percent(kept)} before. Add a host or give the"
            " hosts more memory to keep it through a failure.",
            "warning", "workload.vsphere_ha",
        ))
    return out


def _reprotect(w: PostgresConsolidation, p: Packing) -> list[Warning]:
    """vSAN on as few hosts as its policy needs: after a host failure the hosts left cannot hold every copy again, so
    the DATA and WAL disks run unprotected (FTT 1) or with one failure less to tolerate until the host is back."""
    need = policy_min_hosts(w.vsan_policy)
    if p.vsan is None or len(p.hosts) - 1 >= need:
        return []
    left = POLICIES[w.vsan_policy][2] - 1
    after = ("a second failure meanwhile loses the disks" if left == 0 else
             f"meanwhile they tolerate {left} more host failure(s) instead of {POLICIES[w.vsan_policy][2]}")
    return [Warning(
        "vsan-no-rebuild-host",
        f"{len(p.hosts)} hosts: after one fails, the {len(p.hosts) - 1} left are fewer than the {need} vSAN policy"
        f" {w.vsan_policy} needs, so vSAN cannot rebuild the lost copies of the DATA and WAL disks until the host is"
        f" back; {after}. One more host lets vSAN re-protect them.",
        "info", "workload.vsan_policy",
    )]


def _small_vms(vms: list[PgVm]) -> list[Warning]:
    """VMs with fewer vCPUs than their clients take at study 001's clients per vCPU, or less memory than their
    working set."""
    small = [f"{vm.name} ({vm.vcpus} vCPU for {vm.clients_at_once} clients: about {percent(_cpu_kept(vm))} of the"
             f" throughput they would drive, {vm.tps_reachable:,.0f} of {vm.clients_tps:,.0f} transactions/s)"
             for vm in vms if vm.vcpus < math.ceil(vm.clients_at_once / clients_per_vcpu() - 1e-9)]
    short_cpu = bool(small)  # the field to mark: the VM size when cores are short, else the VM memory
    small += [f"{vm.name} ({vm.memory_gib:g} GiB for a {vm.resident_peak_gib:,.1f} GiB working set)" for vm in vms
              if vm.memory_gib < vm.resident_peak_gib]
    if not small:
        return []
    return [Warning(
        "small-vm", f"VMs too small for their clients: {', '.join(small[:5])}{' ...' if len(small) > 5 else ''};"
        f" study 001 ran {clients_per_vcpu():g} clients per vCPU with the working set resident. Expect queueing"
        " or reads from disk; split the database or give the VM more.",
        "warning", "workload.vm_vcpus" if short_cpu else "workload.vm_memory_gib",
    )]


def _cpu_kept(vm: PgVm) -> float:
    """The share of its clients' throughput a VM with fewer vCPUs than they take keeps: CPU-bound zero-think-time
    clients (study 001's DBT-2) run at its vCPUs' rate; both rates the throughput model's medians on the host's CPU
    (the rate stated peaks are sized on)."""
    return min(1.0, vm.tps_reachable / max(vm.clients_tps, 1e-9))


def some_of(names: list[str], of: int) -> str:
    """A few database names and how many more, so a 500-database consolidation reads as one sentence.

    >>> some_of(["a", "b"], 9), some_of([f"db{i}" for i in range(500)], 500)
    ('a, b', 'all 500 databases: db0, db1, db2 and 497 more')
    >>> some_of([f"db{i}" for i in range(7)], 10)
    'db0, db1, db2 and 4 more'
    """
    if len(names) <= 5:
        return ", ".join(names)
    head = f"all {of} databases: " if len(names) == of else ""
    return f"{head}{', '.join(names[:3])} and {len(names) - 3} more"

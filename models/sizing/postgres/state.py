"""The packed cluster and its memory state: the server, drive and hosts a design settled on (`Packing`), Equation 1
overcommit on every host (`Overcommit`) and after the worst single host failure (`host_failure`). `design` builds
them; `warnings` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.hardware import Drive, Server
from models.perf import memory
from models.scenario import PostgresConsolidation
from models.sizing.parts import NetworkChoice
from models.sizing.postgres.config import PgConfig
from models.sizing.postgres.datastore import HostStorage
from models.sizing.postgres.placement import HostPlan, PgVm, Restart, restart
from models.sizing.postgres.quick_place import bin_sums
from models.sizing.result import HostFailure, Survivor
from models.sizing.shared_storage import VsanLayout

NO_NETWORK = NetworkChoice(None, 0)


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
    net: NetworkChoice = NO_NETWORK  # each host's network cards
    raid: str | None = None  # the local datastore's RAID level as built (RAID 1: RAID 10's two-drive form); vSAN: None


@dataclass(frozen=True)
class Overcommit:
    """Equation 1 on every host: the memory overcommit it runs at and the most its working sets allow."""

    rates: list[float]
    safe: list[float]
    worst: int  # index of the host with the highest rate: the one the design reports

    @property
    def rate(self) -> float:
        return self.rates[self.worst]


def host_failure(w: PostgresConsolidation, p: Packing, by_vm: dict[str, PgConfig]) -> HostFailure:
    """Every single host failed in turn, its VMs restarted as vSphere HA would place them (`restart`), and on each
    survivor Equation 1 and study 001's performance_preserved; the worst failure: most VMs stranded, then least
    throughput kept, then the highest overcommit. Without HA, or with the disks on the failed host's local
    datastore, nothing restarts."""
    scheme: memory.Scheme = "vm-per-database" if w.placement == "vm-per-database" else "shared-instance"
    bins = [list(h.vms) for h in p.hosts]
    why = ("vSphere HA is off" if not w.vsphere_ha else "their disks are on the failed host's local datastore"
           if p.vsan is None else "no surviving host has room for their working sets")
    worst: tuple[tuple[int, float, float], HostFailure] | None = None
    sums = bin_sums(bins)
    ratios = {v.name: sb_ratio(by_vm, v) for b in bins for v in b}  # each VM's, read once for every failure
    as_placed: dict[int, Survivor] = {}  # a host nothing restarted onto is the same survivor whichever host failed
    for failed in range(len(bins)):
        if w.vsphere_ha and p.vsan is not None:
            after = restart(bins, (failed,), p.server.cores_total, p.available_gib, sums)
        else:
            after = Restart((failed,), [[] if i == failed else b for i, b in enumerate(bins)], {},
                            tuple(vm.name for vm in bins[failed]))
        onto: dict[int, tuple[str, ...]] = {}
        for name, k in after.onto.items():
            onto[k] = (*onto.get(k, ()), name)
        for i in range(len(bins)):
            if i != failed and i not in onto and i not in as_placed:
                as_placed[i] = _survivor(i, bins[i], (), p.available_gib, scheme, ratios, sums.res[i])
        survivors = tuple(_survivor(i, b, onto[i], p.available_gib, scheme, ratios,
                                    _plus(sums.res[i], b[len(bins[i]):])) if i in onto else as_placed[i]
                          for i, b in enumerate(after.hosts) if i != failed)
        found = HostFailure(failed + 1, w.ha_host_failures if w.vsphere_ha else 0, survivors, after.stranded,
                            why if after.stranded else "")
        key = (-len(after.stranded), found.performance_preserved if survivors else 0.0,
               -max((s.overcommit_rate for s in survivors), default=0.0))
        if worst is None or key < worst[0]:
            worst = (key, found)
    assert worst is not None  # a design has a host
    return worst[1]


def _plus(resident_by_hour: np.ndarray, vms: list[PgVm]) -> np.ndarray:
    """A host's resident GiB per hour with the VMs restarted onto it added, in the order they came."""
    for v in vms:
        resident_by_hour = resident_by_hour + v.resident_by_hour
    return resident_by_hour


def _survivor(i: int, vms: list[PgVm], onto: tuple[str, ...], available: float, scheme: memory.Scheme,
              ratios: dict[str, float], resident_by_hour: np.ndarray) -> Survivor:
    """Host `i` after the failure: its overcommit, what its working sets allow (`resident_by_hour`: its VMs'
    resident GiB summed), the throughput the VM on it that keeps least keeps at study 001's curve (`ratios`: each
    VM's shared_buffers share), and the VMs restarted onto it."""
    configured = sum(v.memory_gib for v in vms)
    if configured <= 0:
        return Survivor(i + 1, 0.0, 0.0, 1.0)
    rate = float(memory.overcommit_rate(available, configured))
    resident = float(resident_by_hour.max())
    safe = float(memory.safe_overcommit_rate(configured, max(resident, 1e-9)))
    kept = float(np.min(memory.performance_preserved(min(rate, 0.999), scheme, np.array([ratios[v.name]
                                                                                          for v in vms]))))
    return Survivor(i + 1, rate, safe, kept, onto)


def sb_ratio(by_vm: dict[str, PgConfig], vm: PgVm) -> float:
    """shared_buffers as a fraction of the VM's memory: the ratio study 001's performance curves are read at."""
    return float(by_vm[vm.name].get("shared_buffers").value) / (vm.memory_gib * 1024.0)


def overcommit(p: Packing) -> Overcommit:
    """Overcommit = 1 - available / configured per host (0 for a host with nothing configured), and the safe
    rate from its configured memory against the resident working sets at the busiest hour."""
    configured = [h.configured_gib for h in p.hosts]
    resident = [max(h.resident_peak_gib, 1e-9) for h in p.hosts]
    rates = [float(memory.overcommit_rate(p.available_gib, c)) if c > 0 else 0.0 for c in configured]
    safe = [float(memory.safe_overcommit_rate(c, r)) if c > 0 else 0.0
            for c, r in zip(configured, resident, strict=True)]
    return Overcommit(rates, safe, max(range(len(rates)), key=lambda i: rates[i]))

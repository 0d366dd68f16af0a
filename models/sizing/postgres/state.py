"""The packed cluster and its memory state: the server, drive and hosts a design settled on (`Packing`), Equation 1
overcommit on every host (`Overcommit`) and after the worst single host failure (`FailedState`). `design` builds
them; `warnings` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.hardware import Drive, Server
from models.perf import memory
from models.scenario import PostgresConsolidation
from models.sizing.postgres.config import PgConfig
from models.sizing.postgres.datastore import HostStorage
from models.sizing.postgres.placement import HOURS, HostPlan, PgVm, after_failure
from models.sizing.shared_storage import VsanLayout


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


@dataclass(frozen=True)
class Overcommit:
    """Equation 1 on every host: the memory overcommit it runs at and the most its working sets allow."""

    rates: list[float]
    safe: list[float]
    worst: int  # index of the host with the highest rate: the one the design reports

    @property
    def rate(self) -> float:
        return self.rates[self.worst]


@dataclass(frozen=True)
class FailedState:
    """The cluster after its worst single host failure, once vSphere HA restarted that host's VMs on the others:
    the highest overcommit on a survivor, what its working sets allow there, and the throughput kept."""

    failed_host: int  # 1-based: the host whose failure keeps least
    rate: float
    safe: float
    preserved: float


def failed_state(w: PostgresConsolidation, p: Packing, by_vm: dict[str, PgConfig]) -> FailedState | None:
    """Equation 1 and study 001's performance_preserved on the survivors of each single host failure; the worst.
    None without HA or on local storage (HA cannot restart VMs whose disks were on the failed host)."""
    if not w.vsphere_ha or p.vsan is None or len(p.hosts) < 2:
        return None
    scheme: memory.Scheme = "vm-per-database" if w.placement == "vm-per-database" else "shared-instance"
    bins = [list(h.vms) for h in p.hosts]
    worst: FailedState | None = None
    for failed in range(len(bins)):
        survivors = after_failure(bins, failed, p.server.cores_total, p.available_gib)
        if survivors is None:
            continue
        for b in survivors:
            configured = sum(v.memory_gib for v in b)
            if configured <= 0:
                continue
            rate = float(memory.overcommit_rate(p.available_gib, configured))
            resident = float(sum((v.resident_by_hour for v in b), np.zeros(HOURS)).max())
            safe = float(memory.safe_overcommit_rate(configured, max(resident, 1e-9)))
            kept = min(float(memory.performance_preserved(min(rate, 0.999), scheme, sb_ratio(by_vm, v)))
                       for v in b)
            if worst is None or (kept, -rate) < (worst.preserved, -worst.rate):
                worst = FailedState(failed + 1, rate, safe, kept)
    return worst


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

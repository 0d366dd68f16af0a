"""The packed cluster and its memory state: the server, drive and hosts a design settled on (`Packing`), Equation 1
overcommit on every host (`Overcommit`) and after the worst single host failure (`host_failure`). `design` builds
them; `warnings` reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from models.hardware import Drive, Server
from models.perf import memory
from models.scenario import PostgresConsolidation
from models.sizing.parts import NetworkChoice
from models.sizing.postgres.config import PgConfig
from models.sizing.postgres.datastore import HostStorage
from models.sizing.postgres.placement import HostPlan, PgVm, Restart, restart
from models.sizing.postgres.quick_place import BinSums, bin_sums
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
    """`host_failure_plain`'s worst failure, with every survivor of every failure read in one pass of array calls
    (`survivors`: `_survivor`'s figures, element for element): a cluster of 60 hosts has some 3,000 survivors."""
    bins = [list(h.vms) for h in p.hosts]
    sums = bin_sums(bins)
    ratios = {v.name: sb_ratio(by_vm, v) for b in bins for v in b}
    shares = [np.unique(np.array([ratios[v.name] for v in b], dtype=float)) for b in bins]  # each host's, once
    asks: list[Ask] = []
    as_placed: dict[int, int] = {}  # host -> its ask, where nothing restarted onto it
    failures: list[tuple[Restart, list[int]]] = []
    for failed in range(len(bins)):
        after = _after(w, p, bins, failed, sums)
        onto = _onto(after)
        refs: list[int] = []
        for i, b in enumerate(after.hosts):
            if i == failed:
                continue
            if i in onto:
                extra = b[len(bins[i]):]
                configured = float(sums.configured[i])
                for v in extra:  # sum(v.memory_gib for v in b): the placed VMs' sum, then the restarted ones in turn
                    configured += v.memory_gib
                refs.append(len(asks))
                asks.append(Ask(i, configured, onto[i], _plus(sums.res[i], extra),
                                np.concatenate((shares[i], [ratios[v.name] for v in extra]))))
            else:
                if i not in as_placed:
                    as_placed[i] = len(asks)
                    asks.append(Ask(i, float(sums.configured[i]), (), sums.res[i], shares[i]))
                refs.append(as_placed[i])
        failures.append((after, refs))
    found = survivors(asks, p.available_gib, _scheme(w))
    return _worst(_found(w, p, after, tuple(found[k] for k in refs)) for after, refs in failures)


@dataclass(frozen=True)
class Ask:
    """A survivor to read: host index `i`, its VMs' configured GiB summed in placement order then restart order,
    the VMs restarted onto it, its resident GiB per hour and its VMs' shared_buffers shares (repeats allowed)."""

    i: int
    configured_gib: float
    onto: tuple[str, ...]
    resident_by_hour: np.ndarray
    shares: np.ndarray


def survivors(asks: list[Ask], available: float, scheme: memory.Scheme) -> list[Survivor]:
    """`_survivor` for each ask: Equation 1, the safe rate and study 001's curve, each read once for all of them
    (element-wise array calls: each element has the scalar call's bits; the least kept is the least element)."""
    live = [a for a in asks if a.configured_gib > 0]
    out = {id(a): Survivor(a.i + 1, 0.0, 0.0, 1.0) for a in asks if a.configured_gib <= 0}
    if live:
        configured = np.array([a.configured_gib for a in live])
        rate = memory.overcommit_rate(available, configured)
        resident = np.array([float(a.resident_by_hour.max()) for a in live])
        safe = memory.safe_overcommit_rate(configured, np.maximum(resident, 1e-9))
        counts = [len(a.shares) for a in live]
        kept = np.minimum.reduceat(memory.performance_preserved(
            np.repeat(np.minimum(rate, 0.999), counts), scheme, np.concatenate([a.shares for a in live])),
            np.cumsum([0, *counts[:-1]]))
        for k, a in enumerate(live):
            out[id(a)] = Survivor(a.i + 1, float(rate[k]), float(safe[k]), float(kept[k]), a.onto)
    return [out[id(a)] for a in asks]


def host_failure_plain(w: PostgresConsolidation, p: Packing, by_vm: dict[str, PgConfig]) -> HostFailure:
    """Every single host failed in turn, its VMs restarted as vSphere HA would place them (`restart`), and on each
    survivor Equation 1 and study 001's performance_preserved; the worst failure: most VMs stranded, then least
    throughput kept, then the highest overcommit. Without HA, or with the disks on the failed host's local
    datastore, nothing restarts. `host_failure` is the same, faster."""
    scheme = _scheme(w)
    bins = [list(h.vms) for h in p.hosts]
    sums = bin_sums(bins)
    ratios = {v.name: sb_ratio(by_vm, v) for b in bins for v in b}  # each VM's, read once for every failure
    as_placed: dict[int, Survivor] = {}  # a host nothing restarted onto is the same survivor whichever host failed
    found: list[HostFailure] = []
    for failed in range(len(bins)):
        after = _after(w, p, bins, failed, sums)
        onto = _onto(after)
        for i in range(len(bins)):
            if i != failed and i not in onto and i not in as_placed:
                as_placed[i] = _survivor(i, bins[i], (), p.available_gib, scheme, ratios, sums.res[i])
        found.append(_found(w, p, after, tuple(
            _survivor(i, b, onto[i], p.available_gib, scheme, ratios, _plus(sums.res[i], b[len(bins[i]):]))
            if i in onto else as_placed[i] for i, b in enumerate(after.hosts) if i != failed)))
    return _worst(found)


def _scheme(w: PostgresConsolidation) -> memory.Scheme:
    return "vm-per-database" if w.placement == "vm-per-database" else "shared-instance"


def _after(w: PostgresConsolidation, p: Packing, bins: list[list[PgVm]], failed: int, sums: BinSums) -> Restart:
    """The cluster after host `failed` fails: HA's restarts where its VMs' disks survive, else none."""
    if w.vsphere_ha and p.vsan is not None:
        return restart(bins, (failed,), p.server.cores_total, p.available_gib, sums)
    return Restart((failed,), [[] if i == failed else b for i, b in enumerate(bins)], {},
                   tuple(vm.name for vm in bins[failed]))


def _onto(after: Restart) -> dict[int, tuple[str, ...]]:
    """The VMs restarted onto each host, by host index, in restart order."""
    onto: dict[int, tuple[str, ...]] = {}
    for name, k in after.onto.items():
        onto[k] = (*onto.get(k, ()), name)
    return onto


def _found(w: PostgresConsolidation, p: Packing, after: Restart, survivors: tuple[Survivor, ...]) -> HostFailure:
    why = ("vSphere HA is off" if not w.vsphere_ha else "their disks are on the failed host's local datastore"
           if p.vsan is None else "no surviving host has room for their working sets")
    return HostFailure(after.failed[0] + 1, w.ha_host_failures if w.vsphere_ha else 0, survivors, after.stranded,
                       why if after.stranded else "")


def _worst(found: Iterable[HostFailure]) -> HostFailure:
    """The first failure that strands most VMs, then keeps least throughput, then runs at the highest overcommit."""
    worst: tuple[tuple[int, float, float], HostFailure] | None = None
    for f in found:
        key = (-len(f.not_restarted), f.performance_preserved if f.survivors else 0.0,
               -max((s.overcommit_rate for s in f.survivors), default=0.0))
        if worst is None or key < worst[0]:
            worst = (key, f)
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

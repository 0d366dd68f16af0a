"""The array versions of the placement and restart loops: every host tested for every VM in one array operation and
the arg-min (or arg-max) taken. `quick_place` chooses what they choose one host at a time;
tests/models/sizing/postgres/test_pg_quick_place.py holds the two equal on estates of many shapes.
"""

from __future__ import annotations

import numpy as np

from models.sizing.postgres.placement import PgVm, _placing_order, _restart_order
from models.sizing.postgres.quick_place import HOURS, BinSums


def _fitting(vm: PgVm, cpu: np.ndarray, res: np.ndarray, cores: float, mem: float) -> np.ndarray:
    """Per host (rows of `cpu` and `res`, hour by hour): whether `vm` fits its highest hourly sums; one array
    operation over every host, so a placement costs VMs x one pass rather than VMs x hosts Python checks."""
    cpu_ok: np.ndarray = (cpu + vm.cpu_by_hour).max(axis=1) <= cores + 1e-9
    mem_ok: np.ndarray = (res + vm.resident_by_hour).max(axis=1) <= mem + 1e-9
    both: np.ndarray = np.logical_and(cpu_ok, mem_ok)
    return both


def _place(vms: list[PgVm], hosts: int, cores: float, mem: float) -> list[list[PgVm]] | None:
    """Largest VM first onto the least-loaded host whose hourly sums still fit (spreads the VMs)."""
    bins: list[list[PgVm]] = [[] for _ in range(hosts)]
    cpu = np.zeros((hosts, HOURS))
    res = np.zeros((hosts, HOURS))
    cpu_max = np.zeros(hosts)  # each host's busiest hour, kept as its row changes
    res_max = np.zeros(hosts)
    for vm in _placing_order(vms):
        # every host's busiest hour plus the VM's fits: then each hour does (rounding is monotone), no sum needed
        fits = np.logical_and(cpu_max + vm.cpu_peak <= cores + 1e-9, res_max + vm.resident_peak_gib <= mem + 1e-9)
        if not fits.all():
            fits = _fitting(vm, cpu, res, cores, mem)
        if not fits.any():
            return None
        # the least-loaded fitting host, the lowest index on a tie
        i = int(np.argmin(np.where(fits, res_max / mem + cpu_max / cores, np.inf)))
        bins[i].append(vm)
        cpu[i] += vm.cpu_by_hour
        res[i] += vm.resident_by_hour
        cpu_max[i] = cpu[i].max()
        res_max[i] = res[i].max()
    return bins


def _restarted(bins: list[list[PgVm]], failed: tuple[int, ...], cores: float, mem: float,
               sums: BinSums) -> tuple[list[tuple[PgVm, int]], tuple[str, ...]]:
    """`restart`'s choices alone: each restarted VM with the host it went to, in the order HA restarts them, and
    the VMs stranded; admission control asks only whether any is stranded, without copying the cluster's hosts."""
    alive = np.array([i not in failed for i in range(len(bins))])
    cpu = np.where(alive[:, None], sums.cpu, 0.0)
    res = np.where(alive[:, None], sums.res, 0.0)
    configured = np.where(alive, sums.configured, 0.0)
    onto: list[tuple[PgVm, int]] = []
    stranded: list[str] = []
    for vm in _restart_order(bins, failed):
        fits = np.logical_and(_fitting(vm, cpu, res, cores, mem), alive)
        if not fits.any():
            stranded.append(vm.name)
            continue
        k = int(np.argmax(np.where(fits, mem - configured, -np.inf)))  # the most free; the lowest on a tie
        configured[k] += vm.memory_gib
        onto.append((vm, k))
        cpu[k] += vm.cpu_by_hour
        res[k] += vm.resident_by_hour
    return onto, tuple(stranded)

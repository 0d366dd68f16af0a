"""The placement and restart loops of `placement` one host at a time: what `array_place._place` and
`array_place._restarted` choose, without an array pass over every host for every VM.

Both loops pick, for each VM, the first host in some order among those where the VM fits hour by hour: the least
loaded (`_place`: lowest `res_max / mem + cpu_max / cores`, the lowest index on a tie) or the one with the most memory
left unconfigured (`_restarted`: highest `mem - configured`, the lowest index on a tie). The array versions test every
host and take the arg-min; here the hosts wait in a heap keyed as that arg-min orders them and are tested in that
order until one fits, so a VM costs one or two host tests while the hosts have room. A host's test is the array
versions' own: its busiest hour plus the VM's peak fits (then every hour does: rounded addition is monotone), else
its hourly sums plus the VM's. Keys are the same float operations on the same values, so the choices are the same
(tests/models/sizing/postgres/test_pg_quick_place.py compares both on estates of many shapes).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np


class _Placed(Protocol):
    """What placing reads of a VM (`placement.PgVm` has it): its hourly load, its memory and its name."""

    @property
    def name(self) -> str: ...
    @property
    def memory_gib(self) -> float: ...
    @property
    def cpu_by_hour(self) -> np.ndarray: ...
    @property
    def resident_by_hour(self) -> np.ndarray: ...
    @property
    def cpu_peak(self) -> float: ...
    @property
    def resident_peak_gib(self) -> float: ...


PgVm = TypeVar("PgVm", bound=_Placed)  # the VMs come back as the type they went in (placement.PgVm)

SLACK = 1e-9  # the tolerance the array versions compare with
_top = np.maximum.reduce  # ndarray.max() without its Python wrapper: the same maximum
HOURS = 24


@dataclass(frozen=True)
class BinSums:
    """Per host of a placement: its VMs' CPU and resident GiB summed hour by hour, and their configured GiB; taken
    once for every failure simulated on the placement rather than once per failure."""

    cpu: np.ndarray  # hosts x HOURS
    res: np.ndarray  # hosts x HOURS
    configured: np.ndarray  # hosts


def bin_sums(bins: Sequence[Sequence[PgVm]]) -> BinSums:
    return BinSums(np.array([sum((v.cpu_by_hour for v in b), np.zeros(HOURS)) for b in bins]).reshape(-1, HOURS),
                   np.array([sum((v.resident_by_hour for v in b), np.zeros(HOURS)) for b in bins]).reshape(-1, HOURS),
                   np.array([sum(v.memory_gib for v in b) for b in bins], dtype=float))


class _Hosts:
    """Each host's hourly CPU and resident sums and their busiest hours, for a VM's fit test."""

    def __init__(self, cpu: np.ndarray, res: np.ndarray, cores: float, mem: float) -> None:
        self.cpu: list[np.ndarray] = list(cpu)  # row views: a sum added to one adds to the caller's array
        self.res: list[np.ndarray] = list(res)
        self.cpu_max: list[float] = [float(x) for x in cpu.max(axis=1)] if len(cpu) else []
        self.res_max: list[float] = [float(x) for x in res.max(axis=1)] if len(res) else []
        self.cores_limit, self.mem_limit = cores + SLACK, mem + SLACK

    def fits(self, i: int, vm: PgVm) -> bool:
        if (self.cpu_max[i] + vm.cpu_peak <= self.cores_limit
                and self.res_max[i] + vm.resident_peak_gib <= self.mem_limit):
            return True
        return bool(_top(self.cpu[i] + vm.cpu_by_hour) <= self.cores_limit
                    and _top(self.res[i] + vm.resident_by_hour) <= self.mem_limit)

    def add(self, i: int, vm: PgVm) -> None:
        cpu, res = self.cpu[i], self.res[i]
        np.add(cpu, vm.cpu_by_hour, out=cpu)  # `+=`, without the operator's dispatch
        np.add(res, vm.resident_by_hour, out=res)
        self.cpu_max[i] = float(_top(cpu))
        self.res_max[i] = float(_top(res))


def _first_fitting(heap: list[tuple[float, int]], hosts: _Hosts, vm: PgVm) -> int | None:
    """Pops hosts in key order until one fits `vm`; the others go back. None when none fits (all go back)."""
    tried: list[tuple[float, int]] = []
    found = None
    while heap:
        entry = heapq.heappop(heap)
        if hosts.fits(entry[1], vm):
            found = entry[1]
            break
        tried.append(entry)
    for entry in tried:
        heapq.heappush(heap, entry)
    return found


def place(order: Sequence[PgVm], cpu: np.ndarray, res: np.ndarray, cores: float,
          mem: float) -> list[list[PgVm]] | None:
    """`array_place._place` on VMs already in its order and empty hosts (`cpu`, `res`: zeros, hosts x hours, filled in
    place): each VM onto the least-loaded host where it fits."""
    hosts = len(cpu)
    bins: list[list[PgVm]] = [[] for _ in range(hosts)]
    state = _Hosts(cpu, res, cores, mem)
    heap = [(state.res_max[i] / mem + state.cpu_max[i] / cores, i) for i in range(hosts)]
    for vm in order:
        i = _first_fitting(heap, state, vm)
        if i is None:
            return None
        bins[i].append(vm)
        state.add(i, vm)
        heapq.heappush(heap, (state.res_max[i] / mem + state.cpu_max[i] / cores, i))
    return bins


def restarted(moving: Sequence[PgVm], alive: Sequence[bool], cpu: np.ndarray, res: np.ndarray,
              configured: Sequence[float], cores: float, mem: float) -> tuple[list[tuple[PgVm, int]], tuple[str, ...]]:
    """`array_place._restarted` on the failed hosts' VMs already in its order, the survivors' sums (`cpu`, `res`: rows
    per host, changed in place) and configured GiB: each onto the survivor with the most memory left unconfigured
    where it fits."""
    state = _Hosts(cpu, res, cores, mem)
    conf = [float(c) for c in configured]
    heap = [(-(mem - conf[i]), i) for i in range(len(conf)) if alive[i]]
    heapq.heapify(heap)
    onto: list[tuple[PgVm, int]] = []
    stranded: list[str] = []
    for vm in moving:
        k = _first_fitting(heap, state, vm)
        if k is None:
            stranded.append(vm.name)
            continue
        conf[k] += vm.memory_gib
        onto.append((vm, k))
        state.add(k, vm)
        heapq.heappush(heap, (-(mem - conf[k]), k))
    return onto, tuple(stranded)

"""Estates of thousands: databases alike in every figure but their name take alike VMs on every server candidate.

An estate's databases repeat (the same size, clients, working set and busy hours under many names), so a server
candidate's VMs are planned once per set of alike databases (`plan_alike`: one `placement.shape_of` per set, not per
database), its lower bound is summed from those sets (`busiest`, `short_vcpus`, `stored_gb`) and its VMs are sized
once per set (`sized_alike`), each VM then taking its own name and databases. Each gives exactly what its plain
function gives on the VMs one by one (`placement.plan_shapes`, `placement.busiest`, `search.vcpus_short`,
`placement.sized`): the same values, added in the same order (tests/models/sizing/postgres/test_pg_alike.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from models.scenario import PgDatabase, PostgresConsolidation
from models.sizing.postgres.placement import PgVm, VmCache, VmShape, plan_shapes, shape_of, sized
from models.sizing.postgres.storage import DbIo, disks_floor_gb
from models.sizing.postgres.tps_vcpus import HostCpu

# what sizes a database's VM: every field but its name and the VM it runs in today (`current` describes it beside the
# right-sized VM; no sizing reads it, so an imported estate's databases of alike figures stay alike)
FIGURES = tuple(f for f in PgDatabase.model_fields if f not in ("name", "current"))


def alike_key(d: PgDatabase) -> str:
    """Every figure of `d` that sizes its VM, as written (repr keeps -0.0 apart from 0.0)."""
    return repr(tuple(getattr(d, f) for f in FIGURES))


@dataclass(frozen=True)
class AlikeSets:
    """The sets of alike databases of a workload: the first of each set (`firsts`, indices into the databases) and,
    per database, the index of its set (`of`), the name of its own VM and the VM's databases (itself)."""

    firsts: tuple[int, ...]
    of: tuple[int, ...]
    names: tuple[str, ...]
    singles: tuple[tuple[PgDatabase], ...]
    stored: dict[float, float] = field(default_factory=dict)  # `Planned.stored_gb` by fill: the same on every server

    @cached_property
    def index(self) -> np.ndarray:
        return np.asarray(self.of, dtype=np.intp)


def alike_sets(dbs: list[PgDatabase]) -> AlikeSets:
    seen: dict[str, int] = {}
    of = tuple(seen.setdefault(alike_key(d), len(seen)) for d in dbs)
    firsts: dict[int, int] = {}
    for i, k in enumerate(of):
        firsts.setdefault(k, i)
    return AlikeSets(tuple(firsts.values()), of, tuple(f"vm-{d.name}" for d in dbs), tuple((d,) for d in dbs))


@dataclass(frozen=True)
class Planned:
    """A server candidate's VMs in `plan_shapes`' order: one VM shape per set (`reps`), and per VM the index of its
    set's shape (`of`), its name and its databases."""

    reps: tuple[VmShape, ...]
    of: tuple[int, ...]
    names: tuple[str, ...]
    databases: tuple[tuple[PgDatabase, ...], ...]
    sets: AlikeSets | None = None  # the sets, where the VMs are the workload's databases one by one

    @classmethod
    def each(cls, shapes: list[VmShape]) -> Planned:
        """Every VM its own set: VMs that share databases (shared VMs) are not alike."""
        return cls(tuple(shapes), tuple(range(len(shapes))), tuple(s.name for s in shapes),
                   tuple(s.databases for s in shapes))

    def __len__(self) -> int:
        return len(self.of)

    @cached_property
    def shapes(self) -> list[VmShape]:
        """`plan_shapes`' VMs one by one: each set's shape under each VM's name and databases."""
        return [self._shape(i) for i in range(len(self.of))]

    def _shape(self, i: int) -> VmShape:
        r = self.reps[self.of[i]]
        if r.databases is self.databases[i]:
            return r
        dbs = self.databases[i]
        return replace(r, name=self.names[i], databases=dbs, key=(self.names[i], tuple(map(id, dbs)), *r.key[2:]))

    def most_gib(self) -> float:
        """The memory of the largest VM."""
        return max(r.memory_gib for r in self.reps)

    def largest(self) -> VmShape:
        """The first VM of the most memory (`max` over the VMs)."""
        top = self.most_gib()
        return self._shape(next(i for i, k in enumerate(self.of) if self.reps[k].memory_gib == top))

    @cached_property
    def busiest(self) -> tuple[float, float]:
        """`placement.busiest` of the VMs: the highest hourly sums of their CPU and resident GiB, each summed VM by
        VM in their order (an array reduced along the VMs adds row after row, as the plain sum does)."""
        of = self.sets.index if self.sets is not None else np.asarray(self.of, dtype=np.intp)
        cpu = np.array([r.cpu_by_hour for r in self.reps])[of]
        res = np.array([r.resident_by_hour for r in self.reps])[of]
        return float(np.add.reduce(cpu, axis=0).max()), float(np.add.reduce(res, axis=0).max())

    @cached_property
    def short_vcpus(self) -> float:
        """`search.vcpus_short` of the VMs: whole vCPUs, so a set's count times its own shortfall is exact."""
        counts = np.bincount(np.asarray(self.of, dtype=np.intp), minlength=len(self.reps)).tolist()
        return float(sum(max(0, math.ceil(r.vcpus_needed - 1e-9) - r.vcpus) * n
                         for r, n in zip(self.reps, counts, strict=True)))

    def stored_gb(self, fill: float) -> float:
        """The least DATA and WAL GB of every database (`storage.disks_floor_gb`), added database by database in
        the VMs' order; taken once for every server where the VMs are the databases one by one."""
        if self.sets is not None and fill in self.sets.stored:
            return self.sets.stored[fill]
        floors = [tuple(disks_floor_gb(d, fill) for d in r.databases) for r in self.reps]
        total: float = sum([x for k in self.of for x in floors[k]])
        if self.sets is not None:
            self.sets.stored[fill] = total
        return total


def plan_alike(w: PostgresConsolidation, node: tuple[int, float], host: HostCpu, fill: float,
               grow_for_connections: bool, cache: VmCache, sets: AlikeSets) -> Planned:
    """`plan_shapes`' VMs, planned once per set of alike databases (`sets`: of `w.databases`) where each database
    has its own VM; shared VMs one by one. `node`: a NUMA node's cores and memory (GiB)."""
    if w.placement != "vm-per-database":
        return Planned.each(plan_shapes(w, *node, host, fill, grow_for_connections, cache))
    room = node[1] if grow_for_connections else None
    reps = tuple(shape_of(sets.names[i], sets.singles[i], host, w, fill, room, cache) for i in sets.firsts)
    return Planned(reps, sets.of, sets.names, sets.singles, sets)


def sized_alike(planned: Planned, cache: VmCache) -> list[PgVm]:
    """`placement.sized` of each VM: each set's VM sized once, then under each VM's name and databases (a database's
    I/O is its set's under its own name)."""
    vms = [sized(r, cache) for r in planned.reps]
    for vm in vms:  # taken once per set: every VM of the set carries them (`_renamed`)
        _ = vm.resident_peak_gib, vm.cpu_peak, vm.io_by_hour
    out = []
    for i, (k, name, dbs) in enumerate(zip(planned.of, planned.names, planned.databases, strict=True)):
        vm = vms[k]
        if vm.databases is not dbs:  # named once per sized VM: another server whose set's VM is the same takes it
            named = cache.renamed.get((id(vm), i))
            if named is None:
                named = cache.renamed[(id(vm), i)] = _renamed(vm, name, dbs)
            vm = named
        out.append(vm)
    return out


def _renamed(vm: PgVm, name: str, dbs: tuple[PgDatabase, ...]) -> PgVm:
    """`vm` under another name and databases alike its own: every field, and each figure it has taken of them (its
    peaks and hourly I/O: the same values), without a field-by-field `dataclasses.replace`."""
    out: PgVm = object.__new__(PgVm)
    io = tuple(_io_named(x, d.name) for x, d in zip(vm.io, dbs, strict=True))
    out.__dict__.update(vm.__dict__, name=name, databases=dbs, io=io)
    return out


def _io_named(x: DbIo, name: str) -> DbIo:
    """`x` under `name` (every figure named: a figure DbIo gains and this leaves out fails to construct)."""
    return DbIo(name, x.tps, x.tps_estimated, x.data_write_iops, x.data_read_iops, x.wal_write_iops, x.wal_mb_s,
                x.wal_mb_per_checkpoint, x.data_disk_gb, x.wal_disk_gb)

"""The one-host-at-a-time placement and restart loops choose what the array versions choose, VM for VM."""

from __future__ import annotations

import itertools
import random

import pytest

from models.scenario import PgDatabase
from models.sizing.postgres.array_place import _place, _restarted
from models.sizing.postgres.placement import (
    PgVm,
    _place_quick,
    _placing_order,
    _restarted_quick,
    bin_sums,
    make_vm,
)
from models.sizing.postgres.tps_vcpus import HostCpu
from tests.models.sizing.conftest import sample


def _vms(seed: int, count: int) -> list[PgVm]:
    """VMs of many shapes, a few of each (ties in size broken by name), busy at one to three hours."""
    rng = random.Random(seed)
    w = sample("pg-consolidation").workload
    shapes = [(rng.randint(5, 400), rng.randint(1, 120), rng.randint(1, 60)) for _ in range(max(1, count // 4))]
    out = []
    for i in range(count):
        size, clients, ws = rng.choice(shapes)
        hours = sorted(rng.sample(range(24), rng.randint(1, 3)))
        db = PgDatabase(name=f"d{i:04d}", size_gb=size, peak_clients=clients, working_set_gb=min(ws, size),
                        busy_hours=hours)
        out.append(make_vm(f"vm-{db.name}", (db,), HostCpu(rng.choice([16, 32, 64])), w, 0.7))
    return out


def _names(bins: list[list[PgVm]] | None) -> list[list[str]] | None:
    return None if bins is None else [[v.name for v in b] for b in bins]


@pytest.mark.parametrize("seed", range(6))
def test_placement_puts_each_vm_where_the_array_version_does(seed: int) -> None:
    vms = _vms(seed, 120)
    rng = random.Random(seed)
    cores = 64
    mem = max(rng.choice([250.0, 380.0, 700.0]), 1.1 * max(v.resident_peak_gib for v in vms))
    fewest = next(h for h in range(1, 200) if _place(vms, h, cores, mem) is not None)
    assert fewest > 1  # below it both refuse: the "no host fits" branch is compared too
    for hosts in range(max(1, fewest - 2), fewest + 4):
        plain, quick = _place(vms, hosts, cores, mem), _place_quick(_placing_order(vms), hosts, cores, mem)
        assert _names(None if quick is None else quick[0]) == _names(plain), hosts
        if plain is not None and quick is not None:  # the hosts' sums as the placement added them: bin_sums' bits
            sums, ref = quick[1], bin_sums(plain)
            assert [a.tobytes() for a in (sums.cpu, sums.res, sums.configured)] == \
                [a.tobytes() for a in (ref.cpu, ref.res, ref.configured)]


@pytest.mark.parametrize("seed", range(6))
def test_restarts_go_where_the_array_version_sends_them(seed: int) -> None:
    vms = _vms(100 + seed, 90)
    rng = random.Random(seed)
    cores, mem = 64, max(rng.choice([300.0, 450.0]), 1.1 * max(v.resident_peak_gib for v in vms))
    bins = next(b for h in range(2, 30) if (b := _place(vms, h, cores, mem)) is not None)
    sums = bin_sums(bins)
    stranded = 0
    for failed in [*((i,) for i in range(len(bins))), *itertools.combinations(range(min(len(bins), 6)), 2)]:
        plain = _restarted(bins, failed, cores, mem, sums)
        quick = _restarted_quick(bins, failed, cores, mem, sums)
        assert [(v.name, k) for v, k in quick[0]] == [(v.name, k) for v, k in plain[0]], failed
        assert quick[1] == plain[1]
        stranded += bool(plain[1])
    assert stranded  # some failures strand VMs: the "none fits" branch is compared too
    assert bin_sums(bins).res.tobytes() == sums.res.tobytes()  # the placement's sums are left as they were


@pytest.mark.parametrize("seed", range(3))
def test_a_hosts_storage_summed_in_one_call_is_the_storage_summed_vm_by_vm(seed: int) -> None:
    from models.sizing.postgres.datastore import host_storage, host_storage_each
    from models.sizing.postgres.placement import HostPlan

    vms = _vms(200 + seed, 80)
    for plan in (HostPlan(tuple(vms), ()), HostPlan(tuple(vms[:1]), ()), HostPlan((), ()),
                 HostPlan(tuple(reversed(vms[10:50])), ())):
        assert host_storage(plan) == host_storage_each(plan)

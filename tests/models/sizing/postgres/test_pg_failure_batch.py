"""Every host failure read in one pass of array calls finds what reading each survivor alone finds, survivor for
survivor: the same worst failure, overcommit, safe rate, throughput kept and restarts."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.perf import memory
from models.scenario import PgDatabase
from models.sizing.postgres.placement import PgVm, make_vm
from models.sizing.postgres.state import Ask, _survivor, host_failure, host_failure_plain, survivors
from models.sizing.postgres.tps_vcpus import HostCpu
from tests.models.sizing.conftest import sample

SHARES = (0.25, 0.3, 0.4, 0.6, 0.75)


def _vms(rng: random.Random, count: int) -> list[PgVm]:
    w = sample("pg-consolidation").workload
    out = []
    for i in range(count):
        size = rng.randint(5, 300)
        db = PgDatabase(name=f"f{i:03d}", size_gb=size, peak_clients=rng.randint(1, 90),
                        working_set_gb=min(size, rng.randint(1, 60)), busy_hours=sorted(rng.sample(range(24), 2)))
        out.append(make_vm(f"vm-{db.name}", (db,), HostCpu(rng.choice([8, 32])), w, 0.7))
    return out


def _config(vm: PgVm, share: float) -> Any:
    """What host_failure reads of a VM's postgresql.conf: its shared_buffers in MB."""
    value = vm.memory_gib * 1024.0 * share
    return SimpleNamespace(get=lambda name: SimpleNamespace(value=value))


@pytest.mark.parametrize(("seed", "ha", "vsan", "room"), [
    (1, True, True, 1.6), (2, True, True, 1.05), (3, True, False, 1.3), (4, False, True, 1.3), (5, True, True, 3.0)])
def test_every_failure_read_at_once_is_every_failure_read_alone(seed: int, ha: bool, vsan: bool, room: float) -> None:
    """Hosts of 1-9 VMs (one empty) with `room` x the fullest host's busiest hour: tight rooms strand VMs."""
    rng = random.Random(seed)
    vms = _vms(rng, 30)
    bins: list[list[PgVm]] = [[] for _ in range(6)]
    for vm in vms:
        bins[rng.randrange(5)].append(vm)  # host 6 stays empty: a spare
    top = max(float(sum(v.resident_by_hour for v in b).max()) for b in bins if b)
    w = SimpleNamespace(vsphere_ha=ha, placement=rng.choice(["vm-per-database", "shared-instance"]),
                        ha_host_failures=1)
    p = SimpleNamespace(hosts=[SimpleNamespace(vms=tuple(b)) for b in bins], available_gib=top * room,
                        server=SimpleNamespace(cores_total=64), vsan=object() if vsan else None)
    by_vm = {vm.name: _config(vm, rng.choice(SHARES)) for vm in vms}
    fast, plain = host_failure(w, p, by_vm), host_failure_plain(w, p, by_vm)  # type: ignore[arg-type]
    assert fast == plain
    assert any(s.restarted for s in fast.survivors) == (ha and vsan and len(fast.not_restarted) < len(
        bins[fast.failed_host - 1]))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.lists(st.tuples(st.floats(0.5, 512.0), st.sampled_from(SHARES)), max_size=6),
                          st.integers(0, 3), st.floats(0.0, 600.0)), min_size=1, max_size=6),
       st.floats(1.0, 1024.0), st.sampled_from(memory.SCHEMES))
def test_survivors_read_at_once_are_each_survivor_read_alone(
        hosts: list[tuple[list[tuple[float, float]], int, float]], available: float, scheme: memory.Scheme) -> None:
    asks, alone = [], []
    for i, (vms, restarted, resident) in enumerate(hosts):
        fakes = [SimpleNamespace(name=f"h{i}v{k}", memory_gib=m) for k, (m, _) in enumerate(vms)]
        ratios = {f.name: s for f, (_, s) in zip(fakes, vms, strict=True)}
        onto = tuple(f.name for f in fakes[len(fakes) - min(restarted, len(fakes)):])
        by_hour = np.linspace(0.0, resident, 24)
        asks.append(Ask(i, sum(f.memory_gib for f in fakes), onto, by_hour,
                        np.array([ratios[f.name] for f in fakes], dtype=float)))
        alone.append(_survivor(i, fakes, onto, available, scheme, ratios, by_hour))  # type: ignore[arg-type]
    assert survivors(asks, available, scheme) == alone

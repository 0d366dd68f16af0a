"""Estates of thousands: work shared across server candidates and failures gives what sizing each afresh gives."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from models.scenario import PgDatabase
from models.sizing.postgres.placement import VmCache, bin_sums, make_vm, restart
from models.sizing.postgres.tps_vcpus import HostCpu
from tests.models.sizing.conftest import sample


def _dbs() -> list[PgDatabase]:
    return [PgDatabase(name=f"e{i}", size_gb=30 + 7 * i, peak_clients=4 + 9 * i, working_set_gb=1 + 3 * i,
                       busy_hours=[i % 24], peak_tps=None if i % 2 else 900.0 * (i + 1)) for i in range(6)]


@pytest.mark.parametrize(("cores", "room", "score"), [(4, 48.0, None), (64, 48.0, 9.0), (64, 500.0, 3.0),
                                                      (6, None, 9.0)])
def test_a_shared_cache_sizes_each_vm_as_a_fresh_one_would(cores: int, room: float | None,
                                                           score: float | None) -> None:
    w = sample("pg-consolidation").workload
    cache = VmCache()
    host = HostCpu(cores, score)
    # other servers first: other core counts, and the same cores on a faster or slower CPU (a stated rate's vCPUs)
    for other, other_room in ((HostCpu(2), 16.0), (HostCpu(128, 12.0), 1000.0), (HostCpu(cores, 20.0), room),
                              (HostCpu(cores, score, "P90"), room), (host, None)):
        for d in _dbs():
            make_vm(f"vm-{d.name}", (d,), other, w, 0.7, other_room, cache)
    for d in _dbs():
        fresh = make_vm(f"vm-{d.name}", (d,), host, w, 0.7, room)
        kept = make_vm(f"vm-{d.name}", (d,), host, w, 0.7, room, cache)
        assert (kept.vcpus, kept.memory_gib, kept.io) == (fresh.vcpus, fresh.memory_gib, fresh.io)
        assert np.array_equal(kept.cpu_by_hour, fresh.cpu_by_hour)
        assert np.array_equal(kept.resident_by_hour, fresh.resident_by_hour)


def test_restart_with_the_placement_sums_matches_restart_without() -> None:
    w = sample("pg-consolidation").workload
    vms = [make_vm(f"vm-{d.name}", (d,), HostCpu(32), w, 0.7) for d in _dbs()]
    bins = [vms[:2], vms[2:3], vms[3:]]
    sums = bin_sums(bins)
    mem = max(float(r.max()) for r in sums.res) * 1.5
    for failed in ((0,), (1,), (2,), (0, 2)):
        a, b = restart(bins, failed, 32, mem), restart(bins, failed, 32, mem, sums)
        assert (a.hosts, a.onto, a.stranded) == (b.hosts, b.onto, b.stranded)


def test_repeated_database_names_are_named_once_each_in_a_large_estate() -> None:
    data = sample("pg-consolidation").workload.model_dump()
    data["databases"] = [dict(d.model_dump(), name=f"n{i % 2_995}") for i in range(3_000) for d in _dbs()[:1]]
    with pytest.raises(ValidationError, match=r"repeated: n0, n1, n2, n3, n4\b"):
        type(sample("pg-consolidation").workload).model_validate(data)


def test_a_config_taken_from_a_vm_alike_is_the_config_of_the_vm() -> None:
    from models.sizing.postgres.config import PgVmInputs, config_of, postgres_config

    alike: dict[PgVmInputs, object] = {}
    shapes = [(m, c, cl, d, oc, k) for m in (4.0, 9.0, 64.0) for c in (2, 8) for cl in (12, 300) for d in (True, False)
              for oc in (False, True) for k in ("ssd", "hdd")]
    for i in range(3):  # each shape under three names: the second and third come from the first
        for m, c, cl, d, oc, k in shapes:
            vm = PgVmInputs(f"vm-{i}-{m}-{c}-{cl}", m, c, cl, d, oc, k, 6, 250.0 * c)  # type: ignore[arg-type]
            assert config_of(vm, alike) == postgres_config(vm)  # type: ignore[arg-type]
    assert len(alike) == len(shapes)

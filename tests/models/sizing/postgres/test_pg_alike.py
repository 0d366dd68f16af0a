"""Databases alike in all but their name are planned, bounded and sized once per set, and every VM comes out as the
plain one-by-one functions give it: the same names, databases, vCPUs, memory, hourly figures and I/O, and sums with
the same bits."""

from __future__ import annotations

import dataclasses
import functools
import operator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.hardware import HardwareCatalog, Server
from models.scenario import PgDatabase, PostgresConsolidation
from models.sizing.parts import candidate_servers
from models.sizing.postgres import search
from models.sizing.postgres.alike import Planned, alike_key, alike_sets, plan_alike, sized_alike
from models.sizing.postgres.placement import VmCache, VmShape, _Demand, busiest, plan_shapes, sized
from models.sizing.postgres.state import Packing
from models.sizing.postgres.storage import disks_floor_gb
from models.sizing.postgres.tps_vcpus import HostCpu
from models.sizing.rules import DOCS
from tests.models.sizing.conftest import sample
from tests.models.sizing.postgres.test_pg_search import _ask, _what

FILL = figure(DOCS, "gp_capacity_max_fill")

_FIGURES = {"size_gb": st.sampled_from([0.5, 7.0, 40.0, 333.3, 2_500.0]), "peak_clients": st.integers(1, 300),
            "working_set_gb": st.sampled_from([0.2, 1.5, 6.0, 31.7, 200.0])}
_OPTIONAL = {"peak_tps": st.sampled_from([3.0, 150.0, 4_000.0, 60_000.0]),
             "busy_hours": st.lists(st.integers(0, 23), min_size=1, max_size=5, unique=True),
             "offpeak_load_pct": st.sampled_from([0.0, -0.0, 12.5, 70.0]),
             "writes_per_txn": st.sampled_from([1.0, 9.0]),
             "current": st.sampled_from([{"vcpus": 4, "memory_gib": 16.0},
                                         {"vcpus": 64, "memory_gib": 1.0, "cpu_used_mhz": 9e5, "iops": 7.0}])}
# a few kinds of database: one, and others that differ from it in one figure each (a set must not take in a database
# that differs from it in any figure)
_change = st.sampled_from(sorted({**_FIGURES, **_OPTIONAL})).flatmap(
    lambda f: st.fixed_dictionaries({f: {**_FIGURES, **_OPTIONAL}[f]}))
_kinds = st.tuples(st.fixed_dictionaries(_FIGURES, optional=_OPTIONAL), st.lists(_change, max_size=4)).map(
    lambda t: [t[0], *({**t[0], **change} for change in t[1])])
# a workload: the kinds, each under several names, in shuffled order
_workload = st.tuples(_kinds, st.lists(st.integers(0, 4), min_size=1, max_size=40), st.sampled_from([None, 6]),
                      st.sampled_from([None, 24.0]), st.booleans())


def _consolidation(drawn: tuple[list[dict[str, Any]], list[int], int | None, float | None, bool],
                   ) -> PostgresConsolidation:
    kinds, picks, vcpus, memory, conventional = drawn
    dbs = [dict(kinds[p % len(kinds)], name=f"d{i}", size_gb=max(kinds[p % len(kinds)]["size_gb"],
                                                                  kinds[p % len(kinds)]["working_set_gb"]))
           for i, p in enumerate(picks)]
    w = sample("pg-consolidation", workload={
        "databases": dbs, "vm_vcpus": vcpus, "vm_memory_gib": memory,
        "shared_buffers_policy": "conventional" if conventional else "recommended"}).workload
    assert isinstance(w, PostgresConsolidation)
    return w


_hosts = st.sampled_from([HostCpu(8), HostCpu(64, 9.5), HostCpu(32, 4.0, "P90", 0.4)])


def test_databases_that_differ_in_any_figure_are_not_alike() -> None:
    base = PgDatabase(name="a", size_gb=10, peak_clients=5, working_set_gb=2)
    other = {"size_gb": 11.0, "peak_clients": 6, "working_set_gb": 3.0, "peak_tps": 50.0, "writes_per_txn": 2.0,
             "busy_hours": [3], "offpeak_load_pct": 0.0}
    assert set(other) == set(PgDatabase.model_fields) - {"name", "current"}  # every figure (a new one belongs here)
    for field, value in other.items():
        changed = PgDatabase.model_validate({**base.model_dump(), field: value, "name": "b"})
        assert alike_key(changed) != alike_key(base), field
    observed = PgDatabase.model_validate({**base.model_dump(), "current": {"vcpus": 4, "memory_gib": 16.0}})
    assert alike_key(base.model_copy(update={"name": "c"})) == alike_key(base) == alike_key(observed)
    negative = PgDatabase(name="n", size_gb=10, peak_clients=5, working_set_gb=2, offpeak_load_pct=-0.0)
    assert alike_key(negative) != alike_key(negative.model_copy(update={"offpeak_load_pct": 0.0}))


def _same_vm(a: Any, b: Any) -> None:
    """Two VMs (shapes or sized) alike in every field and figure."""
    assert (a.name, a.vcpus, a.memory_gib, a.vcpus_needed) == (b.name, b.vcpus, b.memory_gib, b.vcpus_needed)
    assert all(x is y for x, y in zip(a.databases, b.databases, strict=True))
    assert np.array_equal(a.cpu_by_hour, b.cpu_by_hour) and np.array_equal(a.resident_by_hour, b.resident_by_hour)
    assert a.resident_peak_gib == b.resident_peak_gib


@settings(max_examples=25, deadline=None)
@given(_workload, _hosts, st.sampled_from([(4, 40.0), (32, 700.0)]), st.booleans())
def test_alike_planning_gives_the_plain_plans_vms_and_sums(drawn: Any, host: HostCpu, node: tuple[int, float],
                                                           grow: bool) -> None:
    w = _consolidation(drawn)
    plain = plan_shapes(w, *node, host, FILL, grow, VmCache())
    planned = plan_alike(w, node, host, FILL, grow, VmCache(), alike_sets(w.databases))
    assert len(planned.reps) == len({alike_key(d) for d in w.databases}) and len(planned) == len(plain)
    for a, b in zip(planned.shapes, plain, strict=True):
        _same_vm(a, b)
        assert a.key[0] == b.key[0] and a.key[2:] == b.key[2:]
    assert planned.busiest == busiest(plain)
    assert planned.short_vcpus == search.vcpus_short(plain)
    assert planned.stored_gb(FILL) == sum(disks_floor_gb(d, FILL) for s in plain for d in s.databases)
    assert planned.largest().name == max(plain, key=lambda v: v.memory_gib).name


@settings(max_examples=20, deadline=None)
@given(_workload, _hosts)
def test_alike_sizing_gives_the_plain_sized_vms(drawn: Any, host: HostCpu) -> None:
    w = _consolidation(drawn)
    plain_cache = VmCache()
    plain = [sized(s, plain_cache) for s in plan_shapes(w, 16, 200.0, host, FILL, True, plain_cache)]
    cache = VmCache()
    alike = sized_alike(plan_alike(w, (16, 200.0), host, FILL, True, cache, alike_sets(w.databases)), cache)
    for a, b in zip(alike, plain, strict=True):
        _same_vm(a, b)
        assert (a.io, a.clients_at_once, a.tps_reachable, a.clients_tps) == (b.io, b.clients_at_once,
                                                                            b.tps_reachable, b.clients_tps)
        assert a.cpu_peak == b.cpu_peak
        for x, y in zip(a.io_by_hour, b.io_by_hour, strict=True):
            assert all(np.array_equal(p, q) for p, q in zip(x, y, strict=True))


_rows = st.lists(st.floats(0.0, 1e6, allow_nan=False).map(lambda x: x if x > 1e-3 else x * 1e-12), min_size=24,
                 max_size=24)


@settings(max_examples=40, deadline=None)
@given(st.lists(_rows, min_size=1, max_size=6), st.lists(st.integers(0, 5), min_size=1, max_size=60))
def test_the_sets_hourly_sums_have_the_bits_of_the_vm_by_vm_sums(rows: list[list[float]], picks: list[int]) -> None:
    """Figures of every magnitude, whose sums round differently in another order: the sets' sum adds VM after VM."""
    db = PgDatabase(name="x", size_gb=1, peak_clients=1, working_set_gb=1)
    reps = tuple(VmShape(f"r{k}", (db,), 64, 1.0, _Demand(1, np.array(r), np.array(rows[-1 - k]), 0.0), HostCpu(64),
                         FILL, ("", (), None, (None, None), 64, 1.0, FILL)) for k, r in enumerate(rows))
    of = tuple(p % len(rows) for p in picks)
    planned = Planned(reps, of, tuple(f"v{i}" for i in of), tuple((db,) for _ in of))
    cpu = functools.reduce(operator.add, (np.minimum(rows[-1 - k], 64) for k in of), np.zeros(24))
    res = functools.reduce(operator.add, (np.array(rows[k]) for k in of), np.zeros(24))
    assert planned.busiest == (float(cpu.max()), float(res.max())) == busiest(planned.shapes)


@pytest.fixture(scope="module")
def few(catalog: HardwareCatalog) -> HardwareCatalog:
    current = catalog.current(catalog.servers)
    return HardwareCatalog.of([p for p in catalog if not isinstance(p, Server) or p in current[::4]])


@pytest.mark.parametrize(("workload", "count"), [
    ({"ha_host_failures": 0, "vsan_architecture": "esa"}, 45),
    ({"vsphere_ha": False, "shared_storage": "local"}, 45),
    ({"shared_storage": "vsan", "vsan_policy": "raid5-ftt1"}, 45),
])
def test_an_estate_of_repeated_databases_finds_what_the_plain_loop_finds(workload: dict[str, Any], count: int,
                                                                         few: HardwareCatalog) -> None:
    kinds: list[dict[str, Any]] = [
        {"size_gb": 30, "peak_clients": 12, "working_set_gb": 4, "busy_hours": [9, 10]},
        {"size_gb": 300, "peak_clients": 60, "working_set_gb": 40, "peak_tps": 900.0},
        {"size_gb": 8, "peak_clients": 3, "working_set_gb": 1, "busy_hours": [22], "offpeak_load_pct": 5.0}]
    dbs = [dict(kinds[(i * 7) % 3], name=f"r{i}") for i in range(count)]
    scenario = sample("pg-consolidation", workload={"databases": dbs, **workload})
    ask = _ask(scenario, few)
    servers = candidate_servers(few, ask.parts, 1)
    assert _what(search.cheapest(ask, servers)) == _what(search.cheapest_each(ask, servers))


def _option(ask: search.Ask, server: Server, cache: VmCache) -> search.Option:
    o = search.plan(ask, server, cache)
    assert isinstance(o, search.Option), o
    return o


def _layout(p: object) -> tuple[object, ...]:
    if not isinstance(p, Packing):
        return (p,)  # a reason, or None: no drive builds the datastore
    return (p.server.cores_total, p.drive.id, p.drives_per_host, p.capex, p.vsan, p.storage,
            [[v.name for v in h.vms] for h in p.hosts], [h.numa_nodes for h in p.hosts])


def test_a_server_of_the_same_figures_takes_the_packing_it_would_find_alone(few: HardwareCatalog) -> None:
    dbs = [{"name": f"t{i}", "size_gb": 40 + 10 * (i % 4), "peak_clients": 8 + i % 5, "working_set_gb": 3 + i % 3,
            "busy_hours": [i % 24]} for i in range(40)]
    scenario = sample("pg-consolidation", workload={"databases": dbs})
    ask, cache = _ask(scenario, few), VmCache()
    packs = (s for s in candidate_servers(few, ask.parts, 1) if isinstance(o := search.plan(_ask(scenario, few), s,
                                                                                   VmCache()), search.Option)
             and isinstance(search.pack(_ask(scenario, few), o), Packing))  # servers that hold the VMs
    server = next(packs)
    other = next(s for s in packs if s.cores_total != server.cores_total)
    twin = dataclasses.replace(server, id=f"{server.id}-twin")
    packed = [search.pack(ask, _option(ask, s, cache)) for s in (server, other, twin)]
    assert len(ask.planned) == len(ask.packed) == 2  # the twin's VMs are the server's, planned and packed once
    for s, p in zip((server, other, twin), packed, strict=True):
        alone = _ask(scenario, few)
        assert _layout(p) == _layout(search.pack(alone, _option(alone, s, VmCache()))), s.id

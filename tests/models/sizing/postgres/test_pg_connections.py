"""A database VM refarch sizes itself holds its clients' connections: it grows (within a NUMA node) until every
client has a connection at PGTune's work_mem floor, so a pooler is demanded only where memory cannot hold them."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog, Server
from models.scenario import PostgresConsolidation
from models.sizing.engine import size
from models.sizing.postgres import config as pg_config
from models.sizing.postgres.config import PgVmInputs, postgres_config
from models.sizing.postgres.limits import host_memory
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample


def _max_connections(r: SizingResult) -> dict[str, int]:
    return {g.target: int(g.get("max_connections").value)  # type: ignore[union-attr]
            for g in r.design.settings if g.product == "postgresql"}


def test_forty_clients_on_a_small_database_get_connections_not_a_pooler(catalog: HardwareCatalog) -> None:
    """Before: a 5 GB database with 40 clients got a 2 GiB VM, 75 % of it shared_buffers, max_connections 11 and a
    'Use a connection pooler' warning. A GiB more gives each client its connection."""
    dbs = [{"name": "shop", "size_gb": 5, "peak_clients": 40, "working_set_gb": 0.25}]
    r = size(sample("pg-consolidation", workload={"databases": dbs}), catalog)
    assert "connection-pooler" not in {w.code for w in r.warnings}
    assert _max_connections(r)["vm-shop"] >= 40
    [vm] = [v for h in r.design.hosts for v in h.vms]
    assert vm.memory_gib == 3  # the least whole GiB that holds them (the doctest's rule), not more


def test_a_stated_vm_size_is_kept_and_the_pooler_still_asked_for(catalog: HardwareCatalog) -> None:
    dbs = [{"name": "shop", "size_gb": 5, "peak_clients": 40, "working_set_gb": 0.25}]
    r = size(sample("pg-consolidation", workload={"databases": dbs, "vm_memory_gib": 2}), catalog)
    assert [v.memory_gib for h in r.design.hosts for v in h.vms] == [2]
    assert "connection-pooler" in {w.code for w in r.warnings}


@settings(max_examples=10, deadline=None)
@given(clients=st.lists(st.integers(1, 4000), min_size=1, max_size=4), ws=st.sampled_from([0.1, 1.0, 8.0]))
def test_a_pooler_is_demanded_only_where_a_numa_node_cannot_hold_the_connections(
        catalog: HardwareCatalog, clients: list[int], ws: float) -> None:
    dbs = [{"name": f"d{i}", "size_gb": 50, "peak_clients": c, "working_set_gb": ws} for i, c in enumerate(clients)]
    scenario = sample("pg-consolidation", workload={"databases": dbs})
    r = size(scenario, catalog)
    server = catalog.get(r.design.server_id)
    assert isinstance(server, Server) and isinstance(scenario.workload, PostgresConsolidation)
    node_gib = host_memory(scenario, scenario.workload, server)[1] / server.numa_nodes
    pooled = {w.text.split(":")[0] for w in r.warnings if w.code == "connection-pooler"}
    conns = _max_connections(r)
    for vm in (v for h in r.design.hosts for v in h.vms):
        name, peak = f"vm-{vm.databases[0]}", clients[int(vm.databases[0][1:])]
        if name in pooled:  # the configuration rule itself finds no room for them even at a whole node's memory
            at_node = postgres_config(PgVmInputs(name, math.floor(node_gib), vm.vcpus, peak, True, False, "nvme", 2,
                                                 0.0))
            assert at_node.notes, (name, peak, vm.memory_gib, node_gib)
        else:
            assert conns[name] >= peak


def _walked(clients: int, vcpus: int, dedicated: bool, conventional: bool, start: float, most: float) -> float:
    """The rule read plainly: every whole GiB from `start` up to `most`, the first whose connections fit."""
    workers = pg_config.max_worker_processes(vcpus)
    gib = start
    while gib <= most:
        ram = pg_config._mb(gib)
        sb = math.floor(ram * pg_config.shared_buffers_rule(gib, dedicated, False, conventional).ratio)
        if clients <= pg_config._connection_cap(ram, sb, workers):
            return gib
        gib = math.floor(gib) + 1.0
    return start


@settings(max_examples=300, deadline=None)
@given(clients=st.integers(1, 30_000), vcpus=st.integers(1, 96), dedicated=st.booleans(), conventional=st.booleans(),
       start=st.integers(2, 40), most=st.sampled_from([2.0, 7.5, 8.0, 9.3, 24.0, 96.0, 384.0, 768.0]))
def test_the_vm_grows_to_the_least_whole_gib_that_holds_the_connections(
        clients: int, vcpus: int, dedicated: bool, conventional: bool, start: int, most: float) -> None:
    """The search starts at a bound below which no memory can hold the connections: the same GiB as the plain walk."""
    args = (clients, vcpus, dedicated, conventional, float(start), most)
    assert pg_config.memory_for_connections_gib(*args) == _walked(*args)

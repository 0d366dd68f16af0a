"""Reports beyond what memory admits queue in the resource group: primaries, spill and throughput follow the
admitted count, not the requested one (Greenplum runs a group's CONCURRENCY transactions and queues the rest)."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, Platform
from models.sizing.engine import size
from models.sizing.greenplum import evaluation, metrics, segments, volumes
from models.sizing.greenplum import memory as gp_memory
from models.sizing.greenplum.candidates import Candidates, enumerate_candidates
from models.sizing.greenplum.context import needed_tb
from models.sizing.parts import NetworkChoice
from models.sizing.rules import gp_vmem_mb
from tests.models.sizing.conftest import sample

SERVER = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"
DRIVE = "samsung-pm1743-3840gb-e3s"
NIC = "mellanox-connectx-5-2x100gbe"
DEFAULT_MB = figure("vendor_docs", "gp_statement_mem_default_mb")
FLOOR_QUERIES = int(figure("sizing_rules", "gp_admission_floor_queries"))
HOSTS = st.tuples(st.integers(2, 192), st.floats(64, 4096))  # cores, memory GiB
POLICY = st.sampled_from(["group", "spread", "block"])
CASE = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _host(catalog: HardwareCatalog, cores: int, memory_gib: float, drives: int = 8) -> Candidates:
    c = enumerate_candidates([catalog.server(SERVER)], [catalog.drive(DRIVE)], ["bare-metal"], ["none"], drives)
    return dataclasses.replace(c.take(np.array([0])), cores_total=np.array([float(cores)]),
                               threads_total=np.array([2.0 * cores]), memory_gib=np.array([memory_gib]))


def _work(queries: int, policy: str) -> GreenplumAnalytics:
    return GreenplumAnalytics(data_tb=100, concurrent_queries=queries, mirroring=policy,  # type: ignore[arg-type]
                              mirror_block_hosts=4 if policy == "block" else None)


def _admitted(w: GreenplumAnalytics, c: Candidates, primaries: np.ndarray) -> int:
    a = segments.admitted(w, c.memory_gib, c.virtualized, c.numa_nodes, primaries, None)
    return w.concurrent_queries if a is None else int(a[0])  # None: every report runs


@CASE
@given(queries=st.integers(1, 5000), host=HOSTS, policy=POLICY)
def test_primaries_are_what_cores_and_memory_allow_at_the_admitted_reports(
    catalog: HardwareCatalog, queries: int, host: tuple[int, float], policy: str
) -> None:
    cores, memory = host
    c, w, swap = _host(catalog, cores, memory), _work(queries, policy), Platform().swap_gib
    sp = segments.plan(w, c)
    p = int(sp.primaries_per_host[0])
    admitted = _admitted(w, c, sp.primaries_per_host)
    block = w.mirror_block_hosts
    by_memory = int(segments.for_memory(np.array([memory]), swap, admitted, policy, block, sp.by_cores)[0])
    # never below what the cores, the drives and memory at the admitted count allow, spread evenly over the 8 drives
    most = min(int(sp.by_cores[0]), int(sp.by_drives[0]), by_memory)
    even = volumes.even_on_volumes(np.array([most]), np.array([most]), np.array([8]), w.mirrors)
    assert p >= int(even[0])
    assert bool(volumes.is_even(np.array([p]), np.array([8]), w.mirrors)[0]) or p < 4
    assert 1 <= admitted <= queries
    acting = int(segments.acting_for(policy, sp.primaries_per_host, block)[0])
    # each admitted report keeps the default statement_mem with a host down (one alone may not, on tiny memory)
    assert gp_memory.statement_mem_mb(memory, swap, acting, admitted) >= DEFAULT_MB or admitted == 1
    # the failover memory rule holds: gp_vmem_protect_limit at its floor after the worst failure, or one primary
    assert float(gp_vmem_mb(memory, swap)) / acting >= segments.vmem_floor_mb() or p == 1
    if queries > FLOOR_QUERIES:  # sized on what runs at once: any larger request plans the same
        same = segments.plan(_work(FLOOR_QUERIES + 1, policy), c)
        assert same.primaries_per_host.tolist() == sp.primaries_per_host.tolist()
        assert admitted >= FLOOR_QUERIES or p == 1


@CASE
@given(queries=st.integers(1, 5000), extra=st.integers(1, 5000), host=HOSTS, policy=POLICY)
def test_spill_space_follows_the_admitted_reports_not_the_requested_ones(
    catalog: HardwareCatalog, queries: int, extra: int, host: tuple[int, float], policy: str
) -> None:
    cores, memory = host
    c = _host(catalog, cores, memory)
    w, more = _work(queries, policy), _work(queries + extra, policy)
    primaries = segments.plan(more, c).primaries_per_host
    # more requested: never more room at the same primaries (a request crossing into a tier of fewer primaries per
    # host frees their WAL and catalog space: 1 report plans Type 3's 32 on 17 cores, 6 plan Type 2's 16)
    cap = float(evaluation.capacity_per_host(w, c, primaries)[0])
    assert float(evaluation.capacity_per_host(more, c, primaries)[0]) <= cap + 1e-12
    admitted = _admitted(more, c, primaries)
    # the work space is the one the admitted reports need: as if exactly that many had been asked for
    exact = float(evaluation.capacity_per_host(_work(admitted, policy), c, primaries)[0])
    assert abs(float(evaluation.capacity_per_host(more, c, primaries)[0]) - exact) <= 1e-9 * max(exact, 1.0)
    # bounded by memory: no more reports spill than memory gives the default statement_mem at once
    acting = int(segments.acting_for(policy, primaries, more.mirror_block_hosts)[0])
    fits = gp_memory.admitted_queries(memory, Platform().swap_gib, acting, 10**9)
    assert admitted <= max(int(fits), 1)


@CASE
@given(queries=st.integers(1, 5000), extra=st.integers(1, 5000), host=HOSTS, policy=POLICY,
       hosts=st.integers(2, 64))
def test_more_requested_reports_never_get_more_throughput_each(
    catalog: HardwareCatalog, queries: int, extra: int, host: tuple[int, float], policy: str, hosts: int
) -> None:
    cores, memory = host
    c = _host(catalog, cores, memory)
    net = NetworkChoice(catalog.nic(NIC), 1)

    def per_query(q: int) -> float:
        w = _work(q, policy)
        primaries, vms = evaluation.primaries_per_host(w, c)
        ctx = metrics.GpContext.of(w, c, primaries, vms, net, needed_tb(w))
        return float(metrics.gp_queries_per_hour(ctx, np.array([hosts]), w)[0]) / q

    assert per_query(queries + extra) <= per_query(queries) * (1 + 1e-9)


def test_queries_per_hour_come_from_the_admitted_slots(catalog: HardwareCatalog) -> None:
    """On a many-core host with little memory the admitted reports cannot keep every core busy: the estimate is
    that of the admitted count, below what the requested count would claim."""
    c = _host(catalog, 192, 64.0)
    w = _work(5000, "group")
    primaries, vms = evaluation.primaries_per_host(w, c)
    ctx = metrics.GpContext.of(w, c, primaries, vms, NetworkChoice(catalog.nic(NIC), 1), needed_tb(w))
    assert ctx.queries is not None and int(ctx.queries[0]) < 5000
    admitted = metrics.gp_queries_per_hour(ctx, np.array([8]), w)
    claimed = metrics.gp_queries_per_hour(dataclasses.replace(ctx, queries=None), np.array([8]), w)
    assert float(admitted[0]) < float(claimed[0])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    queries=st.integers(1, 5000), deployment=st.sampled_from(["bare-metal", "vsphere"]),
    server=st.sampled_from([None, "dell-r670-10x-u3-2x-xeon-6740e", "dell-r7625-24x-u3-2x-epyc-9654",
                            "lenovo-sr655-v3-12x-lff-1x-epyc-9124"]),
    policy=POLICY,
)
def test_a_sized_design_admits_what_its_memory_holds_after_a_failover_and_says_who_waits(
    catalog: HardwareCatalog, queries: int, deployment: str, server: str | None, policy: str
) -> None:
    """End to end, with the design's own failover (`mirroring.failover`, VMs included): every admitted report keeps
    the default statement_mem with a host down (one alone on a host too small for it), and the queue warning is
    there exactly when some wait, naming how many and the admitted count."""
    work = {"concurrent_queries": queries, "mirroring": policy, "mirror_block_hosts": 4 if policy == "block" else None}
    plat = {"deployment": deployment, "server_id": server, "drive_id": None, "nic_id": None, "drives_per_host": None,
            "memory_gib": None}
    r = size(sample("retail-dw-gen5", workload=work, platform=plat, targets={}), catalog)
    g = r.greenplum
    assert g is not None and 1 <= g.resource_group_concurrency <= queries
    assert g.statement_mem_mb >= DEFAULT_MB or g.resource_group_concurrency == 1
    waiting = queries - g.resource_group_concurrency
    w = {x.code: x.text for x in r.warnings}
    assert ("queued-queries" in w) == (waiting > 0)
    if waiting:
        assert f"{waiting:,} of the {queries:,}" in w["queued-queries"]
        assert f"CONCURRENCY={g.resource_group_concurrency:,}" in w["queued-queries"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    queries=st.integers(31, 5000), deployment=st.sampled_from(["bare-metal", "vsphere"]),
    server=st.sampled_from([None, "dell-r670-10x-u3-2x-xeon-6740e", "dell-r7625-24x-u3-2x-epyc-9654",
                            "lenovo-sr655-v3-12x-lff-1x-epyc-9124"]),
)
def test_the_queue_warning_advises_memory_only_where_more_admitted_would_finish_more(
    catalog: HardwareCatalog, queries: int, deployment: str, server: str | None
) -> None:
    """Little's law: with the hardware busy, the time from submission is requested / throughput whatever the
    admitted count, so more memory (more admitted, each running longer) shortens nothing. Where the admitted
    queries' processes (one per primary) already outnumber the cores, the warning does not advise memory (before:
    it always did, e.g. 185 admitted x 8 primaries on 48 cores)."""
    plat = {"deployment": deployment, "server_id": server, "drive_id": None, "nic_id": None, "drives_per_host": None,
            "memory_gib": None}
    r = size(sample("retail-dw-gen5", workload={"concurrent_queries": queries}, platform=plat, targets={}), catalog)
    g = r.greenplum
    w = {x.code: x.text for x in r.warnings}
    assume(g is not None and "queued-queries" in w)
    assert g is not None
    srv = catalog.server(r.design.server_id)
    busy = g.resource_group_concurrency * r.design.primary_segments_per_host >= srv.cores_total  # type: ignore[operator]
    if busy:
        assert "Add memory" not in w["queued-queries"] and "finish none sooner" in w["queued-queries"]

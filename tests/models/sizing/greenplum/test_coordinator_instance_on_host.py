"""The coordinator on a segment host (`workload.coordinator_on_segment_host`) is one more instance on that host: the
memory plan divides gp_vmem and the resource-group memory by the acting primaries plus the coordinator (Greenplum 6
counts it among the host's segments), and the host's semaphores and processes add the coordinator's max_connections."""

from __future__ import annotations

import math

import pytest

from app.export.config.os_fit import Role, guide, nproc, roles, semaphore_sets, sysctl_lines
from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.scenario import Platform
from models.sizing.engine import size
from models.sizing.greenplum.memory import rg_perseg_mem_mb
from models.sizing.result import SizingResult
from models.sizing.rules import RULES, gp_vmem_mb
from tests.models.sizing.conftest import sample

SERVER = "lenovo-sr655-v3-24x-u3-1x-epyc-9554p"  # 64 cores, 768 GiB
DOCS = "vendor_docs"


def _pair(catalog: HardwareCatalog, memory_gib: int | None) -> tuple[SizingResult, SizingResult]:
    """The same OLTP cluster (2 segment hosts, 128 clients, no mirrors) with the coordinator on the first segment
    host and on hosts of its own."""
    out = []
    for shared in (True, False):
        platform: dict[str, object] = {"server_id": SERVER}
        if memory_gib is not None:
            platform["memory_gib"] = memory_gib
        out.append(size(sample("gp-oltp", workload={
            "mix": "select", "clients": 128, "target_tps": None, "min_segment_hosts": 2, "data_tb": 1,
            "mirrors": False, "coordinator_on_segment_host": shared}, platform=platform), catalog))
    return out[0], out[1]


@pytest.fixture(scope="module")
def full(catalog: HardwareCatalog) -> tuple[SizingResult, SizingResult]:
    return _pair(catalog, None)


def test_the_memory_plan_divides_by_the_primaries_and_the_coordinator(full: tuple[SizingResult, SizingResult]
                                                                      ) -> None:
    shared, apart = full
    s, a = shared.greenplum, apart.greenplum
    assert s is not None and a is not None
    assert (s.coordinator_on_host, a.coordinator_on_host) == (1, 0)
    assert s.max_acting_primary_segments == a.max_acting_primary_segments
    ram, swap = shared.design.hosts[0].memory_gib, Platform().swap_gib
    acting = s.max_acting_primary_segments
    assert s.gp_vmem_protect_limit_mb == int(float(gp_vmem_mb(ram, swap)) // (acting + 1))
    assert a.gp_vmem_protect_limit_mb == int(float(gp_vmem_mb(ram, swap)) // acting)
    assert s.rg_perseg_mem_mb == int(rg_perseg_mem_mb(ram, swap, acting + 1)) < a.rg_perseg_mem_mb
    # the instances' resource-group shares stay within gp_resource_group_memory_limit of the commit limit
    commit_mb = (ram * s.vm_overcommit_ratio / 100 + swap) * 1024
    assert (acting + 1) * s.rg_perseg_mem_mb <= commit_mb * s.gp_resource_group_memory_limit
    assert acting * s.rg_perseg_mem_mb > 0 and s.statement_mem_mb < a.statement_mem_mb
    why = {r.decision: r.text for r in shared.rationale}
    # Greenplum 6 (the default release) calls it the master
    assert "the master" in why["Resource groups"] and "commit limit" in why["Resource groups"]
    assert f"plus the master ({acting + 1} instances)" in why["gp_vmem_protect_limit"]
    assert "plus the master" in why["gp_vmem_protect_limit on Greenplum 6"]
    assert "memory plan" in why["Coordinator on a segment host"]
    assert "master" not in {r.decision: r.text for r in apart.rationale}["Resource groups"]


def test_a_coordinator_that_crosses_the_vmem_floor_takes_a_primary_off(catalog: HardwareCatalog) -> None:
    """32 GiB hosts: 8 primaries keep the floor alone, not with the coordinator beside them."""
    shared, apart = _pair(catalog, 32)
    s, a = shared.greenplum, apart.greenplum
    assert s is not None and a is not None
    floor = figure(RULES, "gp_vmem_protect_limit_floor_mb")
    vmem = float(gp_vmem_mb(32, Platform().swap_gib))
    assert vmem // a.max_acting_primary_segments >= floor > vmem // (a.max_acting_primary_segments + 1)
    assert s.primaries_per_segment_host == a.primaries_per_segment_host - 1
    assert s.gp_vmem_protect_limit_mb >= floor
    assert "low-vmem-per-segment" not in {w.code for w in shared.warnings}


def test_semaphores_and_processes_count_the_coordinator_on_the_segment_host(
        full: tuple[SizingResult, SizingResult]) -> None:
    shared, apart = full
    seg = roles(shared)[0]
    alone = roles(apart)[0]
    coord = next(r for r in roles(apart) if not r.name.startswith("segment"))
    assert len(roles(shared)) == 1 and seg.coordinator_connections == coord.max_connections
    assert coord.max_connections < seg.max_connections  # segments are 5 x the coordinator
    g = guide()
    sem, lim = g["semaphores"], g["limits"]
    workers = int(sem["autovacuum_max_workers"]) + int(sem["max_worker_processes"])
    assert semaphore_sets(seg) - semaphore_sets(alone) == math.ceil(
        (coord.max_connections + workers + int(sem["fixed_slots"])) / int(sem["per_set"]))
    raw = seg.instances * (seg.max_connections + workers + int(lim["aux_processes"]))
    assert nproc(seg) == max(int(lim["nproc"]), raw + coord.max_connections + workers + int(lim["aux_processes"]))
    text = next(ln.reason for ln in sysctl_lines(shared, seg) if ln.text.startswith("kernel.sem"))
    assert f"the master at max_connections {coord.max_connections:,}" in text


def test_the_coordinator_lifts_nproc_over_the_guide_where_the_segments_alone_stay_under_it() -> None:
    lim, sem = guide()["limits"], guide()["semaphores"]
    workers = int(sem["autovacuum_max_workers"]) + int(sem["max_worker_processes"]) + int(lim["aux_processes"])
    per_segment, per_coordinator = 1250 + workers, 250 + workers
    instances = int(lim["nproc"]) // per_segment  # the most segment instances the guide's nproc holds
    assert int(lim["nproc"]) - instances * per_segment < per_coordinator  # so the coordinator crosses it
    alone = Role("segment host", 512, instances, 1250)
    shared = Role("segment host", 512, instances, 1250, coordinator_connections=250, coordinator_word="master")
    assert nproc(alone) == int(lim["nproc"])
    assert nproc(shared) == instances * per_segment + per_coordinator > int(lim["nproc"])

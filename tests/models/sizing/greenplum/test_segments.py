"""Primaries per host follow cores, memory and drives; the study tiers hold on the reference host."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics
from models.sizing.engine import size
from models.sizing.greenplum import segments
from models.sizing.greenplum.candidates import enumerate_candidates
from models.sizing.greenplum.context import needed_tb
from models.sizing.parts import SizingInputError
from tests.models.sizing.conftest import sample

R7715 = "dell-r7715-24x-u3-1x-epyc-9655p"  # 1 x 96 cores
R7625 = "dell-r7625-24x-u3-2x-epyc-9654"  # 2 x 96 cores
U3 = "micron-9400-pro-7680gb-u3"


def test_one_cores_rule_below_and_above_the_reference_host() -> None:
    """A tier is cores per primary on the 48-core reference host, on every host: Type 3 (32) gave 16 on 16 cores and
    32 on 32 (one per core) but 43 on 64 and 64 on 96 (1.5 per core); now 1.5 cores per primary throughout."""
    type3 = segments.for_cores(32, np.array([16, 32, 48, 64, 96]))
    assert type3.tolist() == [10, 21, 32, 42, 64]
    assert segments.for_cores(16, np.array([16, 48, 96, 192])).tolist() == [5, 16, 32, 64]
    assert segments.for_cores(8, np.array([2, 4, 48, 96])).tolist() == [1, 1, 8, 16]
    cores = np.arange(1, 400)
    for tier in (8, 16, 32):
        p = segments.for_cores(tier, cores)
        assert np.all(np.diff(p) >= 0) and np.all(p <= np.maximum(cores, 1))
        assert np.all(cores[p > 1] / p[p > 1] >= 48 / tier)  # never fewer cores per primary than the reference


def test_a_96_core_host_runs_twice_the_reference_primaries(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"server_id": R7715, "drive_id": U3}, targets={}), catalog)
    assert r.design.primary_segments_per_host == 32  # Type 2 (20 queries): 16 x 96 / 48
    text = next(x.text for x in r.rationale if x.decision == "Primary segments per host")
    assert "16 x 96 / 48" in text


def test_dual_96_core_on_vsphere_spreads_evenly_over_the_vms_and_their_drives(catalog: HardwareCatalog) -> None:
    """Type 2 on 192 cores asks 64 (32 per VM); each VM's 12 drives carry 24 evenly (2 per volume), not 32
    (3/3/3/3/3/3/3/3/2/2/2/2): the design runs 48 and says the drive count within the bays that carries 64."""
    plat = {"server_id": R7625, "drive_id": U3, "deployment": "vsphere", "drives_per_host": 24}
    r = size(sample("retail-dw-gen5", platform=plat, targets={}), catalog)
    d = r.design
    assert d.primary_segments_per_host == 48 and d.vms_per_host == 2
    assert all(vm.primary_segments == 24 and vm.data_drives == 12 for vm in d.hosts[0].vms)
    w = next(x for x in r.warnings if x.code == "segments-off-tier")
    assert "give 64 primary segments per host (32 per VM)" in w.text and "carry 64 evenly: 16 (" in w.text
    assert w.field == "platform.drives_per_host"


def test_few_drives_bound_the_primaries(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"server_id": R7715, "drive_id": U3, "drives_per_host": 2},
                    targets={}), catalog)
    assert r.design.primary_segments_per_host == 8  # 2 drives x 4


@settings(max_examples=60, deadline=None)
@given(
    queries=st.integers(1, 2000), server=st.integers(0, 100), deployment=st.sampled_from(["bare-metal", "vsphere"]),
    mirroring=st.sampled_from(["group", "spread"]),
)
def test_never_above_cores_and_a_multiple_of_the_vms(
    catalog: HardwareCatalog, queries: int, server: int, deployment: str, mirroring: str
) -> None:
    servers = catalog.servers
    s = servers[server % len(servers)]
    drives = [d for d in catalog.drives if s.accepts(d)]
    if not drives:
        return
    c = enumerate_candidates([s], drives[:1], [deployment], ["none"])
    w = GreenplumAnalytics(data_tb=10, concurrent_queries=queries, mirroring=mirroring)  # type: ignore[arg-type]
    sp = segments.plan(w, c)
    assert np.all(sp.primaries_per_host <= np.maximum(c.cores_total, sp.vms_per_host))
    assert np.all(sp.primaries_per_host % sp.vms_per_host == 0)
    assert np.all(sp.primaries_per_host >= sp.vms_per_host)
    more = segments.plan(w.model_copy(update={"concurrent_queries": queries * 2}), c)
    assert np.all(more.primaries_per_host <= sp.primaries_per_host)  # more concurrency never adds primaries
    big = dataclasses.replace(c, memory_gib=c.memory_gib * 4)
    assert np.all(segments.plan(w, big).primaries_per_host >= sp.primaries_per_host)  # memory only helps


def test_a_drive_count_is_only_priced_on_servers_with_that_many_bays(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", platform={"server_id": None, "drive_id": None, "drives_per_host": 24}, targets={})
    r = size(s, catalog)
    assert catalog.server(r.design.server_id).data_bays >= 24 and r.design.data_drives_per_host == 24


def test_more_drives_than_any_server_has_bays_is_bad_input(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", platform={"server_id": None, "drive_id": None, "drives_per_host": 200}, targets={})
    with pytest.raises(SizingInputError, match=r"platform.drives_per_host: 200 .*the most is 24") as err:
        size(s, catalog)
    assert [p.path for p in err.value.problems] == ["platform.drives_per_host"]  # the GUI marks that field


@settings(max_examples=10, deadline=None)
@given(queries=st.integers(1, 2000), mirroring=st.sampled_from(["group", "spread"]),
       start=st.integers(0, 5000))
def test_a_chunk_plans_each_server_layout_once_with_every_row_as_if_alone(
    catalog: HardwareCatalog, queries: int, mirroring: str, start: int
) -> None:
    """`plan` over a chunk (each (server, drive count, deployment) planned once and spread) equals the plan of
    each row on its own."""
    c = enumerate_candidates(catalog.servers, catalog.drives, ["bare-metal", "vsphere"], ["none", "raid5", "raid10"])
    chunk = c.take(np.arange(start, min(start + 4096, len(c))))
    assert segments.server_layouts(chunk) is not None  # the shortcut is taken
    w = GreenplumAnalytics(data_tb=10, concurrent_queries=queries, mirroring=mirroring)  # type: ignore[arg-type]
    whole = segments.plan(w, chunk)
    for i in range(0, len(chunk), 97):
        alone = segments.plan(w, chunk.take(np.array([i])))
        for f in dataclasses.fields(whole):
            assert getattr(whole, f.name)[i] == getattr(alone, f.name)[0], (f.name, i)


@settings(max_examples=10, deadline=None)
@given(queries=st.integers(1, 2000), ratio=st.sampled_from([1.0, 3.0]), nics=st.sampled_from([1, 4]),
       start=st.integers(0, 5000))
def test_a_chunks_scan_rates_per_layout_are_those_of_every_row(catalog: HardwareCatalog, queries: int, ratio: float,
                                                               nics: int, start: int) -> None:
    """The full-scan kernel of a chunk with its CPU rate computed once per (server, drive count, deployment, RAID
    level, hard disk or flash: the primaries' inputs) gives the rates, the network bound and the seconds of the
    kernel computed row by row, bit for bit."""
    from models.sizing.greenplum import metrics
    from models.sizing.parts import NetworkChoice

    c = enumerate_candidates(catalog.servers, catalog.drives, ["bare-metal", "vsphere"], ["none", "raid5", "raid10"])
    chunk = c.take(np.arange(start, min(start + 4096, len(c))))
    w = GreenplumAnalytics(data_tb=50, concurrent_queries=queries, compression_ratio=ratio)
    layouts = segments.by_spindles(segments.host_layouts(chunk), chunk.spinning)
    assert layouts is not None
    primaries, vms = segments.counts(w, chunk, None, layouts)
    net = NetworkChoice(catalog.nics[0], nics)
    grouped = metrics.GpContext.of(w, chunk, primaries, vms, net, needed_tb(w), layouts).full_scan
    rows = metrics.GpContext.of(w, chunk, primaries, vms, net, needed_tb(w)).full_scan
    for name in ("virt", "drives", "cpu", "drives_cpu", "network_never_binds"):
        assert np.array_equal(getattr(grouped, name), getattr(rows, name)), name
    hosts = np.arange(len(chunk)) % 300 + 2
    assert np.array_equal(grouped.seconds(hosts), rows.seconds(hosts))


@settings(max_examples=300, deadline=None)
@given(
    ram=st.floats(16, 4096), swap=st.floats(0, 256), queries=st.one_of(st.none(), st.integers(1, 500)),
    policy=st.sampled_from([None, "group", "spread", "block"]), block=st.integers(2, 16),
    cap=st.integers(1, 256), more=st.integers(0, 512),
)
def test_the_memory_bound_is_the_largest_count_memory_allows_whatever_the_cap(
    ram: float, swap: float, queries: int | None, policy: str | None, block: int, cap: int, more: int
) -> None:
    """The bound is min(cap, the most primaries memory allows): searching from a higher cap gives the same count
    below it (before, block mirroring's jump could stop one primary short: 75 allowed, 74 given)."""
    def bound(c: int) -> int:
        return int(segments.for_memory(np.array([ram]), swap, queries, policy, block, np.array([c]))[0])
    assert bound(cap) == min(cap, bound(cap + more))
    p = bound(cap + more)
    if 1 < p < cap + more:  # the next count up breaks what memory allows
        assert bound(p + 1) == p

"""A chunk's per-candidate context computed once per host layout (server, drive count, deployment, RAID level) and
spread to its rows equals the context computed row by row, bit for bit: the optimizer's chunks and `size`'s few
candidates get the same numbers."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform
from models.sizing.greenplum import evaluation, metrics, segments
from models.sizing.greenplum.candidates import Candidates, enumerate_candidates
from models.sizing.greenplum.context import needed_tb
from models.sizing.parts import NetworkChoice
from models.vocabulary import RAID_LEVELS


def _chunk(catalog: HardwareCatalog, start: int, memory_gib: float | None) -> Candidates:
    c = enumerate_candidates(catalog.servers, catalog.drives, ["bare-metal", "vsphere"], list(RAID_LEVELS))
    chunk = c.take(np.arange(start, min(start + 4096, len(c))))
    if memory_gib is None:
        return chunk
    return dataclasses.replace(chunk, memory_gib=np.full(len(chunk), memory_gib))  # memory short of the reports


def test_each_group_is_one_host_layout_and_its_row_is_one_of_them(catalog: HardwareCatalog) -> None:
    chunk = _chunk(catalog, 3000, None)
    groups = segments.host_layouts(chunk)
    assert groups is not None and groups.rep.size < len(chunk) // 4  # the shortcut is taken, and saves work
    for name in ("server_idx", "drives_per_host", "virtualized", "raid_code"):
        column = getattr(chunk, name)
        assert np.array_equal(column[groups.rep][groups.which], column), name
    assert np.array_equal(groups.which[groups.rep], np.arange(groups.rep.size))  # each group's row is its own
    assert segments.host_layouts(chunk.take(np.arange(100))) is None  # too few rows to gain anything


@settings(max_examples=25, deadline=None)
@given(
    queries=st.integers(1, 2000), oltp=st.booleans(), mirrors=st.booleans(),
    mirroring=st.sampled_from(["group", "spread", "block"]), landing=st.sampled_from([0.0, 40.0]),
    reserve=st.sampled_from([None, 24.0]), memory=st.sampled_from([None, 96.0]), ratio=st.sampled_from([1.0, 3.0]),
    start=st.integers(0, 6000),
)
def test_a_chunks_context_per_host_layout_is_that_of_every_row(
    catalog: HardwareCatalog, queries: int, oltp: bool, mirrors: bool, mirroring: str, landing: float,
    reserve: float | None, memory: float | None, ratio: float, start: int,
) -> None:
    """Primaries, VMs, every column of the scan's cluster shape (the RAID factors, NUMA locality), the admitted
    reports, the full-scan kernel and the user capacity per host: grouped == row by row, bit for bit."""
    chunk = _chunk(catalog, start, memory)
    common = {"data_tb": 80, "compression_ratio": ratio, "mirrors": mirrors, "mirroring": mirroring,
              "landing_pct": landing, "mirror_block_hosts": 4 if mirroring == "block" else None}
    w = (GreenplumOltp(clients=queries, **common) if oltp  # type: ignore[arg-type]
         else GreenplumAnalytics(concurrent_queries=queries, **common))  # type: ignore[arg-type]
    plat = Platform(hypervisor_reserve_gib=reserve)
    # the evaluation's groups: a host but its drive model, split where hard disks and flash share one (the primaries
    # differ: one per spindle)
    groups = segments.by_spindles(segments.host_layouts(chunk), chunk.spinning)
    assert groups is not None
    primaries, vms = segments.counts(w, chunk, plat, groups)
    rows_p, rows_v = segments.counts(w, chunk, plat, None)
    assert np.array_equal(primaries, rows_p) and np.array_equal(vms, rows_v)
    net = NetworkChoice(catalog.nics[0], 2)
    grouped = metrics.GpContext.of(w, chunk, primaries, vms, net, needed_tb(w), groups, plat)
    rows = metrics.GpContext.of(w, chunk, primaries, vms, net, needed_tb(w), None, plat)
    for f in dataclasses.fields(rows.shape):
        a, b = np.asarray(getattr(grouped.shape, f.name)), np.asarray(getattr(rows.shape, f.name))
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), f.name
    assert (grouped.queries is None) == (rows.queries is None)
    if rows.queries is not None:
        assert np.array_equal(grouped.queries, rows.queries)
    for name in ("virt", "drives", "cpu", "drives_cpu", "network_never_binds"):
        assert np.array_equal(getattr(grouped.full_scan, name), getattr(rows.full_scan, name)), name
    cap = evaluation.capacity_per_host(w, chunk, primaries, grouped.running(w), plat, ctx=grouped)
    alone = evaluation.capacity_per_host(w, chunk, primaries, rows.running(w), plat)
    assert cap.dtype == alone.dtype and cap.tobytes() == alone.tobytes()

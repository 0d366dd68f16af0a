"""The totals and part warnings of a chunk, computed once per host layout where they depend on it alone and with
fewer temporaries, equal the plain formulas row by row, bit for bit (the optimizer's chunks and `size`'s few
candidates get the same numbers)."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.perf import cost_power
from models.scenario import GreenplumAnalytics, GreenplumOltp
from models.sizing.greenplum import density, evaluation, metrics, part_warnings, segments
from models.sizing.greenplum.candidates import Candidates, enumerate_candidates
from models.sizing.parts import NetworkChoice
from models.sizing.rules import DOCS, coordinator_count, coordinator_drive_count
from models.vocabulary import RAID_LEVELS


def _chunk(catalog: HardwareCatalog, start: int) -> Candidates:
    c = enumerate_candidates(catalog.servers, catalog.drives, ["bare-metal", "vsphere"], list(RAID_LEVELS))
    return c.take(np.arange(start, min(start + 4096, len(c))))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _plain_power(c: Candidates, drives: np.ndarray | float, net: NetworkChoice, u: float) -> np.ndarray:
    """The host draw as written in `cost_power`'s docstring, with a temporary per step."""
    nic_w = net.nic.watts if net.nic else 0.0
    return ((c.idle_w + (c.max_w - c.idle_w) * float(np.clip(u, 0.0, 1.0)))
            + np.asarray(drives, dtype=float) * c.drive_w) + net.nics_per_host * nic_w


def _plain_totals(c: Candidates, net: NetworkChoice, u: float, extra: np.ndarray, drives: np.ndarray,
                  hosts: np.ndarray, etl: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """`greenplum._totals` term by term with a temporary each, and its coordinator on the segments' server."""
    two = float(coordinator_drive_count())  # the coordinator's RAID-1 pair of the segment drive
    coord_price = ((two * c.drive_price + c.server_price) + net.price_per_host)
    coord_w = _plain_power(c, two, net, u * 0.5)
    k = coordinator_count()
    etl_f = 0.0 if etl is None else etl.astype(float)
    seg_price = ((drives * c.drive_price + c.server_price) + net.price_per_host) + extra
    capex = (hosts * seg_price + k * coord_price) + (seg_price - extra) * etl_f
    seg_w = _plain_power(c, drives, net, u)
    power = (hosts * seg_w + k * coord_w) + seg_w * etl_f
    rack = (hosts if etl is None else hosts + etl_f) * c.rack_u + k * c.rack_u
    return capex, power, rack


@settings(max_examples=30, deadline=None)
@given(start=st.integers(0, 6000), u=st.sampled_from([0.0, 0.35, 0.7, 1.0, 1.4]), nics=st.integers(0, 4),
       extra=st.sampled_from([0.0, 1234.5, -0.0]), seed=st.integers(0, 2**16), with_etl=st.booleans(),
       no_nic=st.booleans())
def test_totals_per_layout_equal_the_plain_formula(catalog: HardwareCatalog, start: int, u: float, nics: int,
                                                   extra: float, seed: int, with_etl: bool, no_nic: bool) -> None:
    chunk = _chunk(catalog, start)
    rng = np.random.default_rng(seed)
    # distinct parts: every price and draw of the chunk its own (no two servers or drives alike)
    chunk = dataclasses.replace(chunk, drive_price=chunk.drive_price * rng.uniform(0.5, 2.0, len(chunk)),
                                drive_w=chunk.drive_w * rng.uniform(0.5, 2.0, len(chunk)))
    net = NetworkChoice(None if no_nic else catalog.nics[0], nics)
    layouts = segments.host_layouts(chunk)
    assert layouts is not None
    coord = evaluation.same_as_segments(chunk, net, u, -1, layouts)
    plain_coord = evaluation.same_as_segments(chunk, net, u, -1, None)
    for name in ("cores", "price", "watts", "rack_u"):
        assert _same(getattr(coord, name), getattr(plain_coord, name)), name
    drives = chunk.drives_per_host.astype(float)
    hosts = rng.integers(1, 1000, len(chunk)).astype(float)
    etl = rng.integers(0, 64, len(chunk)) if with_etl else None
    extra_mem = np.broadcast_to(np.asarray(extra), (len(chunk),))
    got = evaluation._totals(chunk, net, u, extra_mem, evaluation.Held(coord, drives, hosts, etl), layouts)
    want = _plain_totals(chunk, net, u, extra_mem, drives, hosts, etl)
    for name, a, b in zip(("capex", "power", "rack"), got, want, strict=True):
        assert _same(a, b), name
    assert _same(metrics.host_power_w(chunk, drives, net, u, layouts), _plain_power(chunk, drives, net, u))


def test_the_server_draw_then_the_parts_is_host_power() -> None:
    rng = np.random.default_rng(7)
    idle, peak, dw = rng.uniform(50, 400, 500), rng.uniform(300, 1600, 500), rng.uniform(0, 25, 500)
    drives = rng.integers(1, 24, 500).astype(float)
    for u in (-0.2, 0.0, 0.5, 1.0, 1.7):
        split = cost_power.with_parts_w(cost_power.server_draw_w(idle, peak, u), drives, dw, 2, 15.5)
        assert _same(split, cost_power.host_power_w(idle, peak, u, drives, dw, 2, 15.5))


@settings(max_examples=25, deadline=None)
@given(start=st.integers(0, 6000), oltp=st.booleans())
def test_fixed_part_warnings_per_layout_are_those_of_every_row(catalog: HardwareCatalog, start: int,
                                                               oltp: bool) -> None:
    chunk = _chunk(catalog, start)
    w = GreenplumOltp(clients=100, data_tb=80) if oltp else GreenplumAnalytics(concurrent_queries=40, data_tb=80)
    layouts = segments.host_layouts(chunk)
    assert layouts is not None
    assert _same(part_warnings.fixed(w, chunk, layouts), part_warnings.fixed(w, chunk))


def _plain_short(running: object, threads: np.ndarray, memory: np.ndarray, hosts: np.ndarray, disk: float
                 ) -> np.ndarray:
    f = density.factors(running)
    return np.asarray((hosts * threads < figure(DOCS, "density_vcpu_per_tb_on_disk") * f * disk)
                      | (hosts * memory * density.GB_PER_GIB
                         < figure(DOCS, "density_memory_gb_per_tb_on_disk") * f * disk))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), disk=st.sampled_from([0.5, 43.9, 1000.0, 1e6]), per_row=st.booleans(),
       as_float=st.booleans(), n=st.sampled_from([1, 7, 300]))
def test_density_short_with_one_column_is_the_plain_comparison(seed: int, disk: float, per_row: bool,
                                                              as_float: bool, n: int) -> None:
    rng = np.random.default_rng(seed)
    threads = rng.choice([8.0, 48.0, 96.0, 256.0], n)
    memory = rng.choice([64.0, 96.0, 512.0, 2048.0, 6144.0], n)
    hosts = rng.integers(1, 1000, n)
    counts = hosts.astype(float) if as_float else hosts
    running = rng.uniform(1, 2000, n) if per_row else int(rng.integers(1, 2000))
    assert _same(density.short(running, threads, memory, counts, disk),
                 _plain_short(running, threads, memory, counts, disk))
    # scalars and mixed shapes take the plain path
    assert _same(density.short(20, threads[:1], memory[:1], np.array([3]), disk),
                 _plain_short(20, threads[:1], memory[:1], np.array([3]), disk))

"""The Greenplum scan/load roofline against studies 000 and 002, its logic and its properties."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import dataset, figure, point
from models.perf import scan_load as sl
from models.perf import scan_load_estimates as sl_est
from models.perf import scan_load_fit as sl_fit
from models.perf.cards import all_cards
from models.perf.scan_load import ClusterShape
from models.vocabulary import RAID_LEVELS

ROOT = Path(__file__).resolve().parents[3]
STUDIES = ROOT.parent / "shared" / "studies"
G0, G2 = sl.GP000, sl.GP002


def _p() -> sl.ScanParams:
    """The calibrated parameters (the fit runs once per process)."""
    return sl_fit.default_params()

# The ids the sizing engine cites: renaming one is a breaking change.
STABLE_IDS = {
    G0: [
        "segment_hosts",
        "cores_per_host",
        "memory_gb_per_host",
        "data_drives_per_host",
        "network_gbps_per_host",
        "segments_per_host",
        "primary_segments_per_host",
        "mirror_segments_per_host",
        "database_tb",
        "fact_table_tb",
        "load_tb",
        "gpfdist_instances",
        "etl_hosts",
        "fullscan_1vm_s",
        "fullscan_2vm_s",
        "load_1vm_s",
        "load_2vm_s",
        "virt_overhead_seq_pct",
        "virt_overhead_mixed_pct",
        "fullscan_2vm_faster_than_physical_pct",
        "load_2vm_faster_than_physical_pct",
        "numa_load_2vm_interleaved_gain_pct",
        "numa_load_2vm_local_gain_pct",
        "partial_scan_fraction",
    ],
    G2: [
        "pm1743_seq_read_mb_s",
        "pm1743_seq_write_mb_s",
        "pm1743_rand_read_kiops",
        "pm1743_rand_write_kiops",
        "pm9a3_seq_read_mb_s",
        "pm9a3_seq_write_mb_s",
        "pm9a3_rand_read_kiops",
        "pm9a3_rand_write_kiops",
        "gen5_aggregate_read_gb_s",
        "ratio_synthetic_io",
        "ratio_load",
        "ratio_single_stream",
        "ratio_concurrent",
        "cost_reduction_pct",
        "seg_tier1_primaries_per_host",
        "seg_tier1_min_concurrency",
        "seg_tier2_primaries_per_host",
        "seg_tier2_concurrency_low",
        "seg_tier2_concurrency_high",
        "seg_tier3_primaries_per_host",
        "seg_tier3_concurrency_low",
        "seg_tier3_concurrency_high",
        "max_primaries_per_core",
        "coordinators",
        "coordinator_data_drives",
        "coordinator_raid_level",
        "network_port_recommended_gbps",
        "network_port_min_gbps",
        "network_min_ports",
        "gen5_memory_gb",
        "raid5_strip_kb",
        "raid5_data_strips",
        "raid5_full_stripe_kb",
        "avg_io_kb",
        "tpcds_scale_factor",
        "tpcds_streams",
        "gen5_cores_per_host",
        "gen5_data_drives_per_host",
        "gen5_network_gbps_per_host",
    ],
}


# --------------------------------------------------------------------------- calibration files


@pytest.mark.parametrize("name", [G0, G2])
def test_stable_point_ids_exist(name: str) -> None:
    ids = {p.id for p in dataset(name).points}
    assert sorted(set(STABLE_IDS[name]) - ids) == []


@pytest.mark.skipif(not STUDIES.is_dir(), reason="the studies are not beside the repository")
@pytest.mark.parametrize("name", [G0, G2])
def test_quotes_are_verbatim_in_their_study(name: str) -> None:
    texts: dict[str, str] = {}
    missing = []
    for p in dataset(name).points:
        src = p.source
        if src.kind != "quoted":
            continue
        text = texts.setdefault(src.file, (STUDIES / src.file).read_text(encoding="utf-8"))
        assert src.quote is not None
        if src.quote not in text:
            missing.append(p.id)
    assert missing == []


def test_derived_points_follow_from_the_quoted_ones() -> None:
    assert figure(G0, "fact_table_tb") == pytest.approx(
        figure(G0, "fact_rows_billion") * figure(G0, "load_tb") / figure(G0, "load_rows_billion"), rel=1e-3
    )
    assert figure(G0, "partial_scan_fraction") == pytest.approx(
        figure(G0, "partial_scan_rows_billion") / figure(G0, "fact_rows_billion"), rel=1e-3
    )
    assert figure(G0, "cores_per_host") == figure(G0, "sockets_per_host") * figure(G0, "cores_per_socket")
    assert figure(G0, "fullscan_physical_from_2vm_s") == pytest.approx(
        figure(G0, "fullscan_2vm_s") / (1 - figure(G0, "fullscan_2vm_faster_than_physical_pct") / 100), rel=1e-3
    )
    assert figure(G2, "prev_drive_seq_mb_s") == pytest.approx(
        figure(G2, "gen5_data_drives_per_host")
        * figure(G2, "pm1743_seq_read_mb_s")
        / figure(G2, "ratio_synthetic_io")
        / figure(G2, "prev_data_drives_per_host"),
        rel=1e-3,
    )
    assert figure(G2, "raid5_full_stripe_kb") == figure(G2, "raid5_strip_kb") * figure(G2, "raid5_data_strips")
    assert figure(G2, "gen5_cost_ratio") == pytest.approx(1 - figure(G2, "cost_reduction_pct") / 100)
    vp = point(G0, "virt_overhead_seq_pct")
    assert (vp.low, vp.high) == (5, 6)


# --------------------------------------------------------------------------- reproduction


def _scan_s(shape: ClusterShape) -> float:
    return float(sl.full_scan_seconds(shape, figure(G0, "fact_table_tb"), _p()).seconds)


def _load_s(shape: ClusterShape) -> float:
    return float(figure(G0, "load_tb") / sl.load_tb_per_hour(shape, _p()).value * 3600.0)


@pytest.mark.parametrize(
    ("vms", "scan_id", "load_id"), [(1, "fullscan_1vm_s", "load_1vm_s"), (2, "fullscan_2vm_s", "load_2vm_s")]
)
def test_reproduces_study000_response_times(vms: int, scan_id: str, load_id: str) -> None:
    shape = sl_fit.study000_shape(vms)
    assert _scan_s(shape) == pytest.approx(figure(G0, scan_id), rel=0.02)
    assert _load_s(shape) == pytest.approx(figure(G0, load_id), rel=0.02)


def test_physical_times_agree_with_both_study000_statements() -> None:
    phys = sl_fit.study000_shape(0)
    for pid in ("fullscan_physical_from_2vm_s", "fullscan_physical_from_overhead_s"):
        assert _scan_s(phys) == pytest.approx(figure(G0, pid), rel=0.02)
    for pid in ("load_physical_from_2vm_s", "load_physical_from_overhead_s"):
        assert _load_s(phys) == pytest.approx(figure(G0, pid), rel=0.02)
    # "within 6% of those measured in the physical environment"
    assert _scan_s(sl_fit.study000_shape(1)) / _scan_s(phys) - 1 <= figure(G0, "virt_overhead_max_pct") / 100


def test_reproduces_study002_ratios() -> None:
    old, new = sl_fit.previous_appliance_shape(), sl_fit.gen5_reference_shape()
    load = float(sl.load_tb_per_hour(new, _p()).value / sl.load_tb_per_hour(old, _p()).value)
    assert load == pytest.approx(figure(G2, "ratio_load"), rel=0.03)
    data, frac = figure(G2, "tpcds_scale_factor") / 1000, sl.default_scan_fraction()
    for streams, pid in ((1, "ratio_single_stream"), (figure(G2, "tpcds_streams"), "ratio_concurrent")):
        ratio = (
            sl.queries_per_hour(new, data, streams, frac, _p()).value
            / sl.queries_per_hour(old, data, streams, frac, _p()).value
        )
        assert float(ratio) == pytest.approx(figure(G2, pid), rel=0.03)
    # Synthetic I/O exercises the drives alone: the ratio of the drive ceilings.
    d_old = float(sl.full_scan_seconds(old, 1.0, _p()).rates_mb_s["drives"])
    d_new = float(sl.full_scan_seconds(new, 1.0, _p()).rates_mb_s["drives"])
    assert d_new / d_old == pytest.approx(figure(G2, "ratio_synthetic_io"), rel=0.03)


def test_model_cards_meet_the_mape_target() -> None:
    cards = {c.name: c for c in all_cards()}
    for name in ("gp-scan-load-roofline", "gp-dw-throughput"):
        card = cards[name]
        assert card.points >= 2
        assert card.mape_pct <= 5.0
        assert card.max_abs_pct_err <= 5.0
        assert card.note
        assert all(np.isfinite(v) for v in card.parameters.values())
    ids = {r.point_id for r in cards["gp-scan-load-roofline"].residuals}
    for pid in ("fullscan_1vm_s", "fullscan_2vm_s", "load_1vm_s", "load_2vm_s"):
        assert f"{G0}/{pid}" in ids
    for pid in ("ratio_synthetic_io", "ratio_load"):
        assert f"{G2}/{pid}" in ids


def test_parameters_come_from_the_study_figures() -> None:
    p = sl_fit.default_params()
    vp = point(G0, "virt_overhead_seq_pct")
    assert vp.low is not None and vp.high is not None
    assert vp.low / 100 <= p.virt_overhead_seq <= vp.high / 100
    assert p.virt_overhead_mixed == pytest.approx(figure(G0, "virt_overhead_mixed_pct") / 100)
    # The 2 VM speed-up of each workload is its NUMA-locality gain.
    assert p.numa_gain_scan == pytest.approx(figure(G0, "fullscan_1vm_s") / figure(G0, "fullscan_2vm_s") - 1, abs=0.02)
    assert p.numa_gain_load == pytest.approx(figure(G0, "load_1vm_s") / figure(G0, "load_2vm_s") - 1, abs=0.02)
    dists = sl_fit.param_distributions()
    assert set(dists) == {f.name for f in fields(sl.ScanParams)}


# --------------------------------------------------------------------------- binding resource


def _modern(**changes: float) -> ClusterShape:
    return replace(sl_fit.gen5_reference_shape(), **changes)


def test_study000_scan_is_cpu_bound_as_its_numa_gain_shows() -> None:
    # A drive-bound scan could not get 16 % faster from NUMA-local memory.
    for vms in (0, 1, 2):
        assert sl.full_scan_seconds(sl_fit.study000_shape(vms), 1.0, _p()).binding_labels() == "cpu"


def test_sixteen_sata_drives_bind_a_modern_host() -> None:
    hdd = figure(G2, "prev_drive_seq_mb_s")
    shape = _modern(drives_per_host=16, drive_seq_read_mb_s=hdd, drive_seq_write_mb_s=hdd)
    assert sl.full_scan_seconds(shape, 10.0, _p()).binding_labels() == "drives"
    assert sl.load_tb_per_hour(shape, _p()).binding_labels() == "drives"


def test_gen5_nvme_host_saturates_cpu_not_drives() -> None:
    # 002: "full CPU saturation of the workload, thus preventing disk I/O bottlenecks"
    shape = sl_fit.gen5_reference_shape()
    assert sl.full_scan_seconds(shape, 10.0, _p()).binding_labels() == "cpu"
    assert sl.queries_per_hour(shape, 10.0, 15, 0.2, _p()).binding_labels() == "cpu"
    assert sl.load_tb_per_hour(shape, _p()).binding_labels() != "drives"


def test_network_guidance_of_study002() -> None:
    ports = figure(G2, "network_min_ports")
    ok = _modern(network_gbps_per_host=ports * figure(G2, "network_port_min_gbps"))
    slow = _modern(network_gbps_per_host=ports * figure(G2, "prev_network_port_gbps"))
    streams = figure(G2, "tpcds_streams")
    assert sl.queries_per_hour(ok, 10.0, streams, 0.2, _p()).binding_labels() == "cpu"  # "minimal risk"
    assert sl.queries_per_hour(slow, 10.0, streams, 0.2, _p()).binding_labels() == "network"  # "significant deviation"


def test_one_etl_host_binds_a_large_fast_cluster() -> None:
    shape = _modern(segment_hosts=32, etl_hosts=1, etl_gbps_per_host=20)
    assert sl.load_tb_per_hour(shape, _p()).binding_labels() == "loader"
    more_etl = replace(shape, etl_hosts=32)
    assert sl.load_tb_per_hour(more_etl, _p()).value > sl.load_tb_per_hour(shape, _p()).value


def test_primaries_beyond_cores_do_not_help() -> None:
    cores = 48.0
    t = [
        float(sl.full_scan_seconds(_modern(cores_per_host=cores, primary_segments_per_host=p), 10.0, _p()).value)
        for p in (8, 16, 32, 48, 64)
    ]
    assert t[0] > t[1] > t[2] > t[3]
    assert t[4] == pytest.approx(t[3])


def test_virtualization_and_numa_act_as_documented() -> None:
    p = sl_fit.default_params()
    phys = _modern(numa_local=0.0)
    vm = replace(phys, virtualized=1.0)
    ratio = float(sl.full_scan_seconds(vm, 1.0, _p()).value / sl.full_scan_seconds(phys, 1.0, _p()).value)
    assert ratio == pytest.approx(1 + p.virt_overhead_seq)
    local = replace(phys, numa_local=1.0)
    gain = float(sl.full_scan_seconds(phys, 1.0, _p()).value / sl.full_scan_seconds(local, 1.0, _p()).value)
    assert gain == pytest.approx(1 + p.numa_gain_scan)
    # NUMA locality speeds the CPU, not the drives: a drive-bound design does not change.
    hdd = figure(G2, "prev_drive_seq_mb_s")
    slow_drives = replace(phys, drives_per_host=4, drive_seq_read_mb_s=hdd)
    assert sl.full_scan_seconds(replace(slow_drives, numa_local=1.0), 1.0, _p()).value == pytest.approx(
        sl.full_scan_seconds(slow_drives, 1.0, _p()).value
    )


def test_ceilings_follow_the_documented_formulas() -> None:
    p = sl_fit.default_params()
    shape = _modern(segment_hosts=8, etl_hosts=2, etl_gbps_per_host=50, virtualized=1.0)
    h, mb_per_gb = 8.0, 125.0
    scan, load = sl.full_scan_seconds(shape, 1.0, _p()), sl.load_tb_per_hour(shape, _p())
    virt = 1 + p.virt_overhead_seq
    cross = (h - 1) / h  # share of redistributed bytes that leave the host
    assert float(scan.rates_mb_s["network"]) == pytest.approx(400 * mb_per_gb / (p.motion_fraction * cross) / virt)
    # a loaded byte arrives from gpfdist, is redistributed, and is replicated to its mirror
    assert float(load.rates_mb_s["network"]) == pytest.approx(400 * mb_per_gb / (1 + cross + 1) / virt)
    # primary and mirror both write it
    drives_w = 8 * figure(G2, "pm1743_seq_write_mb_s") * p.drive_write_efficiency / 2 / virt
    assert float(load.rates_mb_s["drives"]) == pytest.approx(drives_w)
    assert float(load.rates_mb_s["loader"]) == pytest.approx(2 * 50 * mb_per_gb * p.loader_efficiency / h)
    cpu = 32 * p.scan_mb_s_per_core * p.scan_gen_speedup * (1 + p.numa_gain_scan) / virt
    assert float(scan.rates_mb_s["cpu"]) == pytest.approx(cpu)
    assert float(scan.value) == pytest.approx(1e6 / h / min(float(v) for v in scan.rates_mb_s.values()))
    unmirrored = sl.load_tb_per_hour(replace(shape, mirrored=0.0), _p())
    assert float(unmirrored.rates_mb_s["drives"]) == pytest.approx(2 * drives_w)


def test_result_decoding() -> None:
    res = sl.load_tb_per_hour(sl_fit.gen5_reference_shape(), _p())
    assert res.unit == "TB/h"
    with pytest.raises(AttributeError):
        _ = res.seconds
    assert res.binding_names == sl.BINDING_NAMES
    assert set(res.rates_mb_s) == set(sl.BINDING_NAMES)
    assert np.isinf(sl.full_scan_seconds(sl_fit.gen5_reference_shape(), 1.0, _p()).rates_mb_s["loader"])


# --------------------------------------------------------------------------- RAID


def test_raid_factors() -> None:
    assert [float(x) for x in sl.raid_factors("none", 8)] == [1.0, 1.0]
    r1, w1 = sl.raid_factors("raid1", 2)
    assert (float(r1), float(w1)) == (1.0, 0.5)
    r5, w5 = sl.raid_factors("RAID-5", 8)
    assert float(r5) == pytest.approx(7 / 8)
    assert float(w5) == pytest.approx(7 / 8 / figure(G2, "raid5_aligned_io_inflation"))
    assert float(sl.raid_factors("raid10", 8)[1]) == 0.5
    codes = np.array([0, 1, 2, 3])
    reads, writes = sl.raid_factors(codes, np.array([8, 2, 8, 8]))
    for code, rd, wr in zip(codes, reads, writes, strict=True):
        r, w = sl.raid_factors(RAID_LEVELS[code], 8 if code != 1 else 2)
        assert (rd, wr) == pytest.approx((float(r), float(w)))
    with pytest.raises(ValueError):
        sl.raid_factors("raid7", 8)
    with pytest.raises(ValueError):
        sl.raid_factors("raid5", 2)


# --------------------------------------------------------------------------- vectorization


def _random_shapes(n: int, seed: int = 7) -> tuple[ClusterShape, np.ndarray]:
    g = np.random.default_rng(seed)
    drives = g.integers(3, 25, n).astype(float)
    raid = g.integers(0, len(RAID_LEVELS), n)
    rf, wf = sl.raid_factors(raid, drives)
    shape = ClusterShape(
        segment_hosts=g.integers(2, 64, n).astype(float),
        drives_per_host=drives,
        drive_seq_read_mb_s=g.uniform(80, 14000, n),
        drive_seq_write_mb_s=g.uniform(80, 6000, n),
        raid_read_factor=rf,
        raid_write_factor=wf,
        cores_per_host=g.integers(8, 129, n).astype(float),
        network_gbps_per_host=g.choice([20.0, 50.0, 100.0, 200.0, 400.0], n),
        virtualized=g.random(n) < 0.5,
        numa_local=g.random(n) < 0.5,
        primary_segments_per_host=g.choice([8.0, 16.0, 32.0], n),
        etl_hosts=g.integers(1, 8, n).astype(float),
        cpu_generation=g.choice([0.0, 1.0], n),
        core_speed=g.uniform(0.8, 1.3, n),
    )
    return shape, g.uniform(0.5, 500, n)


def _element(shape: ClusterShape, i: int) -> ClusterShape:
    return ClusterShape(
        **{
            f.name: np.asarray(getattr(shape, f.name)).ravel()[i]
            if np.ndim(getattr(shape, f.name))
            else getattr(shape, f.name)
            for f in fields(shape)
        }
    )


def test_vectorized_equals_per_element() -> None:
    shape, data = _random_shapes(40)
    scan = sl.full_scan_seconds(shape, data, _p())
    load = sl.load_tb_per_hour(shape, _p())
    qph = sl.queries_per_hour(shape, data, 12, 0.2, _p())
    for i in range(40):
        one = _element(shape, i)
        s1 = sl.full_scan_seconds(one, data[i], _p())
        assert float(s1.value) == pytest.approx(scan.value[i])
        assert int(s1.binding) == scan.binding[i]
        assert float(sl.load_tb_per_hour(one, _p()).value) == pytest.approx(load.value[i])
        assert int(sl.load_tb_per_hour(one, _p()).binding) == load.binding[i]
        assert float(sl.queries_per_hour(one, data[i], 12, 0.2, _p()).value) == pytest.approx(qph.value[i])


def test_a_shape_rebuilt_from_floats_works() -> None:
    # The sizing engine rebuilds a one-design shape with float() on every field.
    shape, _ = _random_shapes(1)
    scalar = ClusterShape(**{f.name: float(np.asarray(getattr(shape, f.name)).ravel()[0]) for f in fields(shape)})
    est, binding = sl_est.estimate_full_scan(scalar, 10.0, n=500)
    assert est.p50 > 0 and binding in sl.BINDING_NAMES


def test_million_designs_in_one_call() -> None:
    shape, data = _random_shapes(1_000_000)
    res = sl.full_scan_seconds(shape, data, _p())
    assert res.value.shape == (1_000_000,) and np.all(np.isfinite(res.value)) and np.all(res.value > 0)


# --------------------------------------------------------------------------- properties

hosts_st = st.integers(2, 500)
shape_st = st.builds(
    lambda d, rd, wr, c, net, virt, numa, prim, etl, gen, raid: (d, rd, wr, c, net, virt, numa, prim, etl, gen, raid),
    st.integers(3, 48),
    st.floats(50, 15000),
    st.floats(50, 8000),
    st.integers(2, 192),
    st.floats(1, 800),
    st.booleans(),
    st.booleans(),
    st.integers(1, 64),
    st.integers(1, 32),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.sampled_from(RAID_LEVELS),
)


def _shape(spec: tuple, hosts: int, drives: int | None = None) -> ClusterShape:
    d, rd, wr, c, net, virt, numa, prim, etl, gen, raid = spec
    d = d if drives is None else drives
    rf, wf = sl.raid_factors(raid, d)
    return ClusterShape(
        segment_hosts=hosts,
        drives_per_host=d,
        drive_seq_read_mb_s=rd,
        drive_seq_write_mb_s=wr,
        raid_read_factor=rf,
        raid_write_factor=wf,
        cores_per_host=c,
        network_gbps_per_host=net,
        virtualized=virt,
        numa_local=numa,
        primary_segments_per_host=prim,
        etl_hosts=etl,
        cpu_generation=gen,
    )


TOL = 1 + 1e-9


@settings(max_examples=200, deadline=None)
@given(shape_st, hosts_st, st.integers(0, 40), st.floats(0.01, 5000))
def test_more_drives_never_slow_a_scan_or_a_load(spec: tuple, hosts: int, extra: int, data: float) -> None:
    few, many = _shape(spec, hosts), _shape(spec, hosts, spec[0] + extra)
    assert sl.full_scan_seconds(many, data, _p()).value <= sl.full_scan_seconds(few, data, _p()).value * TOL
    assert sl.load_tb_per_hour(many, _p()).value * TOL >= sl.load_tb_per_hour(few, _p()).value


@settings(max_examples=200, deadline=None)
@given(shape_st, hosts_st, st.floats(0.01, 5000), st.floats(1.0, 100.0))
def test_more_data_never_makes_a_scan_faster(spec: tuple, hosts: int, data: float, factor: float) -> None:
    shape = _shape(spec, hosts)
    assert sl.full_scan_seconds(shape, data * factor, _p()).value * TOL >= sl.full_scan_seconds(shape, data, _p()).value


@settings(max_examples=200, deadline=None)
@given(shape_st, hosts_st, st.integers(0, 500), st.floats(0.01, 5000), st.integers(1, 100))
def test_more_hosts_never_slow_anything(spec: tuple, hosts: int, extra: int, data: float, conc: int) -> None:
    small, big = _shape(spec, hosts), _shape(spec, hosts + extra)
    assert sl.full_scan_seconds(big, data, _p()).value <= sl.full_scan_seconds(small, data, _p()).value * TOL
    assert sl.load_tb_per_hour(big, _p()).value * TOL >= sl.load_tb_per_hour(small, _p()).value
    qph_big = sl.queries_per_hour(big, data, conc, 0.2, _p()).value
    assert qph_big * TOL >= sl.queries_per_hour(small, data, conc, 0.2, _p()).value


@settings(max_examples=200, deadline=None)
@given(shape_st, hosts_st, st.floats(0.01, 5000), st.integers(1, 100), st.integers(0, 100))
def test_more_concurrency_never_lowers_throughput(spec: tuple, hosts: int, data: float, c: int, extra: int) -> None:
    shape = _shape(spec, hosts)
    assert (
        sl.queries_per_hour(shape, data, c + extra, 0.2, _p()).value * TOL
        >= sl.queries_per_hour(shape, data, c, 0.2, _p()).value
    )


# --------------------------------------------------------------------------- Monte Carlo


def test_monte_carlo_ranges_are_ordered_and_reproducible() -> None:
    shape = sl_fit.gen5_reference_shape()
    est, binding = sl_est.estimate_full_scan(shape, 20.0)
    assert est.p10 <= est.p50 <= est.p90 and est.unit == "s"
    assert est.p10 < est.p90  # the parameters are uncertain
    assert binding in sl.BINDING_NAMES
    assert sl_est.estimate_full_scan(shape, 20.0) == (est, binding)
    again, _ = sl_est.estimate_full_scan(shape, 20.0, seed=12345)
    assert again != est and again.p50 == pytest.approx(est.p50, rel=0.05)
    point_s = float(sl.full_scan_seconds(shape, 20.0, _p()).value)
    assert est.p10 <= point_s <= est.p90
    for e, unit in (
        (sl_est.estimate_load(shape)[0], "TB/h"),
        (sl_est.estimate_queries_per_hour(shape, 20.0, 15)[0], "queries/h"),
    ):
        assert e.p10 <= e.p50 <= e.p90 and e.unit == unit


def test_estimates_take_one_design() -> None:
    shape, _ = _random_shapes(3)
    with pytest.raises(ValueError):
        sl_est.estimate_full_scan(shape, 1.0)

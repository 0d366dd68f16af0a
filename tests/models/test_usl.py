"""USL fitting, the study calibrations and Greenplum 6 hardware scaling."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure, point
from models.model_card import all_cards
from models.perf.usl import (
    BINDING_COORDINATOR,
    BINDING_SEGMENT_CPU,
    BINDING_SEGMENT_WRITES,
    CALIBRATED_WORKLOADS,
    MIXES,
    UslFitError,
    calibrated,
    fit_usl,
    predict_tps,
    scaling_check,
    usl,
)

TRUE = {"lambda": 1200.0, "sigma": 0.03, "kappa": 0.0005}
N_GRID = np.array([1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128], dtype=float)


def _synthetic(noise: float, seed: int) -> np.ndarray:
    clean = usl(N_GRID, TRUE["lambda"], TRUE["sigma"], TRUE["kappa"])
    return clean * (1.0 + noise * np.random.default_rng(seed).standard_normal(N_GRID.size))


# ------------------------------------------------------------------ fitting


def test_fit_recovers_exact_parameters_without_noise() -> None:
    fit = fit_usl(N_GRID, _synthetic(0.0, 0))
    assert fit.lam == pytest.approx(TRUE["lambda"], rel=1e-6)
    assert fit.sigma == pytest.approx(TRUE["sigma"], rel=1e-5)
    assert fit.kappa == pytest.approx(TRUE["kappa"], rel=1e-5)
    assert fit.r2 == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fit_recovers_known_parameters_within_interval(seed: int) -> None:
    fit = fit_usl(N_GRID, _synthetic(0.02, seed))
    for name, true in TRUE.items():
        lo_hi = fit.intervals[name]
        assert lo_hi is not None
        lo, hi = lo_hi
        assert lo <= true <= hi, f"{name}: {true} outside [{lo}, {hi}]"
        assert lo < fit.params[name] < hi
    assert fit.r2 > 0.98
    assert fit.cov is not None and fit.cov.shape == (3, 3)


def test_peak_is_the_usl_formula_and_a_maximum() -> None:
    fit = fit_usl(N_GRID, _synthetic(0.0, 0))
    expected = math.sqrt((1 - fit.sigma) / fit.kappa)
    assert fit.peak_clients == pytest.approx(expected)
    assert fit.peak_within_data and fit.peak_note == ""
    assert fit.peak_throughput >= fit.throughput(expected * 0.9)
    assert fit.peak_throughput >= fit.throughput(expected * 1.1)


def test_no_coherency_term_reports_largest_measured_n() -> None:
    n = np.array([1, 2, 4, 8, 16, 32], dtype=float)
    fit = fit_usl(n, usl(n, 500.0, 0.1, 0.0))
    assert fit.kappa == pytest.approx(0.0, abs=1e-9)
    assert fit.peak_clients == 32.0
    assert "largest measured" in fit.peak_note
    assert fit.peak_throughput == pytest.approx(float(usl(32.0, 500.0, 0.1, 0.0)), rel=1e-4)


def test_throughput_is_vectorized() -> None:
    fit = fit_usl(N_GRID, _synthetic(0.0, 0))
    grid = np.array([[1.0, 2.0], [3.0, 4.0]])
    out = fit.throughput(grid)
    assert isinstance(out, np.ndarray) and out.shape == (2, 2)
    assert out[1, 1] == pytest.approx(fit.throughput(4.0))
    assert isinstance(fit.throughput(4), float)


def test_three_points_fit_without_covariance() -> None:
    fit = fit_usl([1, 8, 32], [1000, 6000, 9000])
    assert fit.cov is None
    assert all(v is None for v in fit.intervals.values())
    assert "degrees of freedom" in fit.covariance_note
    est = fit.estimate(8)
    assert est.p10 == est.p50 == est.p90


@pytest.mark.parametrize(
    ("clients", "throughput", "message"),
    [
        ([1, 2], [10, 20], "at least 3 points"),
        ([1, 2, 4], [10, 20], "differ in length"),
        ([1, 2, 0], [10, 20, 30], "clients must be > 0"),
        ([1, 2, 4], [10, -20, 30], "throughput must be > 0"),
        ([1, 2, 4], [10, float("nan"), 30], "not a finite number"),
        ([1, float("inf"), 4], [10, 20, 30], "not a finite number"),
        ([2, 2, 4, 4], [10, 11, 20, 21], "3 distinct client counts"),
        (["a", 2, 4], [10, 20, 30], "must be numbers"),
    ],
)
def test_fit_rejects_bad_input(clients: list, throughput: list, message: str) -> None:
    with pytest.raises(UslFitError, match=message):
        fit_usl(clients, throughput)


def test_fit_reports_non_convergence() -> None:
    with pytest.raises(UslFitError, match="did not converge"):
        fit_usl(N_GRID, _synthetic(0.02, 1), max_evaluations=1)


# ------------------------------------------------------------------ estimates


def test_estimate_is_seeded_and_vectorized() -> None:
    fit = calibrated("gp6-select")
    a = fit.estimate(np.array([10.0, 100.0, 200.0]))
    b = fit.estimate(np.array([10.0, 100.0, 200.0]))
    assert np.array_equal(a.p50, b.p50)
    assert a.p50.shape == (3,)
    assert a.unit == "TPS"
    # Truncating the draws to the USL domain keeps the median near the fit at the peak.
    assert a.p50[2] == pytest.approx(fit.throughput(200.0), rel=0.05)


@settings(max_examples=40, deadline=None)
@given(
    workload=st.sampled_from(CALIBRATED_WORKLOADS),
    n=st.floats(min_value=1.0, max_value=1000.0, allow_nan=False),
)
def test_estimate_percentiles_are_ordered(workload: str, n: float) -> None:
    est = calibrated(workload).estimate(n, samples=500)  # type: ignore[arg-type]
    assert est.p10 <= est.p50 <= est.p90


# ------------------------------------------------------------------ calibrations


@pytest.mark.parametrize("workload", [w for w in CALIBRATED_WORKLOADS if w.startswith("gp")])
def test_calibration_reproduces_published_peak(workload: str) -> None:
    ver, mix = workload.split("-")
    published = figure("gp6_oltp_004", f"{ver}_{mix}_peak_tps")
    fit = calibrated(workload)  # type: ignore[arg-type]
    assert fit.peak_throughput == pytest.approx(published, rel=0.05)
    assert fit.peak_clients <= figure("gp6_oltp_004", "clients_max")
    if "serialized" not in fit.peak_note:  # a flat (serialized) curve peaks from the first client
        assert fit.peak_clients >= figure("gp6_oltp_004", "clients_min")


@pytest.mark.parametrize("mix", MIXES)
def test_gp6_over_gp5_matches_quoted_factor(mix: str) -> None:
    ratio = calibrated(f"gp6-{mix}").peak_throughput / calibrated(f"gp5-{mix}").peak_throughput  # type: ignore[arg-type]
    assert ratio == pytest.approx(figure("gp6_oltp_004", f"gp6_vs_gp5_{mix}"), rel=0.05)


def test_gp6_insert_declines_past_its_peak() -> None:
    fit = calibrated("gp6-insert")
    assert fit.kappa > 0 and fit.peak_within_data
    assert fit.throughput(200.0) < 0.95 * fit.peak_throughput


@pytest.mark.parametrize("workload", ["gp5-tpcb", "gp5-update"])
def test_gp5_serialized_writes_are_flat(workload: str) -> None:
    fit = calibrated(workload)  # type: ignore[arg-type]
    assert fit.throughput(10.0) == pytest.approx(fit.throughput(200.0), rel=0.01)
    assert "serialized" in fit.peak_note


def test_pg92_select_is_linear_to_20_clients() -> None:
    fit = calibrated("pg92-select")
    linear_to = figure("pg_vfabric_001", "pg92_select_linear_clients")
    assert fit.throughput(linear_to) / linear_to >= 0.9 * fit.throughput(1.0)
    assert fit.unit == "x single-client TPS"


def test_pg92_tpcb_and_unknown_workloads_are_refused() -> None:
    with pytest.raises(ValueError, match="lower bound"):
        calibrated("pg92-tpcb")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown workload"):
        calibrated("mysql-select")  # type: ignore[arg-type]


def test_usl_cards_meet_target_or_say_why() -> None:
    cards = {c.name: c for c in all_cards() if c.name.startswith("usl-")}
    assert set(cards) == {f"usl-{w}" for w in CALIBRATED_WORKLOADS}
    for card in cards.values():
        assert card.residuals
        assert card.mape_pct <= 5.0 or "MAPE" in card.note
        assert all(s for s in card.sources)
    assert cards["usl-gp6-select"].extra["scaling_check"]["validated"] is False


# ------------------------------------------------------------------ hardware scaling


def _reference_cores() -> float:
    return scaling_check()["implied_reference_master_cores"]["share"]


def test_reference_cluster_reproduces_the_study() -> None:
    cores = _reference_cores()
    for mix in MIXES:
        ver_peak = figure("gp6_oltp_004", f"gp6_{mix}_peak_tps")
        # A big enough coordinator leaves the 4 segment hosts binding for writes (r = 1).
        c = cores if mix == "select" else cores * 10
        pred = predict_tps(mix, calibrated(f"gp6-{mix}").peak_clients, c, 4, 1000, n=0)  # type: ignore[arg-type]
        assert pred.estimate.p50 == pytest.approx(ver_peak, rel=0.05), mix
        assert pred.capacity_ratio == pytest.approx(1.0)


def test_192_core_figure_sets_coordinator_throughput() -> None:
    share = point("gp6_oltp_004", "coordinator_cpu_share_select").value
    cores = figure("gp6_oltp_004", "env192_cores")
    # The 192-core box as a coordinator of share x 192 cores and segments of the rest.
    pred = predict_tps("select", 10_000, cores * share, 1, cores * (1 - share), n=0)
    r = pred.capacity_ratio
    assert r * calibrated("gp6-select").peak_throughput == pytest.approx(figure("gp6_oltp_004", "env192_select_tps"))


def test_binding_resource() -> None:
    assert predict_tps("select", 100, 8, 16, 32, n=0).binding_resource == BINDING_COORDINATOR
    assert predict_tps("select", 100, 512, 1, 4, n=0).binding_resource == BINDING_SEGMENT_CPU
    assert predict_tps("update", 100, 64, 4, 16, n=0).binding_resource == BINDING_SEGMENT_WRITES
    assert predict_tps("tpcb", 100, 1, 64, 16, n=0).binding_resource == BINDING_COORDINATOR
    mixed = predict_tps("select", 100, np.array([2.0, 512.0]), 1, 4, n=0).binding_resource
    assert list(mixed) == [BINDING_COORDINATOR, BINDING_SEGMENT_CPU]


def test_predict_tps_broadcasts() -> None:
    clients = np.array([[10.0], [100.0], [200.0]])
    cores = np.array([16.0, 32.0, 64.0, 96.0])
    pred = predict_tps("select", clients, cores, 8, 32, n=1000)
    for arr in (pred.estimate.p10, pred.estimate.p50, pred.estimate.p90):
        assert arr.shape == (3, 4)
    assert np.all(pred.estimate.p10 <= pred.estimate.p50)
    assert np.all(pred.estimate.p50 <= pred.estimate.p90)
    assert np.shape(pred.peak_clients) == (3, 4)
    scalar = predict_tps("select", 100, 32, 8, 32)
    assert isinstance(scalar.estimate.p50, float) and isinstance(scalar.binding_resource, str)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"clients": 0},
        {"coordinator_cores": -1},
        {"segment_hosts": float("nan")},
        {"segment_cores_per_host": 0},
    ],
)
def test_predict_tps_rejects_bad_hardware(kwargs: dict) -> None:
    args = {"clients": 50, "coordinator_cores": 32, "segment_hosts": 4, "segment_cores_per_host": 16} | kwargs
    with pytest.raises(ValueError):
        predict_tps("select", **args)


def test_predict_tps_rejects_unknown_mix() -> None:
    with pytest.raises(ValueError, match="unknown mix"):
        predict_tps("delete", 50, 32, 4, 16)  # type: ignore[arg-type]


hardware = st.tuples(
    st.floats(min_value=1.0, max_value=400.0),  # clients
    st.floats(min_value=1.0, max_value=256.0),  # coordinator cores
    st.integers(min_value=1, max_value=64),  # segment hosts
    st.floats(min_value=1.0, max_value=128.0),  # cores per segment host
)


@settings(max_examples=60, deadline=None)
@given(mix=st.sampled_from(MIXES), hw=hardware, more=st.floats(min_value=1.0, max_value=8.0))
def test_more_hardware_never_lowers_throughput(mix: str, hw: tuple, more: float) -> None:
    clients, cores, hosts, seg_cores = hw
    base = predict_tps(mix, clients, cores, hosts, seg_cores, n=200)  # type: ignore[arg-type]
    for bigger in (
        predict_tps(mix, clients, cores * more, hosts, seg_cores, n=200),  # type: ignore[arg-type]
        predict_tps(mix, clients, cores, hosts * more, seg_cores, n=200),  # type: ignore[arg-type]
        predict_tps(mix, clients, cores, hosts, seg_cores * more, n=200),  # type: ignore[arg-type]
    ):
        for q in ("p10", "p50", "p90"):
            assert getattr(bigger.estimate, q) >= getattr(base.estimate, q) * (1 - 1e-9)


@settings(max_examples=60, deadline=None)
@given(mix=st.sampled_from(MIXES), hw=hardware)
def test_prediction_percentiles_are_ordered(mix: str, hw: tuple) -> None:
    est = predict_tps(mix, *hw, n=300).estimate  # type: ignore[arg-type]
    assert 0 < est.p10 <= est.p50 <= est.p90

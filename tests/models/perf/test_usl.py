"""USL fitting and estimates: the generic law, on synthetic curves and the calibrated ones."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.perf.usl import UslFitError, fit_usl, usl
from models.perf.usl_calibration import CALIBRATED_WORKLOADS, calibrated

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




def test_residuals_and_the_peak_flag_tell_a_short_sweep_from_one_past_its_peak() -> None:
    lam, sigma, kappa = 1000.0, 0.03, 0.0005  # N* = sqrt(0.97 / 0.0005) = 44
    past = [1, 4, 8, 16, 32, 48, 64, 96]
    noise = np.array([1.01, 0.99, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0])
    fit = fit_usl(past, usl(np.array(past), lam, sigma, kappa) * noise)
    assert fit.peak_placed and fit.peak_within_data
    res = fit.relative_residuals()
    assert res.shape == (8,) and np.allclose(res, (fit.predicted() - fit.observed) / fit.observed)
    assert 0.005 < fit.rms_relative_error < 0.03
    rng = fit.peak_clients_range()
    assert rng is not None and rng[0] < fit.usl_peak_clients < rng[1]
    short = fit_usl(past[:4], usl(np.array(past[:4]), lam, sigma, kappa) * noise[:4])
    assert not short.peak_placed and short.peak_clients == 16
    doc = short.summary()
    assert doc["peak_placed"] is False and len(doc["residuals"]) == 4
    assert doc["residuals"][0]["clients"] == 1.0 and doc["rms_relative_error"] == short.rms_relative_error

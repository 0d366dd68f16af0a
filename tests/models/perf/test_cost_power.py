"""Host power, energy, price/performance, and study 002's cost claim as a check."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.calibration_data import figure
from models.perf import cost_power as cp
from models.perf.cards import all_cards

G2 = cp.GP002


def test_host_power_is_linear_in_utilization_plus_parts() -> None:
    idle, peak, drives, drive_w, nics, nic_w = 150.0, 550.0, 8, 25.0, 2, 20.0
    parts = drives * drive_w + nics * nic_w
    assert float(cp.host_power_w(idle, peak, 0.0, drives, drive_w, nics, nic_w)) == idle + parts
    assert float(cp.host_power_w(idle, peak, 1.0, drives, drive_w, nics, nic_w)) == peak + parts
    half = float(cp.host_power_w(idle, peak, 0.5, drives, drive_w, nics, nic_w))
    assert half == pytest.approx((idle + peak) / 2 + parts)
    # Utilization outside [0, 1] is clipped, not extrapolated.
    assert float(cp.host_power_w(idle, peak, 1.7, drives, drive_w, nics, nic_w)) == peak + parts
    assert float(cp.host_power_w(idle, peak, -0.2, drives, drive_w, nics, nic_w)) == idle + parts


def test_host_power_vectorizes() -> None:
    util = np.linspace(0, 1, 11)
    drives = np.arange(11)
    out = cp.host_power_w(100.0, 400.0, util, drives, 10.0, 2, 15.0)
    assert out.shape == (11,)
    for i in range(11):
        assert out[i] == pytest.approx(float(cp.host_power_w(100.0, 400.0, util[i], drives[i], 10.0, 2, 15.0)))


@given(st.floats(0, 2000), st.floats(0, 2000), st.floats(0, 1), st.floats(0, 1), st.integers(0, 48), st.floats(0, 30))
def test_more_utilization_never_draws_less(idle: float, extra: float, u1: float, u2: float, d: int, dw: float) -> None:
    lo, hi = sorted((u1, u2))
    peak = idle + extra
    assert cp.host_power_w(idle, peak, hi, d, dw, 1, 10.0) >= cp.host_power_w(idle, peak, lo, d, dw, 1, 10.0) - 1e-9


def test_energy() -> None:
    assert float(cp.annual_kwh(1000.0)) == pytest.approx(8760.0)
    assert float(cp.annual_kwh(500.0, hours=1000)) == pytest.approx(500.0)
    assert float(cp.energy_cost(8760.0, 0.2, 3)) == pytest.approx(8760.0 * 0.2 * 3)
    kwh = cp.annual_kwh(np.array([100.0, 200.0]))
    assert kwh[1] == pytest.approx(2 * kwh[0])


def test_perf_per_dollar_and_watt() -> None:
    assert float(cp.perf_per_dollar(100.0, 50.0)) == 2.0
    assert float(cp.perf_per_watt(300.0, 150.0)) == 2.0
    out = cp.perf_per_dollar(np.array([10.0, 10.0]), np.array([5.0, 0.0]))
    assert out[0] == 2.0 and np.isnan(out[1])


def test_cost_ratio_check_against_the_study_claim() -> None:
    claim = figure(G2, "gen5_cost_ratio")
    exact = cp.cost_ratio_check(claim * 1000.0, 1000.0)
    assert exact.observed == claim and exact.pct_err == pytest.approx(0.0)
    dearer = cp.cost_ratio_check(900.0, 1000.0)
    assert dearer.predicted == pytest.approx(0.9) and dearer.pct_err > 0
    with pytest.raises(ValueError):
        cp.cost_ratio_check(0.0, 1000.0)


def test_cost_comparison_spec_is_table3() -> None:
    spec = cp.cost_comparison_spec()
    assert spec["gen5"]["sockets"] == 1 and spec["baseline"]["sockets"] == 2
    assert spec["gen5"]["cores_total"] == spec["baseline"]["cores_total"]
    assert spec["gen5"]["memory_gb"] == spec["baseline"]["memory_gb"]
    assert (spec["gen5"]["data_drives"], spec["baseline"]["data_drives"]) == (
        figure(G2, "cost_gen5_drives"),
        figure(G2, "cost_baseline_drives"),
    )


def test_cost_card() -> None:
    names = {c.name for c in all_cards()}
    assert "gp-cost-power" in names
    bare = cp.cost_power_card()
    assert bare.points == 0 and "BOM" in bare.note
    priced = cp.cost_power_card(7_000.0, 10_000.0)
    assert priced.points == 1 and priced.mape_pct == pytest.approx(0.0)
    assert cp.cost_power_card(8_000.0, 10_000.0).mape_pct > 0

"""SAP IQ DQP model: Table 3 reproduced, mode advantage, scaling and ranges behave."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.perf import sap_iq, sap_iq_card
from models.perf.sap_iq import (
    DATASET,
    DQP_MODES,
    NETWORK,
    STORAGE,
    mode_advantage,
    predict_iq,
    predict_power_metric,
    predict_throughput_metric,
)
from tests.models.sap_iq_study import KEY, NODES, QUERIES, S6, SF, VCPUS
from tests.models.sap_iq_study import interval_s as _interval_s

# ----------------------------------------------------------------- Table 3 reproduced


@pytest.mark.parametrize("mode", DQP_MODES)
def test_table3_power_reproduced(mode: str) -> None:
    observed = figure(DATASET, f"power_{KEY[mode]}_qpph")
    exact = predict_power_metric(mode, NODES, VCPUS, samples=0)
    assert exact.p50 == pytest.approx(observed, rel=1e-3)
    mc = predict_power_metric(mode, NODES, VCPUS)
    assert mc.p50 == pytest.approx(observed, rel=0.02)
    assert mc.p10 < observed < mc.p90


@pytest.mark.parametrize("mode", DQP_MODES)
def test_table3_throughput_and_interval_reproduced(mode: str) -> None:
    observed = figure(DATASET, f"throughput_{KEY[mode]}_qthh")
    est = predict_throughput_metric(mode, NODES, S6, VCPUS, samples=0)
    assert est.p50 == pytest.approx(observed, rel=1e-3)
    interval = figure(DATASET, f"throughput_interval_{KEY[mode]}_s")
    assert _interval_s(est.p50) == pytest.approx(interval, rel=1e-3)
    mc = predict_throughput_metric(mode, NODES, S6, VCPUS)
    assert mc.p10 < observed < mc.p90


def test_single_stream_throughput_is_the_power_run() -> None:
    """At one stream the throughput metric is the power test's stream read as a throughput run."""
    for mode in DQP_MODES:
        elapsed_s = figure(DATASET, f"power_elapsed_{KEY[mode]}_ms") / 1000
        expected = QUERIES * 3600 * SF / elapsed_s
        assert sap_iq.throughput_at(mode, 1) == pytest.approx(expected, rel=1e-9)


def test_the_texts_percentages_match_table3() -> None:
    """The prose figures are consistent with Table 3 (as ratios against network-transfer where noted)."""
    e_sto, e_net = figure(DATASET, "power_elapsed_storage_ms"), figure(DATASET, "power_elapsed_network_ms")
    assert 100 * (e_net / e_sto - 1) == pytest.approx(figure(DATASET, "power_elapsed_longer_network_pct"), abs=1.0)
    p_sto, p_net = figure(DATASET, "power_storage_qpph"), figure(DATASET, "power_network_qpph")
    assert 100 * (p_sto / p_net - 1) == pytest.approx(figure(DATASET, "power_metric_drop_network_pct"), abs=0.5)
    t_sto, t_net = figure(DATASET, "throughput_interval_storage_s"), figure(DATASET, "throughput_interval_network_s")
    assert 100 * (t_sto / t_net - 1) == pytest.approx(figure(DATASET, "throughput_time_less_network_pct"), abs=0.1)


# ----------------------------------------------------------------- mode advantage


def test_mode_advantage_at_measurements() -> None:
    e_sto, e_net = figure(DATASET, "power_elapsed_storage_ms"), figure(DATASET, "power_elapsed_network_ms")
    assert mode_advantage(1) == pytest.approx(e_sto / e_net)
    t_sto, t_net = figure(DATASET, "throughput_storage_qthh"), figure(DATASET, "throughput_network_qthh")
    assert mode_advantage(S6) == pytest.approx(t_net / t_sto)


def test_mode_advantage_grows_then_holds() -> None:
    s = np.arange(1, 4 * S6 + 1)
    adv = np.asarray(mode_advantage(s))
    assert adv.shape == s.shape
    assert np.all(np.diff(adv[:S6]) > 0)
    assert np.allclose(adv[S6 - 1 :], adv[S6 - 1])


# ----------------------------------------------------------------- scaling, broadcasting, ranges


@pytest.mark.parametrize("mode", DQP_MODES)
def test_near_linear_core_scaling(mode: str) -> None:
    base = predict_power_metric(mode, NODES, VCPUS).p50
    double_nodes = predict_power_metric(mode, 2 * NODES, VCPUS).p50
    double_cores = predict_power_metric(mode, NODES, 2 * VCPUS).p50
    lo, hi = 2**sap_iq.CORE_SCALING_EXPONENT.low, 2**sap_iq.CORE_SCALING_EXPONENT.high
    assert lo * 0.99 <= double_nodes / base <= hi * 1.01
    assert double_cores == pytest.approx(double_nodes)


def test_arrays_broadcast_and_match_scalar_calls() -> None:
    nodes = np.array([2, 4, 8, 16])
    streams = np.array([[1], [6], [20]])
    est = predict_throughput_metric(NETWORK, nodes, streams)
    assert np.shape(est.p50) == (3, 4)
    for i, s in enumerate((1, 6, 20)):
        for j, n in enumerate(nodes):
            one = predict_throughput_metric(NETWORK, int(n), s)
            assert est.p50[i][j] == pytest.approx(one.p50)
            assert est.p10[i][j] == pytest.approx(one.p10)


def test_point_prediction_with_arrays() -> None:
    est = predict_power_metric(STORAGE, np.array([4, 8]), samples=0)
    assert np.allclose(est.p10, est.p90)
    assert np.shape(est.p50) == (2,)


def test_seeded_and_reproducible() -> None:
    a = predict_throughput_metric(STORAGE, 6, 9)
    b = predict_throughput_metric(STORAGE, 6, 9)
    assert a == b
    c = predict_throughput_metric(STORAGE, 6, 9, seed=1)
    assert c != a


def test_beyond_measured_streams_widens_but_holds_level() -> None:
    at6 = predict_throughput_metric(NETWORK, NODES, S6)
    at24 = predict_throughput_metric(NETWORK, NODES, 4 * S6)
    assert at24.p50 == pytest.approx(at6.p50, rel=0.02)
    assert (at24.p90 - at24.p10) > 1.5 * (at6.p90 - at6.p10)


@settings(max_examples=40, deadline=None)
@given(
    mode=st.sampled_from(DQP_MODES),
    nodes=st.integers(1, 64),
    streams=st.integers(1, 200),
    cores=st.integers(1, 256),
)
def test_ranges_are_ordered_and_positive(mode: str, nodes: int, streams: int, cores: int) -> None:
    pred = predict_iq(mode, nodes, streams, cores, samples=500)
    for est in (pred.power, pred.throughput):
        assert 0 < est.p10 <= est.p50 <= est.p90
        assert math.isfinite(est.p90)


@pytest.mark.parametrize(
    ("mode", "nodes", "streams", "cores"),
    [("shared-disk", 4, 6, 14), (STORAGE, 0, 6, 14), (STORAGE, 4, 0, 14), (STORAGE, 4, 6, 0), (STORAGE, 4, 6, np.nan)],
)
def test_bad_inputs_raise(mode: str, nodes: int, streams: int, cores: float) -> None:
    with pytest.raises(ValueError):
        predict_throughput_metric(mode, nodes, streams, cores)


def test_binding_resource_follows_the_study() -> None:
    assert predict_iq(STORAGE, NODES, 1, samples=0).binding_resource == "cpu"
    assert predict_iq(STORAGE, NODES, S6, samples=0).binding_resource == "storage"
    assert predict_iq(NETWORK, NODES, S6, samples=0).binding_resource == "cpu"
    slow = figure(DATASET, "dqp_network_gbps") / 10
    assert predict_iq(NETWORK, NODES, S6, dqp_network_gbps=slow, samples=0).binding_resource == "dqp-network"


def test_extrapolation_is_flagged() -> None:
    assert not predict_iq(NETWORK, NODES, S6, VCPUS, samples=0).extrapolated
    assert predict_iq(NETWORK, NODES, S6 + 1, VCPUS, samples=0).extrapolated
    assert predict_iq(NETWORK, 2 * NODES, S6, VCPUS, samples=0).extrapolated


# ----------------------------------------------------------------- model card


def test_card_reports_table3_fit() -> None:
    card = sap_iq_card.card()
    assert card.name == "sap-iq-dqp"
    assert card.points >= 6
    assert card.max_abs_pct_err < 0.1
    ids = {r.point_id for r in card.residuals}
    for mode in DQP_MODES:
        assert f"power_{KEY[mode]}_qpph" in ids
        assert f"throughput_{KEY[mode]}_qthh" in ids
    assert "extrapolation" in card.note
    assert all(isinstance(v, float) for v in card.parameters.values())

"""Greenplum 6 TPS on given hardware: the study reproduced, scaling, binding and properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure, point
from models.perf.gp_oltp import (
    BINDING_COORDINATOR,
    BINDING_SEGMENT_CPU,
    BINDING_SEGMENT_WRITES,
    client_ceiling_tps,
    predict_tps,
    scaling_check,
)
from models.perf.usl_calibration import calibrated
from models.vocabulary import OLTP_MIXES as MIXES
from models.vocabulary import OltpMix

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


@settings(max_examples=200, deadline=None)
@given(
    mix=st.sampled_from(["tpcb", "select", "update", "insert"]), clients=st.integers(1, 5000),
    coordinator_cores=st.integers(1, 512), hosts=st.integers(1, 1000), cores=st.integers(1, 512),
)
def test_no_hardware_lifts_tps_above_the_clients_ceiling(
    mix: OltpMix, clients: int, coordinator_cores: int, hosts: int, cores: int
) -> None:
    """Each client runs one transaction at a time: TPS never exceeds clients x the single-client rate."""
    tps = float(predict_tps(mix, clients, coordinator_cores, hosts, cores, n=0).estimate.p50)
    assert tps <= float(client_ceiling_tps(mix, clients)) * (1 + 1e-9)

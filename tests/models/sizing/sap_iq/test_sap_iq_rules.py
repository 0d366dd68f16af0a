"""SAP IQ sizing decisions: the study's DQP mode choice, the cache split and the node count."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from models.calibration_data import figure, point
from models.perf import sap_iq
from models.perf.sap_iq import (
    DATASET,
    NETWORK,
    STORAGE,
    mode_advantage,
    predict_throughput_metric,
)
from models.sizing.sap_iq import rules as sap_iq_rules
from models.sizing.sap_iq.rules import cache_split, recommend_dqp_mode, recommend_nodes
from tests.models.sap_iq_study import NODES, S6, SF, VCPUS

# ----------------------------------------------------------------- the study's DQP choice


@pytest.mark.parametrize("point_id", ["dqp_choice_single_stream", "dqp_choice_concurrent"])
def test_study_dqp_choice_is_reproduced(point_id: str) -> None:
    p = point(DATASET, point_id)
    choice = recommend_dqp_mode(int(p.value))
    assert choice.mode == p.conditions["favoured_mode"]
    assert "003_4970b14b1c56345f.txt" in choice.source
    assert choice.reason


def test_one_stream_storage_six_streams_network() -> None:
    assert recommend_dqp_mode(1).mode == STORAGE
    assert recommend_dqp_mode(6).mode == NETWORK
    assert recommend_dqp_mode(60).mode == NETWORK


def test_choice_flips_once_between_measurements() -> None:
    modes = [recommend_dqp_mode(s).mode for s in range(1, 3 * S6)]
    flips = sum(a != b for a, b in itertools.pairwise(modes))
    assert flips == 1
    assert 1 < sap_iq.crossover_streams() < S6


def test_choice_agrees_with_mode_advantage() -> None:
    for s in range(1, 12):
        choice = recommend_dqp_mode(s)
        assert (choice.mode == NETWORK) == (mode_advantage(s) > 1.0)
        assert choice.network_advantage == pytest.approx(mode_advantage(s))


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "6"])
def test_choice_rejects_non_stream_counts(bad: object) -> None:
    with pytest.raises(ValueError):
        recommend_dqp_mode(bad)  # type: ignore[arg-type]


# ----------------------------------------------------------------- cache split


def test_cache_split_scales_with_memory() -> None:
    vm = figure(DATASET, "vm_memory_gib")
    main, temp, reason, source = cache_split(vm)
    share = figure(DATASET, "iq_memory_share_of_ram")
    assert main == pytest.approx(vm * share * figure(DATASET, "iq_cache_fraction_main"))
    assert temp == pytest.approx(vm * share * figure(DATASET, "iq_cache_fraction_temp"))
    assert main + temp < vm
    big = cache_split(4 * vm)
    assert big.main_cache_gib == pytest.approx(4 * main)
    assert "003_4970b14b1c56345f.txt" in source
    assert "-iqmc" in reason


def test_cache_split_arrays() -> None:
    split = cache_split(np.array([64.0, 512.0]))
    assert np.shape(split.main_cache_gib) == (2,)
    with pytest.raises(ValueError):
        cache_split(-1)


# ----------------------------------------------------------------- node count


def test_recommend_nodes_gives_the_test_bed_for_its_workload() -> None:
    nodes, reason = recommend_nodes(SF / 1000, S6, cores_per_node=VCPUS)
    assert nodes == NODES
    assert "Virtual SAN" in reason


def test_recommend_nodes_floors_and_monotonicity() -> None:
    assert recommend_nodes(0.01, 1).nodes == int(figure(DATASET, "vsan_min_hosts"))
    assert recommend_nodes(0.01, 1, vsan=False).nodes == sap_iq_rules.MIN_DQP_NODES
    by_streams = [recommend_nodes(1, s).nodes for s in (1, 6, 12, 48)]
    assert by_streams == sorted(by_streams)
    by_data = [recommend_nodes(d, 6).nodes for d in (1, 10, 50, 200)]
    assert by_data == sorted(by_data)
    assert recommend_nodes(1, 24, cores_per_node=4 * VCPUS).nodes < recommend_nodes(1, 24).nodes


def test_recommend_nodes_meets_a_throughput_target() -> None:
    target = 3 * figure(DATASET, "throughput_network_qthh")
    nodes, reason = recommend_nodes(1, S6, target_throughput=target, vsan=False)
    assert predict_throughput_metric(NETWORK, nodes, S6, samples=0).p50 >= target
    assert predict_throughput_metric(NETWORK, nodes - 1, S6, samples=0).p50 < target
    assert "Throughput@Size" in reason


def test_recommend_nodes_warns_past_the_vsan_limit() -> None:
    nodes, reason = recommend_nodes(500, 6)
    assert nodes > figure(DATASET, "vsan_max_hosts")
    assert "exceed" in reason

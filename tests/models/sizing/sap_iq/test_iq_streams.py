"""Runaway query streams bounded (issue 28 item 6): the multiplex grows for its streams' share only to
`streams.node_cap()` nodes; beyond, it stops there and reports the best it achieves and what binds, as a Greenplum
target out of reach does (achievable, hosts_for_achievable, binding)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.sap_iq.failure import study_cores_per_stream
from models.sizing.sap_iq.streams import node_cap
from tests.models.sizing.conftest import sample

FREE = {"server_id": None, "drive_id": None, "nic_id": None}


def test_500_streams_on_20_tb_stop_at_the_cap_with_the_achievable_best(catalog: HardwareCatalog) -> None:
    """Before: 45 nodes and 71.7 M USD, with no word that the streams' share drove it."""
    r = size(sample("sap-iq", workload={"data_tb": 20, "compression_ratio": 1, "query_streams": 500},
                    platform=FREE), catalog)
    assert r.design.segment_hosts == node_cap() == 32
    assert r.iq is not None and r.iq.streams_bound is not None
    b = r.iq.streams_bound
    assert b.nodes_needed > node_cap() and b.hosts_for_achievable == r.design.segment_hosts
    assert b.achievable == r.estimates["throughput_metric"].p50 and b.unit == "QthH@Size"
    assert b.binding == r.binding_resource
    assert b.cores_per_stream < b.cores_per_stream_needed == study_cores_per_stream()
    w = next(x for x in r.warnings if x.code == "nodes-capped")
    assert w.severity == "critical" and f"{b.nodes_needed} nodes" in w.text and "at most 32 nodes" in w.text
    assert r.to_dict()["iq"]["streams_bound"]["hosts_for_achievable"] == 32


def test_a_stated_node_count_is_kept_beyond_the_cap(catalog: HardwareCatalog) -> None:
    r = size(sample("sap-iq", workload={"query_streams": 500, "nodes": 40}), catalog)
    assert r.design.segment_hosts == 40
    assert r.iq is not None and r.iq.streams_bound is None
    assert "nodes-capped" not in {w.code for w in r.warnings}


@settings(max_examples=6, deadline=None)
@given(streams=st.integers(1, 500), data_tb=st.sampled_from([1.0, 5.0, 20.0]))
def test_any_stream_count_gets_its_share_or_the_bound(catalog: HardwareCatalog, streams: int, data_tb: float) -> None:
    r = size(sample("sap-iq", workload={"query_streams": streams, "data_tb": data_tb}), catalog)
    assert r.iq is not None
    cores = r.design.segment_hosts * r.iq.study_equivalent_cores_per_node
    if r.iq.streams_bound is None:
        assert cores / streams >= study_cores_per_stream() - 0.05
    else:
        assert r.design.segment_hosts >= node_cap()
        assert r.iq.streams_bound.hosts_for_achievable == r.design.segment_hosts

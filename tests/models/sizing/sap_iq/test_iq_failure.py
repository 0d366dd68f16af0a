"""SAP IQ multiplex after one node (on vSAN: one host) fails: streams per node, throughput kept, warnings."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.perf import sap_iq
from models.references import unresolved
from models.sizing.engine import size
from models.sizing.result import SizingResult
from models.sizing.sap_iq.failure import study_cores_per_stream
from tests.models.sizing.conftest import sample

FAILURE = "Node failure (n-1)"


def _why(r: SizingResult) -> str:
    [text] = [x.text for x in r.rationale if x.decision == FAILURE]
    return text


def _codes(r: SizingResult) -> dict[str, tuple[str, str | None]]:
    return {w.code: (w.severity, w.field) for w in r.warnings}


def test_study_cluster_sized_for_its_streams_warns_that_one_failure_leaves_them_short(
        catalog: HardwareCatalog) -> None:
    """Study 003's 4 nodes give 6 streams exactly the study's cores per stream: one node down leaves 3 nodes, 7
    cores per stream, and about (3/4)^beta of the throughput; 5 nodes keep the share through the failure."""
    r = size(sample("sap-iq", workload={"nodes": 4, "data_tb": 0.3, "compression_ratio": 1}), catalog)
    why = _why(r)
    assert "6 query stream(s) run on 3 node(s), 2.0 per node" in why and "below study 003's 9.3" in why
    kept = int(re.search(r"(\d+) % kept", why).group(1))  # type: ignore[union-attr]
    assert round(100 * (3 / 4) ** 1.0) - 1 <= kept <= round(100 * (3 / 4) ** 0.9) + 1
    before = r.estimates["throughput_metric"].p50
    assert f"falls from {before:,.0f}" in why
    nominal = [sap_iq.predict_iq("network-transfer", n, 6, 14.0, samples=0).throughput.p50 for n in (3, 4)]
    after = before * nominal[0] / nominal[1]  # the design's P50 scaled by the model's n-1 over n
    assert f"to {after:,.0f} QthH@Size" in why
    assert _codes(r)["node-failure-streams"] == ("warning", "workload.nodes")
    [w] = [w for w in r.warnings if w.code == "node-failure-streams"]
    assert "5 nodes keep" in w.text
    assert not unresolved(next(x.source for x in r.rationale if x.decision == FAILURE))
    # the coordinator: the designated failover node takes over, then it is one node fewer
    assert "designated failover node" in why and "IQ_SHARED_TEMP" in why
    five = size(sample("sap-iq", workload={"nodes": 5, "data_tb": 0.3, "compression_ratio": 1}), catalog)
    assert "still at least study 003's" in _why(five) and "node-failure-streams" not in _codes(five)


def test_two_nodes_on_a_san_leave_one_node_without_dqp(catalog: HardwareCatalog) -> None:
    r = size(sample("sap-iq", workload={"nodes": 2, "shared_storage": "san", "query_streams": 2}), catalog)
    why = _why(r)
    assert "run on 1 node(s)" in why and "DQP has no worker" in why and "external SAN" in why
    assert _codes(r)["node-failure-streams"] == ("warning", "workload.nodes")
    assert "vsan-no-rebuild-host" not in _codes(r)


def test_one_node_has_no_failover(catalog: HardwareCatalog) -> None:
    r = size(sample("sap-iq", workload={"nodes": 1, "shared_storage": "san", "query_streams": 1}), catalog)
    assert "no failover" in _why(r)
    assert _codes(r)["node-failure-stops"] == ("warning", "workload.nodes")


@pytest.mark.parametrize(("nodes", "policy", "rebuilds"), [(3, "raid1-ftt1", False), (4, "raid1-ftt1", True),
                                                           (6, "raid6-ftt2", False), (7, "raid6-ftt2", True)])
def test_vsan_rebuilds_only_with_the_policys_hosts_left(catalog: HardwareCatalog, nodes: int, policy: str,
                                                        rebuilds: bool) -> None:
    drive = {"drive_id": "dell-900gb-sas-10k-sff" if policy == "raid1-ftt1" else None}  # erasure coding: flash
    r = size(sample("sap-iq", workload={"nodes": nodes, "vsan_policy": policy}, platform=drive), catalog)
    why = _why(r)
    assert "the disks remain available in the event of a single host failure" in why
    assert ("vsan-no-rebuild-host" in _codes(r)) is not rebuilds
    if not rebuilds:
        assert _codes(r)["vsan-no-rebuild-host"] == ("info", "workload.nodes")
        assert ("a second failure meanwhile loses them" in why) is (policy == "raid1-ftt1")
        assert ("tolerate 1 more host failure(s) instead of 2" in why) is (policy == "raid6-ftt2")


@settings(max_examples=8, deadline=None)
@given(streams=st.sampled_from([1, 2, 6, 12, 40]), san=st.booleans(), nodes=st.sampled_from([None, 3, 8]))
def test_a_failure_warning_exactly_when_the_share_held_before_and_not_after(
        catalog: HardwareCatalog, streams: int, san: bool, nodes: int | None) -> None:
    r = size(sample("sap-iq", workload={"query_streams": streams, "nodes": nodes,
                                        "shared_storage": "san" if san else "vsan"}), catalog)
    assert r.iq is not None
    n, eff = r.design.segment_hosts, r.iq.study_equivalent_cores_per_node
    ref = study_cores_per_stream()
    held_before = n * eff / streams >= ref - 1e-6
    held_after = (n - 1) * eff / streams >= ref - 1e-6
    assert ("node-failure-streams" in _codes(r)) is (held_before and not held_after)
    why = _why(r)
    assert f"run on {n - 1} node(s)" in why
    assert ("still at least" in why) is held_after

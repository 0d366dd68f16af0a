"""The estimate-vs-hosts curve runs the design's hardware through the same estimators as `size`."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.sizing.curves import host_counts, main_metric_curve
from models.sizing.engine import size
from tests.models.sizing.conftest import sample


def test_scan_curve_falls_with_hosts_and_passes_through_the_design(catalog: HardwareCatalog) -> None:
    scenario = sample("retail-dw-gen5")
    result = size(scenario, catalog)
    counts = host_counts(result.design.segment_hosts)
    points = dict(main_metric_curve(scenario, catalog, counts, result))
    assert result.design.segment_hosts in points
    assert points[result.design.segment_hosts].p50 == pytest.approx(result.estimates["full_scan_s"].p50)
    p50s = [points[h].p50 for h in sorted(points)]
    assert p50s == sorted(p50s, reverse=True)
    assert all(e.p10 <= e.p50 <= e.p90 for e in points.values())


def test_sap_iq_curve_over_nodes_and_none_for_consolidation(catalog: HardwareCatalog) -> None:
    points = main_metric_curve(sample("sap-iq"), catalog, [2, 3, 4, 8])
    assert [n for n, _ in points] == [3, 4, 8]  # 2 hosts cannot hold a vSAN FTT=1 datastore
    assert points[0][1].p50 < points[-1][1].p50
    assert main_metric_curve(sample("pg-consolidation"), catalog, [1, 2]) == []


def test_host_counts_bracket_the_design() -> None:
    counts = host_counts(20)
    assert counts[0] <= 5 and counts[-1] >= 35 and 20 in counts

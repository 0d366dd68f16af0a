"""The tornado's continuous variant: the main estimate of an analytics design on the host count the data (or the
target on the main estimate) needs, not whole hosts, so +-20 % data moves it the way the data moves."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.continuous import continuous_hosts, continuous_main
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

SERVER = {"server_id": "dell-r6715-16x-e3s-1x-epyc-9455p", "drive_id": "samsung-pm1743-3840gb-e3s"}


def _dw(**workload: object) -> Scenario:
    return sample("retail-dw-gen5", workload={"data_tb": 70, "concurrent_queries": 20, **workload},
                  platform=SERVER, targets={})


def _sized(catalog: HardwareCatalog, s: Scenario) -> SizingResult:
    return size(s, catalog)


def test_data_volume_scales_the_continuous_hosts_and_leaves_the_scan_where_it_was(catalog: HardwareCatalog) -> None:
    """70 TB +-20 % on 48-core flash hosts: 4, 5 and 6 whole hosts; the continuous count follows the data (the
    capacity bound), so the full scan on it is the same at every end, where whole hosts step."""
    results = [_sized(catalog, _dw(data_tb=70 * f)) for f in (0.8, 1.0, 1.2)]
    hosts = [r.design.segment_hosts for r in results]
    assert hosts[0] < hosts[1] < hosts[2]
    cont = [continuous_hosts(r, _dw().workload) for r in results]
    for r, h in zip(results, cont, strict=True):
        assert h is not None and r.design.segment_hosts - 1 < h <= r.design.segment_hosts
    scans = [continuous_main(r, _dw().workload) for r in results]
    assert all(s is not None for s in scans)
    low, base, high = (float(s) for s in scans if s is not None)
    assert low == pytest.approx(base, rel=1e-3) and high == pytest.approx(base, rel=1e-3)
    assert low <= base * (1 + 1e-3)  # -20 % data never scans slower than the base on the continuous count


def test_a_scan_target_sets_the_continuous_count_where_it_is_met_exactly(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", workload={"data_tb": 70, "concurrent_queries": 20}, platform=SERVER,
               targets={"max_full_scan_s": 3000})
    r = _sized(catalog, s)
    (check,) = [c for c in r.target_checks if c.metric == "full_scan_s"]
    scan = continuous_main(r, s.workload)
    assert scan is not None and check.status == "met"
    assert scan == pytest.approx(r.estimates["full_scan_s"].p50 * check.limit / check.estimate, rel=1e-9)
    assert scan <= check.limit * (1 + 1e-9) or continuous_hosts(r, s.workload) == r.design.segment_hosts


def test_the_mirroring_floor_and_oltp_keep_whole_hosts(catalog: HardwareCatalog) -> None:
    small = _dw(data_tb=5)  # group mirroring needs 2 hosts whatever the data
    r = _sized(catalog, small)
    assert r.design.segment_hosts == 2 and continuous_hosts(r, small.workload) == 2.0
    assert continuous_main(r, small.workload) == pytest.approx(r.estimates["full_scan_s"].p50)
    oltp = sample("gp-oltp", platform=SERVER)
    assert continuous_main(_sized(catalog, oltp), oltp.workload) is None

"""The tornado's continuous variant: the main estimate of a Greenplum design on the host count its rules need (the
data, every performance target), not whole hosts, so +-20 % data moves it the way the data moves."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.continuous import Continuous, continuous
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

SERVER = {"server_id": "dell-r6715-16x-e3s-1x-epyc-9455p", "drive_id": "samsung-pm1743-3840gb-e3s"}
PINNED = {**SERVER, "drives_per_host": 8}  # every end on the same host build: only the host count moves


def _dw(targets: dict[str, object] | None = None, platform: dict[str, object] | None = None, **workload: object
        ) -> Scenario:
    return sample("retail-dw-gen5", workload={"data_tb": 70, "concurrent_queries": 20, **workload},
                  platform=platform or SERVER, targets={"max_full_scan_s": None, **(targets or {})})


def _cont(catalog: HardwareCatalog, s: Scenario) -> tuple[SizingResult, Continuous]:
    r = size(s, catalog)
    c = continuous(s, catalog, r)
    assert c is not None
    return r, c


def test_data_volume_scales_the_continuous_hosts_and_leaves_the_scan_where_it_was(catalog: HardwareCatalog) -> None:
    """70 TB +-20 % on 48-core flash hosts: whole hosts step; the continuous count follows the data (the capacity
    bound), so the full scan on it is the same at every end."""
    ends = [_cont(catalog, _dw(data_tb=70 * f)) for f in (0.8, 1.0, 1.2)]
    assert ends[0][0].design.segment_hosts < ends[1][0].design.segment_hosts < ends[2][0].design.segment_hosts
    for r, c in ends:
        assert r.design.segment_hosts - 1 < c.hosts <= r.design.segment_hosts and c.by == "data"
    low, base, high = (c.main for _, c in ends)
    assert low == pytest.approx(base, rel=2e-3) and high == pytest.approx(base, rel=2e-3)


@pytest.mark.parametrize(("targets", "metric"), [
    ({"max_full_scan_s": 900}, "full_scan_s"),
    ({"max_report_s": 40}, "report_s"),
    ({"min_queries_per_hour": 900}, "queries_per_hour"),
    ({"min_load_tb_per_hour": 9}, "load_tb_per_hour"),
    ({"max_full_scan_s": 700, "confidence": "P90"}, "full_scan_s"),
])
def test_each_target_kind_sets_the_continuous_count_where_it_is_met_exactly(
        catalog: HardwareCatalog, targets: dict[str, object], metric: str) -> None:
    """A target that needs more hosts than the data sets the count: on it, the target's metric (at the scenario's
    confidence) meets its limit within what one host changes, and the count lies within the design's last host."""
    s = _dw(targets, PINNED, data_tb=20)
    r, c = _cont(catalog, s)
    (check,) = [k for k in r.target_checks if k.metric == metric]
    assert check.status == "met" and c.by == check.target
    assert r.design.segment_hosts - 1 < c.hosts < r.design.segment_hosts
    if metric == r.main_metric and s.targets.confidence == "P50":  # the main estimate is the target's: exactly met
        assert c.main == pytest.approx(check.limit, rel=1e-9)
    better = c.main >= r.estimates[r.main_metric].p50  # fewer hosts: the main estimate (a time) no shorter
    assert better


def test_the_mirroring_floor_keeps_whole_hosts_and_other_kinds_have_none(catalog: HardwareCatalog) -> None:
    small = _dw(data_tb=5)  # group mirroring needs 2 hosts whatever the data
    r, c = _cont(catalog, small)
    assert r.design.segment_hosts == 2 and c == Continuous(2.0, r.estimates["full_scan_s"].p50, "whole")
    iq = sample("sap-iq")
    assert continuous(iq, catalog, size(iq, catalog)) is None


def test_an_oltp_tps_target_sets_the_continuous_count(catalog: HardwareCatalog) -> None:
    """A TPS target above what the data's hosts give (updates at 400 clients): the count is where the TPS at the
    confidence meets it, below the design's whole hosts."""
    s = sample("gp-oltp", workload={"target_tps": 20_000, "mix": "update", "clients": 400}, platform=SERVER)
    r, c = _cont(catalog, s)
    assert r.design.segment_hosts > 2 and c.by == "min_tps"
    assert r.design.segment_hosts - 1 < c.hosts < r.design.segment_hosts
    assert c.main == pytest.approx(20_000, rel=1e-9) and c.main < r.estimates["tps"].p50


TARGETS = st.sampled_from([{}, {"max_full_scan_s": 900}, {"max_report_s": 60}, {"min_queries_per_hour": 600},
                           {"min_load_tb_per_hour": 8}])


@settings(max_examples=5, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data_tb=st.floats(15, 120), targets=TARGETS, mirroring=st.sampled_from(["group", "spread"]))
def test_more_data_never_gives_a_continuous_scan_on_both_sides_of_the_base(
        catalog: HardwareCatalog, data_tb: float, targets: dict[str, object], mirroring: str) -> None:
    """Data is a monotone input: on the continuous count the -20 % and +20 % ends of the full scan are not both
    faster (or both slower) than the base, the host rounding the whole-host bars show taken out."""
    scans = [_cont(catalog, _dw(targets, PINNED, data_tb=data_tb * f, mirroring=mirroring))[1].main
             for f in (0.8, 1.0, 1.2)]
    low, base, high = scans
    tol = 2e-3 * base  # what the interconnect's share and the band move a data-bound scan between counts
    assert not (low < base - tol and high < base - tol), scans
    assert not (low > base + tol and high > base + tol), scans

"""The architect sets study 002's segment tier: the study gives the tier by concurrency and leaves the choice to an
experienced Greenplum architect's review, so 31 reports (Type 1: 8 primaries per host) can be sized at Type 2's 16
instead of doubling the hosts a full-scan target needs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics
from models.sizing.engine import size
from models.sizing.greenplum import segments
from models.sizing.rules import RULES
from tests.models.sizing.conftest import sample

TIER_FIGURE = {"type-1": "segments_type1_high_concurrency", "type-2": "segments_type2_low_concurrency",
               "type-3": "segments_type3_ultra_low_concurrency"}


@settings(max_examples=60, deadline=None)
@given(queries=st.integers(1, 5_000), tier=st.sampled_from(sorted(TIER_FIGURE)))
def test_a_set_tier_gives_its_count_at_any_concurrency(queries: int, tier: str) -> None:
    w = GreenplumAnalytics(data_tb=10, concurrent_queries=queries, segment_tier=tier)  # type: ignore[arg-type]
    assert segments.tier_primaries(w) == int(figure(RULES, TIER_FIGURE[tier]))
    auto = segments.tier_choice(GreenplumAnalytics(data_tb=10, concurrent_queries=queries))
    assert segments.tier_choice(w).rationale.text.startswith(f"{queries} concurrent quer")
    assert auto.tier.split(" (")[0] in segments.tier_choice(w).rationale.text  # what the study would have given


@pytest.mark.parametrize("queries", [31, 200])
def test_type_2_set_above_30_reports_sizes_like_30(catalog: HardwareCatalog, queries: int) -> None:
    at_30 = size(sample("retail-dw-gen5", workload={"concurrent_queries": 30}), catalog)
    auto = size(sample("retail-dw-gen5", workload={"concurrent_queries": queries}), catalog)
    chosen = size(sample("retail-dw-gen5", workload={"concurrent_queries": queries, "segment_tier": "type-2"}),
                  catalog)
    assert auto.design.primary_segments_per_host < chosen.design.primary_segments_per_host
    assert chosen.design.primary_segments_per_host == at_30.design.primary_segments_per_host
    assert chosen.design.segment_hosts == at_30.design.segment_hosts < auto.design.segment_hosts
    text = next(x.text for x in chosen.rationale if x.decision == "Primary segments per host")
    assert "Type 1 (more than 30 concurrent queries) by the study; Type 2 is set" in text
    said = next(x.text for x in auto.rationale if x.decision == "Primary segments per host")
    assert "segment tier sets another" in said



def test_a_cpu_bound_scan_out_of_reach_names_the_segment_tier_as_a_lever(catalog: HardwareCatalog) -> None:
    """600 TB and 40 reports at Type 1 cannot reach a 600 s scan within the largest cluster; Type 2 can: the
    warning says the tier moves it."""
    w = {"concurrent_queries": 40, "data_tb": 600}
    auto = size(sample("retail-dw-gen5", workload=w), catalog)
    chosen = size(sample("retail-dw-gen5", workload={**w, "segment_tier": "type-2"}), catalog)
    unreachable = next(x.text for x in auto.warnings if x.code == "target-unreachable")
    assert "bound by cpu" in unreachable and "segment tier" in unreachable
    assert all(c.met for c in chosen.target_checks)

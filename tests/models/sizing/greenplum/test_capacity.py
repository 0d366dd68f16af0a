"""Capacity beyond data and mirror: work space growing with concurrency, WAL and catalogs, the landing area."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.greenplum import capacity
from models.sizing.rules import user_data_capacity_tb
from tests.models.sizing.conftest import sample

drives = st.integers(1, 24)
drive_tb = st.floats(0.4, 30.0)
primaries = st.integers(1, 64)
queries = st.integers(1, 2000)
landing = st.floats(0.0, 300.0)


@settings(max_examples=200)
@given(drive_tb, drives, primaries, queries, queries, landing, st.booleans())
def test_more_concurrency_never_gives_more_room_for_data(
    tb: float, n: int, p: int, q1: int, q2: int, land: float, mirrors: bool
) -> None:
    lo, hi = sorted((q1, q2))
    at_lo = float(capacity.user_data_tb(tb, n, "none", mirrors, p, lo, land))
    at_hi = float(capacity.user_data_tb(tb, n, "none", mirrors, p, hi, land))
    assert at_hi <= at_lo + 1e-12


@settings(max_examples=200)
@given(drive_tb, drives, primaries, primaries, queries, landing, landing)
def test_more_instances_or_a_bigger_landing_area_never_give_more_room(
    tb: float, n: int, p1: int, p2: int, q: int, l1: float, l2: float
) -> None:
    few, many = sorted((p1, p2))
    small, big = sorted((l1, l2))
    base = float(capacity.user_data_tb(tb, n, "raid5", True, few, q, small))
    assert float(capacity.user_data_tb(tb, n, "raid5", True, many, q, small)) <= base + 1e-12
    assert float(capacity.user_data_tb(tb, n, "raid5", True, few, q, big)) <= base + 1e-12


@settings(max_examples=100)
@given(drive_tb, drives, st.sampled_from(["none", "raid5", "raid10"]), st.booleans(), st.integers(1, 30))
def test_at_a_typical_workload_it_is_the_docs_formula_less_wal_and_catalogs(
    tb: float, n: int, raid: str, mirrors: bool, q: int
) -> None:
    """Up to the high-concurrency threshold and without a landing area, U is the Installation Guide's formula
    with the instances' WAL and catalog space taken off first."""
    docs = float(user_data_capacity_tb(tb, n, raid, mirrors))
    assert float(capacity.user_data_tb(tb, n, raid, mirrors, 0, q, 0.0)) == pytest.approx(docs, rel=1e-12)
    instances = 16 * (2 if mirrors else 1)
    per_instance_tb = (figure("vendor_docs", "gp_capacity_wal_mb_per_instance")
                       + figure("vendor_docs", "gp_capacity_metadata_mb_per_instance")) / 1e6
    shares = (2 if mirrors else 1) + 1 / 3
    expected = max(docs - instances * per_instance_tb / shares, 0.0)
    assert float(capacity.user_data_tb(tb, n, raid, mirrors, 16, q, 0.0)) == pytest.approx(expected, abs=1e-9)


def test_work_space_grows_in_proportion_above_the_high_concurrency_threshold() -> None:
    threshold = figure("sizing_rules", "segments_type1_threshold_queries")
    third = figure("vendor_docs", "gp_capacity_workspace_fraction")
    assert capacity.work_space_fraction(int(threshold)) == pytest.approx(third)
    assert capacity.work_space_fraction(int(threshold) * 4) == pytest.approx(4 * third)


def test_a_landing_area_and_high_concurrency_add_hosts_where_capacity_binds(catalog: HardwareCatalog) -> None:
    # the drive count pinned: left free, the recommender may trade drives for hosts (fewer part warnings)
    base = sample("retail-dw-gen5", targets={}, workload={"data_tb": 600}, platform={"drives_per_host": 8})
    plain = size(base, catalog)
    landed = size(base.model_copy(update={"workload": base.workload.model_copy(update={"landing_pct": 100.0})}),
                  catalog)
    busy = size(base.model_copy(update={"workload": base.workload.model_copy(update={"concurrent_queries": 150})}),
                catalog)
    assert landed.design.segment_hosts > plain.design.segment_hosts
    assert busy.design.segment_hosts > plain.design.segment_hosts
    text = next(r.text for r in landed.rationale if r.decision == "Usable capacity")
    assert "landing area 100 %" in text and "WAL and catalog space" in text and "U/3" in text
    text = next(r.text for r in busy.rationale if r.decision == "Usable capacity")
    assert "x 150 / 30 concurrent queries" in text  # 150 run at once: memory admits 185


def test_the_landing_area_is_bad_input_beyond_its_limit() -> None:
    from pydantic import ValidationError

    from models.scenario import Scenario, describe_validation_error

    s = sample("retail-dw-gen5").model_dump(mode="json")
    s["workload"]["landing_pct"] = 301
    with pytest.raises(ValidationError) as err:
        Scenario.model_validate(s)
    assert [p.path for p in describe_validation_error(err.value)] == ["workload.landing_pct"]

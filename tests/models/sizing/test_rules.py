"""Each sizing rule at its edges, with the studies' own reference designs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.calibration_data import figure
from models.sizing import rules


@pytest.mark.parametrize(
    ("queries", "expected"),
    [(1, 32), (5, 32), (6, 16), (9, 16), (10, 16), (20, 16), (30, 16), (31, 8), (500, 8)],
)
def test_segments_follow_the_study_002_tiers(queries: int, expected: int) -> None:
    assert rules.segments_for_concurrency(queries).primaries_per_host == expected


def test_the_tier_is_the_reference_hosts_and_the_cores_rule_is_stated_once() -> None:
    """The tier is a count on the 48-core reference host; a host's cores act through segments.for_cores alone
    (one rule: the tier's cores per primary), so no second cap hides in the tier."""
    from models.sizing.greenplum import segments

    choice = rules.segments_for_concurrency(2)
    assert choice.primaries_per_host == 32 and "Capped" not in choice.rationale.text
    assert segments.for_cores(choice.primaries_per_host, np.array([16.0, 48.0])).tolist() == [10, 32]


def test_the_6_to_9_gap_is_explained() -> None:
    text = rules.segments_for_concurrency(7).rationale.text
    assert "6-9" in text and "Type 2" in text


def test_every_segment_rationale_cites_study_002() -> None:
    for q in (1, 7, 20, 100):
        assert "002_feb9b45e1f157a35.txt" in rules.segments_for_concurrency(q).rationale.source_text


def test_capacity_formula_with_and_without_mirrors() -> None:
    # 8 x 3.84 TB, no RAID: 30.72 x 0.9 x 0.7 = 19.3536 usable
    with_m = float(rules.user_data_capacity_tb(3.84, 8, "none", mirrors=True))
    without = float(rules.user_data_capacity_tb(3.84, 8, "none", mirrors=False))
    assert with_m == pytest.approx(19.3536 / (2 + 1 / 3))
    assert without == pytest.approx(19.3536 / (1 + 1 / 3))


@pytest.mark.parametrize(("raid", "drives", "factor"), [("none", 8, 1.0), ("raid10", 8, 0.5), ("raid1", 2, 0.5),
                                                         ("raid5", 8, 7 / 8), ("raid5", 3, 2 / 3)])
def test_raid_capacity_factors(raid: str, drives: int, factor: float) -> None:
    assert float(rules.raid_capacity_factor(raid, drives)) == pytest.approx(factor)


def test_data_needed_grows_and_compresses() -> None:
    # the example: 60 TB, 3:1, 30 %/year over 3 years
    assert rules.data_needed_tb(60, 30, 3, 3) == pytest.approx(60 * 1.3**3 / 3)
    assert rules.data_needed_tb(60, 0, 3, 1) == 60


def test_gp_vmem_formula_switches_divisor_at_256_gb() -> None:
    small = float(rules.gp_vmem_mb(255, 32))
    large = float(rules.gp_vmem_mb(256, 32))
    assert small == pytest.approx(((32 + 255) - (7.5 + 0.05 * 255)) / 1.7 * 1024)
    assert large == pytest.approx(((32 + 256) - (7.5 + 0.05 * 256)) / 1.17 * 1024)


def test_study_000_vm_layout_two_vms_of_46_gb() -> None:
    # 2x 8-core host, 96 GB -> 2 VMs of 46 GB (study 000)
    assert rules.vm_memory_gib(96, 2) == pytest.approx(46)
    assert rules.vm_memory_gib(96, 1) == pytest.approx(92)
    assert rules.vm_memory_gib(96, 4) == pytest.approx(23)


def test_raid5_alignment_reproduces_the_study_strip() -> None:
    text = rules.raid5_alignment_advice(8).text
    assert "32 KB" in text and "224 KB" in text


@given(st.integers(1, 24), st.sampled_from(["none", "raid1", "raid5", "raid10"]))
def test_capacity_never_exceeds_raw(drives: int, raid: str) -> None:
    cap = float(rules.user_data_capacity_tb(1.0, drives, raid, mirrors=False))
    assert 0 <= cap <= drives * figure("vendor_docs", "gp_capacity_format_factor")


def test_drive_counts_valid_for_raid() -> None:
    n = np.arange(1, 9)
    assert list(n[rules.drives_valid_for_raid("raid10", n)]) == [4, 6, 8]
    assert list(n[rules.drives_valid_for_raid("raid5", n)]) == [3, 4, 5, 6, 7, 8]

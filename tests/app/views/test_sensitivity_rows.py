"""The tornado's rows as every renderer shows them: the whole-host ends beside the continuous ones, or, for a kind
without a continuous count, the statement that every end is whole (from the bar's `rounding` field)."""

from __future__ import annotations

import pytest

from app.formatting import DASH
from app.views.sensitivity import sensitivity_view
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.result import SizingResult
from models.whatif import SensitivityBar
from tests.models.sizing.conftest import sample


@pytest.fixture(scope="module")
def iq(seed: HardwareCatalog) -> SizingResult:
    return size(sample("sap-iq"), seed)


@pytest.fixture(scope="module")
def gp(seed: HardwareCatalog) -> SizingResult:
    return size(sample("retail-dw-gen5", workload={"data_tb": 33}, targets={}), seed)


def test_a_kind_without_a_continuous_count_states_that_every_end_is_whole(iq: SizingResult) -> None:
    bar = SensitivityBar("concurrency", 10.0, 30.0, 50.0, 70.0, 20.0, 60.0, 3, 4, 5)
    v = sensitivity_view(iq, [bar], 20.0)
    (row,) = v.rows
    assert row.rounding == "whole" and not v.continuous
    assert (row.low_continuous, row.high_continuous, row.hosts_continuous, v.base_continuous) == (DASH,) * 4
    assert v.rounding_note.startswith("IQ nodes are whole: every end is a design of whole IQ nodes")
    assert row.hosts == "3 / 4 / 5" and v.step_note == ""  # 50 < 60 < 70: the input, not the step, moved it


def test_continuous_ends_sit_beside_the_whole_ones_and_a_same_side_bar_is_marked(gp: SizingResult) -> None:
    """-20 % data on one host fewer scans slower than the base (the whole-host step): the row is marked, and its
    continuous ends (8,703 s on 2.68 hosts, 9,994 s on 3.5) are what the renderer prints beside them."""
    bar = SensitivityBar("data volume", 1.0, 3.0, 7781.0, 8750.0, 2.0, 9727.0, 3, 3, 4,
                         8703.4, 9997.0, 9994.2, 2.6826, 2.919, 3.5027)
    flat = SensitivityBar("drive price", 1.5, 2.5, 9727.0, 9727.0, 2.0, 9727.0, 3, 3, 3,
                          9997.0, 9997.0, 9997.0, 2.919, 2.919, 2.919)
    v = sensitivity_view(gp, [bar, flat], 20.0)
    row = v.rows[0]
    assert v.continuous and row.rounding == "continuous" and row.host_rounding and not v.rows[1].host_rounding
    assert (row.low_main, row.high_main, row.low_continuous, row.high_continuous) == ("7,781", "8,750", "8,703",
                                                                                      "9,994")
    assert row.hosts == "3 / 3 / 4" and row.hosts_continuous == "2.68 / 2.92 / 3.50"
    assert (v.base_main, v.base_continuous, v.base_hosts_continuous) == ("9,727", "9,997", "2.92")
    assert v.metric == "full_scan_s" and v.unit == "s" and v.metric_label == "Full-scan time"
    assert "whole segment hosts decide this bar" in v.step_note
    assert v.rounding_note.startswith("Continuous: the main estimate P50 on the fractional number of segment hosts")

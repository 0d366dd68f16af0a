"""shared_buffers recommendations: 75 % on a dedicated VM, 25 % when shared, never in the dip."""

from __future__ import annotations

import pytest

from models.calibration_data import figure
from models.percent import percent
from models.sizing.postgres.shared_buffers import recommend_shared_buffers
from models.vocabulary import PLACEMENTS

DS = "pg_vfabric_001"
DIP_LOW, DIP_HIGH = figure(DS, "sb_dip_low_ratio"), figure(DS, "sb_dip_high_ratio")


def _in_dip(r: float) -> bool:
    return DIP_LOW < r < DIP_HIGH


def test_recommendations() -> None:
    dedicated = recommend_shared_buffers("vm-per-database")
    assert dedicated.ratio == figure(DS, "sb_large_ratio")
    gains = (percent(figure(DS, "sb75_gain_s3"), 1, sign=True), percent(figure(DS, "sb75_gain_s4"), 1, sign=True))
    assert gains == ("+12.1 %", "+13.2 %") and all(g in dedicated.reason for g in gains)
    assert "001_8432df66bbca52f5.txt" in dedicated.source
    shared = recommend_shared_buffers("shared-vm")
    assert shared.ratio == figure(DS, "sb_conventional_ratio")
    assert recommend_shared_buffers("vm-per-database", conventional=True).ratio == shared.ratio
    for placement in PLACEMENTS:
        for conventional in (False, True):
            r = recommend_shared_buffers(placement, conventional).ratio
            assert not (DIP_LOW <= r <= DIP_HIGH)
    with pytest.raises(ValueError, match="unknown placement"):
        recommend_shared_buffers("bare-metal")  # type: ignore[arg-type]

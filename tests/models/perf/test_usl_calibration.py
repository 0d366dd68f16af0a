"""The USL calibrations on studies 004 and 001: published peaks, ratios and shapes."""

from __future__ import annotations

import pytest

from models.calibration_data import figure
from models.perf.cards import all_cards
from models.perf.usl_calibration import CALIBRATED_WORKLOADS, calibrated
from models.vocabulary import OLTP_MIXES as MIXES

# ------------------------------------------------------------------ calibrations


@pytest.mark.parametrize("workload", [w for w in CALIBRATED_WORKLOADS if w.startswith("gp")])
def test_calibration_reproduces_published_peak(workload: str) -> None:
    ver, mix = workload.split("-")
    published = figure("gp6_oltp_004", f"{ver}_{mix}_peak_tps")
    fit = calibrated(workload)  # type: ignore[arg-type]
    assert fit.peak_throughput == pytest.approx(published, rel=0.05)
    assert fit.peak_clients <= figure("gp6_oltp_004", "clients_max")
    if "serialized" not in fit.peak_note:  # a flat (serialized) curve peaks from the first client
        assert fit.peak_clients >= figure("gp6_oltp_004", "clients_min")


@pytest.mark.parametrize("mix", MIXES)
def test_gp6_over_gp5_matches_quoted_factor(mix: str) -> None:
    ratio = calibrated(f"gp6-{mix}").peak_throughput / calibrated(f"gp5-{mix}").peak_throughput  # type: ignore[arg-type]
    assert ratio == pytest.approx(figure("gp6_oltp_004", f"gp6_vs_gp5_{mix}"), rel=0.05)


def test_gp6_insert_declines_past_its_peak() -> None:
    fit = calibrated("gp6-insert")
    assert fit.kappa > 0 and fit.peak_within_data
    assert fit.throughput(200.0) < 0.95 * fit.peak_throughput


@pytest.mark.parametrize("workload", ["gp5-tpcb", "gp5-update"])
def test_gp5_serialized_writes_are_flat(workload: str) -> None:
    fit = calibrated(workload)  # type: ignore[arg-type]
    assert fit.throughput(10.0) == pytest.approx(fit.throughput(200.0), rel=0.01)
    assert "serialized" in fit.peak_note


def test_pg92_select_is_linear_to_20_clients() -> None:
    fit = calibrated("pg92-select")
    linear_to = figure("pg_vfabric_001", "pg92_select_linear_clients")
    assert fit.throughput(linear_to) / linear_to >= 0.9 * fit.throughput(1.0)
    assert fit.unit == "x single-client TPS"


def test_pg92_tpcb_and_unknown_workloads_are_refused() -> None:
    with pytest.raises(ValueError, match="lower bound"):
        calibrated("pg92-tpcb")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown workload"):
        calibrated("mysql-select")  # type: ignore[arg-type]


def test_usl_cards_meet_target_or_say_why() -> None:
    cards = {c.name: c for c in all_cards() if c.name.startswith("usl-")}
    assert set(cards) == {f"usl-{w}" for w in CALIBRATED_WORKLOADS}
    for card in cards.values():
        assert card.residuals
        assert card.mape_pct <= 5.0 or "MAPE" in card.note
        assert all(s for s in card.sources)
    assert cards["usl-gp6-select"].extra["scaling_check"]["validated"] is False

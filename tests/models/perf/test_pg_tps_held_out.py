"""Held-out checks of the PostgreSQL throughput model: published pgbench runs on named hardware that the fit did not
use (`resources/calibration/pg_published_runs.json`, role "held-out", each with its source file and commit)."""

from __future__ import annotations

from models.perf import pg_tps
from models.perf.pg_tps_law import PublishedRun, fitted, published_runs
from models.uncertainty import Estimate

SAMPLES = 600


def _rows(role: str = "held-out") -> list[tuple[PublishedRun, Estimate]]:
    return pg_tps.held_out(role, samples=SAMPLES)


def test_no_held_out_run_is_fitted() -> None:
    fit, held = {r.id for r in published_runs("fit")}, {r.id for r in published_runs("held-out")}
    assert fit and held and not fit & held
    assert fitted().fitted_runs == len(fit)
    assert all("commit" in r.source and r.source.startswith("PostgresBench") for r in published_runs())


def test_held_out_runs_fall_inside_the_band_in_most_cases_and_near_it_at_p50() -> None:
    rows = _rows()
    inside = [r.id for r, e in rows if e.p10 <= r.tps <= e.p90]
    near = [r.id for r, e in rows if abs(e.p50 / r.tps - 1) <= 0.40]
    assert len(inside) >= len(rows) - 1, inside
    assert len(near) >= len(rows) - 1, near


def test_every_held_out_run_behind_a_stated_iops_cap_is_inside_its_band() -> None:
    capped = [(r, e) for r, e in _rows() if r.id.startswith("pgbench_rds_")]
    assert len(capped) == 3
    for r, e in capped:
        assert e.p10 <= r.tps <= e.p90, (r.id, r.tps, e)


def test_data_far_beyond_memory_gives_less_than_data_that_nearly_fits_as_published() -> None:
    runs = {r.id: (r, e) for r, e in _rows()}
    nearly, far = runs["pgbench_rds_m8gd_16vcpu_100gb"], runs["pgbench_rds_m8gd_16vcpu_500gb"]
    assert far[0].tps < nearly[0].tps  # the published runs
    assert far[1].p50 < nearly[1].p50  # the model, on the same two configurations


def test_card_lists_held_out_runs_beside_the_in_sample_fit_with_their_error() -> None:
    card = pg_tps.card()
    assert {r.point_id for r in card.residuals} == {r.id for r in published_runs("fit")}
    rows = card.held_out
    assert [row.point_id for row in rows] == [r.id for r in published_runs("held-out")]
    for row in rows:
        assert row.pct_err == 100.0 * (row.p50 - row.observed) / row.observed
        assert row.inside == (row.p10 <= row.observed <= row.p90)
    assert [h["point_id"] for h in card.to_dict()["held_out"]] == [r.id for r in published_runs("held-out")]
    assert "Held-out" in card.validation and "inside P10-P90" in card.validation
    assert len(card.extra["outside"]) == len(published_runs("outside"))

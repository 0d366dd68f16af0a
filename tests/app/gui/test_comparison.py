"""Compare rows: the best value per row (by direction), deltas against the first scenario."""

from __future__ import annotations

from app.gui.comparison import compare_rows
from tests.app.gui.fakes import fake_result


def test_best_follows_the_direction_of_each_row() -> None:
    cheap_slow = fake_result(hosts=4, capex=100_000, scan_s=900)
    dear_fast = fake_result(hosts=8, capex=200_000, scan_s=300)
    rows = {r.key: r for r in compare_rows([cheap_slow, dear_fast])}
    assert rows["capex"].best() == 0
    assert rows["hosts"].best() == 0
    assert rows["est:full_scan_s"].best() == 1  # a shorter scan is better
    assert rows["capex"].delta(1) == "+100 %"
    assert rows["capex"].delta(0) == ""


def test_perf_per_dollar_turns_a_time_into_a_rate() -> None:
    a = fake_result(capex=100_000, scan_s=600)  # 6 scans/hour
    b = fake_result(capex=100_000, scan_s=300)  # 12 scans/hour, same money: twice the perf per dollar
    row = next(r for r in compare_rows([a, b]) if r.key == "perf_per_dollar")
    assert row.values[1] == 2 * row.values[0]
    assert row.best() == 1


def test_a_tie_has_no_winner() -> None:
    rows = {r.key: r for r in compare_rows([fake_result(), fake_result()])}
    assert rows["capex"].best() is None

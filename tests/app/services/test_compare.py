"""Compare rows: the model's winner per row, worded and formatted once, with deltas against the first scenario."""

from __future__ import annotations

from app.services.compare import compare_rows
from models.whatif import compare
from tests.app.gui.fakes import fake_result


def test_rows_follow_the_models_winners_and_directions() -> None:
    cheap_slow = fake_result(hosts=4, capex=100_000, scan_s=900)
    dear_fast = fake_result(hosts=8, capex=200_000, scan_s=300)
    rows = {r.key: r for r in compare_rows([cheap_slow, dear_fast])}
    model = {r.metric: r for r in compare([cheap_slow, dear_fast])}
    for key, row in rows.items():
        assert row.best() == model[key].winner
    assert rows["capex"].best() == 0
    assert rows["full_scan_s"].best() == 1  # a shorter scan is better
    assert rows["capex"].delta(1) == "+100 %"
    assert rows["capex"].delta(0) == ""
    # one number format: the figure bare, the unit in the heading, the range and the delta in the row's unit
    assert rows["capex"].texts == ("100,000", "200,000") and rows["capex"].heading == "Capex (USD)"
    assert rows["capex"].delta_text(1) == "+100,000"
    assert (rows["full_scan_s"].text(1), rows["full_scan_s"].range_text(1)) == ("300", "270–330")
    assert rows["full_scan_s"].delta_text(1) == "−600" and rows["full_scan_s"].heading == "Full-scan time (s)"


def test_labels_are_words_not_identifiers() -> None:
    rows = compare_rows([fake_result(), fake_result(capex=50_000)])
    labels = [r.label for r in rows]
    assert "Full scans per hour per 1,000 USD" in labels  # a time reads as the rate it stands for
    assert all("_" not in label for label in labels)


def test_a_tie_has_no_winner() -> None:
    rows = {r.key: r for r in compare_rows([fake_result(), fake_result()])}
    assert rows["capex"].best() is None

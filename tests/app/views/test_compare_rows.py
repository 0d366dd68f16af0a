"""A compare row says what it measures in fields (metric, per what, currency), never in a key to split apart."""

from __future__ import annotations

from app.views.compare import chart_series, compare_rows
from models.uncertainty import Estimate
from models.whatif import compare
from tests.app.gui.fakes import fake_result


def test_rate_rows_carry_their_metric_divisor_and_currency_as_fields() -> None:
    a, b = fake_result(capex=80_000), fake_result(capex=120_000)
    for r in (a, b):  # a project currency whose code is not USD, and a cost of ownership
        object.__setattr__(r.totals, "currency", "CHF")
        object.__setattr__(r.totals, "tco", r.totals.capex * 3)
    rows = {(r.metric, r.per): r for r in compare_rows([a, b])}
    tco = rows[("full_scan_s", "tco")]
    assert (tco.currency, tco.unit, tco.is_money) == ("CHF", "", False)
    assert tco.label == "Full scans per hour per 1,000 CHF TCO"
    assert rows[("full_scan_s", "kW")].label == "Full scans per hour per kW"
    assert rows[("full_scan_s", "kW")].currency == ""
    capex = rows[("capex", None)]
    assert (capex.currency, capex.is_money, capex.heading) == ("CHF", True, "Capex (CHF)")
    load = rows[("load_tb_per_hour", "capex")]
    assert load.label == "Load rate per 1,000 CHF" and load.metric == "load_tb_per_hour"
    # the models' rows: the same fields, and the key the JSON has always given
    model = {r.metric: r for r in compare([a, b])}
    assert (model["full_scan_s per 1k CHF TCO"].base, model["full_scan_s per 1k CHF TCO"].per) == ("full_scan_s", "tco")
    assert model["capex"].is_money and not model["full_scan_s per kW"].is_money


def test_a_share_reads_in_percent_with_its_range() -> None:
    a, b = fake_result(), fake_result(capex=300_000)
    for r, v in ((a, 0.5), (b, 0.9)):
        r.estimates["performance_preserved"] = Estimate(v - 0.05, v, v + 0.05, "fraction of baseline throughput")
    row = next(r for r in compare_rows([a, b]) if r.key == "performance_preserved")
    assert row.unit == "% of baseline throughput" and row.texts == ("50", "90")
    assert row.range_text(1) == "85–95" and row.delta_text(1) == "+40"


def test_the_chart_draws_the_rows_marked_for_it_over_the_options_shown() -> None:
    """The window and the PDF draw the same panels: capex, power, rack space and the main estimate, labelled as
    the table heads them; over a subset of the options a winner outside it leaves no bar green."""
    results = [fake_result(capex=c, scan_s=s) for c, s in ((100_000, 900), (300_000, 300), (200_000, 600))]
    rows = compare_rows(results)
    series = chart_series(rows)
    assert [s.label for s in series] == ["Capex (USD)", "Power (W)", "Rack space (U)", "Full-scan time (s)"]
    capex = next(r for r in rows if r.key == "capex")
    assert series[0].values == list(capex.values) and series[0].winner == 0
    shown = chart_series(rows, [1, 2])  # the cheapest option is not among them
    assert shown[0].values == [300_000, 200_000] and shown[0].winner is None
    scan = next(r for r in rows if r.key == "full_scan_s")
    assert scan.winner == 1 and shown[3].winner == 0 and shown[3].low == [270.0, 540.0]

"""Compare, growth and sensitivity run the engine and report what moves."""

from __future__ import annotations

import itertools

import pytest

from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.whatif import GrowthYear, compare, growth, pinned, sensitivity
from tests.models.sizing.conftest import sample


def test_compare_rows_have_winners_and_deltas(catalog: HardwareCatalog) -> None:
    a = size(sample("retail-dw-gen5"), catalog)
    b = size(sample("retail-dw-dual-socket-sas"), catalog)
    rows = {r.metric: r for r in compare([a, b])}
    assert rows["capex"].winner == 0  # the single-socket Gen5 design is cheaper (study 002's claim)
    assert rows["capex"].deltas()[1] == b.totals.capex - a.totals.capex
    assert rows["full_scan_s"].ranges[0] is not None
    assert "full_scan_s per kW" in rows


def test_growth_buys_hosts_as_data_grows(catalog: HardwareCatalog) -> None:
    years = growth(sample("retail-dw-gen5", targets={}), catalog)
    assert [y.year for y in years] == [0, 1, 2, 3]
    assert all(b.data_tb > a.data_tb for a, b in itertools.pairwise(years))
    assert all(b.hosts >= a.hosts for a, b in itertools.pairwise(years))
    assert round(sum(y.capex_expansion for y in years), 2) == years[-1].capex_total


def test_sensitivity_orders_the_tornado(catalog: HardwareCatalog) -> None:
    bars = sensitivity(sample("retail-dw-gen5", targets={}), catalog)
    names = [b.input for b in bars]
    assert {"data volume", "compression", "concurrency", "drive price", "server price"} <= set(names)
    swings = [b.swing for b in bars]
    assert swings == sorted(swings, reverse=True)
    data = next(b for b in bars if b.input == "data volume")
    assert data.high_capex > data.low_capex


def test_tornado_bars_state_their_host_counts(catalog: HardwareCatalog) -> None:
    """A data-bound design (2 TB on the SAS sample, one scan target): each bar carries the worker hosts of its three
    designs; a bar whose ends both move the estimate the same way is flagged as decided by whole hosts."""
    scenario = sample("retail-dw-dual-socket-sas", workload={"data_tb": 30}, targets={"max_full_scan_s": 400})
    bars = sensitivity(scenario, catalog)
    base = size(scenario, catalog).design.worker_hosts
    for b in bars:
        assert b.base_hosts == base and b.low_hosts > 0 and b.high_hosts > 0
        same_way = (b.low_main - b.base_main) * (b.high_main - b.base_main) > 0
        assert b.host_rounding == (same_way and len({b.low_hosts, b.base_hosts, b.high_hosts}) > 1)
    data = next(b for b in bars if b.input == "data volume")
    assert data.low_hosts <= base <= data.high_hosts


def test_per_dollar_rows_of_a_time_favour_the_faster_cheaper_design(catalog: HardwareCatalog) -> None:
    # two designs for the same work (60 TB, 20 reports, a 600 s scan): NVMe single socket, SAS dual socket
    fast = size(sample("retail-dw-gen5"), catalog)
    slow = size(sample("retail-dw-dual-socket-sas"), catalog)
    rows = {r.metric: r for r in compare([fast, slow])}
    per_kw = rows["full_scan_s per kW"]
    assert per_kw.higher_is_better
    assert per_kw.winner in (None, max(range(2), key=lambda i: per_kw.values[i] or 0))
    if per_kw.winner is None:
        assert "overlap" in per_kw.verdict.reason


def test_no_winner_across_workload_kinds(catalog: HardwareCatalog) -> None:
    dw = size(sample("retail-dw-gen5"), catalog)
    oltp = size(sample("gp-oltp"), catalog)
    rows = {r.metric: r for r in compare([dw, oltp])}
    for key in ("capex", "power", "rack space", "total hosts"):
        assert rows[key].winner is None
        assert rows[key].verdict.reason == "the options run different workloads"


def test_no_winner_inside_the_uncertainty(catalog: HardwareCatalog) -> None:
    a = size(sample("retail-dw-gen5"), catalog)
    b = size(sample("retail-dw-dual-socket-sas"), catalog)  # the same work on other hardware, a second apart
    rows = {r.metric: r for r in compare([a, b])}
    scan = rows["full_scan_s"]
    lo, hi = scan.ranges[0], scan.ranges[1]
    assert lo is not None and hi is not None and lo[0] <= hi[1] and hi[0] <= lo[1]  # the ranges overlap
    assert scan.winner is None and "overlap" in scan.verdict.reason


def test_a_clear_difference_wins(catalog: HardwareCatalog) -> None:
    nvme = size(sample("retail-dw-gen5"), catalog)  # the same work, 2.8 M against 4.3 M USD
    sas = size(sample("retail-dw-dual-socket-sas"), catalog)
    rows = {r.metric: r for r in compare([sas, nvme])}
    assert rows["capex"].winner == 1 and not rows["capex"].verdict.among


def _sized_every_year(scenario: Scenario, catalog: HardwareCatalog) -> list[GrowthYear]:
    """The plan as each year's data sizes it on the design's hardware, the last year included."""
    design = size(scenario, catalog)
    w = scenario.workload
    years, previous = [], 0.0
    for y in range(w.horizon_years + 1):
        r = size(pinned(scenario, design).model_copy(update={"workload": w.model_copy(update={"horizon_years": y})}),
                 catalog)
        years.append(GrowthYear(y, round(w.data_tb * (1 + w.growth_pct_per_year / 100.0) ** y, 3),
                                r.design.data_needed_tb, r.design.worker_hosts, r.totals.capex,
                                round(r.totals.capex - previous, 2)))
        previous = r.totals.capex
    return years


@pytest.mark.parametrize("name", ["retail-dw-gen5", "retail-dw-dual-socket-sas", "study-000-vsphere", "gp-oltp",
                                  "sap-iq"])
def test_the_growth_plans_last_year_is_the_design_sized_again_on_its_hardware(name: str,
                                                                              catalog: HardwareCatalog) -> None:
    """`growth` takes the design as its last year instead of sizing it again: the same numbers, on every sample
    and on smaller, larger, faster- and slower-growing variants of it."""
    s = sample(name)
    w = s.workload
    variants = [s] + [s.model_copy(update={"workload": w.model_copy(update={
        "data_tb": w.data_tb * scale, "growth_pct_per_year": pct, "horizon_years": horizon})})
        for scale, pct, horizon in ((0.5, 10.0, 5), (2.0, 40.0, 2), (4.0, 0.0, 3), (1.0, 80.0, 6))]
    for v in variants:
        assert growth(v, catalog, size(v, catalog)) == _sized_every_year(v, catalog)


def test_winners_only_among_designs_for_the_same_work(catalog: HardwareCatalog) -> None:
    """The 6 TB lab test bed is not a cheaper 60 TB warehouse: set beside two designs for the same 60 TB work (a
    mirror placement apart, a design choice), it wins no row and is named as not ranked; the two 60 TB designs are
    ranked against each other. A different target is different work too."""
    from models.whatif import compare, unranked

    a = size(sample("retail-dw-dual-socket-sas"), catalog)
    lab = size(sample("study-000-vsphere"), catalog)
    b = size(sample("retail-dw-dual-socket-sas", workload={"mirroring": "spread"}), catalog)
    rows = compare([a, lab, b])
    assert all(r.verdict.winner != 1 for r in rows)
    capex = next(r for r in rows if r.metric == "capex")
    # ranked between the two 60 TB designs (here they cost the same: "equal"), never refused as different work
    assert capex.verdict.reason != "the options run different workloads"
    assert capex.verdict.winner in (0, 2) or capex.verdict.reason == "equal"
    assert unranked([a, lab, b]) == [1]
    alone = compare([a, lab])
    assert all(r.verdict.winner is None for r in alone) and unranked([a, lab]) == [0, 1]
    tighter = size(sample("retail-dw-dual-socket-sas", targets={"max_full_scan_s": 300}), catalog)
    assert unranked([a, tighter]) == [0, 1]
    assert unranked([a, b]) == []

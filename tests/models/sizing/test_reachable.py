"""Targets out of reach give the best design worth building, the best value and what binds: no runaway BOM."""

from __future__ import annotations

from models.hardware import HardwareCatalog
from models.sizing import greenplum
from models.sizing.engine import size
from tests.models.sizing.conftest import sample


def test_an_impossible_scan_target_does_not_buy_a_thousand_hosts(catalog: HardwareCatalog) -> None:
    capacity_only = size(sample("retail-dw-gen5", targets={}), catalog)
    r = size(sample("retail-dw-gen5", targets={"max_full_scan_s": 1}), catalog)
    # sized for capacity (a few hosts), never grown towards MAX_SEGMENT_HOSTS for a target it cannot reach
    assert r.design.segment_hosts <= 2 * capacity_only.design.segment_hosts + 8
    text = {w.code: w.text for w in r.warnings}["target-unmet:max_full_scan_s"]
    assert "even 1,000 segment hosts give" in text and "bound by cpu" in text and "To move it" in text


def test_a_coordinator_bound_oltp_target_stops_where_hosts_stop_helping(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp", workload={"target_tps": 5_000_000, "mix": "select"}), catalog)
    assert r.design.segment_hosts < greenplum.MAX_SEGMENT_HOSTS // 2
    text = {w.code: w.text for w in r.warnings}["target-unmet:min_tps"]
    assert "coordinator" in text and "bigger coordinator" in text
    # the design reaches (within 1 %) the best throughput any host count gives
    best = float(text.split("give ")[1].split(" ")[0].replace(",", ""))
    assert r.estimates["tps"].p50 >= best * 0.99


def test_reachable_targets_are_still_met_when_another_is_not(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", targets={"max_full_scan_s": 1, "min_load_tb_per_hour": 30}), catalog)
    codes = {w.code for w in r.warnings}
    assert "target-unmet:max_full_scan_s" in codes and "target-unmet:min_load_tb_per_hour" not in codes
    assert r.estimates["load_tb_per_hour"].p50 >= 30

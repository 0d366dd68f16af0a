"""The engine's contract: capacity, targets on P50, infeasible requests, JSON names, bad parts."""

from __future__ import annotations

import json
import math

import pytest

from models.hardware import HardwareCatalog
from models.sizing.engine import SizingInputError, size
from models.sizing.rules import data_needed_tb
from tests.models.sizing.conftest import sample


def test_capacity_covers_the_data_at_the_horizon(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", targets={})
    r = size(s, catalog)
    need = data_needed_tb(60, 30, 3, 3)
    assert r.design.data_needed_tb == pytest.approx(need, rel=1e-3)
    assert r.design.usable_capacity_tb >= need
    # one host fewer would not hold it
    per_host = r.design.usable_capacity_tb / r.design.segment_hosts
    assert (r.design.segment_hosts - 1) * per_host < need or r.design.segment_hosts == 2


def test_scan_target_met_on_p50_with_fewest_hosts(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", targets={"max_full_scan_s": 600}), catalog)
    assert r.estimates["full_scan_s"].p50 <= 600
    assert r.estimates["full_scan_s"].p90 >= r.estimates["full_scan_s"].p50
    tighter = size(sample("retail-dw-gen5", targets={"max_full_scan_s": 300}), catalog)
    assert tighter.design.segment_hosts > r.design.segment_hosts
    check = r.check("max_full_scan_s")
    assert check is not None and check.status == "met" and check.estimate == r.estimates["full_scan_s"].p50
    assert not [w for w in r.warnings if w.code.startswith("target-")]


def test_infeasible_target_returns_nearest_design_with_a_warning(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", targets={"max_full_scan_s": 600, "max_capex": 1000}), catalog)
    capex = r.check("max_capex")
    assert capex is not None and capex.status == "unreachable" and capex.limit == 1000
    assert capex.estimate == r.totals.capex and capex.unit == r.totals.currency
    assert any(w.field == "targets.max_capex" and w.severity == "critical" for w in r.warnings)
    assert r.design.segment_hosts >= 2


def test_drive_count_stays_within_bays(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", platform={"drives_per_host": None}, targets={"max_full_scan_s": 100})
    r = size(s, catalog)
    assert r.design.data_drives_per_host <= catalog.server(r.design.server_id).data_bays


def test_gp_vmem_counts_failover_primaries(catalog: HardwareCatalog) -> None:
    with_m = size(sample("retail-dw-gen5"), catalog).design
    without = size(sample("retail-dw-gen5", workload={"mirrors": False}), catalog).design
    assert with_m.gp_vmem_protect_limit_mb is not None and without.gp_vmem_protect_limit_mb is not None
    assert with_m.gp_vmem_protect_limit_mb < without.gp_vmem_protect_limit_mb * 1.01


def test_json_keeps_the_issue_names(catalog: HardwareCatalog) -> None:
    d = size(sample("retail-dw-gen5"), catalog).to_dict()
    for key in ("segment_hosts", "primary_segments_per_host", "mirror_segments_per_host", "vms_per_host", "vm",
                "data_drives_per_host", "raid", "usable_capacity_tb", "coordinator_hosts", "gp_vmem_protect_limit_mb",
                "shared_buffers_ratio", "overcommit_rate", "dqp_mode"):
        assert key in d["design"]
    assert {"full_scan_s", "load_tb_per_hour", "queries_per_hour", "binding_resource"} <= set(d["estimates"])
    assert set(d["estimates"]["full_scan_s"]) == {"p10", "p50", "p90", "unit"}
    assert set(d["bom"][0]) >= {"role", "part_id", "description", "qty", "unit_price", "extended_price", "currency"}
    assert set(d["totals"]) >= {"capex", "power_w", "rack_u", "currency"}
    assert all(set(x) == {"decision", "text", "source"} for x in d["rationale"])
    json.dumps(d)  # serializable as is


def test_bom_total_equals_capex_to_the_cent(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"memory_gib": 768}), catalog)
    assert round(sum(b.extended_price for b in r.bom if not b.recurring), 2) == r.totals.capex
    assert round(sum(b.extended_price for b in r.bom), 2) == r.totals.bom_total
    assert any(b.kind == "dimm" for b in r.bom)


def test_unknown_ids_are_all_reported_with_suggestions(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", platform={"server_id": "supermicro-asg-1115s-ne316r-1x-epyc-9545p",
                                           "drive_id": "samsung-pm1743-3840gb"})
    with pytest.raises(SizingInputError) as info:
        size(s, catalog)
    by_path = {p.path: p.message for p in info.value.problems}
    assert "did you mean supermicro-asg-1115s-ne316r-1x-epyc-9454p" in by_path["platform.server_id"]
    assert "samsung-pm1743-3840gb-e3s" in by_path["platform.drive_id"]


def test_drive_that_does_not_fit_the_bays(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", platform={"drive_id": "seagate-exos-x16-16tb-sas-lff"})
    with pytest.raises(SizingInputError, match="bays"):
        size(s, catalog)


def test_oltp_tps_target(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp"), catalog)
    assert r.main_metric == "tps"
    assert r.estimates["tps"].p50 >= 20000
    assert r.binding_resource


def test_recommendation_uses_current_parts_only(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp"), catalog)
    newest = max(p.price_as_of for p in catalog)
    assert catalog.server(r.design.server_id).price_as_of.year >= newest.year - 5


def test_every_rationale_has_a_source(catalog: HardwareCatalog) -> None:
    for name in ("retail-dw-gen5", "study-000-vsphere", "gp-oltp", "pg-consolidation", "sap-iq"):
        r = size(sample(name), catalog)
        assert r.rationale and all(x.source for x in r.rationale), name
        assert math.isfinite(r.totals.capex) and r.totals.capex > 0


def test_budget_targets_apply_to_every_kind(catalog: HardwareCatalog) -> None:
    r = size(sample("sap-iq", targets={"max_capex": 1000, "max_rack_u": 1}), catalog)
    assert {c.target: c.status for c in r.target_checks} == {"max_capex": "missed", "max_rack_u": "missed"}
    assert {w.field for w in r.warnings if w.code == "target-missed"} == {"targets.max_capex", "targets.max_rack_u"}


def test_targets_of_another_kind_are_named_not_ignored(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp", targets={"max_full_scan_s": 100}), catalog)
    assert r.check("max_full_scan_s") is None
    assert ("target-not-applicable", "targets.max_full_scan_s") in {(w.code, w.field) for w in r.warnings}


def test_recommended_memory_never_trips_the_minimum_it_cites(catalog: HardwareCatalog) -> None:
    """Memory left on "server default" is raised to the reference minimum where the DIMM slots allow; where they do
    not, the warning says why instead of contradicting the recommendation."""
    from models.sizing.greenplum.host_memory import cheapest_dimm, recommended_memory_gib

    dimms = catalog.current(catalog.dimms)
    for server in catalog.servers:
        dimm = cheapest_dimm(server, dimms)  # of the server's own DRAM generation
        s = sample("retail-dw-gen5", platform={"server_id": server.id, "drive_id": None, "memory_gib": None,
                                                 "drives_per_host": None, "nic_id": None})
        try:
            r = size(s, catalog)
        except SizingInputError:  # a server the workload cannot use at all (no drive fits its bays): not this rule
            continue
        warned = [w for w in r.warnings if w.code == "memory-below-reference"]
        reachable = recommended_memory_gib(server, 512, dimm) >= 512
        if reachable:
            assert not warned, (server.id, warned)
            assert r.design.memory_gib_per_host >= 512
        else:
            assert warned and "DIMM slots" in warned[0].text, server.id


@pytest.mark.parametrize("name", ["retail-dw-gen5", "retail-dw-dual-socket-sas", "gp-oltp"])
@pytest.mark.parametrize("data_tb", [2.0, 60.0, 600.0])
def test_a_design_left_to_refarch_raises_none_of_the_rules_it_cites(catalog: HardwareCatalog, name: str,
                                                                    data_tb: float) -> None:
    rule_warnings = {"memory-below-reference", "few-data-drives", "network-below-minimum", "network-ports",
                     "numa-multi-socket"}
    s = sample(name, targets={}, workload={"data_tb": data_tb},
               platform={"server_id": None, "drive_id": None, "nic_id": None, "memory_gib": None,
                         "drives_per_host": None, "nics_per_host": None, "raid": None})
    r = size(s, catalog)
    assert not [w.code for w in r.warnings if w.code in rule_warnings], r.warnings

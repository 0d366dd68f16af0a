"""SAP IQ and PostgreSQL recommend the server (and drive) of lowest capex including the licences that follow its
cores, or of lowest N-year cost of ownership when the scenario minimises TCO (`licence_rank`), not the one of lowest
hardware price."""

from __future__ import annotations

from typing import Any

import pytest

from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.parts import SizingInputError, current
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

FREE = {"server_id": None, "drive_id": None, "nic_id": None}
IQ_500_TB = {"data_tb": 500, "compression_ratio": 3, "query_streams": 120}
EDB = {"licence_ids": ["edb-postgres-enterprise", "vmware-vsphere-foundation", "rhel-server-2-socket"]}
PG_24 = {"databases": [{"name": f"db{i}", "size_gb": 300, "peak_clients": 120, "working_set_gb": 60.0}
                       for i in range(24)]}


def _ranked(r: SizingResult, s: Scenario) -> float:
    """What the scenario minimises, on the full BOM: Totals.capex (perpetual licences in it) or Totals.tco."""
    return r.totals.tco if s.commercial.optimize_for == "tco" else r.totals.capex


def _short(r: SizingResult) -> bool:
    """A design short of the cores its load takes (ranked after every design that is not)."""
    return any(w.code == "nodes-capped" or (w.code == "small-vm" and w.field == "workload.vm_vcpus")
               for w in r.warnings)


def _sized_alone(s: Scenario, catalog: HardwareCatalog) -> list[tuple[str, SizingResult]]:
    out = []
    for server in current(catalog.servers, catalog):
        one = s.model_copy(update={"platform": s.platform.model_copy(update={"server_id": server.id})})
        try:
            out.append((server.id, size(one, catalog)))
        except SizingInputError:
            continue  # the server cannot hold the load (bays, memory, NIC)
    return out


@pytest.mark.parametrize(("name", "workload", "commercial"), [
    ("sap-iq", IQ_500_TB, {"optimize_for": "capex"}),
    ("sap-iq", IQ_500_TB, {"optimize_for": "tco"}),
    ("sap-iq", {"data_tb": 80, "query_streams": 40}, {"optimize_for": "tco", "currency": "EUR"}),
    ("pg-consolidation", PG_24, {**EDB, "optimize_for": "tco"}),
    ("pg-consolidation", PG_24, {**EDB, "optimize_for": "capex", "currency": "EUR"}),
    ("pg-consolidation", PG_24, {"optimize_for": "tco"}),
])
def test_no_server_sized_on_its_own_costs_less_than_the_recommendation_on_what_the_scenario_minimises(
    catalog: HardwareCatalog, name: str, workload: dict[str, Any], commercial: dict[str, Any]
) -> None:
    """Each server of the catalog sized on its own (server named, its cheapest design) is a design the free sizing
    could have recommended: none giving the load its cores may cost less, on the full BOM, than the recommendation
    (capex with the perpetual licences, or the N-year TCO), nor may the recommendation be short where one is not."""
    s = sample(name, workload=workload, platform=FREE, commercial=commercial)
    pick = size(s, catalog)
    alone = _sized_alone(s, catalog)
    assert len(alone) > 5  # not vacuous
    for server_id, r in alone:
        assert _short(pick) <= _short(r), server_id
        if _short(r) == _short(pick):
            assert round(_ranked(pick, s), 2) <= round(_ranked(r, s), 2), server_id
    assert {ln.currency for ln in pick.bom} == {s.commercial.currency}
    why = next(r.text for r in pick.rationale if r.decision == "Recommended parts")
    assert ("the lowest 5-year cost of ownership" if s.commercial.optimize_for == "tco"
            else "the lowest capex including licences") in why


def test_iq_picks_fewer_faster_cores_where_per_core_licences_outweigh_the_hardware(
    catalog: HardwareCatalog
) -> None:
    """500 TB at 3:1 for 120 streams, server free. Before: ranked on hardware alone, 16 x Dell R670 2 x Xeon 6740E
    (184 E-cores at 2.4 GHz) = 2,944 SAP IQ cores at 8,500 USD, 25.6 M USD capex (13 hosts, 2,392 cores, 20.9 M
    USD since SAP IQ's vSAN follows the shared OSA/ESA layout); now 21 x Dell R6625 2 x EPYC 9354 (2 x 32 cores),
    1,344 licensed cores, 12.2 M USD."""
    s = sample("sap-iq", workload=IQ_500_TB, platform=FREE)
    r = size(s, catalog)
    iq = next(ln for ln in r.bom if ln.part_id == "sap-iq-enterprise-core")
    before = s.model_copy(update={"platform": s.platform.model_copy(
        update={"server_id": "dell-r670-10x-u3-2x-xeon-6740e"})})
    old = size(before, catalog)
    old_iq = next(ln for ln in old.bom if ln.part_id == "sap-iq-enterprise-core")
    # the named server's every core is licensed (2 x 92 E-cores a host): the design the ranking has to beat
    assert old_iq.qty_per_host * old_iq.hosts == 184 * old.design.segment_hosts
    assert old.design.server_id == "dell-r670-10x-u3-2x-xeon-6740e"
    assert r.design.server_id != "dell-r670-10x-u3-2x-xeon-6740e"
    assert iq.qty_per_host * iq.hosts < old_iq.qty_per_host * old_iq.hosts
    # the premise: on the named server the licences are most of the capex; the free pick saves them
    assert old_iq.qty_per_host * old_iq.hosts * old_iq.unit_price > old.totals.capex / 2
    assert r.totals.capex < old.totals.capex * 0.75
    assert not _short(r)

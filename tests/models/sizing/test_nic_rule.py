"""One NIC rule for every workload kind (issue 28, item 4): with the card left free, Greenplum, SAP IQ and PostgreSQL
take the lowest price per port at the speed their design asks for among the cards whose ports the server's PCIe slot
carries at line rate; a PCIe 3.0 server never gets a dual 100 GbE card it would run at 126 of 200 Gbit/s."""

from __future__ import annotations

from typing import Any

import pytest

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.sizing.parts import carries
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import SizeOnce, sample

R720XD = "dell-r720xd-2x-e5-2690"  # PCIe 3.0
DL380E_GEN8 = "hpe-dl380e-gen8-2x-e5-2470"  # PCIe 3.0
R7625 = "dell-r7625-24x-u3-2x-epyc-9654"  # PCIe 5.0


def _free(name: str, server_id: str, **workload: Any) -> Any:
    return sample(name, workload=workload, platform={"server_id": server_id, "nic_id": None, "drive_id": None,
                                                     "drives_per_host": None})


def _check(r: SizingResult, catalog: HardwareCatalog, floor_gbps: float) -> None:
    """The design's card: carried at line rate by its server, at the floor where any carried card reaches it, and no
    carried card at the floor costs less per port; no warning of a card faster than its slot."""
    server, nic = catalog.server(r.design.server_id), catalog.nic(r.design.nic_id or "")
    assert carries(server, nic), (server.id, nic.id)
    carried = [n for n in catalog.current(catalog.nics) if carries(server, n)]
    at_floor = [n for n in carried if n.speed_gbps >= floor_gbps]
    if at_floor:
        assert nic.speed_gbps >= floor_gbps
        assert nic.price / nic.ports <= min(n.price / n.ports for n in at_floor) + 1e-9
    assert "nic-slot-slower" not in {w.code for w in r.warnings}
    why = next(x for x in r.rationale if x.decision == "NIC")
    assert f"PCIe {server.pcie_gen}.0 slot" in why.text


@pytest.mark.parametrize("server_id", [R720XD, R7625])
def test_greenplum_takes_a_card_its_slots_carry(size_once: SizeOnce, catalog: HardwareCatalog, server_id: str) -> None:
    """12 TB for 6 reports: on PCIe 3.0 the 25 GbE minimum (no dual 100 GbE card runs at line rate in a Gen3 x16
    slot), on PCIe 5.0 the 100 GbE study 002 recommends."""
    r = size_once(_free("retail-dw-gen5", server_id, data_tb=12, concurrent_queries=6))
    recommended = figure("sizing_rules", "network_recommended_gbps")
    server = catalog.server(server_id)
    has_recommended = any(carries(server, n) and n.speed_gbps >= recommended for n in catalog.current(catalog.nics))
    _check(r, catalog, recommended if has_recommended else figure("sizing_rules", "network_min_gbps"))
    assert (catalog.nic(r.design.nic_id or "").speed_gbps >= recommended) == has_recommended


def test_sap_iq_takes_a_card_its_slots_carry(size_once: SizeOnce, catalog: HardwareCatalog) -> None:
    r = size_once(sample("sap-iq", platform={"server_id": DL380E_GEN8, "nic_id": None}))
    _check(r, catalog, figure("sizing_rules", "network_min_gbps"))


def test_a_search_chooses_the_card_for_the_servers_it_searches(catalog: HardwareCatalog) -> None:
    """A scenario naming a PCIe 3.0 server, searched over every current server (as the optimizer does): the card is
    one every searched server carries at 100 GbE, not the 25 GbE card the named server alone would take."""
    from models.sizing.greenplum.candidates import Choices
    from models.sizing.greenplum.search import search_space
    from models.sizing.parts import resolve

    s = _free("retail-dw-gen5", R720XD, data_tb=8, concurrent_queries=4)
    servers = catalog.current(catalog.servers)
    assert R720XD not in {x.id for x in servers}
    space = search_space(s, s.workload, catalog, resolve(s, catalog),  # type: ignore[arg-type]
                         Choices(servers, catalog.current(catalog.drives), ("bare-metal",), ("none",), None))
    nic = space.net.nic
    assert nic is not None and nic.speed_gbps >= figure("sizing_rules", "network_recommended_gbps")
    assert all(carries(x, nic) for x in space.servers)

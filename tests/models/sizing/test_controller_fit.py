"""A storage controller fits the server it goes in (issue 29, item 4): a vendor's front controller is made for one
platform's servers (the PERC H965i Front DC-MHS for the 17th-generation R670 and R770), so a 15th-generation R750
takes no such card; a standard adapter fits any server and is listed with a warning where the vendor's own card
is not in the catalog; the cards per host follow the card's drive count in the catalog."""

from __future__ import annotations

import math

import pytest

from models.hardware import Controller, HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import BomLine, SizingResult
from tests.models.sizing.conftest import sample

R750 = "dell-r750-2x-gold-6342-24sas"  # Dell 15th generation, 24 SFF SAS bays
R770 = "dell-r770-24x-u3-2x-xeon-6787p"  # Dell 17th generation, tri-mode bays
HDD = "dell-2400gb-sas-10k-sff"


def _on(server: str, raid: str, drives: int = 12) -> Scenario:
    return sample("retail-dw-dual-socket-sas", targets={}, workload={"data_tb": 20}, platform={
        "server_id": server, "drive_id": HDD, "drives_per_host": drives, "raid": raid,
        "nic_id": "nvidia-connectx-6-lx-2x25gbe"}, commercial={"currency": "USD"})


def _cards(r: SizingResult) -> list[BomLine]:
    return [ln for ln in r.bom if ln.role == "segment host" and ln.kind == "controller"]


def _fit_warnings(r: SizingResult) -> list[str]:
    return [w.text for w in r.warnings if w.code == "controller-fit"]


def test_a_15th_generation_server_gets_no_17th_generation_card(catalog: HardwareCatalog) -> None:
    """RAID 5 on R750s: the catalog's only Dell RAID card is made for the R670 and R770, so the R750's drives go on a
    standard adapter that builds RAID 5, and the design says the Dell card for it is not in the catalog; the same
    drives on an R770 take the PERC and raise nothing."""
    r750, r770 = size(_on(R750, "raid5"), catalog), size(_on(R770, "raid5"), catalog)
    (old,) = _cards(r750)
    card = catalog.get(old.part_id)
    assert isinstance(card, Controller) and card.applies_to == "*" and card.builds("raid5")
    assert "PERC" not in old.description
    (said,) = _fit_warnings(r750)
    assert "PowerEdge R750" in said and card.model in said
    (new,) = _cards(r770)
    assert "PERC H965i" in new.description and not _fit_warnings(r770)


def test_a_vendor_card_of_unknown_fit_is_taken_and_said(catalog: HardwareCatalog) -> None:
    """A Dell HBA whose servers no source states (an older catalog's rows): the R750's pass-through drives go on it,
    and the design says its fit to the R750 is not stated."""
    r = size(_on(R750, "none"), catalog)
    (hba,) = _cards(r)
    card = catalog.get(hba.part_id)
    assert isinstance(card, Controller) and card.applies_to == "Dell" and card.servers == "" and not card.raid_levels
    (said,) = [w for w in _fit_warnings(r) if card.model in w]
    assert "PowerEdge R750" in said and "does not state" in said


def test_no_card_that_fits_is_warned_not_guessed(catalog: HardwareCatalog) -> None:
    """Without the standard adapters, the R750's RAID 5 has no card in the catalog: no controller line, warned."""
    lean = HardwareCatalog.of([p for p in catalog.parts if not (isinstance(p, Controller) and p.applies_to == "*")],
                              catalog.rates)
    r = size(_on(R750, "raid5"), lean)
    assert not _cards(r) and any(w.code == "no-controller" and "R750" in w.text for w in r.warnings)


@pytest.mark.parametrize("ports", [8, 16, 24])
def test_cards_per_host_follow_the_cards_drive_count(catalog: HardwareCatalog, ports: int) -> None:
    """20 SAS drives per R750 on a Dell RAID card made for it that connects `ports` drives: ceil(20 / ports) cards
    per host, each priced."""
    card = Controller("dell-test-raid", "Dell", "Test RAID card", 500.0, "USD", catalog.servers[0].price_as_of,
                      "test fixture", "SAS,SATA", "raid1,raid5,raid6", ports, "Dell", 10.0, servers="PowerEdge R750")
    own = HardwareCatalog.of([*catalog.parts, card], catalog.rates)
    r = size(_on(R750, "raid5", drives=20), own)
    (line,) = _cards(r)
    assert line.part_id == card.id and line.qty_per_host == math.ceil(20 / ports)
    assert f"{ports} per card" in line.note and not _fit_warnings(r)
    assert line.extended_price == 500.0 * line.qty

"""SAP IQ's network card is chosen before its vSAN layout, so the layout must run on it: each host's card at least
the host bandwidth VMware's vSAN networking requirements give the layout (ESA 25 GbE, all-flash OSA 10 GbE, hybrid
OSA a dedicated 1 GbE); a card below it leaves the layout out, and where none is left the design is refused naming
the card's field and the floor."""

from __future__ import annotations

import dataclasses
import re

import pytest

from models.hardware import HardwareCatalog, Nic
from models.sizing.engine import size
from models.sizing.parts import SizingInputError
from models.sizing.result import SizingResult
from models.sizing.sap_iq.storage import network_floor
from models.sizing.shared_storage import VsanLayout
from tests.models.sizing.conftest import sample

SLOW = "test-1gbe-card"
FREE = {"deployment": "vsphere", "server_id": None, "drive_id": None, "nic_id": None}


@pytest.fixture(scope="module")
def with_1gbe(catalog: HardwareCatalog) -> HardwareCatalog:
    """The seed catalog and a 1 GbE card (the seed's slowest is 10 GbE)."""
    ten = next(p for p in catalog.parts if isinstance(p, Nic) and p.speed_gbps == 10 and p.price_as_of.year > 2020)
    return HardwareCatalog.of([*catalog.parts, dataclasses.replace(ten, id=SLOW, model="1 GbE test card",
                                                                    speed_gbps=1.0)], catalog.rates)


def _iq(catalog: HardwareCatalog, platform: dict[str, object], **workload: object) -> SizingResult:
    return size(sample("sap-iq", platform={**FREE, **platform}, workload=workload), catalog)


def _layout(r: SizingResult, catalog: HardwareCatalog) -> VsanLayout:
    d = r.design
    drive = catalog.drive(d.drive_id or "")
    return VsanLayout(d.segment_hosts, "raid1-ftt1", drive, d.data_drives_per_host, drive, 0, 0.0, 0.0,
                      d.vsan_architecture or "osa")


@pytest.mark.parametrize("drive", ["samsung-pm1653-3840gb-sas-sff", "seagate-exos-10e2400-2400gb-sas-sff",
                                   "micron-7450-pro-3840gb-u3"])
def test_each_layout_runs_on_a_card_at_its_vsan_floor_and_says_so(catalog: HardwareCatalog, drive: str) -> None:
    r = _iq(catalog, {"drive_id": drive}, data_tb=4, query_streams=2)
    floor, _, what = network_floor(_layout(r, catalog))
    nic = catalog.get(r.design.nic_id or "")
    assert isinstance(nic, Nic) and nic.speed_gbps >= floor
    words = next(x for x in r.rationale if x.decision == "Shared storage (vSAN)")
    assert f"{what} datastore needs at least {floor:g} GbE per host" in words.text
    assert any("Networking Requirements for vSAN" in s for s in words.source)


def test_a_named_1gbe_card_refuses_an_all_flash_layout_naming_the_field(with_1gbe: HardwareCatalog) -> None:
    with pytest.raises(SizingInputError) as e:
        _iq(with_1gbe, {"nic_id": SLOW, "drive_id": "samsung-pm1653-3840gb-sas-sff"}, data_tb=4, query_streams=2,
            vsan_architecture="osa")
    (p,) = e.value.problems
    assert p.path == "platform.nic_id" and "at least 10 GbE" in p.message and "1 GbE" in p.message


def test_a_named_1gbe_card_keeps_a_hybrid_layout_only(with_1gbe: HardwareCatalog) -> None:
    """Drives free: the flash layouts are left out, a hybrid one (hard-disk capacity, 1 GbE floor) is kept."""
    r = _iq(with_1gbe, {"nic_id": SLOW}, data_tb=4, query_streams=2, vsan_architecture="osa")
    assert r.design.nic_id == SLOW
    assert with_1gbe.drive(r.design.drive_id or "").media == "hdd"
    assert network_floor(_layout(r, with_1gbe))[0] <= 1.0


def test_esa_on_hosts_at_its_minimums_with_a_10gbe_card_names_the_card_not_the_hosts(catalog: HardwareCatalog) -> None:
    """Before, the refusal said no server met ESA's 32 cores and 512 GiB (each server 'below vSAN ESA's host
    minimums ( or a 10 GbE card)'), though servers meeting them were refused for the card alone."""
    ten = next(p for p in catalog.parts if isinstance(p, Nic) and p.speed_gbps == 10 and p.price_as_of.year > 2020)
    with pytest.raises(SizingInputError) as e:
        _iq(catalog, {"nic_id": ten.id, "drive_id": "micron-7450-pro-3840gb-u3"}, data_tb=4, query_streams=2,
            vsan_architecture="esa")
    (p,) = e.value.problems
    assert p.path == "platform.nic_id" and "25 GbE per host vSAN ESA" in p.message and "cores" not in p.message


@pytest.mark.parametrize("drive", ["samsung-pm1653-3840gb-sas-sff", "seagate-exos-10e2400-2400gb-sas-sff"])
def test_a_catalog_without_cards_still_sizes_and_names_the_speed_the_card_needs(
        catalog: HardwareCatalog, drive: str) -> None:
    """No card to check against (a catalog without NICs; the design warns its network is unpriced): the layout is
    not ruled out, and the vSAN reason names the speed the card added must have, not '0 GbE ports'."""
    bare = HardwareCatalog.of([p for p in catalog.parts if not isinstance(p, Nic)], catalog.rates)
    r = _iq(bare, {"drive_id": drive}, data_tb=4, query_streams=2, vsan_architecture="osa")
    floor, _, what = network_floor(_layout(r, bare))
    words = next(x for x in r.rationale if x.decision == "Shared storage (vSAN)").text
    assert r.design.nic_id is None and re.search(r"(?<![\d.])0 GbE", words) is None
    assert f"the card each host still needs: {what} datastore needs at least {floor:g} GbE per host" in words

"""Right-sized parts for PostgreSQL on vSphere (issue 28, item 4): the fewest and smallest drives that give capacity,
IOPS and the vSAN minimum; parts of the server's generation (drive link within its controller, NIC ports its PCIe
slots carry at line rate, a 2010 server's era); vSAN OSA disk groups (no NVMe cache in front of NVMe) and vSAN ESA
(one NVMe tier on hosts that meet its minimums), each with its source."""

from __future__ import annotations

from typing import Any

import pytest

from models.calibration_data import figure
from models.hardware import Drive, HardwareCatalog, Nic
from models.sizing.engine import size
from models.sizing.parts import SizingInputError, carries, pcie_gbps
from models.sizing.result import SizingResult
from models.sizing.shared_storage import esa_host_short, raw_needed_tb
from tests.models.sizing.conftest import SizeOnce, sample

ML350_G6 = "hpe-ml350-g6-2x-e5620"  # 2010, PCIe 2.0, 6 Gb/s SAS (Smart Array P410i)
R720XD = "dell-r720xd-2x-e5-2690"  # 2012, PCIe 3.0, 6 Gb/s SAS


def _dbs(sizes_gb: list[float], clients: int = 5) -> list[dict[str, Any]]:
    return [{"name": f"d{i}", "size_gb": s, "peak_clients": clients, "working_set_gb": max(0.1, round(s / 5, 1))}
            for i, s in enumerate(sizes_gb)]


def _size(size_once: SizeOnce, dbs: list[dict[str, Any]], **workload: Any) -> SizingResult:
    platform = workload.pop("platform", None)
    more = {"platform": platform} if platform else {}  # an empty dict would replace the sample's platform
    return size_once(sample("pg-consolidation", workload={"databases": dbs, **workload}, **more))


def _drives(r: SizingResult, catalog: HardwareCatalog) -> list[Drive]:
    return [catalog.drive(b.part_id) for b in r.bom if b.kind == "drive" and b.role == "database host"]


def test_a_tiny_database_gets_one_small_drive_per_host_and_no_more(size_once: SizeOnce,
                                                                    catalog: HardwareCatalog) -> None:
    """Half a gigabyte on vSAN: one capacity drive per host on the policy's three hosts, and no current drive the
    server takes would give less raw capacity at the same or lower cost."""
    r = _size(size_once, _dbs([0.5]))
    d = r.design
    assert d.segment_hosts == 3 and d.data_drives_per_host == 1
    drive = catalog.drive(d.drive_id or "")
    assert d.raw_capacity_tb == pytest.approx(3 * drive.capacity_tb, abs=0.01)
    assert d.usable_capacity_tb >= d.data_needed_tb
    server = catalog.server(d.server_id)
    cheaper_smaller = [x for x in catalog.current(catalog.drives) if server.accepts(x) and x.price <= drive.price
                       and x.capacity_tb < drive.capacity_tb and x.random_write_iops >= drive.random_write_iops]
    assert not cheaper_smaller, [x.id for x in cheaper_smaller]


def test_no_nvme_cache_in_front_of_nvme_and_esa_has_no_cache_tier(size_once: SizeOnce,
                                                                   catalog: HardwareCatalog) -> None:
    """Twelve skewed databases, vSAN OSA then ESA asked for: OSA capacity drives are SAS/SATA behind a flash cache;
    ESA is one tier of NVMe devices (no cache line in the BOM) on hosts of 32+ cores and 512+ GiB with 25 GbE."""
    dbs = _dbs([0.3 * 2.3 ** (i % 8) for i in range(12)], clients=20)
    osa = _size(size_once, dbs, vsan_architecture="osa")
    assert osa.design.vsan_architecture == "osa"
    capacity, *cache = _drives(osa, catalog)
    assert not capacity.interface.startswith("NVMe") and len(cache) == 1
    esa = _size(size_once, dbs, vsan_architecture="esa")
    d = esa.design
    assert d.vsan_architecture == "esa"
    assert [x.interface[:4] for x in _drives(esa, catalog)] == ["NVMe"]  # one line: no cache device
    server = catalog.server(d.server_id)
    assert not esa_host_short(server.cores_total, d.memory_gib_per_host)
    assert d.network_gbps_per_host / max(d.nics_per_host, 1) >= figure("vsan_storage", "vsan_esa_min_gbps")
    assert any("vSAN ESA" in x.text and "no cache tier" in x.text for x in esa.rationale)
    assert any("Express Storage Architecture" in ref for x in esa.rationale for ref in x.source)


def test_esa_raid5_on_three_hosts_takes_the_2_plus_1_scheme(size_once: SizeOnce) -> None:
    """ESA's RAID-5 runs on three hosts (OSA's needs four) at 1.5x: raw capacity covers the stored TB at 1.5x with
    the slack kept free."""
    r = _size(size_once, _dbs([40.0, 80.0, 5.0]), vsan_architecture="esa", vsan_policy="raid5-ftt1")
    d = r.design
    assert d.vsan_architecture == "esa" and d.segment_hosts == 3
    assert d.raw_capacity_tb >= raw_needed_tb(d.data_needed_tb, "raid1-ftt1") * 0.75 - 1e-6  # 1.5x, not 2x


def test_esa_on_a_server_below_its_minimums_names_the_field(size_once: SizeOnce) -> None:
    with pytest.raises(SizingInputError) as refused:
        _size(size_once, _dbs([2.0]), vsan_architecture="esa", platform={"server_id": ML350_G6})
    (problem,) = refused.value.problems
    assert problem.path == "workload.vsan_architecture" and "32 cores" in problem.message


@pytest.mark.parametrize("server_id", [ML350_G6, R720XD])
def test_an_old_server_gets_drives_and_cards_of_its_generation(size_once: SizeOnce, catalog: HardwareCatalog,
                                                               server_id: str) -> None:
    """A 2010 and a 2012 server with 6 Gb/s SAS controllers: no 12G/24G SAS drive, no card whose ports their PCIe
    slots cannot carry (no 100 GbE in PCIe 2.0/3.0), on vSAN and on local datastores."""
    server = catalog.server(server_id)
    for storage in ("vsan", "local"):
        r = _size(size_once, _dbs([3.0, 3.0], clients=30), shared_storage=storage, platform={"server_id": server_id})
        for drive in _drives(r, catalog):
            assert server.of_its_generation(drive) and (drive.link_gbps or 0) <= (server.drive_link_gbps or 0)
        nic = catalog.get(r.design.nic_id or "")
        assert isinstance(nic, Nic) and carries(server, nic) and nic.speed_gbps < 100
        assert not [w for w in r.warnings if w.code in ("nic-slot-slower", "drive-link-faster")]


def test_a_named_card_the_slots_cannot_carry_is_warned(size_once: SizeOnce) -> None:
    r = _size(size_once, _dbs([3.0]), platform={"server_id": ML350_G6, "nic_id": "nvidia-connectx-7-2x100gbe",
                                                 "drive_id": "kioxia-pm7-r-7680gb-sas-sff"})
    codes = {w.code: w for w in r.warnings}
    assert "nic-slot-slower" in codes and f"{pcie_gbps(2, 16):.0f} Gbit/s" in codes["nic-slot-slower"].text
    assert codes["nic-slot-slower"].field == "platform.nic_id"
    assert "drive-link-faster" in codes and codes["drive-link-faster"].field == "platform.drive_id"


def test_local_datastores_take_the_speed_vmotion_needs_not_greenplums(size_once: SizeOnce) -> None:
    """A single database on local RAID: 10 GbE (vMotion's figure for VMs of few memory operations), where the
    Greenplum rule gave 100 GbE cards and switches to a 1 GB database."""
    r = _size(size_once, _dbs([1.0]), shared_storage="local")
    assert r.design.network_gbps_per_host / r.design.nics_per_host == 2 * figure("vsan_storage", "vmotion_min_gbps")
    assert any("vMotion" in x.text for x in r.rationale if x.decision == "NIC")


def test_values_used_names_the_architecture_chosen(catalog: HardwareCatalog) -> None:
    scenario = sample("pg-consolidation", workload={"databases": _dbs([7.0, 12.0])})
    used = {u.field: u for u in size(scenario, catalog).values_used}
    assert used["workload.vsan_architecture"].value in ("osa", "esa")


def _local(size_once: SizeOnce, dbs: list[dict[str, Any]], **platform: Any) -> SizingResult:
    return _size(size_once, dbs, shared_storage="local", platform={"raid": "raid10", **platform})


def test_a_small_local_estate_takes_one_mirrored_pair(size_once: SizeOnce, catalog: HardwareCatalog) -> None:
    """6.5 GB over three databases on local RAID 10: two SSDs hold the disks and serve the busiest hour, so each host
    gets one mirrored pair (RAID 1, RAID 10's two-drive form) and says why; on the same server no drive it takes at
    RAID 10 (four or more: hard disks for IOPS, the SSD at its floor) costs less, and the pair holds the data."""
    dbs = _dbs([3, 2.5, 1], clients=10)
    r = _local(size_once, dbs)
    d = r.design
    assert (d.raid, d.data_drives_per_host) == ("raid1", 2)
    assert d.usable_capacity_tb >= d.data_needed_tb
    storage = next(x for x in r.rationale if x.decision == "Storage")
    assert "two-drive form" in storage.text and "raid1 datastore of 2 x" in storage.text
    assert [(b.qty_per_host, b.hosts) for b in r.bom if b.kind == "drive" and b.role == "database host"] == [
        (2, d.segment_hosts)]
    server = catalog.server(d.server_id)
    takes = [x for x in catalog.current(catalog.drives) if server.accepts(x) and server.of_its_generation(x)]
    assert len(takes) > 1
    for drive in takes:
        try:
            alt = _local(size_once, dbs, server_id=server.id, drive_id=drive.id, drives_per_host=None)
        except SizingInputError:  # drives too slow for the busiest hour in the bays: no design to compare
            continue
        if alt.design.raid == "raid10":
            assert alt.design.data_drives_per_host >= 4 and alt.totals.capex >= r.totals.capex, drive.id


def test_hard_disks_that_two_cannot_serve_stay_raid10(size_once: SizeOnce) -> None:
    """A small estate, 2 clients each, pinned to 16 TB hard disks in LFF bays: two spindles do not
    serve the busiest hour's writes at the mirror's penalty, so RAID 10 keeps an even count of four or more."""
    r = _local(size_once, _dbs([2.5, 1.5, 3.5], clients=2), server_id="lenovo-sr655-v3-12x-lff-1x-epyc-9124",
               drive_id="seagate-exos-x16-16tb-sas-lff")
    assert r.design.raid == "raid10"
    assert r.design.data_drives_per_host >= 4 and r.design.data_drives_per_host % 2 == 0

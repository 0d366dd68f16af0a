"""Segments fit the disks (issue 27 item 5): the primaries load every data volume alike (gpinitsystem's
DATA_DIRECTORY and MIRROR_DATA_DIRECTORY go round-robin over them), a hard disk carries one primary and one mirror,
and several scan streams on one spindle cost the scan its head movements. Cases on hard disks and NVMe, 4-24 drives,
16-192 cores, group and spread mirroring, bare metal and vSphere, with and without RAID."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from app.export.config.gp_layout import spread
from app.export.config.naming import Naming
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, Platform
from models.sizing.engine import size
from models.sizing.greenplum import drive_share, metrics, segments, volumes
from models.sizing.greenplum.candidates import Candidates, enumerate_candidates
from models.sizing.greenplum.context import needed_tb
from models.sizing.parts import NetworkChoice
from tests.models.sizing.conftest import sample

HDD = "seagate-exos-10e2400-2400gb-sas-sff"  # 2.4 TB 10k SAS
NVME = "micron-7450-pro-3840gb-u3"
SAS_SERVER = "dell-r750-2x-gold-6342-24sas"  # 2 x 24 cores, 24 SFF bays
R7625 = "dell-r7625-24x-u3-2x-epyc-9654"  # 2 x 96 cores, 24 U.3 bays


def _cands(catalog: HardwareCatalog, server: str, drive: str, drives: int, deployment: str, raid: str,
           cores: int) -> Candidates:
    c = enumerate_candidates([catalog.server(server)], [catalog.drive(drive)], [deployment], [raid], drives)
    return dataclasses.replace(c, cores_total=np.full(len(c), float(cores)))


@settings(max_examples=60, deadline=None)
@given(drives=st.integers(4, 24), cores=st.integers(16, 192), queries=st.integers(1, 60),
       mirroring=st.sampled_from(["group", "spread"]), hdd=st.booleans(), raid=st.sampled_from(["none", "raid10"]),
       deployment=st.sampled_from(["bare-metal", "vsphere"]), fixed=st.booleans())
def test_primaries_load_every_volume_alike_and_a_disk_carries_one(
    catalog: HardwareCatalog, drives: int, cores: int, queries: int, mirroring: str, hdd: bool, raid: str,
    deployment: str, fixed: bool,
) -> None:
    server = SAS_SERVER if hdd else R7625
    c = _cands(catalog, server, HDD if hdd else NVME, drives,
               deployment, raid, cores)
    if not len(c):
        return  # no such layout (RAID 10 on an odd count, a count the VMs do not share)
    w = GreenplumAnalytics(data_tb=20, concurrent_queries=queries, mirroring=mirroring)  # type: ignore[arg-type]
    plat = Platform(drives_per_host=drives if fixed else None)
    sp = segments.plan(w, c, plat)
    vms = int(sp.vms_per_host[0])
    unit = int(sp.primaries_per_host[0]) // vms
    per_vm = drives // vms
    vols = per_vm if raid == "none" else 1
    assert int(sp.volumes[0]) == vols
    assert unit * vms == int(sp.primaries_per_host[0]) and 1 <= unit <= max(cores // vms, 1)
    if hdd:
        assert unit <= per_vm  # one primary (and one mirror) per spindle
    else:
        assert unit <= 4 * per_vm
    even = bool(volumes.is_even(np.array([unit]), np.array([vols]), True)[0])
    assert even or bool(sp.off_tier[0])  # an uneven layout is always said
    if even:  # what gpinitsystem writes: every volume the same primaries, and the same instances
        mounts = tuple(f"/data{i}" for i in range(1, vols + 1))
        prim = spread(unit, mounts, Naming(), "primary_dir")
        mirr = spread(unit, mounts, Naming(), "mirror_dir", unit)
        load = [sum(m in d for d in prim + mirr) for m in (f"{x}/" for x in mounts)]
        assert len(set(load)) == 1, (unit, vols, load)
        assert len({sum(m in d for d in prim) for m in (f"{x}/" for x in mounts)}) == 1 or unit < vols
    wanted = int(sp.wanted[0]) // vms
    assert unit <= wanted or (fixed and unit == int(volumes.fewest_even(np.array([vols]), True)[0]))
    assert bool(sp.off_tier[0]) == (unit != wanted or not even)


def test_21_primaries_on_8_drives_and_16_on_12_become_even(catalog: HardwareCatalog) -> None:
    """Type 2 on a 64-core host asked 21 primaries on 8 drives (3/3/3/3/3/2/2/2); 16 on 12 drives (2 on four drives,
    1 on eight): now 16 (2 per drive) and 12 (1 per drive), and the design says which drive counts carry the tier's."""
    s = next(x for x in catalog.current(catalog.servers) if x.cores_total == 64 and x.sockets == 1
             and x.data_bays >= 8 and any(x.accepts(d) and d.interface.startswith("NVMe") for d in catalog.drives))
    drive = next(d for d in catalog.drives if s.accepts(d) and d.interface.startswith("NVMe"))
    r = size(sample("retail-dw-gen5", targets={}, platform={"server_id": s.id, "drive_id": drive.id,
                                                           "drives_per_host": 8}), catalog)
    assert r.design.primary_segments_per_host == 16 and r.design.mirror_segments_per_host == 16
    w = next(x for x in r.warnings if x.code == "segments-off-tier")
    assert "give 21 primary segments per host" in w.text and "7, 21" in w.text
    r = size(sample("retail-dw-gen5", targets={}, platform={"drives_per_host": 12}), catalog)
    assert r.design.primary_segments_per_host == 12
    text = next(x.text for x in r.rationale if x.decision == "Primary segments per host")
    assert "Even over the 12 data volumes per host: 12 primaries = 1 on each volume" in text


def test_drive_counts_left_free_carry_the_tier_count(catalog: HardwareCatalog) -> None:
    """With the drive count left to refarch, a count that carries the tier's primaries evenly wins over a cheaper
    uneven one: study 002's 8 / 16 / 32 on its Gen5 host (and no warning)."""
    for queries, primaries in ((40, 8), (20, 16), (3, 32)):
        r = size(sample("retail-dw-gen5", workload={"concurrent_queries": queries}, targets={}), catalog)
        d = r.design
        assert d.primary_segments_per_host == primaries
        assert primaries % d.data_drives_per_host == 0 or d.data_drives_per_host == 2 * primaries
        assert "segments-off-tier" not in {x.code for x in r.warnings}


def test_hard_disks_carry_one_primary_each_where_nvme_carries_four(catalog: HardwareCatalog) -> None:
    """8 hard disks on a 96-core host took 32 primaries and 32 mirrors (8 instances per spindle); now 8."""
    plat = {"server_id": "dell-r7715-24x-u3-1x-epyc-9655p", "drives_per_host": 8}
    nvme = size(sample("retail-dw-gen5", targets={}, workload={"concurrent_queries": 3},
                       platform={**plat, "drive_id": NVME}), catalog)
    assert nvme.design.primary_segments_per_host == 32
    sas = next(s for s in catalog.current(catalog.servers) if s.cores_total >= 96 and s.accepts(catalog.drive(HDD)))
    hdd = size(sample("retail-dw-gen5", targets={}, workload={"concurrent_queries": 3},
                      platform={"server_id": sas.id, "drive_id": HDD, "drives_per_host": 8}), catalog)
    assert hdd.design.primary_segments_per_host == 8
    text = next(x.text for x in hdd.rationale if x.decision == "Primary segments per host")
    assert "8 x 1 = 8 (hard disks, one primary (and one mirror) per spindle)" in text


def test_shared_spindles_slow_the_scan_flash_and_one_stream_per_disk_do_not(catalog: HardwareCatalog) -> None:
    """16 primaries on one RAID volume of 8 hard disks: every primary's stream reaches every spindle, so each read-ahead
    run (8 MB over the 8 spindles) pays a head positioning; two per disk without RAID pay one per 8 MB run; one
    primary per disk, or flash, pays none."""
    w = GreenplumAnalytics(data_tb=20, concurrent_queries=3)
    net = NetworkChoice(catalog.nics[0], 2)
    shares = {}
    for drive, raid in ((HDD, "raid10"), (HDD, "none"), (NVME, "raid10")):
        server = SAS_SERVER if drive == HDD else R7625
        c = _cands(catalog, server, drive, 8, "bare-metal", raid, 48)
        primaries, vms = np.array([16]), np.array([1])
        share = drive_share.scan_share(c, primaries, vms)
        shares[drive, raid] = 1.0 if share is None else float(share[0])
        grouped = metrics.GpContext.of(w, c, primaries, vms, net, needed_tb(w))
        d = catalog.drive(drive)
        assert float(grouped.shape.raid_read_factor[0]) <= 1.0
        if shares[drive, raid] < 1:
            run_s = drive_share.readahead_mb() / (8 if raid != "none" else 1) / d.seq_read_mb_s
            assert np.isclose(shares[drive, raid], run_s / (run_s + 1 / d.random_read_iops))
    assert shares[HDD, "raid10"] < shares[HDD, "none"] < 1.0 == shares[NVME, "raid10"]
    assert drive_share.scan_share(_cands(catalog, SAS_SERVER, HDD, 8, "bare-metal", "none", 48), np.array([8]),
                                  np.array([1])) is None  # one primary per disk


@settings(max_examples=8, deadline=None)
@given(queries=st.integers(1, 60), mirroring=st.sampled_from(["group", "spread"]), start=st.integers(0, 6000))
def test_the_evaluations_groups_give_the_plan_of_every_row(catalog: HardwareCatalog, queries: int, mirroring: str,
                                                          start: int) -> None:
    """A chunk of hard disks and flash, bare metal and vSphere, three RAID levels: the plan found once per group
    (server, drive count, deployment, RAID level, drive kind) equals the plan of each row, primaries, VMs and the
    off-tier flag alike; the groups hold one drive kind each."""
    c = enumerate_candidates(catalog.servers, catalog.drives, ["bare-metal", "vsphere"], ["none", "raid5", "raid10"])
    chunk = c.take(np.arange(start, min(start + 4096, len(c))))
    groups = segments.by_spindles(segments.host_layouts(chunk), chunk.spinning)
    assert groups is not None and isinstance(groups, segments.HostLayouts)
    assert np.array_equal(chunk.spinning, chunk.spinning[groups.rep][groups.which])
    w = GreenplumAnalytics(data_tb=20, concurrent_queries=queries, mirroring=mirroring)  # type: ignore[arg-type]
    primaries, vms, off = segments.by_layout(w, chunk, None, groups)
    rows = segments.plan(w, chunk)
    assert np.array_equal(primaries, rows.primaries_per_host) and np.array_equal(vms, rows.vms_per_host)
    assert np.array_equal(off, rows.off_tier)

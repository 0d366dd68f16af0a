"""The datastores of PostgreSQL database hosts: what they must serve at the busiest hour, and the drives that do.

A host's local datastore (RAID) or the cluster's one vSAN datastore must hold every VM's DATA and WAL
virtual disks and serve the busiest hour's reads, writes (at the RAID level's or the vSAN policy's write
penalty) and WAL stream with the drives at most `storage_busy_max` busy (`pg_tuning_docs`).
`design` picks the cheapest server and drive from these counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.calibration_data import figure
from models.hardware import Drive
from models.sizing.postgres.placement import HostPlan
from models.sizing.postgres.quick_place import HOURS
from models.sizing.rules import drives_valid_for_raid, raid_capacity_factor
from models.sizing.shared_storage import VsanLayout, layout_for, write_penalty
from models.vocabulary import RAIDS

DS = "pg_tuning_docs"
VS = "vsan_storage"
GB_PER_TB = 1000.0
ZERO_FLOWS = np.zeros((3, HOURS))  # reads, writes and WAL of no database: where a host's sums start


def raid_write_penalty(raid: str) -> float:
    """Back-end writes per host write on a local RAID datastore: 2 for mirrors, 4 for RAID 5, else 1."""
    if RAIDS[raid].mirrored:
        return figure(DS, "raid_write_penalty_mirror")
    if raid == "raid5":
        return figure(DS, "raid_write_penalty_raid5")
    return 1.0


@dataclass(frozen=True)
class HostStorage:
    """What one host's datastore must serve at its busiest hour, and hold."""

    capacity_gb: float  # DATA + WAL virtual disks
    read_iops: float
    write_iops: float
    wal_mb_s: float


def host_storage(plan: HostPlan) -> HostStorage:
    """Capacity of every VM disk on the host, and its reads, writes and WAL at the hour the disks are busiest.

    `host_storage_each`'s figures: the databases' hourly I/O is stacked under a row of zeros and accumulated down
    the stack (`np.add.accumulate` adds row after row, the loop's additions in the loop's order) in one call."""
    flows = [t for vm in plan.vms for t in vm.io_by_hour]
    sums = np.add.accumulate(np.array([ZERO_FLOWS, *flows]), axis=0)[-1] if flows else np.zeros((3, HOURS))
    return _busiest(sum([io.data_disk_gb + io.wal_disk_gb for vm in plan.vms for io in vm.io]), *sums)


def host_storage_each(plan: HostPlan) -> HostStorage:
    """`host_storage`, summing each database's hourly I/O in turn."""
    reads = np.zeros(HOURS)
    writes = np.zeros(HOURS)
    wal = np.zeros(HOURS)
    for vm in plan.vms:
        for r, w, m in vm.io_by_hour:
            reads += r
            writes += w
            wal += m
    return _busiest(sum(io.data_disk_gb + io.wal_disk_gb for vm in plan.vms for io in vm.io), reads, writes, wal)


def _busiest(cap: float, reads: np.ndarray, writes: np.ndarray, wal: np.ndarray) -> HostStorage:
    disk_io = reads + writes  # the busiest hour of the mix
    h = int(np.argmax(disk_io)) if len(disk_io) else 0
    return HostStorage(cap, float(reads[h]), float(writes[h]), float(wal.max()))


def drives_for(storage: HostStorage, drive: Drive, raid: str, requested: int | None, bays: int) -> int | None:
    """Fewest drives (valid for the RAID level) that hold the disks and serve the busiest hour's I/O."""
    busy = figure(DS, "storage_busy_max")
    pen = raid_write_penalty(raid)
    per_drive_load = (storage.read_iops / max(drive.random_read_iops, 1e-9)
                      + storage.write_iops * pen / max(drive.random_write_iops, 1e-9))
    bw = storage.wal_mb_s * pen / max(drive.seq_write_mb_s, 1e-9)
    need_for_io = max(per_drive_load, bw) / busy

    def holds(n: int) -> bool:  # capacity and I/O: both only improve with more drives
        usable_gb = n * drive.capacity_tb * float(raid_capacity_factor(raid, n)) * GB_PER_TB
        return usable_gb >= storage.capacity_gb and n >= need_for_io

    def fits(n: int) -> bool:
        return 1 <= n <= bays and bool(drives_valid_for_raid(raid, n)) and holds(n)

    if requested is not None:
        return requested if fits(requested) else None
    if not math.isfinite(need_for_io) or not math.isfinite(storage.capacity_gb):
        return None
    # Closed form for the capacity bound (RAID-5 loses one drive, mirrors half), then a step or two
    # of the exact test around it, so rounding cannot move the answer; was one test per bay count.
    per_drive_gb = max(drive.capacity_tb * GB_PER_TB, 1e-9)
    if RAIDS[raid].mirrored:
        per_drive_gb *= float(raid_capacity_factor(raid, 2))
    n = max(1, math.ceil(storage.capacity_gb / per_drive_gb) + (1 if raid == "raid5" else 0), math.ceil(need_for_io))
    n = min(n, bays + 1)
    while n > 1 and holds(n - 1):
        n -= 1
    while n <= bays and not holds(n):
        n += 1
    for m in range(n, min(n + 4, bays + 1)):  # the RAID level's minimum and parity: a few counts up
        if fits(m):
            return m
    return next((m for m in range(min(n + 4, bays + 1), bays + 1) if fits(m)), None)


def cluster_storage(hosts: list[HostPlan]) -> HostStorage:
    """The busiest hour of the whole cluster: what one vSAN datastore serves."""
    return host_storage(HostPlan(tuple(vm for h in hosts for vm in h.vms), ()))


def vsan_for(storage: HostStorage, policy: str, hosts: int, drive: Drive, flash: list[Drive], bays: int,
             requested: int | None, archs: frozenset[str] = frozenset({"osa", "esa"})) -> VsanLayout | None:
    """The vSAN layout holding the DATA and WAL disks and serving the busiest hour's I/O at the policy's write
    penalty: an NVMe drive as vSAN ESA's one tier (no cache device in front of NVMe), a SAS/SATA drive in OSA disk
    groups behind the cheapest flash cache device that holds its share (the same model may cache); None where the
    drive's architecture is not in `archs`."""
    busy = figure(DS, "storage_busy_max")
    load = (storage.read_iops / max(drive.random_read_iops, 1e-9)
            + storage.write_iops * write_penalty(policy) / max(drive.random_write_iops, 1e-9))
    bw = storage.wal_mb_s * write_penalty(policy) / max(drive.seq_write_mb_s, 1e-9)
    per_host_for_io = math.ceil(max(load, bw) / busy / hosts - 1e-9)
    least = max(per_host_for_io, requested or 1)
    return layout_for(storage.capacity_gb / GB_PER_TB, policy, hosts, drive, flash, bays, least, archs)

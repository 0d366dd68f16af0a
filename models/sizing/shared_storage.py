"""Shared storage that survives a host failure: vSAN disk groups under a storage policy, or an external SAN.

vSAN (study 003's layout, VMware vSAN Design Guide):

* a storage policy multiplies what is stored: RAID-1 FTT=1 x2 (3 hosts at least: two replicas
  and a witness), RAID-5 erasure coding x1.33 (4 hosts), RAID-6 x1.5 (FTT=2, 6 hosts); erasure
  coding needs all-flash capacity drives;
* the datastore keeps 30 % slack (rebuilds after a failure, rebalancing);
* each host's capacity drives sit in disk groups of 1 flash cache device and 1-7 capacity
  drives, at most 5 groups per host; the cache tier is 10 % of the capacity consumed before
  the policy's copies (study 003: 70 % of each SSD read cache, 30 % write buffer).

External SAN: the nodes have no data drives; the array's usable capacity is a BOM line, filled
to at most 70 %.

Figures: `resources/calibration/vsan_storage.json` and `sapiq_dqp_003.json`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from models.calibration_data import figure, point
from models.hardware import Drive
from models.problems import Problem

DS = "vsan_storage"
STUDY = "sapiq_dqp_003"
ESA_SHORT = "below vSAN ESA's host minimums"
DEVICES_FIELD = "platform.drives_per_host"

VsanPolicy = Literal["raid1-ftt1", "raid5-ftt1", "raid6-ftt2"]
POLICIES: dict[str, tuple[str, str, int, str]] = {
    # policy: (factor point, min-hosts point, failures to tolerate, fault tolerance method)
    "raid1-ftt1": ("raid1_ftt1_factor", "raid1_ftt1_min_hosts", 1, "RAID-1 (Mirroring)"),
    "raid5-ftt1": ("raid5_ftt1_factor", "raid5_ftt1_min_hosts", 1, "RAID-5/6 (Erasure Coding)"),
    "raid6-ftt2": ("raid6_ftt2_factor", "raid6_ftt2_min_hosts", 2, "RAID-5/6 (Erasure Coding)"),
}


def cite(point_id: str, dataset: str = DS) -> str:
    return point(dataset, point_id).source.cite()


def policy_factor(policy: str) -> float:
    """Raw capacity a policy consumes per TB stored.

    >>> policy_factor("raid1-ftt1"), round(policy_factor("raid5-ftt1"), 3), policy_factor("raid6-ftt2")
    (2.0, 1.333, 1.5)
    """
    return figure(DS, POLICIES[policy][0])


def vsan_max_hosts() -> int:
    """The most hosts one vSAN cluster holds (VMware configuration maximums, vSAN 6.0 and later): a design
    needing more is not buildable as one datastore.

    >>> vsan_max_hosts()
    64
    """
    return int(figure(DS, "vsan_max_hosts_per_cluster"))


def policy_min_hosts(policy: str) -> int:
    """The fewest hosts a policy can place its components on.

    >>> [policy_min_hosts(p) for p in ("raid1-ftt1", "raid5-ftt1", "raid6-ftt2")]
    [3, 4, 6]
    """
    return int(figure(DS, POLICIES[policy][1]))


def is_flash(drive: Drive) -> bool:
    return drive.interface.startswith("NVMe") or drive.random_read_iops >= figure(DS, "flash_min_iops")


def raw_needed_tb(stored_tb: float, policy: str) -> float:
    """Raw vSAN capacity for `stored_tb` of virtual disks: x the policy's copies, with the slack kept free.

    >>> round(raw_needed_tb(10.0, "raid1-ftt1"), 2)
    28.57
    """
    return stored_tb * policy_factor(policy) / (1.0 - figure(DS, "slack_fraction"))


@dataclass(frozen=True, slots=True)
class VsanLayout:
    hosts: int
    policy: str
    capacity_drive: Drive
    capacity_per_host: int
    cache_drive: Drive
    disk_groups_per_host: int
    raw_tb: float  # capacity tier of the whole cluster
    usable_tb: float  # what the virtual disks may take: raw less slack, divided by the policy's copies
    # "osa": disk groups, `cache_drive` in front of each; "esa": one storage pool of NVMe devices per host, no cache
    # tier (disk_groups_per_host 0, cache_drive the capacity device itself, not priced again)
    architecture: str = "osa"

    @property
    def drives_per_host(self) -> int:
        return self.capacity_per_host + self.disk_groups_per_host


def vsan_layout(
    stored_tb: float, policy: str, hosts: int, capacity: Drive, cache_choices: list[Drive], bays: int,
    min_capacity_per_host: int = 1,
) -> VsanLayout | None:
    """The cheapest disk-group layout on `hosts` hosts holding `stored_tb`, or None when the bays cannot.

    `hosts` below the policy's minimum is raised to it (the caller's count is a floor).
    """
    hosts = max(hosts, policy_min_hosts(policy))
    if policy != "raid1-ftt1" and not is_flash(capacity):
        return None  # erasure coding runs on all-flash disk groups only
    per_group_max = int(figure(STUDY, "vsan_hdd_per_disk_group_max"))
    groups_max = int(figure(STUDY, "vsan_max_disk_groups_per_host"))
    raw = raw_needed_tb(stored_tb, policy)
    cap_per_host = max(1, min_capacity_per_host, math.ceil(raw / hosts / capacity.capacity_tb - 1e-9))
    groups = math.ceil(cap_per_host / per_group_max)
    if groups > groups_max or cap_per_host + groups > bays:
        return None
    consumed_per_host_tb = stored_tb / hosts
    cache_per_group_tb = figure(DS, "cache_ratio_of_consumed") * consumed_per_host_tb / groups
    caches = [d for d in cache_choices if is_flash(d) and d.capacity_tb >= cache_per_group_tb]
    if not caches:
        return None
    cache = min(caches, key=lambda d: (d.price, d.capacity_tb))  # the cheapest, then the smallest that holds it
    raw_tb = hosts * cap_per_host * capacity.capacity_tb
    usable = raw_tb * (1.0 - figure(DS, "slack_fraction")) / policy_factor(policy)
    return VsanLayout(hosts, policy, capacity, cap_per_host, cache, groups, raw_tb, usable)


def esa_policy_factor(policy: str, hosts: int) -> float:
    """Raw capacity a policy consumes per TB stored on vSAN ESA: RAID-1 as OSA (2x), RAID-5 adapts to the cluster
    (2+1 on 3-5 hosts, 4+1 from 6), RAID-6 4+2 (1.5x).

    >>> [esa_policy_factor("raid5-ftt1", n) for n in (3, 5, 6)], esa_policy_factor("raid1-ftt1", 3)
    ([1.5, 1.5, 1.25], 2.0)
    """
    if policy != "raid5-ftt1":
        return policy_factor(policy)
    wide = hosts >= figure(DS, "vsan_esa_raid5_wide_min_hosts")
    return figure(DS, "vsan_esa_raid5_wide_factor" if wide else "vsan_esa_raid5_narrow_factor")


def esa_min_hosts(policy: str) -> int:
    """The fewest hosts a policy places its components on with vSAN ESA (RAID-5 2+1 needs three).

    >>> [esa_min_hosts(p) for p in ("raid1-ftt1", "raid5-ftt1", "raid6-ftt2")]
    [3, 3, 6]
    """
    return int(figure(DS, "vsan_esa_raid5_min_hosts")) if policy == "raid5-ftt1" else policy_min_hosts(policy)


def esa_host_short(cores: int, memory_gib: float) -> str:
    """What keeps a host out of vSAN ESA (VMware's host minimums), or "" when it meets them.

    >>> esa_host_short(16, 384.0)
    '16 cores (at least 32) and 384 GiB (at least 512)'
    >>> esa_host_short(32, 768.0)
    ''
    """
    short = []
    if cores < figure(DS, "vsan_esa_min_host_cores"):
        short.append(f"{cores} cores (at least {figure(DS, 'vsan_esa_min_host_cores'):g})")
    if memory_gib < figure(DS, "vsan_esa_min_host_memory_gib"):
        short.append(f"{memory_gib:g} GiB (at least {figure(DS, 'vsan_esa_min_host_memory_gib'):g})")
    return " and ".join(short)


def esa_layout(stored_tb: float, policy: str, hosts: int, device: Drive, bays: int,
               min_per_host: int = 1) -> VsanLayout | None:
    """One storage pool of NVMe devices per host holding `stored_tb` (vSAN ESA: every device caches and stores),
    or None when the device is not NVMe or the bays cannot hold it; `hosts` below the policy's minimum is raised.

    >>> from datetime import date
    >>> nvme = Drive("n", "v", "3.84TB", 650.0, "USD", date(2026, 1, 1), "s", "NVMe Gen4", "U.2", 3.84, 1, 1, 1, 1, 1)
    >>> lay = esa_layout(0.006, "raid1-ftt1", 3, nvme, 10)
    >>> lay.capacity_per_host, lay.disk_groups_per_host, round(lay.raw_tb, 2), lay.architecture
    (2, 0, 23.04, 'esa')
    """
    if not device.interface.startswith("NVMe"):
        return None
    hosts = max(hosts, esa_min_hosts(policy))
    factor = esa_policy_factor(policy, hosts)
    raw = stored_tb * factor / (1.0 - figure(DS, "slack_fraction"))
    per_host = max(esa_min_devices(), min_per_host, math.ceil(raw / hosts / device.capacity_tb - 1e-9))
    if per_host > bays:
        return None
    raw_tb = hosts * per_host * device.capacity_tb
    usable = raw_tb * (1.0 - figure(DS, "slack_fraction")) / factor
    return VsanLayout(hosts, policy, device, per_host, device, 0, raw_tb, usable, "esa")


def esa_min_devices() -> int:
    """The fewest NVMe devices one vSAN ESA host's storage pool is laid out with (vsan_storage.json says where the
    figure stands: a refarch assumption until the ReadyNode profile table is cited).

    >>> esa_min_devices()
    2
    """
    return int(figure(DS, "vsan_esa_min_devices_per_host"))


def vsan_architectures(asked: str | None, cores: int, memory_gib: float, nic_gbps: float | None = None
                       ) -> tuple[str, ...]:
    """The vSAN architectures a host may take: the one asked for, else both, less ESA where the host is below its
    core and memory minimums or (`nic_gbps` given: a card chosen before the layout) its network minimum.

    >>> vsan_architectures(None, 64, 1024.0), vsan_architectures(None, 16, 1024.0), vsan_architectures("esa", 64, 1024)
    (('osa', 'esa'), ('osa',), ('esa',))
    >>> vsan_architectures(None, 64, 1024.0, nic_gbps=10.0)
    ('osa',)
    """
    slow = nic_gbps is not None and nic_gbps < figure(DS, "vsan_esa_min_gbps")
    return tuple(a for a in ((asked,) if asked else ("osa", "esa"))
                 if a == "osa" or not (esa_host_short(cores, memory_gib) or slow))


def fewest_hosts(policy: str, archs: tuple[str, ...]) -> int:
    """The fewest hosts `policy` places its components on in any of `archs` (ESA's RAID-5 2+1 needs three).

    >>> fewest_hosts("raid5-ftt1", ("osa",)), fewest_hosts("raid5-ftt1", ("osa", "esa"))
    (4, 3)
    """
    return min((esa_min_hosts(policy) if a == "esa" else policy_min_hosts(policy)) for a in archs)


def layout_for(stored_tb: float, policy: str, hosts: int, drive: Drive, cache_choices: list[Drive], bays: int,
               least: int, archs: tuple[str, ...] | frozenset[str]) -> VsanLayout | None:
    """The one vSAN rule every workload lays its datastore out by: an NVMe drive as vSAN ESA's single tier (every
    device caches and stores: never NVMe capacity behind a cache device), a SAS/SATA drive in OSA disk groups behind
    a flash cache device; None where the drive's architecture is not in `archs`, or (ESA) where `least`, the
    devices asked for per host, is below ESA's per-host minimum: the design never lays out fewer than it says.

    >>> from datetime import date
    >>> nvme = Drive("n", "v", "3.84TB", 650.0, "USD", date(2026, 1, 1), "s", "NVMe Gen4", "U.2", 3.84, 1, 1, 1, 1, 1)
    >>> layout_for(1.0, "raid1-ftt1", 3, nvme, [], 10, 1, ("osa",)) is None
    True
    >>> layout_for(1.0, "raid1-ftt1", 3, nvme, [nvme], 10, 1, ("osa", "esa")).disk_groups_per_host
    0
    """
    if drive.interface.startswith("NVMe"):
        return esa_layout(stored_tb, policy, hosts, drive, bays, least) if "esa" in archs else None
    if "osa" not in archs:
        return None
    return vsan_layout(stored_tb, policy, hosts, drive, cache_choices, bays, least)


def esa_devices_problem(requested: int | None, asked: str | None, drive: Drive | None) -> Problem | None:
    """`platform.drives_per_host` below the devices a vSAN ESA host is laid out with, where ESA is the only
    architecture left (asked for, or an NVMe drive named): the field named with its limit (the design never silently
    lays out more than was asked; with OSA still open, OSA takes the count)."""
    esa_only = asked == "esa" or (drive is not None and drive.interface.startswith("NVMe"))
    if not esa_only or requested is None or requested >= esa_min_devices():
        return None
    src = point(DS, "vsan_esa_min_devices_per_host").source
    return Problem(DEVICES_FIELD, f"{requested} NVMe device(s) per host is below the {esa_min_devices()} a vSAN ESA"
                   f" host's storage pool is laid out with (refarch assumption; {src.cite()}); give at least"
                   f" {esa_min_devices()}, vsan_architecture 'osa' with SAS/SATA drives, or leave it empty")


def esa_refusal(too_small: list[str]) -> Problem:
    """vSAN ESA asked for where no server that could be chosen meets its host minimums."""
    return Problem("workload.vsan_architecture",
                   f"vSAN ESA needs hosts of at least {figure(DS, 'vsan_esa_min_host_cores'):g} cores and"
                   f" {figure(DS, 'vsan_esa_min_host_memory_gib'):g} GiB"
                   f" ({point(DS, 'vsan_esa_min_host_cores').source.cite()}); no server that could be chosen has"
                   f" them ({'; '.join(too_small[:3])}): choose 'osa', or a server that meets them")


def least_raw_needed_tb(stored_tb: float, policy: str) -> float:
    """The least raw capacity any vSAN layout of the policy takes for `stored_tb`: the OSA or ESA copies, whichever
    are fewer at any host count, with the slack kept free.

    >>> [round(least_raw_needed_tb(10.0, p), 2) for p in ("raid1-ftt1", "raid5-ftt1", "raid6-ftt2")]
    [28.57, 17.86, 21.43]
    """
    factor = min(policy_factor(policy), esa_policy_factor(policy, 1), esa_policy_factor(policy, vsan_max_hosts()))
    return stored_tb * factor / (1.0 - figure(DS, "slack_fraction"))


def write_penalty(policy: str) -> float:
    """Back-end I/Os per guest write: every copy for mirroring, read-modify-write of data and parity for erasure
    coding (RAID-5: 2 reads + 2 writes, RAID-6: 3 + 3).

    >>> [write_penalty(p) for p in ("raid1-ftt1", "raid5-ftt1", "raid6-ftt2")]
    [2.0, 4.0, 6.0]
    """
    if policy == "raid1-ftt1":
        return policy_factor(policy)
    return 2.0 * (POLICIES[policy][2] + 1)


def san_usable_tb(stored_tb: float) -> float:
    """External SAN capacity to buy for `stored_tb` of LUNs at the fill limit.

    >>> san_usable_tb(7.0)
    10.0
    """
    return math.ceil(stored_tb / figure(DS, "san_fill_max") * 10) / 10

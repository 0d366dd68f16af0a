"""The parts of one server's hosts: the network card each host takes and the datastore's drives, the fewest and
smallest that give capacity, IOPS and the vSAN minimums at the lowest cost.

* Network: the card of the lowest price per port at the speed the design needs (vSAN OSA all-flash 10 GbE, vSAN
  ESA 25 GbE, local datastores vMotion's 10 GbE), and only one whose every port the server's PCIe slot carries at
  line rate (`parts.carries`: a dual 100 GbE card in a PCIe 2.0 server would not); a server older than every
  current card takes the catalog's cards of its own generation.
* vSAN: a SAS/SATA drive in OSA disk groups behind a flash cache device, an NVMe drive as ESA's single tier on hosts
  that meet ESA's minimums (`workload.vsan_architecture`, else both); more hosts only where no drive fits the bays.
* Local: each host's RAID datastore with the drive count its busiest host needs.
Equal cost goes to the layout with less raw capacity.
"""

from __future__ import annotations

from models.calibration_data import figure, point
from models.hardware import Drive, HardwareCatalog, Server
from models.percent import percent
from models.scenario import PostgresConsolidation, Scenario
from models.sizing.parts import (
    NetworkChoice,
    ResolvedParts,
    candidate_drives,
    carried_nics,
    drives_of_its_generation,
    nics_per_host,
    pick_nic,
    slot_words,
)
from models.sizing.postgres.datastore import (
    VS,
    HostStorage,
    cluster_storage,
    drives_for,
    host_storage,
    vsan_for,
)
from models.sizing.postgres.limits import cluster_max_hosts, host_memory
from models.sizing.postgres.placement import HostPlan, PgVm, ha_failures, pack_hosts
from models.sizing.postgres.state import Packing
from models.sizing.result import Rationale
from models.sizing.shared_storage import (
    VsanLayout,
    esa_min_devices,
    esa_min_hosts,
    esa_policy_factor,
    is_flash,
    policy_min_hosts,
    vsan_architectures,
)
from models.vocabulary import RAIDS

MAX_EXTRA_STORAGE_HOSTS = 64  # hosts added only for vSAN capacity before a server is given up

# the network speed each kind of datastore needs, and what needs it
FLOORS = {"osa": ("vsan_osa_all_flash_min_gbps", "vSAN OSA needs for an all-flash datastore"),
          "esa": ("vsan_esa_min_gbps", "vSAN ESA needs"),
          "local": ("vmotion_min_gbps", "vMotion needs for VMs of few memory operations (local datastores)")}


def architectures(w: PostgresConsolidation, scenario: Scenario, server: Server) -> tuple[str, ...]:
    """The datastore layouts the server's hosts may take: "local", or the vSAN architectures asked for (both when
    `workload.vsan_architecture` is empty) less ESA where the host is below its minimums."""
    if (w.shared_storage or ("vsan" if w.vsphere_ha else "local")) != "vsan":
        return ("local",)
    return vsan_architectures(w.vsan_architecture, server.cores_total,
                              float(scenario.platform.memory_gib or server.memory_gib))


def host_network(catalog: HardwareCatalog, parts: ResolvedParts, server: Server, requested: int | None,
                 arch: str) -> tuple[NetworkChoice, Rationale | None]:
    """The named card, else (`parts.pick_nic`, the rule of every kind) the lowest price per port at the speed `arch`
    needs among the cards whose ports the server's slot carries at line rate (current ones first, else the catalog's
    of the server's generation), else the fastest such card below that speed."""
    if parts.nic:
        return NetworkChoice(parts.nic, nics_per_host(parts.nic, requested)), None
    point_id, what = FLOORS[arch]
    floor = figure(VS, point_id)
    nic, fast = pick_nic(carried_nics(catalog, [server]), floor)
    if nic is None:
        return NetworkChoice(None, 0), None
    why = (f"{nic.vendor} {nic.model}: the lowest price per port at the {floor:g} GbE {what}" if fast else
           f"{nic.vendor} {nic.model}: the fastest card the server takes, below the {floor:g} GbE {what}")
    slot, slot_src = slot_words([server])
    return NetworkChoice(nic, nics_per_host(nic, requested)), Rationale(
        "NIC", why + slot + ".", point(VS, point_id).source.cite() + slot_src)


def cheapest_vsan(scenario: Scenario, w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts,
                  server: Server, vms: list[PgVm], hosts: list[HostPlan],
                  nets: dict[str, NetworkChoice]) -> Packing | None:
    """The cheapest layout of one vSAN datastore over `server` hosts, each architecture with its own network card
    (`nets`); when no drive fits the bays of the hosts the VMs need, hosts are added (up to MAX_EXTRA_STORAGE_HOSTS)
    until one does."""
    available = host_memory(scenario, w, server)[1]  # as the caller packed `hosts` on
    flash = [d for d in drives_of_its_generation(catalog, server) if is_flash(d)]  # the OSA cache devices
    whole = cluster_storage(hosts)
    drives = candidate_drives(catalog, parts, server)
    best: Packing | None = None
    for n in range(len(hosts), min(len(hosts) + MAX_EXTRA_STORAGE_HOSTS, cluster_max_hosts(True)) + 1):
        spread = hosts if n == len(hosts) else pack_hosts(
            vms, server.cores_total, available, ha_failures(w), server.numa_nodes, server.cores_per_numa_node, n)
        if spread is None:
            continue
        storage = None  # each host's, taken once for every layout that is cheaper
        for drive in drives:
            lay = vsan_for(whole, w.vsan_policy, len(spread), drive, flash, server.data_bays,
                           scenario.platform.drives_per_host, frozenset(nets))
            if lay is None:
                continue
            net = nets[lay.architecture]
            per_host = lay.capacity_per_host * drive.price + lay.disk_groups_per_host * lay.cache_drive.price
            capex = len(spread) * (server.price + per_host + net.price_per_host)
            if best is None or (capex, lay.raw_tb) < (best.capex, best.vsan.raw_tb if best.vsan else 0.0):
                storage = storage if storage is not None else [host_storage(h) for h in spread]
                best = Packing(server, drive, spread, storage, lay.drives_per_host, available, capex, lay, net)
        if best is not None:
            break
    return best


def cheapest_local(scenario: Scenario, catalog: HardwareCatalog, parts: ResolvedParts, server: Server,
                   hosts: list[HostPlan], available: float, net: NetworkChoice, raid: str) -> Packing | None:
    """The cheapest drive and count for each host's local datastore at `raid`, then the least raw capacity: every host
    gets the drive count its busiest host needs. RAID 10 also takes its two-drive form, RAID 1 (one mirrored pair:
    the same write penalty and usable half), where two drives hold and serve every host: a small estate gets two
    small SSDs where four or more disks were the floor."""
    storage = [host_storage(h) for h in hosts]
    best: Packing | None = None
    best_raw = 0.0
    for drive in candidate_drives(catalog, parts, server):
        for level in local_levels(raid):
            per_host = local_drives(storage, drive, level, scenario.platform.drives_per_host, server.data_bays,
                                    pair_only=level != raid)
            if per_host is None:
                continue
            capex = len(hosts) * (server.price + per_host * drive.price + net.price_per_host)
            raw = per_host * drive.capacity_tb
            if best is None or (capex, raw) < (best.capex, best_raw):
                best, best_raw = Packing(server, drive, hosts, storage, per_host, available, capex, net=net,
                                         raid=level), raw
    return best


def local_levels(raid: str) -> tuple[str, ...]:
    """The RAID levels a local datastore asked at `raid` may be built at: RAID 10 and its two-drive form, RAID 1.

    >>> local_levels("raid10"), local_levels("raid5")
    (('raid10', 'raid1'), ('raid5',))
    """
    return (raid, "raid1") if raid == "raid10" else (raid,)


def local_drives(storage: list[HostStorage], drive: Drive, level: str, requested: int | None, bays: int,
                 pair_only: bool = False) -> int | None:
    """The drives per host at `level` the busiest host needs (`pair_only`: one mirrored pair or nothing), None where
    none do."""
    counts = [drives_for(s, drive, level, requested, bays) for s in storage]
    if any(c is None for c in counts):
        return None
    per_host = max(c for c in counts if c is not None)
    return per_host if not pair_only or per_host == RAIDS["raid1"].min_drives else None


def nic_of(nets: dict[str, tuple[NetworkChoice, Rationale | None]], p: Packing) -> Rationale | None:
    """The network rationale of the architecture the packing took."""
    return nets[p.vsan.architecture if p.vsan is not None else "local"][1]


def vsan_words(lay: VsanLayout, hosts: int) -> str:
    """The vSAN datastore in words: hosts, policy, and each host's OSA disk groups or ESA storage pool."""
    text = (f"one vSAN datastore across the {hosts} hosts (policy {lay.policy}: VMs of a failed host restart on the"
            " others with their disks; at least ")
    drive = lay.capacity_drive
    if lay.architecture == "esa":
        return text + (f"{esa_min_hosts(lay.policy)} hosts), vSAN ESA: per host one storage pool of"
                       f" {lay.capacity_per_host} x {drive.capacity_tb:g} TB {drive.model} NVMe (at least"
                       f" {esa_min_devices()}, a refarch assumption), each device both cache and capacity (no cache"
                       f" tier), {percent(figure(VS, 'slack_fraction'))} slack kept free;"
                       f" raw capacity at {esa_policy_factor(lay.policy, hosts):g}x for the policy on {hosts} hosts")
    return text + (f"{policy_min_hosts(lay.policy)} hosts), vSAN OSA: per host {lay.disk_groups_per_host} disk"
                   f" group(s) of 1 x {lay.cache_drive.model} cache in front of {lay.capacity_per_host} x"
                   f" {drive.capacity_tb:g} TB {drive.model} in all (cache at least"
                   f" {percent(figure(VS, 'cache_ratio_of_consumed'))} of the capacity consumed),"
                   f" {percent(figure(VS, 'slack_fraction'))} slack kept free")


def vsan_sources(lay: VsanLayout) -> str:
    """The VMware documents the layout follows."""
    ids: tuple[str, ...]
    if lay.architecture == "esa":
        ids = ("vsan_esa_single_tier", "vsan_esa_min_host_cores", "vsan_esa_min_devices_per_host",
               *(("vsan_esa_raid5_narrow_factor",) if lay.policy == "raid5-ftt1" else ()))
    else:
        ids = ("cache_ratio_of_consumed", "slack_fraction")
    return "; ".join(dict.fromkeys(point(VS, i).source.cite() for i in ids))

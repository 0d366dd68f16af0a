"""The shared dbspace storage of a SAP IQ multiplex: vSAN on the IQ hosts, laid out as OSA disk groups or an ESA
storage pool by the one vSAN rule every workload takes (`shared_storage.layout_for`), or an external SAN.

* OSA (study 003's layout): each host's SAS/SATA capacity drives in disk groups behind a flash cache device.
* ESA: each host's NVMe devices in one storage pool, every device both cache and capacity (no cache tier, so no
  NVMe capacity ever sits behind a cache device), on hosts that meet ESA's core, memory and network minimums.
* SAN: the nodes have no data drives; the array is one BOM line of usable TB, on quote until it has a price.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.calibration_data import figure, point
from models.hardware import CURRENT_WITHIN_YEARS, Drive, Server
from models.percent import percent
from models.scenario import SapIqMultiplex
from models.sizing import bom
from models.sizing.parts import NetworkChoice
from models.sizing.result import BomLine, Rationale, Warning
from models.sizing.sap_iq.node import STUDY, IqOption
from models.sizing.settings import Setting, SettingGroup
from models.sizing.shared_storage import (
    POLICIES,
    VsanLayout,
    esa_min_devices,
    esa_min_hosts,
    esa_policy_factor,
    is_flash,
    policy_factor,
    policy_min_hosts,
    raw_needed_tb,
)

VS = "vsan_storage"
IQ_NODE = "IQ node"  # the role of every node's BOM lines; the layouts show the coordinator, writers and readers


def _cite(pid: str, ds: str = STUDY) -> str:
    return point(ds, pid).source.cite()


def cache_choices(flash: list[Drive], capacity: Drive) -> list[Drive]:
    """Flash cache devices one could buy alongside `capacity`: priced within the catalog's currency window of it
    (a 2014 capacity drive pairs with a 2014 SSD, as in study 003), another model than the capacity drive."""
    def years(d: Drive) -> float:
        return abs((d.price_as_of - capacity.price_as_of).days) / 365.25

    same_era = [d for d in flash if years(d) <= CURRENT_WITHIN_YEARS]
    return [d for d in same_era if d.id != capacity.id] or same_era


@dataclass(frozen=True)
class SharedStorage:
    """What the shared dbspace storage adds to the design: its reason, settings, parts, capacity and power."""

    rationale: Rationale
    settings: tuple[SettingGroup, ...]
    drive_id: str | None
    drives_per_node: int  # capacity drives, as layouts and the design count them
    raid: str
    raw_tb: float
    usable_tb: float
    lines: list[BomLine]  # the IQ nodes' lines with their drives, then any shared-storage line
    drive_w: float  # per node, for the power estimate
    drives_for_power: int  # multiplier of drive_w (1: drive_w already covers every drive)
    warnings: list[Warning]
    architecture: str | None = None  # vSAN: "osa" or "esa"


def _osa_words(lay: VsanLayout, stored_tb: float) -> tuple[str, str]:
    """The OSA layout in words, and its sources: the policy's copies, the disk groups and their cache devices."""
    ftt, method = POLICIES[lay.policy][2], POLICIES[lay.policy][3]
    return (
        f"vSAN OSA, policy {lay.policy} ({method}, failures to tolerate {ftt}) stores"
        f" x{policy_factor(lay.policy):.2f} and needs at least {policy_min_hosts(lay.policy)} hosts; with"
        f" {percent(figure(VS, 'slack_fraction'))} slack kept free, {stored_tb:,.2f} TB of dbspaces need"
        f" {raw_needed_tb(stored_tb, lay.policy):,.1f} TB raw. Per host: {lay.disk_groups_per_host} disk group(s),"
        f" each 1 x {lay.cache_drive.model} cache ({figure(STUDY, 'vsan_ssd_read_cache_pct'):g} % read cache /"
        f" {figure(STUDY, 'vsan_ssd_write_buffer_pct'):g} % write buffer, at least"
        f" {percent(figure(VS, 'cache_ratio_of_consumed'))} of consumed capacity) in front of up to"
        f" {figure(STUDY, 'vsan_hdd_per_disk_group_max'):g} capacity drives: {lay.capacity_per_host} x"
        f" {lay.capacity_drive.capacity_tb:g} TB {lay.capacity_drive.model}.",
        f"{_cite('slack_fraction', VS)}; {_cite('raid1_ftt1_min_hosts', VS)}; {_cite('vsan_ssd_read_cache_pct')};"
        f" {_cite('vsan_hdd_per_disk_group_max')}",
    )


def _esa_words(lay: VsanLayout, stored_tb: float) -> tuple[str, str]:
    """The ESA layout in words, and its sources: one storage pool per host, the policy's copies on this many hosts."""
    ftt, method = POLICIES[lay.policy][2], POLICIES[lay.policy][3]
    factor = esa_policy_factor(lay.policy, lay.hosts)
    raw = stored_tb * factor / (1.0 - figure(VS, "slack_fraction"))
    drive = lay.capacity_drive
    return (
        f"vSAN ESA, policy {lay.policy} ({method}, failures to tolerate {ftt}) stores x{factor:.2f} on"
        f" {lay.hosts} hosts and needs at least {esa_min_hosts(lay.policy)}; with"
        f" {percent(figure(VS, 'slack_fraction'))} slack kept free, {stored_tb:,.2f} TB of dbspaces need {raw:,.1f}"
        f" TB raw. Per host one storage pool of {lay.capacity_per_host} x {drive.capacity_tb:g} TB {drive.model}"
        f" NVMe, each device both cache and capacity (no cache tier; at least {esa_min_devices()} devices per host,"
        " a refarch assumption until VMware's ReadyNode profile table is cited).",
        f"{_cite('slack_fraction', VS)}; {_cite('vsan_esa_single_tier', VS)}; {_cite('vsan_esa_min_host_cores', VS)};"
        f" {_cite('vsan_esa_min_devices_per_host', VS)}"
        + (f"; {_cite('vsan_esa_raid5_narrow_factor', VS)}" if lay.policy == "raid5-ftt1" else ""),
    )


def _policy_settings(lay: VsanLayout) -> SettingGroup:
    """The storage policy the dbspace disks get (study 003's best practice)."""
    ftt, method = POLICIES[lay.policy][2], POLICIES[lay.policy][3]
    where = (f"one storage pool of {lay.capacity_per_host} NVMe device(s)" if lay.architecture == "esa" else
             f"{lay.capacity_per_host} capacity drive(s) in {lay.disk_groups_per_host} disk group(s)")
    return SettingGroup("vsan-policy", "iq-dbspaces", (
        Setting("hostFailuresToTolerate", ftt, "", f"the dbspaces stay available through {ftt} host failure(s)",
                _cite("vsan_host_failures_to_tolerate")),
        Setting("replicaPreference", method, "", f"policy {lay.policy}", _cite(POLICIES[lay.policy][0], VS)),
        Setting("stripeWidth", int(min(figure(STUDY, "vsan_stripe_width"), lay.capacity_per_host)), "",
                f"spread each replica over several capacity drives (study 003 best practice); each host has {where}"
                + ("" if lay.capacity_per_host >= figure(STUDY, "vsan_stripe_width") else
                   f", fewer than the study's {figure(STUDY, 'vsan_stripe_width'):g} (platform.drives_per_host),"
                   " so the stripe is as wide as the drives"), _cite("vsan_stripe_width")),
        Setting("proportionalCapacity", int(figure(STUDY, "vsan_proportional_capacity_pct")), "",
                "thick-provision the dbspace disks", _cite("vsan_proportional_capacity_pct")),
    ))


def network_floor(lay: VsanLayout) -> tuple[float, str, str]:
    """The host bandwidth (Gbit/s) the layout's vSAN traffic needs, its point and what needs it: ESA 25, OSA 10 for
    all-flash, 1 (dedicated) for hybrid (VMware vSAN 8 Planning and Deployment, Networking Requirements for vSAN).

    >>> from datetime import date
    >>> def drive(iops): return Drive("d", "v", "d", 1.0, "USD", date(2026, 1, 1), "s", "SAS", "2.5in", 4, 1, 1, iops,
    ...                               1, 1)
    >>> def lay(iops, arch="osa"): return VsanLayout(3, "raid1-ftt1", drive(iops), 4, drive(90000), 1, 1, 1, arch)
    >>> [network_floor(lay(*a))[0] for a in ((90000,), (150,), (90000, "esa"))]
    [10.0, 1.0, 25.0]
    """
    if lay.architecture == "esa":
        return esa_floor()
    if is_flash(lay.capacity_drive):
        return figure(VS, "vsan_osa_all_flash_min_gbps"), "vsan_osa_all_flash_min_gbps", "an all-flash vSAN OSA"
    return figure(VS, "vsan_osa_hybrid_min_gbps"), "vsan_osa_hybrid_min_gbps", "a hybrid vSAN OSA"


def esa_floor() -> tuple[float, str, str]:
    """vSAN ESA's host bandwidth (Gbit/s), its point and what needs it (`network_floor`'s ESA term)."""
    return figure(VS, "vsan_esa_min_gbps"), "vsan_esa_min_gbps", "vSAN ESA"


def carries_vsan(lay: VsanLayout, net: NetworkChoice) -> bool:
    """Whether each host's card runs at the bandwidth the layout's vSAN traffic needs (`network_floor`); with no card
    at all (a catalog without one: the design already warns that its network is unpriced) nothing rules a layout out,
    and the rationale names the speed the card added must have."""
    return net.nic is None or net.nic.speed_gbps >= network_floor(lay)[0]


def _network_words(lay: VsanLayout, net: NetworkChoice) -> tuple[str, str]:
    floor, pid, what = network_floor(lay)
    ports = f"each host's {net.nic.speed_gbps:g} GbE ports" if net.nic else "the card each host still needs"
    return (f" The vSAN traffic (writes to every copy, resyncs after a failure) runs on {ports}:"
            f" {what} datastore needs at least {floor:g} GbE per host"
            f"{' dedicated to vSAN' if pid == 'vsan_osa_hybrid_min_gbps' else ''}.", _cite(pid, VS))


def vsan_storage(lay: VsanLayout, nodes: int, server: Server, stored_tb: float, net: NetworkChoice) -> SharedStorage:
    """vSAN under the storage policy: OSA disk groups behind their cache devices, or an ESA storage pool per host,
    and the policy settings the dbspace disks get; the network it needs (`network_floor`)."""
    words, sources = (_esa_words if lay.architecture == "esa" else _osa_words)(lay, stored_tb)
    net_words, net_source = _network_words(lay, net)
    rationale = Rationale("Shared storage (vSAN)", f"{words} Raw {lay.raw_tb:,.1f} TB holds {lay.usable_tb:,.1f} TB"
                          f" of dbspaces.{net_words}", f"{sources}; {net_source}")
    # layouts and the design count the capacity drives; OSA's cache devices are their own BOM line (ESA has none)
    lines = bom.host_lines(IQ_NODE, nodes, bom.HostBuild(server, lay.capacity_drive, lay.capacity_per_host,
                                                         net.nic, net.nics_per_host))
    if lay.disk_groups_per_host:
        lines.insert(2, bom.line(IQ_NODE, lay.cache_drive, lay.disk_groups_per_host, nodes, "drive"))
    drive_w = lay.capacity_per_host * lay.capacity_drive.watts + lay.disk_groups_per_host * lay.cache_drive.watts
    return SharedStorage(rationale, (_policy_settings(lay),), lay.capacity_drive.id, lay.capacity_per_host,
                         f"vsan-{lay.policy}", lay.raw_tb, lay.usable_tb, lines, drive_w, 1, [], lay.architecture)


def san_storage(w: SapIqMultiplex, o: IqOption, server: Server, stored_tb: float, net: NetworkChoice) -> SharedStorage:
    """An external SAN shared by every node, as one BOM line of usable TB: priced, or on quote until it is."""
    nodes = o.nodes
    rationale = Rationale(
        "Shared storage (SAN)",
        f"The dbspaces live on an external SAN shared by all {nodes} nodes: {stored_tb:,.2f} TB of LUNs at"
        f" most {percent(figure(VS, 'san_fill_max'))} full = {o.san_tb:,.1f} TB usable on the array (its own RAID"
        " protects against drive failures; multipath to every node).",
        _cite("san_fill_max", VS),
    )
    lines = bom.host_lines(IQ_NODE, nodes, bom.HostBuild(server, nic=net.nic, nics=net.nics_per_host))
    price = w.san_price_per_tb or 0.0
    # a SAN priced in another currency is converted with the rest of the BOM (sizing.commercial); unpriced, the line
    # reads "on quote" (never 0.00) and the capex says it leaves the array out
    lines.append(BomLine("shared storage", "external-san", f"External SAN array, usable TB for the IQ"
                         f" dbspaces ({o.san_tb:g} TB)", math.ceil(o.san_tb), 1, price, w.san_currency, "storage",
                         price_status="on_quote" if w.san_price_per_tb is None else "priced"))
    warnings = []
    if w.san_price_per_tb is None:
        # the field is named by the warning's field (the form marks it, the report titles it), not by its JSON path
        warnings.append(Warning("san-unpriced", "The external SAN has no price: capex leaves it out; get a quote"
                                                " from the storage vendor and enter its price per usable TB.",
                                "warning", "workload.san_price_per_tb"))
    return SharedStorage(rationale, (), None, 0, "external-san", 0.0, o.san_tb, lines, 0.0, 0, warnings)

"""Sizing rules, each returning its value together with the reason and the source.

The numbers come from `resources/calibration/sizing_rules.json` (the studies) and
`vendor_docs.json` (Greenplum and PostgreSQL documentation). Numeric rules take
scalars or numpy arrays so the optimizer runs them over many candidates at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure, point
from models.sizing.result import Rationale
from models.vocabulary import RAIDS

RULES = "sizing_rules"
DOCS = "vendor_docs"


def cite(dataset_name: str, point_id: str) -> str:
    return point(dataset_name, point_id).source.cite()


# --- Primary segments per host (study 002) ---------------------------------------


@dataclass(frozen=True, slots=True)
class SegmentChoice:
    primaries_per_host: int
    tier: str
    rationale: Rationale


def segments_for_concurrency(concurrent_queries: int, physical_cores: int) -> SegmentChoice:
    """Primary segments per host by the study-002 concurrency tiers, capped at the physical cores.

    The study leaves 6-9 concurrent queries between Type 3 (1-5) and Type 2 (10-30).
    We give them Type 2's 16: each running query holds at least one process per
    primary segment, so 32 segments x 6-9 queries would run 190-290 query processes
    per host, several times the cores of any host in the catalog, while 16 keeps it
    near the Type 2 load the study validated.
    """
    hi_threshold = figure(RULES, "segments_type1_threshold_queries")
    t2_min = figure(RULES, "segments_type2_min_queries")
    t3_max = figure(RULES, "segments_type3_max_queries")
    if concurrent_queries > hi_threshold:
        tier, pid = "Type 1 (more than 30 concurrent queries)", "segments_type1_high_concurrency"
    elif concurrent_queries >= t2_min:
        tier, pid = "Type 2 (10-30 concurrent queries)", "segments_type2_low_concurrency"
    elif concurrent_queries <= t3_max:
        tier, pid = "Type 3 (1-5 concurrent queries)", "segments_type3_ultra_low_concurrency"
    else:
        tier = "between Type 3 and Type 2 (6-9 concurrent queries): treated as Type 2"
        pid = "segments_type2_low_concurrency"
    tiered = int(figure(RULES, pid))
    noun = "query" if concurrent_queries == 1 else "queries"
    text = f"{concurrent_queries} concurrent {noun} is {tier}: {tiered} primary segments per host."
    if 5 < concurrent_queries < 10:
        text += (
            f" The study gives no tier for 6-9 queries; 32 segments would run {32 * concurrent_queries}+"
            f" query processes per host, so the Type 2 count is used."
        )
    chosen = tiered
    source = cite(RULES, pid)
    if tiered > physical_cores:
        chosen = physical_cores
        text += f" Capped at the host's {physical_cores} physical cores (segments should almost never exceed cores)."
        source += "; " + cite(RULES, "segments_not_above_cores")
    return SegmentChoice(chosen, tier, Rationale("Primary segments per host", text, source))


# --- Capacity (Greenplum capacity planning) ----------------------------------------


def raid_capacity_factor(raid: str, drives: ArrayLike) -> NDArray[np.float64]:
    """Share of raw capacity left by the RAID level: mirrored 1/2, RAID-5 (n-1)/n, none 1."""
    n = np.asarray(drives, dtype=float)
    if RAIDS[raid].mirrored:
        return np.full_like(n, figure(DOCS, "gp_capacity_mirror_raid_factor"))
    if raid == "raid5":
        return np.where(n > 1, (n - 1) / np.maximum(n, 1), 0.0)
    return np.ones_like(n)


def user_data_capacity_tb(
    drive_capacity_tb: ArrayLike, drives_per_host: ArrayLike, raid: str, mirrors: bool
) -> NDArray[np.float64]:
    """User data one host holds: raw x 0.9 x RAID factor x 0.7 / (2 + 1/3) with mirrors, / (1 + 1/3) without."""
    raw = np.asarray(drive_capacity_tb, dtype=float) * np.asarray(drives_per_host, dtype=float)
    formatted = raw * figure(DOCS, "gp_capacity_format_factor") * raid_capacity_factor(raid, drives_per_host)
    usable = formatted * figure(DOCS, "gp_capacity_max_fill")
    workspace = figure(DOCS, "gp_capacity_workspace_fraction")
    per_host: NDArray[np.float64] = usable / ((2.0 if mirrors else 1.0) + workspace)
    return per_host


def capacity_rationale(mirrors: bool, raid: str) -> Rationale:
    copies = "(2 + 1/3) with mirrors" if mirrors else "(1 + 1/3) without mirrors"
    return Rationale(
        "Usable capacity",
        f"raw x 0.9 (formatting) x RAID factor ({raid}) x 0.7 (fill limit) / {copies}; data needed at the horizon"
        " = data x (1 + growth)^years / compression ratio.",
        cite(DOCS, "gp_capacity_format_factor"),
    )


def data_needed_tb(data_tb: float, growth_pct_per_year: float, horizon_years: int, compression_ratio: float) -> float:
    return data_tb * (1.0 + growth_pct_per_year / 100.0) ** horizon_years / compression_ratio


def drives_valid_for_raid(raid: str, drives: ArrayLike) -> NDArray[np.bool_]:
    """Drive counts a RAID level can be built on: at least its minimum; mirrored levels in pairs."""
    n = np.asarray(drives)
    ok = n >= RAIDS[raid].min_drives
    if RAIDS[raid].mirrored:
        ok &= n % 2 == 0
    return np.asarray(ok)


def raid5_alignment_advice(drives_per_raid_group: int) -> Rationale:
    """RAID-5 full stripe = strip x (drives - 1) should cover the ~260 KB average I/O (study 002)."""
    avg_io = figure(RULES, "raid5_avg_io_kb")
    data_drives = max(drives_per_raid_group - 1, 1)
    # largest power-of-two strip whose full stripe still fits inside one average I/O, so each I/O
    # fills at least one whole stripe (study: 32 KB x 7 = 224 KB for a 260 KB average)
    fit = 4
    while fit * 2 * data_drives <= avg_io:
        fit *= 2
    text = (
        f"RAID-5 over {drives_per_raid_group} drives: use a {fit} KB strip so one full stripe"
        f" ({fit} KB x {data_drives} = {fit * data_drives} KB) is close to the ~{avg_io:.0f} KB average I/O,"
        " and align every partition to the full stripe: unaligned partitions caused about 3x read and write"
        " inflation in the study (read-modify-write cycles)."
    )
    return Rationale(
        "RAID-5 alignment", text, f"{cite(RULES, 'raid5_avg_io_kb')}; {cite(RULES, 'raid5_unaligned_inflation')}"
    )


# --- Memory: gp_vmem_protect_limit (Greenplum 6) -------------------------------------


def gp_vmem_mb(ram_gib: ArrayLike, swap_gib: ArrayLike) -> NDArray[np.float64]:
    """gp_vmem = ((SWAP + RAM) - (7.5 GB + 0.05 x RAM)) / 1.7 (RAM < 256 GB) or / 1.17, in MB."""
    ram = np.asarray(ram_gib, dtype=float)
    swap = np.asarray(swap_gib, dtype=float)
    reserve = figure(DOCS, "gp_vmem_os_reserve_gb") + figure(DOCS, "gp_vmem_os_reserve_ram_fraction") * ram
    divisor = np.where(
        ram >= figure(DOCS, "gp_vmem_large_ram_threshold_gb"),
        figure(DOCS, "gp_vmem_divisor_large_ram"),
        figure(DOCS, "gp_vmem_divisor_small_ram"),
    )
    vmem_mb: NDArray[np.float64] = np.maximum((swap + ram - reserve) / divisor, 0.0) * 1024.0
    return vmem_mb


# --- vSphere: one VM per NUMA node (study 000) ------------------------------------------


def hypervisor_reserve_gib(host_memory_gib: float) -> float:
    return max(
        host_memory_gib * figure(RULES, "hypervisor_reserve_fraction"), figure(RULES, "hypervisor_reserve_min_gib")
    )


def vm_memory_gib(host_memory_gib: float, vms: int, reserve_gib: float | None = None) -> float:
    reserve = hypervisor_reserve_gib(host_memory_gib) if reserve_gib is None else reserve_gib
    return math.floor((host_memory_gib - reserve) / vms * 10) / 10


def vsphere_layout_rationale(
    sockets: int, nodes_per_socket: int, cores_per_node: int, vm_mem: float, drives_per_vm: int
) -> Rationale:
    vms = sockets * nodes_per_socket
    return Rationale(
        "VMs per host",
        f"One VM per NUMA node: {sockets} socket(s) x {nodes_per_socket} NUMA node(s) = {vms} VM(s) per host, each with"
        f" the node's {cores_per_node} physical cores as vCPUs, {vm_mem:g} GiB (host memory less the hypervisor"
        f" reserve, split evenly) and {drives_per_vm} data drive(s). VMs that fit one NUMA node gained 8 % on data"
        " loading in the study (2 % without NUMA locality).",
        f"{cite(RULES, 'vm_per_numa_node')}; {cite(RULES, 'hypervisor_reserve_fraction')}",
    )


# --- Network and coordinators (study 002) -----------------------------------------------


def network_rationale(ports: int, speed_gbps: float) -> Rationale:
    return Rationale(
        "Network",
        f"{ports} x {speed_gbps:g} GbE per host: at least {int(figure(RULES, 'network_min_ports'))} ports,"
        f" {figure(RULES, 'network_min_gbps'):g} GbE minimum, {figure(RULES, 'network_recommended_gbps'):g} GbE"
        " recommended; segments spread evenly over the interfaces.",
        f"{cite(RULES, 'network_min_ports')}; {cite(RULES, 'network_recommended_gbps')}",
    )


def coordinator_rationale(coordinators: int, drives: int, drive_desc: str) -> Rationale:
    return Rationale(
        "Coordinators",
        f"{coordinators} coordinator hosts (active and standby) with {drives} x {drive_desc} in RAID 1 each;"
        " they hold the catalog only, no user data.",
        f"{cite(RULES, 'coordinator_hosts')}; {cite(RULES, 'coordinator_drives_raid1')}",
    )


@cache
def coordinator_count() -> int:
    return int(figure(RULES, "coordinator_hosts"))


@cache
def coordinator_drive_count() -> int:
    return int(figure(RULES, "coordinator_drives_raid1"))

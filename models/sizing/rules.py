"""Sizing rules, each returning its value together with the reason and the source.

The numbers come from `resources/calibration/sizing_rules.json` (the studies) and
`vendor_docs.json` (Greenplum and PostgreSQL documentation), in the code and in the
rationale text alike. Numeric rules take scalars or numpy arrays so the optimizer runs
them over many candidates at once. Every public rule states its units and shows a worked
example (checked by `pytest --doctest-modules models` and tests/models/sizing/test_rule_doctests.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure, point
from models.sizing.result import Rationale
from models.vocabulary import RAID_LEVELS, RAIDS, raid_code

RULES = "sizing_rules"
DOCS = "vendor_docs"
GP000 = "gp_vsphere_000"


def cite(dataset_name: str, point_id: str) -> str:
    """Where a calibration figure comes from: "study file, locator", for a `Rationale.source`.

    >>> cite(RULES, "coordinator_hosts")
    '002_feb9b45e1f157a35.txt, Segment vs. coordinator machine architecture'
    """
    return point(dataset_name, point_id).source.cite()


# --- Primary segments per host (study 002) ---------------------------------------


@dataclass(frozen=True, slots=True)
class SegmentChoice:
    primaries_per_host: int
    tier: str
    rationale: Rationale


_TIERS = {  # the tier an architect sets: its label and the study's count
    "type-1": ("Type 1 (more than {hi} concurrent queries)", "segments_type1_high_concurrency"),
    "type-2": ("Type 2 ({t2}-{hi} concurrent queries)", "segments_type2_low_concurrency"),
    "type-3": ("Type 3 (1-{t3} concurrent queries)", "segments_type3_ultra_low_concurrency"),
}


def segments_for_concurrency(concurrent_queries: int, chosen_tier: str | None = None) -> SegmentChoice:
    """Primary segments per host (a count) for `concurrent_queries` (queries running at once) on study 002's
    48-core reference host: the study-002 concurrency tiers. A host of other cores runs the tier's cores per
    primary (`greenplum.segments.for_cores`, the one rule across core counts).
    `chosen_tier` ("type-1", "type-2", "type-3"): the tier an architect set, which the study leaves to them
    ("consultation with an experienced Greenplum architect"), in place of the one the concurrency gives.

    The study leaves 6-9 concurrent queries between Type 3 (1-5) and Type 2 (10-30).
    We give them Type 2's 16: each running query holds at least one process per
    primary segment, so 32 segments x 6-9 queries would run 190-290 query processes
    per host, several times the cores of any host in the catalog, while 16 keeps it
    near the Type 2 load the study validated.

    >>> c = segments_for_concurrency(20); (c.primaries_per_host, c.tier)
    (16, 'Type 2 (10-30 concurrent queries)')
    >>> segments_for_concurrency(2).primaries_per_host  # Type 3
    32
    >>> c = segments_for_concurrency(31, "type-2"); (c.primaries_per_host, c.tier)
    (16, 'Type 2 (10-30 concurrent queries)')
    >>> c.rationale.text.split(":")[0]
    '31 concurrent queries is Type 1 (more than 30 concurrent queries) by the study; Type 2 is set'
    """
    hi_threshold = int(figure(RULES, "segments_type1_threshold_queries"))
    t2_min = int(figure(RULES, "segments_type2_min_queries"))
    t3_max = int(figure(RULES, "segments_type3_max_queries"))
    gap = f"{t3_max + 1}-{t2_min - 1}"  # the concurrencies the study gives no tier
    if concurrent_queries > hi_threshold:
        tier, pid = f"Type 1 (more than {hi_threshold} concurrent queries)", "segments_type1_high_concurrency"
    elif concurrent_queries >= t2_min:
        tier, pid = f"Type 2 ({t2_min}-{hi_threshold} concurrent queries)", "segments_type2_low_concurrency"
    elif concurrent_queries <= t3_max:
        tier, pid = f"Type 3 (1-{t3_max} concurrent queries)", "segments_type3_ultra_low_concurrency"
    else:
        tier = f"between Type 3 and Type 2 ({gap} concurrent queries): treated as Type 2"
        pid = "segments_type2_low_concurrency"
    noun = "query" if concurrent_queries == 1 else "queries"
    text = f"{concurrent_queries} concurrent {noun} is {tier}"
    if chosen_tier is not None:
        tier, pid = _TIERS[chosen_tier]
        tier = tier.format(hi=hi_threshold, t2=t2_min, t3=t3_max)
        text += f" by the study; {tier.split(' (')[0]} is set"
    tiered = int(figure(RULES, pid))
    text += f": {tiered} primary segments per host."
    if chosen_tier is None and t3_max < concurrent_queries < t2_min:
        type3 = int(figure(RULES, "segments_type3_ultra_low_concurrency"))
        text += (
            f" The study gives no tier for {gap} queries; {type3} segments would run {type3 * concurrent_queries}+"
            f" query processes per host, so the Type 2 count is used."
        )
    return SegmentChoice(tiered, tier, Rationale("Primary segments per host", text, cite(RULES, pid)))


# --- Capacity (Greenplum capacity planning) ----------------------------------------


def raid_capacity_factor(raid: str | NDArray[np.int64], drives: ArrayLike) -> NDArray[np.float64]:
    """Share of raw capacity (a fraction) the RAID level leaves over `drives` drives: mirrored 1/2,
    RAID-5 (n-1)/n, none 1. `raid` is a level, or per drive set a code into `RAID_LEVELS` (candidate arrays).

    >>> raid_capacity_factor("raid5", [4, 8]).tolist()
    [0.75, 0.875]
    >>> float(raid_capacity_factor("raid10", 8))
    0.5
    >>> raid_capacity_factor(np.array([raid_code("raid5"), raid_code("raid10"), raid_code("none")]), [4, 8, 8]).tolist()
    [0.75, 0.5, 1.0]
    """
    n = np.asarray(drives, dtype=float)
    if not isinstance(raid, str):  # every level at once: each element as its level's own call gives it
        codes, n = np.broadcast_arrays(np.asarray(raid), n)
        out: NDArray[np.float64] = np.array([float(raid_capacity_factor(level, 1.0)) if level != "raid5" else 0.0
                                             for level in RAID_LEVELS])[codes]
        is5 = codes == raid_code("raid5")
        n5 = n[is5]
        out[is5] = np.where(n5 > 1, (n5 - 1) / np.maximum(n5, 1), 0.0)
        return out
    if RAIDS[raid].mirrored:
        return np.full_like(n, figure(DOCS, "gp_capacity_mirror_raid_factor"))
    if raid == "raid5":
        return np.where(n > 1, (n - 1) / np.maximum(n, 1), 0.0)
    return np.ones_like(n)


def user_data_capacity_tb(
    drive_capacity_tb: ArrayLike, drives_per_host: ArrayLike, raid: str, mirrors: bool
) -> NDArray[np.float64]:
    """User data one host holds, in TB, from `drive_capacity_tb` (TB per drive) and `drives_per_host`:
    raw x format factor x RAID factor x fill limit / (2 + workspace) with mirrors, / (1 + workspace) without
    (Greenplum capacity planning: 0.9, 0.7 and 1/3 in vendor_docs.json).

    12 x 3.84 TB in RAID 5 with mirrors: 46.08 x 0.9 x 11/12 x 0.7 / (2 + 1/3) = 11.4 TB.

    >>> round(float(user_data_capacity_tb(3.84, 12, "raid5", mirrors=True)), 2)
    11.4
    """
    raw = np.asarray(drive_capacity_tb, dtype=float) * np.asarray(drives_per_host, dtype=float)
    formatted = raw * figure(DOCS, "gp_capacity_format_factor") * raid_capacity_factor(raid, drives_per_host)
    usable = formatted * figure(DOCS, "gp_capacity_max_fill")
    workspace = figure(DOCS, "gp_capacity_workspace_fraction")
    per_host: NDArray[np.float64] = usable / ((2.0 if mirrors else 1.0) + workspace)
    return per_host


def capacity_rationale(mirrors: bool, raid: str) -> Rationale:
    """Why a host holds the user data it does (`user_data_capacity_tb`), with the factors from the calibration.

    >>> capacity_rationale(True, "raid5").text[:80]
    'raw x 0.9 (formatting) x RAID factor (raid5) x 0.7 (fill limit) / (2 + 1/3) with'
    """
    workspace = Fraction(figure(DOCS, "gp_capacity_workspace_fraction")).limit_denominator(100)
    copies = f"(2 + {workspace}) with mirrors" if mirrors else f"(1 + {workspace}) without mirrors"
    return Rationale(
        "Usable capacity",
        f"raw x {figure(DOCS, 'gp_capacity_format_factor'):g} (formatting) x RAID factor ({raid})"
        f" x {figure(DOCS, 'gp_capacity_max_fill'):g} (fill limit) / {copies}; data needed at the horizon"
        " = data x (1 + growth)^years / compression ratio.",
        cite(DOCS, "gp_capacity_format_factor"),
    )


def data_needed_tb(data_tb: float, growth_pct_per_year: float, horizon_years: int, compression_ratio: float) -> float:
    """Data on disk at the horizon, in TB: `data_tb` (TB today) grown `growth_pct_per_year` (%) for
    `horizon_years` (years), divided by `compression_ratio` (uncompressed / compressed).

    100 TB growing 20 % a year for 3 years, compressed 2:1: 100 x 1.2^3 / 2 = 86.4 TB.

    >>> round(data_needed_tb(100.0, 20.0, 3, 2.0), 1)
    86.4
    """
    return data_tb * (1.0 + growth_pct_per_year / 100.0) ** horizon_years / compression_ratio


def drives_valid_for_raid(raid: str, drives: ArrayLike) -> NDArray[np.bool_]:
    """Drive counts (drives per host) a RAID level can be built on: at least its minimum; mirrored levels in pairs.

    >>> drives_valid_for_raid("raid10", [3, 4, 5, 6]).tolist()
    [False, True, False, True]
    >>> drives_valid_for_raid("raid5", [2, 3]).tolist()
    [False, True]
    """
    n = np.asarray(drives)
    ok = n >= RAIDS[raid].min_drives
    if RAIDS[raid].mirrored:
        ok &= n % 2 == 0
    return np.asarray(ok)


def raid5_alignment_advice(drives_per_raid_group: int) -> Rationale:
    """RAID-5 advice for `drives_per_raid_group` drives: the strip (KB) whose full stripe, strip x (drives - 1),
    comes closest to the study-002 average I/O without passing it.

    >>> raid5_alignment_advice(8).text[:67]
    'RAID-5 over 8 drives: use a 32 KB strip so one full stripe (32 KB x'
    """
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
        " and align every partition to the full stripe: unaligned partitions caused about"
        f" {figure(RULES, 'raid5_unaligned_inflation'):g}x read and write inflation in the study"
        " (read-modify-write cycles)."
    )
    return Rationale(
        "RAID-5 alignment", text, f"{cite(RULES, 'raid5_avg_io_kb')}; {cite(RULES, 'raid5_unaligned_inflation')}"
    )


# --- Memory: gp_vmem_protect_limit (Greenplum 6) -------------------------------------


def gp_vmem_mb(ram_gib: ArrayLike, swap_gib: ArrayLike) -> NDArray[np.float64]:
    """gp_vmem in MB for a host of `ram_gib` (GiB) RAM and `swap_gib` (GiB) swap (Greenplum 6 documentation):
    ((SWAP + RAM) - (7.5 GB + 0.05 x RAM)) / 1.7 below 256 GB of RAM, / 1.17 from there.

    512 GiB RAM, 32 GiB swap: (544 - (7.5 + 25.6)) / 1.17 x 1024 = 447,147 MB.

    >>> round(float(gp_vmem_mb(512, 32)))
    447147
    """
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
    """The memory (GiB) ESXi keeps on a host of `host_memory_gib` (GiB): a share of it, at least a floor (study 000).

    >>> round(hypervisor_reserve_gib(512.0), 2), hypervisor_reserve_gib(64.0)
    (21.33, 4.0)
    """
    return max(
        host_memory_gib * figure(RULES, "hypervisor_reserve_fraction"), figure(RULES, "hypervisor_reserve_min_gib")
    )


def vm_memory_gib(host_memory_gib: float, vms: int, reserve_gib: float | None = None) -> float:
    """Memory of each of `vms` VMs (GiB, rounded down to 0.1) on a host of `host_memory_gib` (GiB), after
    the hypervisor reserve (`reserve_gib`, GiB; by default `hypervisor_reserve_gib`).

    >>> vm_memory_gib(96.0, 2), vm_memory_gib(96.0, 2, reserve_gib=4.0)
    (46.0, 46.0)
    >>> vm_memory_gib(512.0, 2)
    245.3
    """
    reserve = hypervisor_reserve_gib(host_memory_gib) if reserve_gib is None else reserve_gib
    return math.floor((host_memory_gib - reserve) / vms * 10) / 10


def vsphere_layout_rationale(
    sockets: int, nodes_per_socket: int, cores_per_node: int, vm_mem: float, drives_per_vm: int
) -> Rationale:
    """Why a vSphere host runs one VM per NUMA node (`vm_mem` in GiB per VM), with study 000's loading gains.

    >>> vsphere_layout_rationale(2, 1, 8, 46.0, 8).text[-78:]
    'NUMA node gained 8 % on data loading in the study (2 % without NUMA locality).'
    """
    vms = sockets * nodes_per_socket
    local = figure(GP000, "numa_load_2vm_local_gain_pct")
    interleaved = figure(GP000, "numa_load_2vm_interleaved_gain_pct")
    return Rationale(
        "VMs per host",
        f"One VM per NUMA node: {sockets} socket(s) x {nodes_per_socket} NUMA node(s) = {vms} VM(s) per host, each with"
        f" the node's {cores_per_node} physical cores as vCPUs, {vm_mem:g} GiB (host memory less the hypervisor"
        f" reserve, split evenly) and {drives_per_vm} data drive(s). VMs that fit one NUMA node gained {local:g} %"
        f" on data loading in the study ({interleaved:g} % without NUMA locality).",
        f"{cite(RULES, 'vm_per_numa_node')}; {cite(RULES, 'hypervisor_reserve_fraction')};"
        f" {cite(GP000, 'numa_load_2vm_local_gain_pct')}",
    )


# --- Network and coordinators (study 002) -----------------------------------------------


def network_rationale(ports: int, speed_gbps: float) -> Rationale:
    """Why a host has `ports` x `speed_gbps` (Gb/s) interconnect ports, against study 002's minimums.

    >>> network_rationale(2, 100.0).text[:72]
    '2 x 100 GbE per host: at least 2 ports, 25 GbE minimum, 100 GbE recommen'
    """
    return Rationale(
        "Network",
        f"{ports} x {speed_gbps:g} GbE per host: at least {int(figure(RULES, 'network_min_ports'))} ports,"
        f" {figure(RULES, 'network_min_gbps'):g} GbE minimum, {figure(RULES, 'network_recommended_gbps'):g} GbE"
        " recommended; segments spread evenly over the interfaces.",
        f"{cite(RULES, 'network_min_ports')}; {cite(RULES, 'network_recommended_gbps')}",
    )


def coordinator_rationale(coordinators: int, drives: int, drive_desc: str, word: str = "coordinator") -> Rationale:
    """Why the design has `coordinators` coordinator hosts (a count), each with `drives` mirrored drives; `word` is
    what the release calls the role (Greenplum 6's "master").

    >>> coordinator_rationale(2, 2, "960 GB SSD").text[:70]
    '2 coordinator hosts (active and standby) with 2 x 960 GB SSD in RAID 1'
    >>> coordinator_rationale(2, 2, "960 GB SSD", "master").text[:20]
    '2 master hosts (acti'
    """
    return Rationale(
        "Coordinators",
        f"{coordinators} {word} hosts (active and standby) with {drives} x {drive_desc} in {RAIDS['raid1'].label}"
        " each;"
        " they hold the catalog only, no user data.",
        f"{cite(RULES, 'coordinator_hosts')}; {cite(RULES, 'coordinator_drives_raid1')}",
    )


@cache
def coordinator_count() -> int:
    """Coordinator hosts (a count) of a Greenplum cluster: the active one and its standby (study 002).

    >>> coordinator_count()
    2
    """
    return int(figure(RULES, "coordinator_hosts"))


@cache
def coordinator_drive_count() -> int:
    """Drives per coordinator host (a count): a RAID 1 pair for the catalog (study 002).

    >>> coordinator_drive_count()
    2
    """
    return int(figure(RULES, "coordinator_drives_raid1"))

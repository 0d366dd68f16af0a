"""Primaries and data volumes: how a segment host's (VM's) primaries sit on its data drives.

gpinitsystem's DATA_DIRECTORY and MIRROR_DATA_DIRECTORY lists go round-robin over the data volumes (one per drive
without RAID, one RAID volume otherwise; `app.export.config.gp_layout` writes them), mirrors after the primaries. Every
volume carries the same load where the primaries are a multiple of the volumes (k primaries and k mirrors on each), or
where there are fewer primaries than volumes and each volume carries one instance (study 000: 8 primaries and 8 mirrors
on 16 disks); three or more volumes per primary would leave volumes idle. A drive carries at most 4 primaries on
flash (study 002's Type 3: 32 on 8 NVMe drives) and one on a hard disk (the installation guide's logical disk: one
primary file system and optionally one mirror file system).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure
from models.scenario import GreenplumAnalytics, GreenplumOltp
from models.sizing.result import Warning
from models.sizing.rules import RULES
from models.vocabulary import raid_code

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


def per_drive(spinning: ArrayLike) -> FloatArray:
    """The most primaries one data drive carries: one per hard disk, the reference architecture's 4 per flash drive."""
    return np.where(np.asarray(spinning, dtype=bool), figure(RULES, "segments_max_primaries_per_spindle"),
                    figure(RULES, "segments_max_primaries_per_data_drive"))


def for_drives(drives: ArrayLike, spinning: ArrayLike = False) -> IntArray:
    """The most primaries `drives` data drives carry (hard disks where `spinning`).

    >>> for_drives(np.array([8, 8]), np.array([False, True])).tolist()
    [32, 8]
    """
    return (np.asarray(drives, dtype=float) * per_drive(spinning)).astype(np.int64)


def data_volumes(drives: ArrayLike, raid_codes: ArrayLike) -> IntArray:
    """The data volumes of a segment host (VM) of `drives` data drives: one per drive without RAID, one RAID volume
    otherwise (as the configuration lays them out)."""
    return np.where(np.asarray(raid_codes) == raid_code("none"), np.asarray(drives, dtype=np.int64), 1)


def fewest_even(volumes: IntArray, mirrored: bool) -> IntArray:
    """The fewest primaries that load `volumes` data volumes evenly: one instance per volume (half of them
    primaries, with mirrors, where the count is even), else one primary per volume."""
    per = int(figure(RULES, "segments_even_over_data_volumes"))  # instances per volume
    copies = 2 if mirrored else 1
    v = np.maximum(np.asarray(volumes, dtype=np.int64), 1)
    return np.where(v * per % copies == 0, v * per // copies, v)


def even_on_volumes(soft: IntArray, hard: IntArray, volumes: IntArray, mirrored: bool) -> IntArray:
    """Primaries per segment host (VM) that spread evenly over its `volumes` data volumes: the largest multiple of
    the volumes, or `fewest_even`, within `soft` (the tier's count on the cores, `for_cores`) and `hard` (what memory,
    the cores and the drives allow). Where the tier asks for fewer than the fewest even count, min(soft, hard): never
    more primaries than the tier for the drives (a search free to choose the drive count would otherwise buy drives to
    run more); the volumes left without an instance hold nothing (`used_drives`), and the design says so.

    >>> even_on_volumes(np.array([21, 16, 5, 8, 3]), np.array([64, 64, 5, 48, 3]), np.array([8, 12, 8, 24, 8]),
    ...                 True).tolist()
    [16, 12, 4, 8, 3]
    """
    cap = np.minimum(soft, hard)
    v = np.maximum(np.asarray(volumes, dtype=np.int64), 1)
    lowest = fewest_even(v, mirrored)
    even = np.where(cap >= v, cap // v * v, np.where(cap >= lowest, lowest, cap))
    out: IntArray = np.maximum(even, 1).astype(np.int64)
    return out


def used_drives(drives: IntArray, vms: IntArray, primaries: IntArray, raid_codes: IntArray, mirrored: bool
                ) -> IntArray:
    """Per host, the data drives that hold an instance: all of them on RAID (one volume), else per VM at most one
    volume per instance (primaries and mirrors go round-robin over the volumes, so fewer instances than volumes leave
    the rest empty: they add no capacity)."""
    unit = np.asarray(primaries, dtype=np.int64) // np.maximum(vms, 1)
    per_vm = np.asarray(drives, dtype=np.int64) // np.maximum(vms, 1)
    held = np.minimum(per_vm, unit * (2 if mirrored else 1)) * vms
    out: IntArray = np.where(np.asarray(raid_codes) == raid_code("none"), held, drives).astype(np.int64)
    return out


def is_even(primaries: ArrayLike, volumes: ArrayLike, mirrored: bool) -> NDArray[np.bool_]:
    """Whether `primaries` per segment host (VM) load its `volumes` evenly (see `even_on_volumes`)."""
    p, v = np.asarray(primaries, dtype=np.int64), np.maximum(np.asarray(volumes, dtype=np.int64), 1)
    return np.asarray((p % v == 0) | (p == fewest_even(v, mirrored)))


class Wanted(NamedTuple):
    """What the tier, cores, memory and drives give a design's hosts before the volumes: the primaries per host, and
    the drives they would need: hard disks or flash, and the data bays of the server."""

    primaries: int
    spinning: bool
    bays: int


def off_tier_warning(workload: GreenplumAnalytics | GreenplumOltp, drives: int, vms: int, chosen: int, volumes: int,
                     wanted: Wanted) -> Warning:
    """The design's `chosen` primaries per host differ from the `wanted` count to load its `volumes` data volumes per
    host (VM) evenly, or no count does: what it runs and the drive counts (within the bays) that carry the wanted
    count evenly. `vms`: 1 on bare metal."""
    unit, want = chosen // max(vms, 1), wanted.primaries // max(vms, 1)
    copies = 2 if workload.mirrors else 1
    per_vm = f" ({want} per VM)" if vms > 1 else ""
    most = float(per_drive(wanted.spinning))
    fits = sorted({v * vms for v in range(1, 2 * want + 1)
                   if (want % v == 0 or (v == 2 * want and workload.mirrors)) and want <= v * most
                   and v * vms <= wanted.bays})
    even = bool(is_even(np.array([unit]), np.array([volumes]), workload.mirrors)[0])
    how = (f"runs {chosen}{f' ({unit} per VM)' if vms > 1 else ''}, which spread evenly over its {volumes} data"
           f" volumes{' per VM' if vms > 1 else ''}" if even else
           f"runs {chosen}, which no count within the limits spreads evenly over its {volumes} data volumes"
           + (f": {volumes - unit * copies} of them hold no segment and add no capacity" if unit * copies < volumes
              else " (some carry more segments than others)"))
    where = ("Data drives per host that carry " + f"{wanted.primaries} evenly: {', '.join(str(n) for n in fits[-4:])}"
             if fits else f"No drive count of this server carries {wanted.primaries} evenly") + \
        f" (or RAID, one volume per {'VM' if vms > 1 else 'host'})"
    return Warning(
        "segments-off-tier",
        f"The segment tier, cores and memory give {wanted.primaries} primary segments per host{per_vm}; with"
        f" {drives} data drives the design {how}. {where}; or set the segment tier.",
        "warning", "platform.drives_per_host",
    )

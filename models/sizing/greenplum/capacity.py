"""Segment-host disk space as Greenplum's capacity planning counts it, beyond the data and its mirror.

The Installation Guide (Estimating Storage Capacity) fills formatted disks to 70 % at most and splits that
usable space into the user data U, its mirror copy and a work space of U/3 "for a typical analytic workload",
adding that highly concurrent workloads need a larger work area; it also counts the write-ahead log (xlog)
and catalog space of every segment instance, and extra space for landing backup and load files. Here:

    usable = raw x format factor x RAID factor x fill limit
    U      = (usable - instances x (WAL + catalog)) / (copies + work space + landing)

with the work space U/3 up to the high-concurrency threshold and growing with the concurrency above it, and
the landing area a scenario input (% of U; the docs give no figure, so 0 by default). Every figure is in
`resources/calibration/vendor_docs.json` (and the threshold in `sizing_rules.json`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure
from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform
from models.sizing.greenplum import segments
from models.sizing.greenplum.candidates import Candidates, per_drive_set
from models.sizing.greenplum.volumes import used_drives
from models.sizing.result import Rationale
from models.sizing.rules import DOCS, RULES, cite, raid_capacity_factor

if TYPE_CHECKING:
    from models.sizing.greenplum.metrics import GpContext

GpWorkload = GreenplumAnalytics | GreenplumOltp
IntArray = NDArray[np.int64]
Raid = str | NDArray[np.int64]  # a level's name, or per host a code into `RAID_LEVELS` (candidate arrays)
MB_PER_TB = 1e6  # decimal, as drives are sold


def work_space_fraction(concurrent_queries: ArrayLike | None) -> NDArray[np.float64]:
    """Work space for spill files as a fraction of U: U/3 up to the threshold, then in proportion to the queries
    that run at once (those the resource group admits: queued ones hold no spill files).

    >>> [round(float(work_space_fraction(q)), 4) for q in (None, 20, 90)]
    [0.3333, 0.3333, 1.0]
    >>> work_space_fraction(np.array([30.0, 185.0])).round(3).tolist()
    [0.333, 2.056]
    """
    base = figure(DOCS, "gp_capacity_workspace_fraction")
    if concurrent_queries is None:
        return np.asarray(base, dtype=float)
    threshold = figure(RULES, "segments_type1_threshold_queries")
    exponent = figure(DOCS, "gp_capacity_workspace_concurrency_exponent")
    ratio = np.maximum(1.0, np.asarray(concurrent_queries, dtype=float) / threshold)
    return np.asarray(base * ratio ** exponent, dtype=float)


def concurrency_of(workload: GpWorkload) -> int | None:
    """Concurrent report queries of an analytics workload; OLTP clients run short statements (no spill growth)."""
    return workload.concurrent_queries if isinstance(workload, GreenplumAnalytics) else None


def instance_space_tb(instances: ArrayLike) -> NDArray[np.float64]:
    """WAL (xlog) and catalog space of `instances` segment instances (primaries and mirrors), TB."""
    per_instance_mb = (figure(DOCS, "gp_capacity_wal_mb_per_instance")
                       + figure(DOCS, "gp_capacity_metadata_mb_per_instance"))
    return np.asarray(instances, dtype=float) * per_instance_mb / MB_PER_TB


def usable_tb(drive_capacity_tb: ArrayLike, drives_per_host: ArrayLike, raid: Raid,
              layouts: segments.HostLayouts | None = None) -> NDArray[np.float64]:
    """Formatted space within the fill limit, per host (`raid`: a level, or per host a code into `RAID_LEVELS`;
    `layouts`: the hosts' `segments.HostLayouts`, whose RAID factor is computed once each, when the caller has them)."""
    raw = np.asarray(np.asarray(drive_capacity_tb, dtype=float) * np.asarray(drives_per_host, dtype=float))
    if isinstance(raid, str):
        factor = raid_capacity_factor(raid, drives_per_host)
    elif layouts is not None:
        factor = raid_capacity_factor(raid[layouts.rep], np.asarray(drives_per_host)[layouts.rep]).take(layouts.which)
    else:  # candidate arrays: once per (level, drive count) present
        factor = per_drive_set(lambda c, n: (raid_capacity_factor(c, n),), raid, np.asarray(drives_per_host))[0]
    fmt, fill = figure(DOCS, "gp_capacity_format_factor"), figure(DOCS, "gp_capacity_max_fill")
    if np.shape(factor) != raw.shape:  # the factor widens the shape: no room to work in place
        return np.asarray(raw * fmt * factor * fill, dtype=float)
    raw *= fmt  # in place, in the same order: an optimizer chunk's column, not three
    raw *= factor
    raw *= fill
    return raw


def user_data_tb(
    drive_capacity_tb: ArrayLike,
    drives_per_host: ArrayLike,
    raid: Raid,
    mirrors: bool,
    primaries_per_host: ArrayLike,
    concurrent_queries: ArrayLike | None,
    landing_pct: float,
) -> NDArray[np.float64]:
    """User data U one host holds once mirrors, work space, landing area, WAL and catalogs have their share.

    At a typical workload with no instances and no landing area this is the docs' formula:
    >>> round(float(user_data_tb(2.4, 8, "none", True, 0, 20, 0.0)[()]), 3)  # 19.2 x 0.9 x 0.7 / (2 + 1/3)
    5.184
    >>> round(float(user_data_tb(2.4, 8, "none", True, 16, 90, 50.0)[()]), 3)  # 32 instances, U x (2 + 1 + 0.5)
    3.446
    """
    copies = 2.0 if mirrors else 1.0
    instances = np.asarray(primaries_per_host, dtype=float) * copies
    free = np.maximum(usable_tb(drive_capacity_tb, drives_per_host, raid) - instance_space_tb(instances), 0.0)
    shares = copies + work_space_fraction(concurrent_queries) + landing_pct / 100.0
    return np.asarray(free / shares, dtype=float)


def user_capacity_per_host_tb(
    workload: GpWorkload, drive_capacity_tb: ArrayLike, drives_per_host: ArrayLike, raid: Raid,
    primaries_per_host: ArrayLike, admitted: ArrayLike | None = None,
) -> NDArray[np.float64]:
    """User data per host; the work space grows with the `admitted` queries (per host: those its resource group
    runs at once) where given, else with the workload's concurrency."""
    queries = concurrency_of(workload) if admitted is None else admitted
    return user_data_tb(drive_capacity_tb, drives_per_host, raid, workload.mirrors, primaries_per_host,
                        queries, workload.landing_pct)


def candidates_tb(workload: GpWorkload, c: Candidates, primaries: IntArray, admitted: ArrayLike | None,
                  platform: Platform | None, ctx: GpContext | None = None) -> NDArray[np.float64]:
    """User data per host of candidates `c` at their `primaries`; the work space for the `admitted` reports (each
    candidate's resource group, `segments.admitted`: found here where None). `ctx`: the candidates' context, whose
    layouts let what depends on them alone be computed once per layout (the same numbers)."""
    if admitted is None:
        admitted = segments.admitted(workload, c.memory_gib, c.virtualized, c.numa_nodes, primaries, platform)
    used = held_drives(workload, c, primaries, ctx.layouts if ctx is not None else None)
    if ctx is None or ctx.layouts is None:
        drives = c.drives_per_host if used is None else used
        return user_capacity_per_host_tb(workload, c.capacity_tb, drives, c.raid_code, primaries, admitted)
    return _per_layout_tb(workload, c, primaries, admitted, ctx, ctx.layouts, used)


def held_drives(workload: GpWorkload, c: Candidates, primaries: IntArray,
                layouts: tuple[IntArray, IntArray] | None = None) -> IntArray | None:
    """Per candidate, the data drives holding an instance (`volumes.used_drives`); None where all of them do.
    `layouts`: `segments.HostLayouts` of the candidates (one drive count, RAID level and primaries each), when the
    caller has them: found once per group."""
    rows = layouts[0] if isinstance(layouts, segments.HostLayouts) else None

    def pick(a: NDArray[Any]) -> NDArray[Any]:
        return a if rows is None else a[rows]

    vms = np.where(pick(c.virtualized), pick(c.numa_nodes), 1).astype(np.int64)
    drives = pick(c.drives_per_host)
    used = used_drives(drives, vms, pick(primaries), pick(c.raid_code), workload.mirrors)
    if bool(np.all(used == drives)):
        return None
    return used if layouts is None or rows is None else used.take(layouts[1])


def _per_layout_tb(workload: GpWorkload, c: Candidates, primaries: IntArray, admitted: ArrayLike | None,
                   ctx: GpContext, layouts: tuple[IntArray, IntArray], used: IntArray | None = None
                   ) -> NDArray[np.float64]:
    """`user_capacity_per_host_tb`'s arithmetic, element by element, with the instances' space and the shares
    computed once per layout (its primaries and admitted reports) and, over `segments.HostLayouts`, the RAID factor
    too: an optimizer chunk's few hundred layouts, not its 32,768 rows."""
    rep, which = layouts
    copies = 2.0 if workload.mirrors else 1.0
    instances = instance_space_tb(np.asarray(primaries[rep], dtype=float) * copies)
    queries = concurrency_of(workload) if admitted is None else admitted
    per_layout = queries if queries is None or np.ndim(queries) == 0 else np.asarray(queries)[rep]
    shares = copies + work_space_fraction(per_layout) + workload.landing_pct / 100.0
    groups = layouts if isinstance(layouts, segments.HostLayouts) else None
    drives = ctx.shape.drives_per_host if groups is not None else c.drives_per_host  # the float column, when grouped
    if used is not None:  # empty volumes hold nothing
        drives = used.astype(float) if groups is not None else used
    free = usable_tb(c.capacity_tb, drives, c.raid_code, groups)
    free -= instances.take(which)  # in place, in `user_data_tb`'s order (`take`: an index's values, cheaper)
    np.maximum(free, 0.0, out=free)
    free /= shares.take(which) if np.ndim(shares) else shares
    return free


def capacity_rationale(
    workload: GpWorkload, raid: str, drives: int, drive_tb: float, primaries_per_host: int,
    admitted: int | None = None,
) -> Rationale:
    """The arithmetic of one host's user capacity, with the numbers of the design."""
    fmt, fill = figure(DOCS, "gp_capacity_format_factor"), figure(DOCS, "gp_capacity_max_fill")
    raid_f = float(raid_capacity_factor(raid, drives))
    usable = float(usable_tb(drive_tb, drives, raid))
    copies = 2 if workload.mirrors else 1
    instances = primaries_per_host * copies
    overhead = float(instance_space_tb(instances))
    wal, meta = figure(DOCS, "gp_capacity_wal_mb_per_instance"), figure(DOCS, "gp_capacity_metadata_mb_per_instance")
    requested = concurrency_of(workload)
    queries = requested if admitted is None or requested is None else min(admitted, requested)
    work = float(work_space_fraction(queries))
    threshold = figure(RULES, "segments_type1_threshold_queries")
    if queries is not None and requested is not None and queries < requested:
        work_text = (f"work space U/3 x {max(queries, threshold):g} / {threshold:g} = {work:.2f} U for the {queries:,}"
                     f" queries the resource group runs at once (the other {requested - queries:,} of the"
                     f" {requested:,} wait in its queue and spill nothing)")
    elif queries is not None and queries > threshold:
        work_text = f"work space U/3 x {queries} / {threshold:g} concurrent queries = {work:.2f} U"
    elif queries is not None:
        work_text = f"work space U/3 = {work:.2f} U ({queries} concurrent queries, up to {threshold:g} typical)"
    else:
        work_text = f"work space U/3 = {work:.2f} U"
    landing = workload.landing_pct / 100.0
    shares = copies + work + landing
    per_host = float(user_data_tb(drive_tb, drives, raid, workload.mirrors, primaries_per_host, queries,
                                  workload.landing_pct))
    copy_text = "data and mirror" if copies == 2 else "data"
    text = (
        f"{drives} x {drive_tb:g} TB raw x {fmt:g} (formatting) x {raid_f:.3g} (RAID {raid}) x {fill:g} (fill limit)"
        f" = {usable:,.2f} TB; minus WAL and catalog space of {instances} segment instances x ({wal:,.0f} +"
        f" {meta:,.0f}) MB = {overhead:,.3f} TB; U = {usable - overhead:,.2f} / ({copies} ({copy_text})"
        f" + {work_text} + landing area {workload.landing_pct:g} % = {landing:.2f} U) = {usable - overhead:,.2f} /"
        f" {shares:.2f} = {per_host:,.2f} TB of user data per host. Data needed at the horizon = data x (1 +"
        " growth)^years / compression ratio."
    )
    sources = "; ".join(dict.fromkeys((
        cite(DOCS, "gp_capacity_format_factor"), cite(DOCS, "gp_capacity_wal_mb_per_instance"),
        cite(DOCS, "gp_capacity_workspace_concurrency_exponent"), cite(RULES, "segments_type1_threshold_queries"),
        cite(DOCS, "gp_capacity_landing_default_pct"),
    )))
    return Rationale("Usable capacity", text, sources)

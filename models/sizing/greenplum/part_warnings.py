"""The warnings a Greenplum design raises because of the parts it is built from, counted per candidate.

`explain` words these warnings for the chosen design; here they are counted over the candidate arrays so
the recommender prefers parts that satisfy the rules it cites (issue 13 item 2): among the designs meeting
every target, one raising fewer of them wins before a cheaper one (`greenplum.pick`, `stream`,
`search.settled_pick`, the optimizer's judge). When every candidate raises one, the design says so.

* numa-multi-socket: bare-metal segments on a multi-socket server (study 002 prefers single-socket hosts);
* memory-below-reference: a warehouse host below the reference architecture's minimum memory;
* density-low: fewer cores or less memory per TB on disk than a peer sizing tool provisions (`density`);
* segments-off-tier: the data drives do not carry the tier's primaries evenly, so the design runs another count
  (`segments.even_on_volumes`; counted by `segments.fitted`, added to `fixed` by the evaluation).

`fixed` counts the first two, which do not depend on the host count; the density can only improve with more
hosts, so `fixed` is a lower bound of what a candidate raises once settled (settling only adds hosts).
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.scenario import GreenplumAnalytics, GreenplumOltp
from models.sizing.greenplum import density
from models.sizing.greenplum.candidates import Candidates
from models.sizing.rules import DOCS, RULES, cite

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
GpWorkload = GreenplumAnalytics | GreenplumOltp

CODES = ("numa-multi-socket", "memory-below-reference", "density-low", "segments-off-tier")
WORDS = {
    "numa-multi-socket": "bare-metal segments crossing the NUMA nodes of a multi-socket server",
    "memory-below-reference": "memory per host below the reference architecture's minimum",
    "density-low": "fewer cores or less memory per TB on disk than a peer sizing tool provisions",
    "segments-off-tier": "data drives that do not carry the segment tier's primaries evenly",
}

# where each rule comes from (study 002 on sockets, as `explain` cites it)
SOURCES = "; ".join((
    "002_feb9b45e1f157a35.txt, Key hardware components: CPU",
    cite(RULES, "min_memory_gib_per_segment_host"),
    cite(DOCS, "density_vcpu_per_tb_on_disk"),
    cite(RULES, "segments_even_over_data_volumes"),
))


def fixed(workload: GpWorkload, c: Candidates, layouts: tuple[IntArray, IntArray] | None = None) -> IntArray:
    """Per candidate, the part warnings that do not depend on the host count.

    The memory per host is the design's (raised to the reference minimum where the DIMM slots allow). `layouts`:
    (one candidate of each group sharing server and deployment, each candidate's group), e.g. `segments.host_layouts`:
    the flags, a function of those alone, are found once per group and spread.
    """
    if layouts is not None:
        rep, which = layouts
        return flags(workload, c.virtualized[rep], c.sockets[rep], c.memory_gib[rep]).take(which)
    return flags(workload, c.virtualized, c.sockets, c.memory_gib)


def flags(workload: GpWorkload, virtualized: NDArray[np.bool_], sockets: FloatArray, memory_gib: FloatArray
           ) -> IntArray:
    numa = ~virtualized & (sockets > 1)
    memory = np.zeros(len(virtualized), dtype=bool)
    if isinstance(workload, GreenplumAnalytics):
        memory = memory_gib < figure(RULES, "min_memory_gib_per_segment_host")
    return np.add(numa, memory, dtype=np.int64)  # the two flags summed as counts, in one pass


def count(workload: GpWorkload, c: Candidates, hosts: IntArray | FloatArray, on_disk_tb: float,
          fixed_count: IntArray | None = None, running: FloatArray | None = None) -> IntArray:
    """Per candidate, the part warnings its design raises at `hosts` segment hosts (the counts, or those as floats;
    `fixed_count`: `fixed`'s, when the caller has it; `running`: the reports each candidate's resource group
    admits, None where all run)."""
    out = fixed(workload, c) if fixed_count is None else fixed_count
    if isinstance(workload, GreenplumAnalytics) and on_disk_tb > 0:
        queries = workload.concurrent_queries if running is None else running  # queued reports hold no cores
        out = out + density.short(queries, c.threads_total, c.memory_gib, hosts, on_disk_tb)  # a flag: 0 or 1
    return out


def raised(codes: Iterable[str]) -> list[str]:
    """The part warnings among warning `codes` (of a sized design), in `CODES` order.

    >>> raised(["price-estimate", "density-low", "numa-multi-socket"])
    ['numa-multi-socket', 'density-low']
    """
    have = set(codes)
    return [code for code in CODES if code in have]

"""What each host layout of a search decides, computed once for every layout of the search.

A host layout is a server with a drive count, a deployment and a RAID level: a candidate but its drive model.
The segments and VMs per host, the NUMA locality, the reports admitted at once, the RAID factors and the part
warnings that do not depend on the host count are functions of the layout alone. A chunk of the optimizer holds a
few hundred layouts and its rows spread their values (`segments.HostLayouts`); computed per chunk, each is some
twenty numpy calls on a few hundred values, forty-eight times on a 10x catalog. Computed here once over every
layout (the same element-wise arithmetic, so the same values bit for bit) each chunk only looks its layouts up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.perf import scan_load
from models.scenario import Platform
from models.sizing.greenplum import metrics, part_warnings, segments
from models.sizing.greenplum.candidates import Candidates
from models.sizing.greenplum.evaluation import GpWorkload
from models.vocabulary import RAID_LEVELS

IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class LayoutTable:
    """Every layout's `segments.LayoutValues` and, by (server index, drive count, virtualized, RAID code), where
    each layout's entry is (-1: not a layout of the search)."""

    values: segments.LayoutValues
    index: IntArray
    most_drives: int

    @classmethod
    def of(cls, workload: GpWorkload, platform: Platform | None, reps: Candidates, servers: int) -> LayoutTable:
        """The table of the layouts `reps` holds one candidate of each (`candidates.layout_rows`)."""
        primaries, vms = segments.counts(workload, reps, platform, None)
        read, write = scan_load.raid_factors(reps.raid_code, reps.drives_per_host)
        values = segments.LayoutValues(
            primaries, vms, metrics.numa_local_of(reps.virtualized, vms, reps.numa_nodes, reps.sockets),
            segments.admitted_raw(workload, reps.memory_gib, reps.virtualized, reps.numa_nodes, primaries, platform),
            read, write, part_warnings.flags(workload, reps.virtualized, reps.sockets, reps.memory_gib))
        most = int(reps.drives_per_host.max()) if len(reps) else 0
        index = np.full(max(servers, 1) * (most + 1) * 2 * len(RAID_LEVELS), -1, dtype=np.int64)
        index[cls._key(reps.server_idx, reps.drives_per_host, reps.virtualized, reps.raid_code, most)] = \
            np.arange(len(reps), dtype=np.int64)
        return cls(values, index, most)

    @staticmethod
    def _key(server: IntArray, drives: IntArray, virtualized: NDArray[np.bool_], raid: IntArray, most: int
             ) -> IntArray:
        return ((server * (most + 1) + drives) * 2 + virtualized) * len(RAID_LEVELS) + raid

    def known(self, c: Candidates, layouts: segments.HostLayouts) -> segments.HostLayouts:
        """`layouts` of chunk `c` with its groups' values looked up (`segments.KnownLayouts`); as it is where a
        group is not in the table (never, for a chunk of the same search)."""
        rep = layouts.rep
        drives = c.drives_per_host[rep]
        if int(drives.max()) > self.most_drives:
            return layouts
        at = self.index[self._key(c.server_idx[rep], drives, c.virtualized[rep], c.raid_code[rep], self.most_drives)]
        if int(at.min()) < 0:
            return layouts
        return segments.KnownLayouts(rep, layouts.which, self.values.take(at))

"""The Greenplum OLTP coordinator, sized on its own: its own server from the catalog, not a copy of a segment host.

Every transaction passes the one active coordinator (study 004: "master CPU usage can exceed 90%"
at the select peak), so in OLTP the coordinator's cores bound the cluster's TPS apart from the
segment hosts (`models.perf.gp_oltp`). The search therefore prices each segment candidate with
each coordinator option and keeps the cheapest design meeting the targets; `size` and the
optimizer search the same options, so they agree. Analytics keeps the segment server as
coordinator: its queries do not pass the coordinator's CPU in the scan model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.hardware import Drive, Server

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class CoordinatorOptions:
    """Coordinator hosts worth considering: per option a server and the drive its catalog RAID-1 pair uses."""

    servers: tuple[Server, ...]
    drives: tuple[Drive, ...]

    def __len__(self) -> int:
        return len(self.servers)

    @property
    def cores(self) -> FloatArray:
        return np.array([float(s.cores_total) for s in self.servers])

    def host_price(self, drives_per_host: int) -> FloatArray:
        """Server and its catalog drives (no NIC: the segment hosts' NIC choice is added by the caller)."""
        return np.array([s.price + drives_per_host * d.price for s, d in zip(self.servers, self.drives, strict=True)])


def coordinator_options(servers: list[Server], drives: list[Drive], drives_per_host: int) -> CoordinatorOptions:
    """Each server with the cheapest drive its bays take, keeping only those with more cores than every cheaper
    one (a dearer server with no more cores is never the better coordinator).

    Ties in price keep the catalog's order, so `size` and the optimizer see the same options.
    """
    pairs: list[tuple[float, int, Server, Drive]] = []
    for order, server in enumerate(servers):
        fitting = [d for d in drives if server.accepts(d)]
        if not fitting:
            continue
        drive = min(fitting, key=lambda d: (d.price, d.id))
        pairs.append((server.price + drives_per_host * drive.price, order, server, drive))
    pairs.sort(key=lambda t: (t[0], t[1]))
    kept: list[tuple[Server, Drive]] = []
    most = 0
    for _, _, server, drive in pairs:
        if server.cores_total > most:
            kept.append((server, drive))
            most = server.cores_total
    return CoordinatorOptions(tuple(s for s, _ in kept), tuple(d for _, d in kept))

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

from models.calibration_data import point
from models.hardware import Drive, Server
from models.sizing.result import Rationale, Warning
from models.sizing.rules import coordinator_count

FloatArray = NDArray[np.float64]
OLTP = "gp6_oltp_004"
DOCS = "vendor_docs"


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


def coordinator_hosts(workload: object) -> int:
    """Coordinator hosts of a design: the active one and its standby (`rules.coordinator_count`), none where the
    scenario runs the coordinator on a segment host (`GreenplumOltp.coordinator_on_segment_host`)."""
    return 0 if getattr(workload, "coordinator_on_segment_host", False) else coordinator_count()


def on_segment_host(cores: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The coordinator on a segment host, per candidate: its cores (the host's: it shares them) and the price, draw
    and height it adds (none: no host of its own)."""
    return cores, np.zeros(len(cores))


def on_segment_host_why(server: Server, primaries: int, word: str = "coordinator") -> tuple[Rationale, Warning]:
    """Why the design has no coordinator host, and what that costs the cluster; `word` is what the release calls
    the role (Greenplum 6's "master")."""
    why = Rationale(
        "Coordinator on a segment host",
        f"As the scenario states, the {word} runs on the first segment host ({server.vendor} {server.model},"
        f" {server.cores_total} cores) beside its {primaries} primaries, with no standby: no {word} host is"
        f" built. A select's {word} work and that host's share of the segment work take turns on its cores, so"
        f" the TPS estimate adds the two per transaction on that host (1 / r = 1 / r_{word} + 1 / r_segments)"
        " instead of taking the smaller of two separate hosts; write mixes stay bound by the segment hosts' WAL and"
        " locks. Its instance is counted on that host beside the primaries: in the memory plan (see"
        " gp_vmem_protect_limit and Resource groups) and in the semaphores and processes of sysctl.conf and"
        " limits.conf. The Greenplum OLTP study's 192-core environment ran its master and 18 segments on 192 cores this"
        " way (refarch's reading of the study; its text does not say whether on one machine).",
        f"{point(OLTP, 'env192_select_tps').source.cite()};"
        f" {point(DOCS, 'gp_coordinator_dedicated_cpu').source.cite()}",
    )
    warn = Warning(
        "coordinator-on-segment-host",
        f"The {word} shares the first segment host's cores and memory and has no standby: the Greenplum"
        " documentation asks for a fast, dedicated CPU for it, and losing that host stops the cluster. Keep it for"
        f" a test cluster or to reproduce a study; a production design keeps the {word} on its own hosts.",
        "warning", "workload.coordinator_on_segment_host",
    )
    return why, warn

"""What a SAP IQ result carries besides the common design: the multiplex's roles and stores, and, where the query
streams ask for more nodes than refarch sizes a multiplex to, the best the design achieves and what stops it
(as a Greenplum target check reports a target out of reach: `achievable`, `hosts_for_achievable`, `binding`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class StreamsBound:
    """Query streams whose study-003 share of cores needs more nodes than the design stops at."""

    streams: int
    nodes_needed: int  # the nodes that give each stream study 003's study-equivalent cores
    cores_per_stream_needed: float
    achievable: float  # the main metric's P50 at the nodes the design stops at (QthH@Size, or QppH@Size for 1)
    unit: str
    hosts_for_achievable: int  # the nodes the design stops at
    cores_per_stream: float  # what each stream gets there
    binding: str  # the resource that binds the design where it stops
    rule: str  # why it stops there, with its source

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class IqMultiplex:
    """How a SAP IQ multiplex splits its nodes and stores, and the figures that chose it."""

    coordinators: int
    writers: int
    readers: int
    network_advantage: float  # DQP network-transfer over shared-storage exchange (1.0: no advantage)
    study_equivalent_cores_per_node: float  # the node's vCPUs scaled to the study's CPU
    main_dbspace_tb: float
    temp_dbspace_tb: float
    streams_bound: StreamsBound | None = None  # set where the streams' share is beyond the nodes refarch sizes

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["streams_bound"] = self.streams_bound.to_dict() if self.streams_bound is not None else None
        return out

"""One SAP IQ multiplex node as sized (its VM's memory, vCPUs and study-equivalent cores) and one sizing option
(server, node count, storage, cost): the shapes `design` builds and its `failure` and `warnings` read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.calibration_data import figure
from models.estate import socket_score
from models.hardware import Server
from models.perf.bands import doublings
from models.scenario import Scenario
from models.sizing.rules import hypervisor_reserve_gib, vm_memory_gib
from models.sizing.shared_storage import VsanLayout

STUDY = "sapiq_dqp_003"


def vcpu_share() -> float:
    """Share of a host's cores study 003 gave each IQ VM: 14 vCPU of 2 x 8 cores."""
    return figure(STUDY, "vm_vcpus") / (figure(STUDY, "cpu_sockets_per_server") * figure(STUDY, "cpu_cores_per_socket"))


def node_vcpus(server: Server, vsphere: bool) -> int:
    """vCPUs of the IQ VM (vSphere) or the host's cores (bare metal).

    >>> from types import SimpleNamespace as S
    >>> node_vcpus(S(cores_total=16), True), node_vcpus(S(cores_total=96), True), node_vcpus(S(cores_total=2), True)
    (14, 84, 1)
    """
    if not vsphere:
        return server.cores_total
    return max(1, math.floor(server.cores_total * vcpu_share() + 1e-9))


def cpu_doublings(server: Server) -> float:
    """How many doublings the server's CPU lies from the study's E5-2690, for the band: the larger of the base
    clock's distance and, where the CPU has a SPECrate2017_int_base score, its per-core score's from the study CPU's
    stand-in (`study_cpu_specrate_per_core`)."""
    clock = doublings(speed_factor(server), 1.0)
    score = socket_score(server.cpu.model)
    if score is None or server.cpu.cores <= 0:
        return clock
    return max(clock, doublings(score / server.cpu.cores, figure(STUDY, "study_cpu_specrate_per_core")))


def speed_factor(server: Server) -> float:
    """Per-core speed against the study's Xeon E5-2690 by base clock (ignores newer cores' higher IPC:
    conservative for recent CPUs)."""
    return server.cpu.base_ghz / figure(STUDY, "cpu_base_ghz")


@dataclass(frozen=True)
class IqOption:
    capex: float
    server: Server
    nodes: int
    vsan: VsanLayout | None
    san_tb: float
    needed_nodes: int = 0  # the nodes the streams need at study 003's cores per stream; > nodes: capped
    cores: float = 0.0  # study-equivalent cores of the whole multiplex
    cost: float = 0.0  # what the ranking minimises: capex plus licences (`licence_rank`)

    @property
    def capped(self) -> bool:
        return self.needed_nodes > self.nodes

    def rank(self) -> tuple[bool, float, float, int]:
        """Options that give the streams their cores first, by capex incl. licences (or N-year cost of ownership:
        `licence_rank`); capped ones by the most cores (the best achievable), then that cost."""
        return (self.capped, -self.cores if self.capped else 0.0, self.cost, self.nodes)


def hypervisor_reserve(scenario: Scenario, host_memory_gib: float) -> float:
    """The hypervisor reserve per host: platform.hypervisor_reserve_gib, else the rule for the host's memory."""
    given = scenario.platform.hypervisor_reserve_gib
    return hypervisor_reserve_gib(host_memory_gib) if given is None else given


@dataclass(frozen=True)
class Node:
    """One multiplex node as sized: host memory, the IQ VM's memory and vCPUs, and its study-equivalent cores."""

    vsphere: bool
    host_memory_gib: float
    memory_gib: float  # the IQ VM's (vSphere) or the host's (bare metal)
    vcpus: int
    speed: float  # per-core speed against the study's CPU
    eff: float  # study-equivalent cores: vcpus x speed


def node_shape(scenario: Scenario, server: Server) -> Node:
    """The node's shape on `server`: on vSphere one VM with the study's share of the cores and the memory
    left after the hypervisor reserve; on bare metal the whole host."""
    vsphere = scenario.platform.deployment == "vsphere"
    memory = float(scenario.platform.memory_gib or server.memory_gib)
    node_memory = vm_memory_gib(memory, 1, hypervisor_reserve(scenario, memory)) if vsphere else memory
    vcpus = node_vcpus(server, vsphere)
    speed = speed_factor(server)
    return Node(vsphere, memory, node_memory, vcpus, speed, vcpus * speed)

"""The vCPUs a database's stated peak TPS takes on a server's CPU, at the confidence the scenario asks.

The throughput model (`models.perf.pg_tps`) is inverted on its CPU rate: study 001's rate per core x the rate
factor fitted on published pgbench runs x SPECrate2017_int_base per core x the USL over vCPUs; at P90 the band's
P10, which nine runs in ten reach. A sizing on a measured pgbench sweep takes the sweep's rate per vCPU instead.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from models.estate import socket_score
from models.hardware import Server
from models.perf import measured, pg_tps
from models.perf.pg_tps import PgTpsInputs, vcpus_for_tps
from models.scenario import PgDatabase


@dataclass(frozen=True)
class HostCpu:
    """The host a VM is sized for: its cores, its CPU's SPECrate2017_int_base per core (None: not in the benchmark
    table, counted as study 001's CPU) and the confidence a stated peak TPS is met at (`targets.confidence`)."""

    cores: int
    specrate_per_core: float | None = None
    confidence: str = "P50"


def host_cpu(server: Server, confidence: str) -> HostCpu:
    """The server as VM sizing sees it: cores, SPECrate2017_int_base per core (None: not in the table), confidence."""
    score = socket_score(server.cpu.model)
    return HostCpu(server.cores_total, None if score is None else score / server.cpu.cores, confidence)


def tps_vcpus(d: PgDatabase, host: HostCpu) -> float:
    """vCPUs a database's stated peak TPS takes on `host`: the throughput model's CPU rate reaches it at the
    confidence asked; a measured sweep's rate per vCPU when the sizing is on measurements; 0 with no rate stated."""
    if d.peak_tps is None:
        return 0.0
    m = measured.pg_rates()
    if m is not None and m.tps_per_vcpu is not None:
        return d.peak_tps / m.tps_per_vcpu
    return _model_vcpus(d.peak_tps, max(1, d.peak_clients), host)


def storage_margin(vcpus: int, clients: int, host: HostCpu) -> float:
    """How much more than a stated rate's reads the datastore serves so the rate is met at the confidence asked
    (`pg_tps.storage_margin`: 1 at P50)."""
    x = PgTpsInputs(vcpus=max(1, vcpus), clients=max(1, clients), cache_gib=0.0, working_set_gib=0.0,
                    specrate_per_core=host.specrate_per_core)
    return pg_tps.storage_margin(x, host.confidence)


@functools.lru_cache(maxsize=4_096)  # an estate repeats rates and client counts; each inversion is a bisection
def _model_vcpus(tps: float, clients: int, host: HostCpu) -> float:
    x = PgTpsInputs(vcpus=1, clients=clients, cache_gib=0.0, working_set_gib=0.0,
                    specrate_per_core=host.specrate_per_core)
    return vcpus_for_tps(tps, x, host.confidence, host.cores)

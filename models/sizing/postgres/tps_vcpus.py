"""The vCPUs a database's stated peak TPS takes on a server's CPU, at the confidence the scenario asks, and the rate
an unstated peak is estimated at.

The throughput model (`models.perf.pg_tps`) is inverted on its CPU rate: study 001's rate per core x the rate
factor fitted on published pgbench runs x SPECrate2017_int_base per core x the USL over vCPUs; at P90 the band's
P10, which nine runs in ten reach. A sizing on a measured pgbench sweep takes the sweep's rate per vCPU instead.

A database without a stated peak runs at what its clients drive by the same model (`clients_tps`): the CPU rate, on
the server's CPU, of the vCPUs its clients take at study 001's clients per vCPU (zero-think-time clients keep them
busy), the median; a sizing on a measured sweep takes the sweep's rate per client.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from models.calibration_data import figure
from models.estate import socket_score
from models.hardware import Server
from models.perf import measured, pg_tps
from models.perf.pg_tps import PgTpsInputs, vcpus_for_tps
from models.perf.pg_tps_law import bounds, fitted
from models.scenario import PgDatabase


@dataclass(frozen=True)
class HostCpu:
    """The host a VM is sized for: its cores, its CPU's SPECrate2017_int_base per core (None: not in the benchmark
    table, counted as study 001's CPU) and the confidence a stated peak TPS is met at (`targets.confidence`)."""

    cores: int
    specrate_per_core: float | None = None
    confidence: str = "P50"
    latency_ms: float | None = None  # platform.datastore_latency_ms: a read's and a WAL flush's (None: not bounded)


def host_cpu(server: Server, confidence: str, latency_ms: float | None = None) -> HostCpu:
    """The server as VM sizing sees it: cores, SPECrate2017_int_base per core (None: not in the table), confidence and
    the stated datastore latency."""
    score = socket_score(server.cpu.model)
    return HostCpu(server.cores_total, None if score is None else score / server.cpu.cores, confidence, latency_ms)


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


def clients_per_vcpu() -> float:
    """Study 001's zero-think-time clients per vCPU (its consolidation VMs: 30 clients on 3 vCPUs)."""
    return figure("sizing_rules", "pg_clients_per_vcpu")


def vcpus_tps(vcpus: float, clients: float, host: HostCpu) -> float:
    """Median TPS `vcpus` vCPUs carry for `clients` zero-think-time clients on `host`'s CPU: the throughput model's
    CPU rate (the one stated peaks are sized on); in a sizing on a measured sweep, the sweep's rate per vCPU (or its
    rate per client x study 001's clients per vCPU where the sweep's host is unknown).

    >>> h = HostCpu(64, 8.08)  # twice the study CPU stand-in's SPECrate2017_int_base per core
    >>> round(vcpus_tps(6, 60, h) / vcpus_tps(3, 30, h), 2), round(vcpus_tps(3, 30, h) / vcpus_tps(3, 30, HostCpu(64)))
    (2.0, 2)
    """
    m = measured.pg_rates()
    if m is not None:
        return vcpus * (m.tps_per_vcpu if m.tps_per_vcpu is not None else clients_per_vcpu() * m.tps_per_client)
    return _cpu_rate(float(vcpus), max(1, round(clients)), host.specrate_per_core)


def commit_bound_tps(d: PgDatabase, cache_gib: float, host: HostCpu) -> float:
    """The most a database's clients commit where the datastore states its latency: the throughput model's storage
    latency and WAL flush bounds (`pg_tps_law.bounds`: each client waits for its missed reads and its commit's
    flush); inf where no latency is stated.

    >>> from models.scenario import PgDatabase
    >>> d = PgDatabase(name="a", size_gb=10, peak_clients=8, working_set_gb=1)
    >>> commit_bound_tps(d, 4.0, HostCpu(16)), round(commit_bound_tps(d, 4.0, HostCpu(16, latency_ms=2.0)))
    (inf, 4000)
    """
    if host.latency_ms is None:
        return math.inf
    x = PgTpsInputs(vcpus=1, clients=max(1, d.peak_clients), cache_gib=cache_gib,
                    working_set_gib=d.working_set_gb * 1e9 / 2**30, storage_latency_ms=host.latency_ms,
                    wal_flush_ms=host.latency_ms)
    b = bounds(x)
    return min(b.latency, b.wal)


def clients_tps(clients: float, host: HostCpu) -> float:
    """Median TPS `clients` zero-think-time clients drive on `host`'s CPU: the model's CPU rate of the vCPUs they take
    at study 001's clients per vCPU (`vcpus_tps`); in a sizing on a measured sweep, clients x its rate per client.

    >>> round(clients_tps(30, HostCpu(8)) / 30)  # study 001's 30 clients on its 3 vCPUs: the model's rate per client
    163
    """
    m = measured.pg_rates()
    if m is not None:
        return clients * m.tps_per_client
    return vcpus_tps(clients / clients_per_vcpu(), clients, host)


@functools.lru_cache(maxsize=16_384)  # an estate repeats VM shapes; the rate is a few look-ups and a USL
def _cpu_rate(vcpus: float, clients: int, specrate_per_core: float | None) -> float:
    x = PgTpsInputs(vcpus=max(1, math.ceil(vcpus)), clients=clients, cache_gib=0.0, working_set_gib=0.0,
                    specrate_per_core=specrate_per_core)
    return fitted().cpu_median(x, vcpus)


def model_rates(server: Server) -> tuple[float, float]:
    """(TPS per client, TPS per vCPU) the throughput model gives on `server`'s CPU at study 001's calibration point
    (30 clients on 3 vCPUs): what a measured sweep's rates replace. Outside a sizing on measurements."""
    clients = figure("pg_vfabric_001", "t2_high_clients")
    per_client = clients_tps(clients, host_cpu(server, "P50")) / clients
    return per_client, per_client * clients_per_vcpu()

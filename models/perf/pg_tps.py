"""PostgreSQL transactions per second one database VM can carry: CPU, memory fit and storage, with a band.

The rate (figures in `resources/calibration/pg_tps_model.json`, `pg_vfabric_001.json`, `pg_tuning_docs.json`):

* CPU: study 001's DBT-2 throughput per fully used physical CPU (Tables 5 and 6, NOTPM per PCPU, New-Order
  being 45 % of the TPC-C mix) is the rate of one core of the study's Xeon E5620 in a 3-vCPU VM with 30
  clients. It is scaled by SPECrate2017_int_base per core from the study's CPU (a stand-in: SPEC publishes
  no CPU 2017 result for the E5620) to the catalog CPU, and over vCPUs by the USL fitted on study 001's
  pgbench scalability curve (`usl_calibration.calibrated("pg92-select")`): X(n) / X(3) with n the busy
  vCPUs (at most the clients), so more vCPUs add less than their share.
* Memory fit: the working set against the VM's cache (shared_buffers plus the OS cache, effective_cache_size)
  gives the share of page reads that reach storage, 1 - cache / working set (uniform access, as pgbench's).
  A transaction reads the pages of its non-INSERT statements (pgbench default: 5 statements, 20 % INSERT).
* Storage: the datastore's IOPS over the reads per transaction that reach it; its latency caps each client
  at one transaction per (reads that reach storage x latency).
* Band: the in-sample spread (Tables 5/6 range, the USL's parameter covariance, the CPU stand-in's range)
  and, per doubling of distance from the calibration point (CPU per-core score, vCPUs, clients), the
  relative sd `band_sd_per_doubling` more, added in quadrature: a band widens as the model extrapolates.
  The storage bounds get the extrapolation part too (the study measured no storage-bound run).

The binding resource is whichever of CPU, storage IOPS and storage latency gives the lowest median.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from models.calibration_data import figure, point
from models.model_card import ModelCard, Residual
from models.perf.usl import usl
from models.perf.usl_calibration import calibrated, point_relative_sd
from models.uncertainty import Estimate, rng

DS = "pg_tps_model"
STUDY = "pg_vfabric_001"
DOCS = "pg_tuning_docs"
SAMPLES = 4_000
UNIT = "TPS"
CPU, IOPS, LATENCY = "CPU", "storage IOPS", "storage latency"


@dataclass(frozen=True, slots=True)
class PgTpsInputs:
    """One database VM as the throughput model sees it."""

    vcpus: int
    clients: int
    cache_gib: float  # shared_buffers plus the OS cache (effective_cache_size)
    working_set_gib: float
    specrate_per_core: float | None = None  # the catalog CPU's SPECrate2017_int_base per core; None: not in the table
    storage_iops: float | None = None  # the datastore's random IOPS this VM may use; None: not bounded
    storage_latency_ms: float | None = None  # one random read's latency; None: not bounded


@dataclass(frozen=True, slots=True)
class PgTps:
    estimate: Estimate
    binding: str  # CPU, storage IOPS or storage latency
    cpu_tps: float  # medians of each bound (inf where a bound does not apply)
    iops_tps: float
    latency_tps: float
    miss_share: float  # share of page reads that reach storage
    distance_doublings: float  # root sum of squares of the log2 distances from the calibration point


def calibration_vcpus() -> float:
    return figure(STUDY, "t2_db_vm_vcpus")


def calibration_clients() -> float:
    return figure(STUDY, "t2_high_clients")


def study_specrate_per_core() -> float:
    return figure(DS, "study_cpu_specrate_per_core")


def tps_per_core() -> float:
    """Study 001's DBT-2 transactions/s per fully used E5620 core (NOTPM per PCPU / 60 / New-Order share).

    >>> round(tps_per_core())
    549
    """
    return figure(DS, "notpm_per_pcpu") / 60.0 / figure(DOCS, "tpcc_new_order_share")


def page_reads_per_txn() -> float:
    """Pages a pgbench default transaction reads: its statements but the INSERTs (5 x 0.8 = 4).

    >>> page_reads_per_txn()
    4.0
    """
    return figure(STUDY, "pgbench_default_statements") * (1.0 - figure(STUDY, "pgbench_default_insert_share"))


def miss_share(cache_gib: float, working_set_gib: float) -> float:
    """Share of page reads that reach storage: the working set not held in the cache (uniform access).

    >>> miss_share(4.0, 3.0), miss_share(4.0, 8.0), miss_share(4.0, 32.0)
    (0.0, 0.5, 0.875)
    """
    if working_set_gib <= 0:
        return 0.0
    return min(1.0, max(0.0, 1.0 - cache_gib / working_set_gib))


def distances(x: PgTpsInputs) -> dict[str, float]:
    """|log2| of each input over its calibration value: CPU per-core score, vCPUs, clients.

    >>> d = distances(PgTpsInputs(vcpus=3, clients=30, cache_gib=1, working_set_gib=1))
    >>> d["vcpus"], d["clients"], d["cpu"]
    (0.0, 0.0, 0.0)
    """
    cpu = x.specrate_per_core or study_specrate_per_core()
    return {
        "cpu": abs(math.log2(cpu / study_specrate_per_core())),
        "vcpus": abs(math.log2(x.vcpus / calibration_vcpus())),
        "clients": abs(math.log2(x.clients / calibration_clients())),
    }


def band_sd(x: PgTpsInputs) -> float:
    """The extrapolation part of the relative sd: `band_sd_per_doubling` per doubling in each dimension,
    added in quadrature (0 at the calibration point)."""
    k = figure(DS, "band_sd_per_doubling")
    return k * math.sqrt(sum(d * d for d in distances(x).values()))


def _cpu_samples(x: PgTpsInputs, n: int, seed: int) -> np.ndarray:
    """Monte Carlo draws of the CPU-bound rate: per-core rate, CPU ratio, USL over vCPUs, extrapolation."""
    gen = rng(seed)
    rate_sd = point_relative_sd(point(DS, "notpm_per_pcpu"))
    stand_in_sd = point_relative_sd(point(DS, "study_cpu_specrate_per_core"))
    fit = calibrated("pg92-select")
    d = fit.draws(n, seed)
    busy = float(min(x.vcpus, x.clients))
    cal = calibration_vcpus()
    scale = usl(busy, 1.0, d[:, 1], d[:, 2]) / usl(cal, 1.0, d[:, 1], d[:, 2])
    cpu_ratio = (x.specrate_per_core or study_specrate_per_core()) / study_specrate_per_core()
    noise = gen.normal(0.0, 1.0, (3, n))
    sd = np.array([rate_sd, stand_in_sd, band_sd(x)])[:, None] * noise
    return np.asarray(tps_per_core() * cal * scale * cpu_ratio * np.exp(sd.sum(axis=0)))


def _storage_bounds(x: PgTpsInputs, miss: float) -> tuple[float, float]:
    """(IOPS-bound TPS, latency-bound TPS); inf where nothing reaches storage or no bound is given."""
    reads = page_reads_per_txn() * miss
    if reads <= 0:
        return math.inf, math.inf
    iops = x.storage_iops / reads if x.storage_iops else math.inf
    latency = x.clients / (reads * x.storage_latency_ms / 1000.0) if x.storage_latency_ms else math.inf
    return iops, latency


@lru_cache(maxsize=4_096)  # an estate repeats VM shapes: 10,000 databases, a few hundred distinct inputs
def pg_tps(x: PgTpsInputs, samples: int = SAMPLES, seed: int = 20_140_601) -> PgTps:
    """TPS one database VM carries (P10/P50/P90) and what binds it (0.6 ms; cached per inputs).

    >>> a = pg_tps(PgTpsInputs(vcpus=4, clients=200, cache_gib=12, working_set_gib=10), samples=500)
    >>> b = pg_tps(PgTpsInputs(vcpus=16, clients=200, cache_gib=12, working_set_gib=10), samples=500)
    >>> 1.0 < b.estimate.p50 / a.estimate.p50 < 4.0, a.binding
    (True, 'CPU')
    """
    if x.vcpus < 1 or x.clients < 1:
        raise ValueError(f"vcpus ({x.vcpus}) and clients ({x.clients}) must be at least 1")
    miss = miss_share(x.cache_gib, x.working_set_gib)
    cpu = _cpu_samples(x, samples, seed)
    iops, latency = _storage_bounds(x, miss)
    # the storage bound extrapolates as far as the CPU rate does: the same band rule widens it
    storage = min(iops, latency) * np.exp(rng(seed + 1).normal(0.0, band_sd(x), samples))
    tps = np.minimum(cpu, storage)
    cpu_p50 = float(np.median(cpu))
    binding = min(((cpu_p50, CPU), (iops, IOPS), (latency, LATENCY)), key=lambda t: t[0])[1]
    dist = math.sqrt(sum(v * v for v in distances(x).values()))
    return PgTps(Estimate.from_samples(tps, UNIT), binding, cpu_p50, iops, latency, miss, dist)


def card() -> ModelCard:
    """The model card: parameters, the in-sample check at the calibration point and the band rule."""
    at_study = PgTpsInputs(vcpus=int(calibration_vcpus()), clients=int(calibration_clients()), cache_gib=1.0,
                           working_set_gib=1.0)
    est = pg_tps(at_study, samples=1_000).estimate
    fit = calibrated("pg92-select")
    observed = tps_per_core() * calibration_vcpus()
    return ModelCard(
        name="pg-tps",
        description=(
            "PostgreSQL TPS per database VM: min(CPU, storage IOPS, storage latency). CPU = study 001's DBT-2 "
            "rate per core x SPECrate2017_int_base per core (catalog CPU / study CPU stand-in) x USL over busy "
            "vCPUs X(n)/X(3); storage = IOPS / (page reads per txn x miss share), latency = clients / (reads "
            "reaching storage x latency); miss share = 1 - cache / working set."
        ),
        parameters={
            "tps_per_core_e5620": tps_per_core(),
            "study_specrate_per_core": study_specrate_per_core(),
            "usl_sigma": fit.sigma,
            "usl_kappa": fit.kappa,
            "page_reads_per_txn": page_reads_per_txn(),
            "calibration_vcpus": calibration_vcpus(),
            "calibration_clients": calibration_clients(),
            "band_sd_per_doubling": figure(DS, "band_sd_per_doubling"),
        },
        residuals=(Residual("notpm_per_pcpu", observed, est.p50, "TPS per 3-vCPU VM"),),
        sources=(point(DS, "notpm_per_pcpu").source.cite(), point(DS, "study_cpu_specrate_per_core").source.cite(),
                 point(DOCS, "tpcc_new_order_share").source.cite()),
        note=(
            "Band rule: relative sd = in-sample (Tables 5/6 range, USL covariance, CPU stand-in range) plus "
            f"{figure(DS, 'band_sd_per_doubling'):g} per doubling of |log2| distance from the calibration point "
            "(CPU per-core score, vCPUs 3, clients 30), in quadrature. The residual reproduces the point the "
            "rate was taken from; no held-out published run is checked yet."
        ),
        extra={"band_p10_p90_at_study": [est.p10, est.p90]},
    )

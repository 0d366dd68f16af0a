"""The law a PostgreSQL database VM's throughput follows, and its fit on study 001 and published pgbench runs.

One database VM carries the least of four rates (medians; `models.perf.pg_tps` adds the band):

* CPU: study 001's DBT-2 transactions per E5620 core (Tables 5 and 6) x `rate_factor`, x SPECrate2017_int_base
  per core (catalog CPU / the study CPU's stand-in), x the USL over busy vCPUs p = min(vCPUs, clients):
  X(p) / X(3) with X(p) = p / (1 + sigma (p - 1) + kappa p (p - 1)), 3 vCPUs being the study's VMs.
* Storage IOPS: the datastore's IOPS over the page reads per transaction that miss the cache.
* Storage latency: each client waits for its missed reads: clients / (missed reads x latency).
* WAL flush: each commit waits for the WAL flush that carries it; with group commit one flush carries every
  commit record written meanwhile, so flushes do not cap the commit rate but each session commits at most
  once per flush: clients / flush latency (PostgreSQL documentation, 30.5 WAL Configuration).

sigma, kappa and `rate_factor` are fitted together (least squares on log throughput) on study 001's
vPostgres 9.2 scalability curve over clients on its 32-vCPU VM (`pg_vfabric_001`, usl_pg92_select_n*) and on
the published pgbench runs of `pg_published_runs` whose role is "fit"; the runs whose role is "held-out" are
only checked (`models.perf.pg_tps.card`). `fit_sd` is the rms log residual over the fitted runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

from models.calibration_data import Point, dataset, figure
from models.fit_cache import disk_cached
from models.perf.bands import miss_share as miss_share  # one memory-fit rule for every model; named here as before

DS = "pg_tps_model"
STUDY = "pg_vfabric_001"
DOCS = "pg_tuning_docs"
RUNS = "pg_published_runs"
CPU, IOPS, LATENCY, WAL = "CPU", "storage IOPS", "storage latency", "WAL flush"
GIB_PER_GB = 1e9 / 2**30


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
    wal_flush_ms: float | None = None  # one WAL flush (pg_test_fsync's 8 kB write and flush); None: not bounded


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


def usl_relative(n: float, sigma: float, kappa: float) -> float:
    """X(n) / X(1) of the USL: n / (1 + sigma (n - 1) + kappa n (n - 1)).

    >>> usl_relative(16, 0.0, 0.0), round(usl_relative(16, 0.05, 0.0), 2)
    (16.0, 9.14)
    """
    return n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))


@dataclass(frozen=True, slots=True)
class Bounds:
    """The storage and commit bounds of one VM, TPS (inf where a bound does not apply)."""

    iops: float
    latency: float
    wal: float
    miss: float  # share of page reads that reach storage

    def least(self) -> tuple[float, str]:
        return min(((self.iops, IOPS), (self.latency, LATENCY), (self.wal, WAL)), key=lambda t: t[0])


def bounds(x: PgTpsInputs) -> Bounds:
    """IOPS / missed reads per transaction; clients / (missed reads x latency); clients / WAL flush latency.

    >>> b = bounds(PgTpsInputs(vcpus=4, clients=8, cache_gib=4, working_set_gib=8, storage_iops=1000,
    ...                        storage_latency_ms=2, wal_flush_ms=4))
    >>> b.iops, b.latency, b.wal
    (500.0, 2000.0, 2000.0)
    """
    miss = miss_share(x.cache_gib, x.working_set_gib)
    reads = page_reads_per_txn() * miss
    iops = x.storage_iops / reads if x.storage_iops and reads > 0 else math.inf
    latency = x.clients / (reads * x.storage_latency_ms / 1000.0) if x.storage_latency_ms and reads > 0 else math.inf
    wal = (x.clients / (figure(DOCS, "wal_flushes_per_commit") * x.wal_flush_ms / 1000.0) if x.wal_flush_ms
           else math.inf)
    return Bounds(iops, latency, wal, miss)


@dataclass(frozen=True, slots=True)
class TpsLaw:
    """The fitted parameters: USL contention and coherency over busy vCPUs, the rate factor, the fit's spread."""

    sigma: float
    kappa: float
    rate_factor: float  # pgbench-mix transactions per study 001 DBT-2 transaction, on the same core
    fit_sd: float  # rms log residual over the fitted runs (a relative sd)
    fitted_runs: int

    def cpu_median(self, x: PgTpsInputs, vcpus: float | None = None) -> float:
        """The CPU-bound rate at `vcpus` (x.vcpus when None; fractional while sizing)."""
        busy = min(float(vcpus if vcpus is not None else x.vcpus), float(x.clients))
        scale = usl_relative(busy, self.sigma, self.kappa) / usl_relative(calibration_vcpus(), self.sigma, self.kappa)
        ratio = (x.specrate_per_core or study_specrate_per_core()) / study_specrate_per_core()
        return tps_per_core() * self.rate_factor * calibration_vcpus() * scale * ratio

    def median(self, x: PgTpsInputs) -> float:
        return min(self.cpu_median(x), bounds(x).least()[0])


@dataclass(frozen=True, slots=True)
class PublishedRun:
    id: str
    role: str  # fit, held-out, outside (storage the model does not describe)
    label: str
    inputs: PgTpsInputs
    tps: float
    low: float
    high: float
    source: str  # the document and file the figure is quoted from
    document: str  # the document alone (its reference key), as a customer reads it cited


def _run(p: Point) -> PublishedRun:
    c = p.conditions
    spec = figure(RUNS, str(c["specrate_point"])) if "specrate_point" in c else None
    iops = float(c["storage_iops"]) if "storage_iops" in c else None
    inputs = PgTpsInputs(
        vcpus=int(c["vcpus"]), clients=int(c["clients"]),
        cache_gib=float(c["ram_gb"]) * figure(DOCS, "effective_cache_size_ratio"),
        working_set_gib=figure(RUNS, str(c["data_point"])) * GIB_PER_GB, specrate_per_core=spec, storage_iops=iops)
    label = f"{c['instance']}, {c['vcpus']} vCPU, {c['ram_gb']} GiB, {figure(RUNS, str(c['data_point'])):g} GB"
    return PublishedRun(p.id, str(c["role"]), label, inputs, p.value, p.low or p.value, p.high or p.value,
                        p.source.cite(), p.source.file)


@cache
def published_runs(role: str | None = None) -> tuple[PublishedRun, ...]:
    """The published runs of `pg_published_runs` (those of one role when given), in file order."""
    runs = tuple(_run(p) for p in dataset(RUNS).series("pgbench_") if "role" in p.conditions)
    return runs if role is None else tuple(r for r in runs if r.role == role)


def _study_curve() -> list[tuple[float, float]]:
    """(busy vCPUs, X / X(1)) of study 001's vPostgres 9.2 curve on its 32-vCPU VM."""
    vm = figure(STUDY, "t1_vm_vcpus")
    return [(min(float(p.conditions["clients"]), vm), p.value) for p in dataset(STUDY).series("usl_pg92_select_n")]


def _residuals(theta: list[float]) -> list[float]:
    law = TpsLaw(theta[1], theta[2], math.exp(theta[0]), 0.0, 0)
    study = [math.log(usl_relative(n, law.sigma, law.kappa) / x) for n, x in _study_curve()]
    return study + [math.log(law.median(r.inputs) / r.tps) for r in published_runs("fit")]


@disk_cached
def fitted() -> TpsLaw:
    """sigma, kappa and the rate factor by least squares on log throughput (study curve and fitted runs)."""
    from scipy.optimize import least_squares  # scipy's import costs 0.2 s: only when the disk cache misses

    sol = least_squares(_residuals, [0.0, 0.01, 1e-4], bounds=([-5.0, 0.0, 0.0], [5.0, 1.0, 0.1]))
    runs = published_runs("fit")
    law = TpsLaw(float(sol.x[1]), float(sol.x[2]), float(math.exp(sol.x[0])), 0.0, len(runs))
    logs = [math.log(law.median(r.inputs) / r.tps) for r in runs]
    fit_sd = math.sqrt(sum(v * v for v in logs) / max(len(logs) - 2, 1))
    return replace(law, fit_sd=fit_sd)


@dataclass(frozen=True, slots=True)
class ContentionCheck:
    """Whether the data support USL contention over vCPUs: the fit as it is, the published runs alone, and the
    contention that would make the CPU-only 4 -> 16 vCPU ratio what an IOPS-capped published pair shows."""

    cpu_4_to_16: float  # the fitted law's CPU-only ratio
    runs_only_sigma: float  # sigma and rms log residual fitted on the published runs alone
    runs_only_rms: float
    forced_ratio: float  # the published pair's 4 -> 16 ratio taken as if it were CPU contention
    forced_sigma: float
    forced_rms_runs: float  # rms over the fitted runs with that sigma (rate factor and kappa refitted)
    forced_rms_all: float  # the same with study 001's curve
    pairs: tuple[tuple[str, float, float], ...]  # (4 -> 16 vCPU pair, published ratio, model ratio) for every pair


def _pairs() -> list[tuple[str, PublishedRun, PublishedRun]]:
    """Published runs of one service and data size at 4 and 16 vCPUs (fitted and held out), in file order."""
    runs = [r for r in published_runs() if r.role != "outside"]
    by_key = {r.id.replace("_4vcpu_", "_Nvcpu_").replace("_16vcpu_", "_Nvcpu_"): r for r in runs if r.inputs.vcpus == 4}
    return [(f"{by_key[k].label.split(', ')[0]} to 16 vCPU ({r.label.split(', ')[-1]})", by_key[k], r)
            for r in runs if r.inputs.vcpus == 16 for k in (r.id.replace("_16vcpu_", "_Nvcpu_"),) if k in by_key]


def _rms(values: list[float]) -> float:
    return math.sqrt(sum(v * v for v in values) / len(values))


@disk_cached
def contention_check() -> ContentionCheck:
    """The fit over vCPUs checked: free on the published runs alone, and with the contention sigma that turns the
    first fitted IOPS-capped pair's ratio into CPU scaling (X(16)/X(4) = 4 (1 + 3 sigma) / (1 + 15 sigma))."""
    from scipy.optimize import least_squares

    law, runs = fitted(), published_runs("fit")

    def runs_res(t: list[float]) -> list[float]:
        x = TpsLaw(t[1], t[2], math.exp(t[0]), 0.0, 0)
        return [math.log(x.median(r.inputs) / r.tps) for r in runs]

    free = least_squares(runs_res, [0.0, 0.01, 1e-4], bounds=([-5.0, 0.0, 0.0], [5.0, 1.0, 0.1]))
    _, low, high = next(p for p in _pairs() if p[1].role == "fit" and p[2].inputs.storage_iops is not None)
    ratio = high.tps / low.tps
    sigma = (4.0 - ratio) / (15.0 * ratio - 12.0)
    forced = least_squares(lambda t: runs_res([t[0], sigma, t[1]]), [0.0, 1e-4], bounds=([-5.0, 0.0], [5.0, 0.1]))
    both = least_squares(lambda t: _residuals([t[0], sigma, t[1]]), [0.0, 1e-4], bounds=([-5.0, 0.0], [5.0, 0.1]))
    pairs = tuple((n, b.tps / a.tps, law.median(b.inputs) / law.median(a.inputs)) for n, a, b in _pairs())
    return ContentionCheck(
        usl_relative(16, law.sigma, law.kappa) / usl_relative(4, law.sigma, law.kappa), float(free.x[1]),
        _rms(list(free.fun)), ratio, sigma, _rms(list(forced.fun)), _rms(list(both.fun)), pairs)

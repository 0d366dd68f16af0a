"""PostgreSQL transactions per second one database VM can carry: CPU, memory fit, storage and WAL flush, with a band.

The law (`models.perf.pg_tps_law`, figures in `resources/calibration/pg_tps_model.json`, `pg_vfabric_001.json`,
`pg_tuning_docs.json` and `pg_published_runs.json`) gives each bound's median: the CPU rate (study 001's rate per
core x the rate factor x SPECrate2017_int_base per core x the USL over busy vCPUs, fitted on study 001's
scalability curve and published pgbench runs), the storage IOPS and latency bounds (the working set against
shared_buffers plus the OS cache gives the page reads that reach storage), and the WAL flush bound.

Band: the relative sd of the CPU rate adds in quadrature the study's Tables 5/6 range, the CPU stand-in's range,
the fit's rms log residual over the published runs (`fit_sd`) and, per doubling of distance from the nearest
calibration point (study 001's 3 vCPUs, 30 clients on its E5620; the fitted runs' vCPUs, clients and CPU),
`band_sd_per_doubling` more: a band widens as the model extrapolates. The storage and WAL bounds get the
fit's spread and the extrapolation part (no calibration run measured them apart).

The binding resource is whichever of CPU, storage IOPS, storage latency and WAL flush gives the lowest median.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import cache, lru_cache
from statistics import NormalDist

import numpy as np

from models.calibration_data import figure, point
from models.model_card import HeldOut, ModelCard, Residual
from models.percentiles import percentiles
from models.perf.bands import distance, doublings, extrapolation_sd
from models.perf.pg_tps_law import (
    CPU,
    DOCS,
    DS,
    IOPS,
    LATENCY,
    WAL,
    Bounds,
    PgTpsInputs,
    PublishedRun,
    bounds,
    calibration_clients,
    calibration_vcpus,
    contention_check,
    fitted,
    miss_share,
    page_reads_per_txn,
    published_runs,
    study_specrate_per_core,
    tps_per_core,
)
from models.perf.usl_calibration import point_relative_sd
from models.uncertainty import Estimate, rng

__all__ = ["CPU", "IOPS", "LATENCY", "WAL", "PgTps", "PgTpsInputs", "band_sd", "card", "distances", "miss_share",
           "page_reads_per_txn", "pg_tps", "pg_tps_many", "storage_margin", "tps_per_core", "vcpus_for_tps"]

SAMPLES = 4_000
UNIT = "TPS"
BAND_LOW = 0.10  # the band's low end, P10: what nine runs in ten reach


@dataclass(frozen=True, slots=True)
class PgTps:
    estimate: Estimate
    binding: str  # CPU, storage IOPS, storage latency or WAL flush
    cpu_tps: float  # medians of each bound (inf where a bound does not apply)
    iops_tps: float
    latency_tps: float
    miss_share: float  # share of page reads that reach storage
    distance_doublings: float  # root sum of squares of the log2 distances from the nearest calibration point
    wal_tps: float = math.inf


@cache  # read for every band: a sizing inverts the rate for each database and server
def _calibration_points() -> tuple[tuple[float, float, float], ...]:
    """(CPU per-core score, vCPUs, clients) of study 001's point and of every fitted published run."""
    study = study_specrate_per_core()
    return ((study, calibration_vcpus(), calibration_clients()), *(
        (r.inputs.specrate_per_core or study, float(r.inputs.vcpus), float(r.inputs.clients))
        for r in published_runs("fit")))


@lru_cache(maxsize=4_096)  # read three times a band; an estate's VMs share a few hundred shapes
def _distances_at(cpu: float, vcpus: float, clients: float) -> dict[str, float]:
    """The distances to the nearest calibration point (cached: callers copy or only read it)."""
    near = min((
        {"cpu": doublings(cpu, c), "vcpus": doublings(vcpus, v), "clients": doublings(clients, n)}
        for c, v, n in _calibration_points()), key=lambda d: sum(x * x for x in d.values()))
    return near


def distances(x: PgTpsInputs) -> dict[str, float]:
    """|log2| of each input over the nearest calibration point's: CPU per-core score, vCPUs, clients.

    >>> d = distances(PgTpsInputs(vcpus=3, clients=30, cache_gib=1, working_set_gib=1))
    >>> d["vcpus"], d["clients"], d["cpu"]
    (0.0, 0.0, 0.0)
    """
    return dict(_distances_at(x.specrate_per_core or study_specrate_per_core(), float(x.vcpus), float(x.clients)))


def band_sd(x: PgTpsInputs) -> float:
    """The extrapolation part of the relative sd: `band_sd_per_doubling` per doubling in each dimension,
    added in quadrature (0 at a calibration point)."""
    return extrapolation_sd(figure(DS, "band_sd_per_doubling"), distances(x).values())


@cache
def _in_sample_sd() -> float:
    """The CPU rate's relative sd at a calibration point: Tables 5/6 range, CPU stand-in range, fit residual."""
    parts = (point_relative_sd(point(DS, "notpm_per_pcpu")),
             point_relative_sd(point(DS, "study_cpu_specrate_per_core")), fitted().fit_sd)
    return math.sqrt(sum(p * p for p in parts))


def _cpu_sd(x: PgTpsInputs, vcpus: float) -> float:
    cpu = x.specrate_per_core or study_specrate_per_core()
    extra = extrapolation_sd(figure(DS, "band_sd_per_doubling"), _distances_at(cpu, vcpus, float(x.clients)).values())
    return math.hypot(_in_sample_sd(), extra)


@lru_cache(maxsize=4_096)  # an estate repeats VM shapes: 10,000 databases, a few hundred distinct inputs
def pg_tps(x: PgTpsInputs, samples: int = SAMPLES, seed: int = 20_140_601) -> PgTps:
    """TPS one database VM carries (P10/P50/P90) and what binds it (cached per inputs).

    >>> a = pg_tps(PgTpsInputs(vcpus=4, clients=200, cache_gib=12, working_set_gib=10), samples=500)
    >>> b = pg_tps(PgTpsInputs(vcpus=16, clients=200, cache_gib=12, working_set_gib=10), samples=500)
    >>> 1.0 < b.estimate.p50 / a.estimate.p50 <= 4.0, a.binding
    (True, 'CPU')
    """
    band = _band(x)
    cpu = band.cpu_p50 * np.exp(rng(seed).normal(0.0, band.cpu_sd, samples))
    storage = band.least * np.exp(rng(seed + 1).normal(0.0, band.storage_sd, samples))
    return band.tps(Estimate.from_samples(np.minimum(cpu, storage), UNIT))


BLOCK = 256  # inputs whose samples `pg_tps_many` holds at once: 256 x 4,000 draws, 8 MB an array


def pg_tps_many(xs: Iterable[PgTpsInputs], samples: int = SAMPLES, seed: int = 20_140_601) -> dict[PgTpsInputs, PgTps]:
    """`pg_tps` of each distinct input, bit for bit, for an estate's thousands of VMs: numpy's
    `normal(0, sd, n)` is sd x its `standard_normal(n)` from the same seed, so the draws are made once and scaled
    for each input; the band depends on four figures only (the CPU rate's median and sd, the least other bound and
    its sd), so inputs alike in them (VMs whose caches hold their working sets, differing in their IOPS share) share
    one band; the percentiles of up to BLOCK bands are read in one call (row by row the same arithmetic).
    tests/models/perf/test_pg_tps_many.py holds them equal.

    >>> x = PgTpsInputs(vcpus=4, clients=200, cache_gib=12, working_set_gib=10)
    >>> pg_tps_many([x, x], samples=500) == {x: pg_tps(x, samples=500)}
    True
    """
    bands: dict[PgTpsInputs, _Band] = {}
    for x in xs:
        if x not in bands:
            bands[x] = _band(x)
    draws = list(dict.fromkeys(b.draw for b in bands.values()))  # (cpu_p50, cpu_sd, least, storage_sd)
    z_cpu, z_storage = _standard_normal(seed, samples), _standard_normal(seed + 1, samples)
    estimates: dict[tuple[float, float, float, float], Estimate] = {}
    for start in range(0, len(draws), BLOCK):
        block = np.array(draws[start:start + BLOCK])
        cpu = block[:, 0:1] * np.exp(block[:, 1:2] * z_cpu)
        storage = block[:, 2:3] * np.exp(block[:, 3:4] * z_storage)
        p10, p50, p90 = percentiles(np.minimum(cpu, storage), [10.0, 50.0, 90.0], axis=1)
        for k, draw in enumerate(draws[start:start + BLOCK]):
            estimates[draw] = Estimate(float(p10[k]), float(p50[k]), float(p90[k]), UNIT)
    return {x: b.tps(estimates[b.draw]) for x, b in bands.items()}


@cache
def _standard_normal(seed: int, samples: int) -> np.ndarray:
    z = rng(seed).standard_normal(samples)
    z.flags.writeable = False  # shared by every call
    return z


@dataclass(frozen=True, slots=True)
class _Band:
    """What a VM's band is drawn from: the CPU rate's median and relative sd, the least other bound's median and
    relative sd, what binds at the medians, every bound and the distance from calibration."""

    cpu_p50: float
    cpu_sd: float
    least: float
    storage_sd: float
    binding: str
    bounds: Bounds
    distance: float

    @property
    def draw(self) -> tuple[float, float, float, float]:
        """What the samples are drawn from (positive medians, so no -0.0 stands for 0.0)."""
        return (self.cpu_p50, self.cpu_sd, self.least, self.storage_sd)

    def tps(self, estimate: Estimate) -> PgTps:
        b = self.bounds
        return PgTps(estimate, self.binding, self.cpu_p50, b.iops, b.latency, b.miss, self.distance, b.wal)


def _band(x: PgTpsInputs) -> _Band:
    if x.vcpus < 1 or x.clients < 1:
        raise ValueError(f"vcpus ({x.vcpus}) and clients ({x.clients}) must be at least 1")
    law = fitted()
    cpu_p50 = law.cpu_median(x)
    b = bounds(x)
    least, kind = b.least()
    # the storage and commit bounds extrapolate as far as the CPU rate does: the same band rule widens them
    return _Band(cpu_p50, _cpu_sd(x, float(x.vcpus)), least, math.hypot(law.fit_sd, band_sd(x)),
                 CPU if cpu_p50 <= least else kind, b, distance(distances(x).values()))


def vcpus_for_tps(tps: float, x: PgTpsInputs, confidence: str, most: int) -> float:
    """vCPUs (fractional) whose CPU-bound rate reaches `tps` at `confidence` (P50: the median; P90: the P10 of the
    band, nine runs in ten reach it); `most` when even that many do not. The other inputs are x's.

    >>> x = PgTpsInputs(vcpus=1, clients=64, cache_gib=8, working_set_gib=4, specrate_per_core=8.0)
    >>> p50, p90 = vcpus_for_tps(5_000, x, "P50", 32), vcpus_for_tps(5_000, x, "P90", 32)
    >>> 1 < p50 < p90 < 32, vcpus_for_tps(1e9, x, "P50", 32)
    (True, 32.0)
    """
    z = NormalDist().inv_cdf(BAND_LOW) if confidence == "P90" else 0.0
    law = fitted()

    def reach(n: float) -> float:
        return law.cpu_median(x, n) * math.exp(z * _cpu_sd(x, max(n, 1.0)))

    top = float(min(most, x.clients))  # clients beyond the vCPUs keep no more of them busy
    if reach(top) < tps:
        return float(most)
    one = reach(1.0)
    if one >= tps:
        return tps / one
    n = min(top, tps / one)  # the rate grows nearly in proportion to n: scale n by the rate still missing
    for _ in range(8):
        got = reach(n)
        if abs(got - tps) <= 1e-4 * tps:
            return n
        n = min(top, max(1.0, n * tps / got))
    lo, hi = 1.0, top  # not settled (a rate near the USL's peak): halve the interval instead
    while hi - lo > 1e-3:  # reach grows with n up to the USL's peak, which lies beyond `most` here
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if reach(mid) < tps else (lo, mid)
    return hi


def storage_margin(x: PgTpsInputs, confidence: str) -> float:
    """The factor by which storage must exceed a rate's reads for the storage bound to reach the rate at
    `confidence`: 1 at P50; at P90 the inverse of the storage band's P10 over its median.

    >>> x = PgTpsInputs(vcpus=16, clients=256, cache_gib=1, working_set_gib=1)
    >>> storage_margin(x, "P50"), 1.0 < storage_margin(x, "P90") < 1.5
    (1.0, True)
    """
    if confidence != "P90":
        return 1.0
    return math.exp(-NormalDist().inv_cdf(BAND_LOW) * math.hypot(fitted().fit_sd, band_sd(x)))


def held_out(role: str = "held-out", samples: int = 1_000) -> list[tuple[PublishedRun, Estimate]]:
    """Each published run of `role` with the band the model gives for its configuration."""
    return [(r, pg_tps(r.inputs, samples=samples).estimate) for r in published_runs(role)]


def _check_note(rows: list[tuple[PublishedRun, Estimate]]) -> str:
    inside = sum(e.p10 <= r.tps <= e.p90 for r, e in rows)
    errs = sorted(abs(100.0 * (e.p50 / r.tps - 1.0)) for r, e in rows)
    return (f"{inside} of {len(rows)} inside P10-P90; P50 error {errs[len(errs) // 2]:.0f} % median, "
            f"{errs[-1]:.0f} % largest")


def card() -> ModelCard:
    """The model card: the fit on study 001 and published runs, the held-out runs beside it, the band rule."""
    law = fitted()
    fit_rows = [Residual(r.id, r.tps, law.median(r.inputs), UNIT) for r in published_runs("fit")]
    held, outside = held_out(), held_out("outside")
    return ModelCard(
        name="pg-tps",
        description=(
            "PostgreSQL TPS per database VM: min(CPU, storage IOPS, storage latency, WAL flush). CPU = study 001's "
            "DBT-2 rate per core x rate factor x SPECrate2017_int_base per core (catalog CPU / study CPU stand-in) x "
            "USL over busy vCPUs X(n)/X(3); storage = IOPS / (page reads per txn x miss share), latency = clients / "
            "(reads reaching storage x latency); WAL = clients / WAL flush latency (group commit); miss share = "
            "1 - cache / working set."
        ),
        parameters={
            "tps_per_core_e5620": tps_per_core(), "rate_factor": law.rate_factor,
            "study_specrate_per_core": study_specrate_per_core(), "usl_sigma": law.sigma, "usl_kappa": law.kappa,
            "fit_sd": law.fit_sd, "page_reads_per_txn": page_reads_per_txn(),
            "calibration_vcpus": calibration_vcpus(), "calibration_clients": calibration_clients(),
            "band_sd_per_doubling": figure(DS, "band_sd_per_doubling"),
        },
        residuals=tuple(fit_rows),
        sources=(point(DS, "notpm_per_pcpu").source.cite(), point(DS, "study_cpu_specrate_per_core").source.cite(),
                 point(DOCS, "tpcc_new_order_share").source.cite(), published_runs("fit")[0].document,
                 point(DOCS, "wal_flushes_per_commit").source.cite()),
        note=(
            f"Band rule: relative sd = in-sample (Tables 5/6 range, CPU stand-in range, the fit's rms log residual "
            f"{law.fit_sd:.2f}) plus {figure(DS, 'band_sd_per_doubling'):g} per doubling of |log2| distance from the "
            "nearest calibration point (CPU per-core score, vCPUs, clients), in quadrature. Published runs on a "
            "CPU without a SPECrate2017_int_base result count its cores as the study CPU's stand-in, as a design "
            "does. Runs on log-structured remote storage (no IOPS or latency stated) are outside the model: "
            + _check_note(outside) + ". " + _contention_note()
        ),
        extra={"outside": [_row(r, e).to_dict() for r, e in outside], "vcpu_contention": _contention_extra()},
        validation=f"Held-out published pgbench runs (not fitted): {_check_note(held)}.",
        held_out=tuple(_row(r, e) for r, e in held),
    )


def _contention_extra() -> dict[str, object]:
    c = contention_check()
    pairs = [{"pair": n, "published_ratio": p, "model_ratio": m} for n, p, m in c.pairs]
    return {**{k: v for k, v in asdict(c).items() if k != "pairs"}, "pairs": pairs}


def _contention_note() -> str:
    """Whether the data support USL contention over vCPUs, in figures (`pg_tps_law.contention_check`)."""
    c = contention_check()
    free = next(m for n, p, m in c.pairs if p > 4.0) if any(p > 4.0 for _, p, _ in c.pairs) else c.cpu_4_to_16
    uncapped = [f"{n} {p:.2f}x" for n, p, _ in c.pairs if p > 4.0]
    return (
        f"vCPU contention: the fit puts the USL's sigma at {fitted().sigma:.3f} (CPU alone scales 4 -> 16 vCPU by"
        f" {c.cpu_4_to_16:.2f}x), the published runs alone at {c.runs_only_sigma:.3f} (rms log residual"
        f" {c.runs_only_rms:.3f}). Reading the {c.forced_ratio:.2f}x of the first IOPS-capped pair as CPU contention"
        f" (sigma {c.forced_sigma:.3f}) raises the rms log residual to {c.forced_rms_runs:.3f} over the fitted runs and"
        f" {c.forced_rms_all:.3f} with study 001's curve, which is linear to 32 clients; the pair without an IOPS cap"
        f" scales super-linearly ({', '.join(uncapped) or 'none'}; the model {free:.2f}x). The data do not support"
        " contention over vCPUs, so none is forced: the model puts the capped pairs' sub-linear scaling on memory fit"
        " and storage IOPS. 4 -> 16 vCPU pairs, published / model: "
        + "; ".join(f"{n} {p:.2f}x / {m:.2f}x" for n, p, m in c.pairs)
        + ". Missed by more than 25 %: " + (", ".join(n for n, p, m in c.pairs if abs(m / p - 1.0) > 0.25) or "none")
        + "."
    )


def _row(r: PublishedRun, e: Estimate) -> HeldOut:
    return HeldOut(r.id, r.tps, e.p10, e.p50, e.p90, UNIT, r.label)


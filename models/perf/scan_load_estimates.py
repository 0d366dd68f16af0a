"""Monte Carlo ranges of the Greenplum scan / load roofline: P10/P50/P90 and the binding resource.

The parameters are drawn from `scan_load_fit.param_distributions()` (seeded, cached per
sample count and seed) and pushed through the equations of `models.perf.scan_load` in one
vectorized call.
"""

from __future__ import annotations

from dataclasses import fields, replace
from functools import lru_cache

import numpy as np

from models.fit_cache import disk_cached
from models.perf import gp_bands, measured
from models.perf.scan_load import (
    BINDING_NAMES,
    ClusterShape,
    RooflineResult,
    ScanParams,
    default_scan_fraction,
    full_scan_seconds,
    load_tb_per_hour,
    queries_per_hour,
)
from models.perf.scan_load_fit import default_params, fitted_params, gen5_reference_shape, param_distributions
from models.uncertainty import DEFAULT_SAMPLES, DEFAULT_SEED, Estimate, FloatArray, sample_all


@disk_cached
def _draws(n: int, seed: int) -> dict[str, FloatArray]:
    """The seeded draw of every parameter, kept on disk beside the fit it is drawn from (`models.fit_cache`,
    the same fingerprint: calibration data, model code, numpy version). A process that finds it does not import
    `numpy.random` nor draw: 10-12 ms of `refarch size`'s CPU, for a file of ~1 MB per cached version."""
    return sample_all(param_distributions(), n, seed)


@lru_cache(maxsize=8)
def _sampled_params(n: int, seed: int) -> ScanParams:
    samples = _draws(n, seed)
    for arr in samples.values():
        arr.setflags(write=False)
    return replace(fitted_params(), **samples)  # unmeasured: the cache is shared by every sizing


def sampled_params(n: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED) -> ScanParams:
    """The Monte Carlo parameter samples every estimate uses (the same seeded draw: one estimate), with the
    measured factors of `models.perf.measured` applied inside a sizing on measurements."""
    return measured.applied(_sampled_params(n, seed))


def samples_of(params: ScanParams) -> int:
    """How many Monte Carlo samples the parameters hold (1 for point values)."""
    return max(int(np.size(getattr(params, f.name))) for f in fields(params))


def _estimate(result: RooflineResult, spread_sd: float = 0.0, time: bool = False) -> tuple[Estimate, str]:
    """P10/P50/P90 and the binding at P50; `spread_sd`: the band's extrapolation part (`gp_bands.spread`, a rate
    multiplied, a time divided), 0 at a calibration point."""
    values = np.asarray(result.value, dtype=float)
    if spread_sd > 0.0:
        widen = gp_bands.spread(spread_sd, values.size).reshape(values.shape)
        values = values / widen if time else values * widen
    est = Estimate.from_samples(values, result.unit)
    at_median = int(np.argmin(np.abs(values - est.p50)))
    return est, BINDING_NAMES[int(np.asarray(result.binding).flat[at_median])]


def _check_scalar(shape: ClusterShape) -> None:
    for f in fields(shape):
        v = getattr(shape, f.name)
        if np.ndim(v) != 0:
            raise ValueError(f"estimate_* takes one design: ClusterShape.{f.name} must be a scalar")


def estimate_full_scan(
    shape_scalar: ClusterShape, data_on_disk_tb: float, n: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
    spread_sd: float = 0.0,
) -> tuple[Estimate, str]:
    """P10/P50/P90 of `full_scan_seconds` over `param_distributions()` (seeded), and the binding resource at P50;
    `spread_sd` widens the band with the distance from the calibration (`gp_bands`)."""
    _check_scalar(shape_scalar)
    return _estimate(full_scan_seconds(shape_scalar, data_on_disk_tb, sampled_params(n, seed)), spread_sd, time=True)


def estimate_load(
    shape_scalar: ClusterShape, n: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED, spread_sd: float = 0.0,
) -> tuple[Estimate, str]:
    """P10/P50/P90 of `load_tb_per_hour` and the binding resource at P50."""
    _check_scalar(shape_scalar)
    return _estimate(load_tb_per_hour(shape_scalar, sampled_params(n, seed)), spread_sd)


def estimate_queries_per_hour(
    shape_scalar: ClusterShape,
    data_on_disk_tb: float,
    concurrent_queries: float,
    scan_fraction: float | None = None,
    n: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    spread_sd: float = 0.0,
) -> tuple[Estimate, str]:
    """P10/P50/P90 of `queries_per_hour` and the binding resource at P50 (scan_fraction defaults to 000's)."""
    _check_scalar(shape_scalar)
    frac = default_scan_fraction() if scan_fraction is None else scan_fraction
    return _estimate(
        queries_per_hour(shape_scalar, data_on_disk_tb, concurrent_queries, frac, sampled_params(n, seed)), spread_sd
    )


# --------------------------------------------------------------------------- bench hooks
# `refarch bench` (app/bench/models.py) times these; nothing in the models calls them.


def bench_predict() -> float:
    """One point prediction of the Gen5 reference design (full-scan seconds)."""
    return float(full_scan_seconds(gen5_reference_shape(), 10.0, default_params()).value)


def bench_monte_carlo(samples: int = DEFAULT_SAMPLES) -> Estimate:
    """A full-scan range from `samples` fresh draws: sampling included, the sample cache bypassed."""
    params = replace(default_params(), **sample_all(param_distributions(), samples, DEFAULT_SEED))
    return _estimate(full_scan_seconds(gen5_reference_shape(), 10.0, params))[0]

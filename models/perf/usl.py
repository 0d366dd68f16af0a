"""The Universal Scalability Law and its fit to measured (clients, throughput) points.

The USL (Gunther) gives throughput at concurrency N as

    X(N) = lambda * N / (1 + sigma * (N - 1) + kappa * N * (N - 1))

with lambda the single-client rate, sigma the contention (serial) fraction and kappa the
coherency (crosstalk) cost. With kappa > 0 the curve peaks at N* = sqrt((1 - sigma) / kappa)
and declines beyond it; with kappa = 0 it rises towards lambda / sigma and never turns down.

Generic: nothing here knows a study. The study calibrations are in
`models.perf.usl_calibration`, Greenplum 6 TPS on given hardware in `models.perf.gp_oltp`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from models.percentiles import percentiles
from models.uncertainty import DEFAULT_SAMPLES, DEFAULT_SEED, Estimate, FloatArray, rng

PARAM_NAMES = ("lambda", "sigma", "kappa")

_Z95 = 1.959963984540054
# sigma this close to 1 is "fully serialized": X(N) stays within 0.1 % of lambda for any N, and the
# N* formula would divide two round-off residues.
_SERIAL_TOL = 1e-3
# The points a sweep can hold: a client count is a whole number of concurrent sessions (1 and up, at most ten
# million), a throughput a rate within 1e-6..1e15 per second whose largest and smallest differ by at most 1e6x;
# beyond these no measurement lies, and the fit's squares would overflow (1e308 "fits" with numpy warnings).
MAX_CLIENTS = 1e7
THROUGHPUT_RANGE = (1e-6, 1e15)
MAX_THROUGHPUT_SPREAD = 1e6
# A fit explaining less than this share of the points' variance is flagged, not trusted.
MIN_TRUSTED_R2 = 0.5
_MAX_CACHED_DRAWS = 4


class UslFitError(ValueError):
    """The points cannot be fitted: too few, not positive, not finite, or the fit did not converge."""


def usl(n: ArrayLike, lam: ArrayLike, sigma: ArrayLike, kappa: ArrayLike) -> FloatArray:
    """X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)), broadcast over all arguments."""
    n = np.asarray(n, dtype=float)
    x: FloatArray = np.asarray(lam) * n / (1.0 + np.asarray(sigma) * (n - 1.0) + np.asarray(kappa) * n * (n - 1.0))
    return x


def as_output(a: FloatArray) -> Any:
    """Scalars in, float out; arrays in, arrays out (what the optimizer expects)."""
    return float(a) if np.ndim(a) == 0 else a


def positive_array(value: ArrayLike, name: str) -> FloatArray:
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite numbers")
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be > 0")
    return arr


@dataclass(frozen=True, eq=False)
class UslFit:
    """A fitted USL curve with its parameter covariance and the points it was fitted on."""

    lam: float
    sigma: float
    kappa: float
    cov: FloatArray | None  # 3x3 over (lambda, sigma, kappa); None when the points cannot estimate it
    r2: float
    clients: FloatArray
    observed: FloatArray
    intervals: dict[str, tuple[float, float] | None]
    unit: str = "TPS"
    label: str = ""
    covariance_note: str = ""
    _draws: dict[tuple[int, int], FloatArray] = field(default_factory=dict, repr=False)

    @property
    def params(self) -> dict[str, float]:
        return {"lambda": self.lam, "sigma": self.sigma, "kappa": self.kappa}

    @property
    def points(self) -> int:
        return int(self.clients.size)

    @property
    def max_clients(self) -> float:
        return float(self.clients.max())

    def throughput(self, n: ArrayLike) -> Any:
        """X(n) at the fitted parameters; float for a scalar n, array for an array."""
        return as_output(usl(n, self.lam, self.sigma, self.kappa))

    @property
    def usl_peak_clients(self) -> float:
        """N* = sqrt((1 - sigma) / kappa); inf when kappa = 0 (no retrograde region)."""
        if self.sigma >= 1.0 - _SERIAL_TOL:
            return 1.0  # fully serialized: X = lambda / (1 + kappa (N-1)) never rises above X(1)
        if self.kappa <= 0.0:
            return math.inf
        return math.sqrt((1.0 - self.sigma) / self.kappa)

    @property
    def peak_within_data(self) -> bool:
        return self.usl_peak_clients <= self.max_clients

    @property
    def peak_clients(self) -> float:
        """N* when the data reach it; otherwise the largest measured N (see `peak_note`)."""
        return self.usl_peak_clients if self.peak_within_data else self.max_clients

    @property
    def peak_throughput(self) -> float:
        return float(self.throughput(self.peak_clients))

    @property
    def peak_note(self) -> str:
        if self.sigma >= 1.0 - _SERIAL_TOL:
            return "sigma = 1: fully serialized, throughput does not grow with clients; peak from N = 1"
        if self.peak_within_data:
            return ""
        if math.isinf(self.usl_peak_clients):
            return (
                f"kappa = 0: no retrograde region, the curve rises towards lambda/sigma; "
                f"reporting the largest measured N ({self.max_clients:g})"
            )
        return (
            f"the fitted peak N* = {self.usl_peak_clients:,.0f} lies beyond the largest measured N "
            f"({self.max_clients:g}); reporting the largest measured N rather than an extrapolated peak"
        )

    @property
    def physical_note(self) -> str:
        """Why the fit is outside what the USL describes physically ("" when it is not): fully serialized,
        superlinear points (per-client throughput rising with clients: the USL has no term for it), or a
        curve explaining little of the points."""
        notes = []
        if self.sigma >= 1.0 - _SERIAL_TOL:
            notes.append("sigma at its bound 1: throughput does not grow with clients (did the clients run?)")
        per_client = self.observed / self.clients
        first = per_client[int(np.argmin(self.clients))]
        if self.sigma <= 1e-9 and self.kappa <= 1e-9 and float(per_client.max()) > 1.05 * first:
            notes.append("superlinear points: throughput per client rises with clients (a warm-up or caches?), "
                         "which the USL cannot describe; sigma and kappa sit at their bound 0")
        if self.r2 < MIN_TRUSTED_R2:
            notes.append(f"r2 {self.r2:.2f}: the curve explains little of the points")
        return "; ".join(notes)

    def predicted(self) -> FloatArray:
        return np.asarray(usl(self.clients, self.lam, self.sigma, self.kappa))

    def relative_residuals(self) -> FloatArray:
        """(fitted - measured) / measured per point: the fit's error where it was measured."""
        return np.asarray((self.predicted() - self.observed) / self.observed)

    @property
    def rms_relative_error(self) -> float:
        """Root mean square of the relative residuals (0.03: the curve misses the points by about 3 %)."""
        return float(np.sqrt(np.mean(self.relative_residuals() ** 2)))

    @property
    def peak_placed(self) -> bool:
        """Whether the sweep places the peak: the fitted N* lies within the measured client counts, so the
        curve turned down (or flattened) where it was measured rather than beyond it. A sweep that stops
        before the peak fits a rising curve whose peak is an extrapolation; sizing on it is flagged."""
        return self.peak_within_data and self.sigma < 1.0 - _SERIAL_TOL

    def peak_clients_range(self, samples: int = 2_000, seed: int = DEFAULT_SEED) -> tuple[float, float] | None:
        """P10-P90 of N* over the parameter covariance (inf where a draw has kappa = 0); None without one."""
        if self.cov is None:
            return None
        d = self.draws(samples, seed)
        with np.errstate(divide="ignore", invalid="ignore"):
            n_star = np.where(d[:, 2] > 0, np.sqrt(np.maximum(1.0 - d[:, 1], 0.0) / d[:, 2]), np.inf)
        p10, p90 = np.percentile(n_star, [10.0, 90.0])
        return float(p10), float(p90)

    def draws(self, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED) -> FloatArray:
        """(samples, 3) parameter draws from the fitted normal, truncated to the USL domain.

        Truncation by rejection rather than clipping: a calibration often sits on a bound
        (kappa = 0 for a curve that never turns down) and clipping would pile half the draws
        onto the bound and drag the median prediction below the fit.
        """
        key = (samples, seed)
        cached = self._draws.get(key)
        if cached is not None:
            return cached
        mean = np.array([self.lam, self.sigma, self.kappa])
        if self.cov is None:
            d = np.tile(mean, (samples, 1))
        else:
            gen = rng(seed)
            kept: list[FloatArray] = []
            have = 0
            for _ in range(50):
                batch = gen.multivariate_normal(mean, self.cov, 2 * samples + 16, method="eigh")
                ok = (batch[:, 0] > 0) & (batch[:, 1] >= 0) & (batch[:, 1] <= 1) & (batch[:, 2] >= 0)
                kept.append(batch[ok])
                have += int(ok.sum())
                if have >= samples:
                    break
            d = np.concatenate(kept)[:samples] if kept else np.empty((0, 3))
            if d.shape[0] < samples:  # the domain holds almost none of the normal: clip the rest
                extra = gen.multivariate_normal(mean, self.cov, samples - d.shape[0], method="eigh")
                extra[:, 0] = np.maximum(extra[:, 0], self.lam * 1e-3)
                extra[:, 1] = np.clip(extra[:, 1], 0.0, 1.0)
                extra[:, 2] = np.maximum(extra[:, 2], 0.0)
                d = np.concatenate([d, extra])
        d.setflags(write=False)
        if len(self._draws) >= _MAX_CACHED_DRAWS:  # bounded: callers that vary the seed must not grow it
            self._draws.pop(next(iter(self._draws)))
        self._draws[key] = d
        return d

    def estimate(self, n: ArrayLike, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED) -> Estimate:
        """P10/P50/P90 of X(n) by Monte Carlo over the parameter covariance (seeded, vectorized).

        Without a covariance (3 customer points leave no degree of freedom) the range has zero width.
        """
        n_arr = positive_array(n, "clients")
        d = self.draws(samples, seed)
        shape = (-1,) + (1,) * n_arr.ndim
        x = usl(n_arr[None, ...], d[:, 0].reshape(shape), d[:, 1].reshape(shape), d[:, 2].reshape(shape))
        p10, p50, p90 = percentiles(x, [10.0, 50.0, 90.0], axis=0)
        return Estimate(as_output(p10), as_output(p50), as_output(p90), self.unit)

    def summary(self) -> dict[str, Any]:
        """The `refarch fit-usl --format json` document."""

        def num(v: float) -> float | None:
            return v if math.isfinite(v) else None

        return {
            "lambda": self.lam,
            "sigma": self.sigma,
            "kappa": self.kappa,
            "peak_clients": num(self.peak_clients),
            "peak_throughput": num(self.peak_throughput),
            "r2": num(self.r2),
            "intervals": {k: (list(v) if v is not None else None) for k, v in self.intervals.items()},
            "points": self.points,
            "peak_note": self.peak_note or None,
            "covariance_note": self.covariance_note or None,
            "physical_note": self.physical_note or None,
            "peak_placed": self.peak_placed,
            "peak_clients_p10_p90": _finite_pair(self.peak_clients_range()),
            "rms_relative_error": self.rms_relative_error,
            "residuals": [
                {"clients": float(c), "measured": float(x), "fitted": float(p), "relative_error": float(r)}
                for c, x, p, r in zip(self.clients, self.observed, self.predicted(), self.relative_residuals(),
                                      strict=True)
            ],
        }


def _finite_pair(pair: tuple[float, float] | None) -> list[float | None] | None:
    """A (low, high) range for JSON: an infinite end (no retrograde region in some draws) as null."""
    if pair is None:
        return None
    return [v if math.isfinite(v) else None for v in pair]


def _as_1d(values: ArrayLike, name: str) -> FloatArray:
    try:
        arr = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise UslFitError(f"{name} must be numbers: {exc}") from exc
    return arr


def _initial_guesses(n: FloatArray, y: FloatArray) -> list[FloatArray]:
    """Starting points: the linearized USL, N/X = a + b (N-1) + c N (N-1), by non-negative least squares.

    With a = 1/lambda, b = sigma/lambda, c = kappa/lambda this is linear, so it lands close to the
    optimum and keeps the bounded fit away from poor local minima; two plain starts back it up.
    """
    from scipy.optimize import nnls  # scipy loads only when a fit runs (calibrated fits come from the cache)

    a_mat = np.column_stack([np.ones_like(n), n - 1.0, n * (n - 1.0)])
    rhs = n / y
    w = 1.0 / rhs  # relative weighting, like the fit itself
    starts: list[FloatArray] = []
    try:
        (a, b, c), _ = nnls(a_mat * w[:, None], rhs * w)
        if a > 0:
            starts.append(np.array([1.0 / a, min(b / a, 1.0), c / a]))
    except (ValueError, RuntimeError):
        pass
    lam0 = float(np.max(y / n))
    starts.append(np.array([lam0, 0.05, 0.0]))
    starts.append(np.array([lam0 * 1.5, 0.2, 1e-4]))
    return starts


def _checked_points(clients: ArrayLike, throughput: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """The (clients, throughput) points as arrays, refused with a message naming the point when they cannot
    determine three parameters: equal lengths, finite, positive, at least 3 distinct client counts."""
    n = _as_1d(clients, "clients")
    x = _as_1d(throughput, "throughput")
    if n.size != x.size:
        raise UslFitError(f"clients and throughput differ in length ({n.size} vs {x.size})")
    if n.size < 3:
        raise UslFitError(f"need at least 3 points to fit the 3 USL parameters, got {n.size}")
    for name, arr in (("clients", n), ("throughput", x)):
        bad = np.flatnonzero(~np.isfinite(arr))
        if bad.size:
            raise UslFitError(f"{name} is not a finite number at point(s) {', '.join(str(i + 1) for i in bad)}")
        nonpos = np.flatnonzero(arr <= 0)
        if nonpos.size:
            where = ", ".join(f"point {i + 1} ({arr[i]:g})" for i in nonpos)
            raise UslFitError(f"{name} must be > 0: {where}")
    _check_ranges(n, x)
    if np.unique(n).size < 3:
        raise UslFitError("need at least 3 distinct client counts to separate lambda, sigma and kappa")
    return n, x


def _check_ranges(n: FloatArray, x: FloatArray) -> None:
    """Points outside what a sweep can measure, refused naming the point and the limit.

    >>> _check_ranges(np.array([1.0, 2.0, 4.0]), np.array([10.0, 2e300, 40.0]))
    Traceback (most recent call last):
    ...
    models.perf.usl.UslFitError: throughput must be at most 1e+15 per second: point 2 (2e+300)
    """
    low, high = THROUGHPUT_RANGE
    checks = (("clients", n, n < 1.0, "must be at least 1 (a count of concurrent clients)"),
              ("clients", n, n > MAX_CLIENTS, f"must be at most {MAX_CLIENTS:g}"),
              ("throughput", x, x < low, f"must be at least {low:g} per second"),
              ("throughput", x, x > high, f"must be at most {high:g} per second"))
    for name, arr, bad, rule in checks:
        where = np.flatnonzero(bad)
        if where.size:
            shown = ", ".join(f"point {i + 1} ({arr[i]:g})" for i in where[:5])
            raise UslFitError(f"{name} {rule}: {shown}" + (f" and {where.size - 5} more" if where.size > 5 else ""))
    if float(x.max()) > MAX_THROUGHPUT_SPREAD * float(x.min()):
        raise UslFitError(f"throughput spans {x.min():g} to {x.max():g}, more than {MAX_THROUGHPUT_SPREAD:g}x "
                          "within one sweep: the points are not one measurement's (mixed units?)")


def _point_weights(rel_sd: ArrayLike | None, n: FloatArray) -> FloatArray:
    """One relative standard deviation per point: the stated ones (checked), else 1 for every point."""
    if rel_sd is None:
        return np.ones_like(n)
    rsd = np.broadcast_to(np.asarray(rel_sd, dtype=float), n.shape)
    if not np.all(np.isfinite(rsd)) or np.any(rsd <= 0):
        raise UslFitError("rel_sd must be positive and finite")
    return rsd


_LOWER = np.array([1e-12, 0.0, 0.0])  # lambda > 0, 0 <= sigma <= 1, kappa >= 0 (lambda in fit units)
_UPPER = np.array([np.inf, 1.0, np.inf])


def _best_of_starts(
    n: FloatArray, y: FloatArray, weights: FloatArray, absolute: bool, max_evaluations: int
) -> tuple[FloatArray, FloatArray, list[str]]:
    """The lowest-cost bounded fit over the starting points: (popt, pcov, scipy's OptimizeWarnings).

    Several starts because a bounded fit can stop in a poor local minimum; raises `UslFitError`
    when none converges to a finite solution.
    """
    from scipy.optimize import OptimizeWarning, curve_fit

    best: tuple[float, FloatArray, FloatArray, list[str]] | None = None
    failures: list[str] = []
    for p0 in _initial_guesses(n, y):
        p0 = np.clip(p0, _LOWER, np.where(np.isfinite(_UPPER), _UPPER, p0))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                popt, pcov = curve_fit(
                    usl,
                    n,
                    y,
                    p0=p0,
                    sigma=weights,
                    absolute_sigma=absolute,
                    bounds=(_LOWER, _UPPER),
                    method="trf",
                    x_scale="jac",
                    max_nfev=max_evaluations,
                )
            except (RuntimeError, ValueError, FloatingPointError) as exc:
                failures.append(str(exc))
                continue
        cost = float(np.sum(((usl(n, *popt) - y) / weights) ** 2))
        if np.all(np.isfinite(popt)) and (best is None or cost < best[0]):
            best = (cost, popt, pcov, [str(w.message) for w in caught if issubclass(w.category, OptimizeWarning)])
    if best is None:
        detail = failures[0] if failures else "no finite solution"
        raise UslFitError(f"the USL fit did not converge (max {max_evaluations} evaluations): {detail}")
    return best[1], best[2], best[3]


def _covariance(
    pcov: FloatArray, scale: float, dof: int, absolute: bool, opt_warnings: list[str]
) -> tuple[FloatArray | None, str]:
    """The parameters' covariance in the caller's units, or None with the reason it is undefined.

    Undefined when scipy returns infinities, or when the scatter must estimate it (no `rel_sd`)
    and 3 points leave no degree of freedom.
    """
    if np.all(np.isfinite(pcov)) and (absolute or dof > 0):
        d = np.diag([scale, 1.0, 1.0])
        cov = d @ pcov @ d
        return (cov + cov.T) / 2.0, ""
    return None, (
        "parameter covariance undefined: 3 points leave no degrees of freedom to estimate scatter"
        if dof == 0 and not absolute
        else "parameter covariance undefined" + (f" ({opt_warnings[0]})" if opt_warnings else "")
    )


def _intervals(
    cov: FloatArray | None, centres: tuple[float, float, float], absolute: bool, dof: int
) -> dict[str, tuple[float, float] | None]:
    """95 % intervals clipped to the bounds: normal for stated uncertainties, Student's t for scatter."""
    intervals: dict[str, tuple[float, float] | None] = dict.fromkeys(PARAM_NAMES)
    if cov is None:
        return intervals
    from scipy import stats

    q = _Z95 if absolute else float(stats.t.ppf(0.975, dof))
    sd = np.sqrt(np.maximum(np.diag(cov), 0.0))
    lows = np.array([1e-300, 0.0, 0.0])
    highs = np.array([np.inf, 1.0, np.inf])
    for i, name in enumerate(PARAM_NAMES):
        centre = centres[i]
        intervals[name] = (
            float(max(centre - q * sd[i], lows[i])),
            float(min(centre + q * sd[i], highs[i])),
        )
    return intervals


def _r_squared(x: FloatArray, pred: FloatArray) -> float:
    """R^2 of the fitted curve; flat data has no variance to explain: perfect if the curve is flat too."""
    scale = float(x.max())
    x, pred = x / scale, pred / scale  # in units of the largest point: no square overflows
    ss_res = float(np.sum((x - pred) ** 2))
    ss_tot = float(np.sum((x - x.mean()) ** 2))
    flat_fits = ss_res <= 1e-12 * float(np.sum(x**2))
    return 1.0 - ss_res / ss_tot if ss_tot > 0 else (1.0 if flat_fits else 0.0)


def fit_usl(
    clients: ArrayLike,
    throughput: ArrayLike,
    *,
    rel_sd: ArrayLike | None = None,
    unit: str = "TPS",
    label: str = "",
    max_evaluations: int = 10_000,
) -> UslFit:
    """Fit X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) with bounded least squares.

    Bounds: lambda > 0, 0 <= sigma <= 1, kappa >= 0. Residuals are relative (pgbench noise
    grows with throughput). Without `rel_sd` the covariance comes from the residual scatter
    (a customer's run; 95 % intervals use Student's t with n - 3 degrees of freedom); with
    `rel_sd` (one relative standard deviation per point) it comes from those stated
    uncertainties (calibration points; normal intervals). Intervals are clipped to the bounds.
    """
    n, x = _checked_points(clients, throughput)
    absolute = rel_sd is not None
    rsd = _point_weights(rel_sd, n)
    # Fit in units of the largest throughput so lambda is O(1) next to sigma and kappa.
    scale = float(x.max())
    y = x / scale
    popt, pcov, opt_warnings = _best_of_starts(n, y, rsd * y, absolute, max_evaluations)
    lam, sigma, kappa = float(popt[0]) * scale, float(popt[1]), float(popt[2])
    dof = n.size - 3
    cov, note = _covariance(pcov, scale, dof, absolute, opt_warnings)
    return UslFit(
        lam=lam,
        sigma=sigma,
        kappa=kappa,
        cov=cov,
        r2=_r_squared(x, usl(n, lam, sigma, kappa)),
        clients=n.copy(),
        observed=x.copy(),
        intervals=_intervals(cov, (lam, sigma, kappa), absolute, dof),
        unit=unit,
        label=label,
        covariance_note=note,
    )

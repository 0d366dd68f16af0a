"""Uncertainty: parameter distributions, vectorized Monte Carlo, P10/P50/P90 estimates.

A model that supports ranges takes its uncertain parameters as numpy arrays and
broadcasts, so one call with `n` samples per parameter yields `n` predictions;
`Estimate.from_samples` turns them into percentiles. Sampling is seeded so the
same input gives the same range on every run (reports must be reproducible).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import Point
from models.percentiles import percentiles

DEFAULT_SAMPLES = 10_000
DEFAULT_SEED = 20_140_601  # fixed: identical inputs give identical ranges

FloatArray = NDArray[np.float64]


def rng(seed: int = DEFAULT_SEED) -> np.random.Generator:
    return np.random.default_rng(seed)


@dataclass(frozen=True, slots=True)
class Estimate:
    p10: float
    p50: float
    p90: float
    unit: str

    @classmethod
    def from_samples(cls, samples: ArrayLike, unit: str) -> Estimate:
        arr = np.asarray(samples, dtype=float)
        p10, p50, p90 = percentiles(arr, [10.0, 50.0, 90.0])
        return cls(float(p10), float(p50), float(p90), unit)

    @classmethod
    def exact(cls, value: float, unit: str) -> Estimate:
        return cls(value, value, value, unit)

    def to_dict(self) -> dict[str, Any]:
        return {"p10": self.p10, "p50": self.p50, "p90": self.p90, "unit": self.unit}


@dataclass(frozen=True, slots=True)
class Fixed:
    value: float

    def sample(self, n: int, gen: np.random.Generator) -> FloatArray:
        return np.full(n, self.value)


@dataclass(frozen=True, slots=True)
class Normal:
    mean: float
    sd: float

    def sample(self, n: int, gen: np.random.Generator) -> FloatArray:
        return gen.normal(self.mean, self.sd, n)


@dataclass(frozen=True, slots=True)
class PositiveNormal:
    """A normal truncated at a small positive floor (rates, times, efficiencies)."""

    mean: float
    sd: float

    def sample(self, n: int, gen: np.random.Generator) -> FloatArray:
        return np.maximum(gen.normal(self.mean, self.sd, n), self.mean * 1e-3)


@dataclass(frozen=True, slots=True)
class Uniform:
    low: float
    high: float

    def sample(self, n: int, gen: np.random.Generator) -> FloatArray:
        return gen.uniform(self.low, self.high, n)


@dataclass(frozen=True, slots=True)
class Triangular:
    low: float
    mode: float
    high: float

    def sample(self, n: int, gen: np.random.Generator) -> FloatArray:
        if self.low == self.high:
            return np.full(n, self.mode)
        return gen.triangular(self.low, self.mode, self.high, n)


Distribution = Fixed | Normal | PositiveNormal | Uniform | Triangular

# A quoted figure without a stated range is read to the precision it is printed
# with; +-5 % (1 sd) covers the rounding and run-to-run spread the studies report
# (e.g. the 5-6 % virtualization overhead band in 000_b2a3159111482e98.txt).
QUOTED_RELATIVE_SD = 0.05


def from_point(point: Point, relative_sd: float = QUOTED_RELATIVE_SD) -> Distribution:
    """The distribution a calibration point stands for: its stated range, else a band."""
    if point.low is not None and point.high is not None:
        if point.low == point.high:
            return Fixed(point.value)
        return Triangular(point.low, point.value, point.high)
    return PositiveNormal(point.value, abs(point.value) * relative_sd)


def sample_all(
    dists: Mapping[str, Distribution], n: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
) -> dict[str, FloatArray]:
    gen = rng(seed)
    return {name: d.sample(n, gen) for name, d in dists.items()}

"""`models.percentiles` gives np.percentile's values bit for bit (it exists only to skip numpy.ma's import)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from models.percentiles import percentiles

QS = st.one_of(st.floats(0, 100), st.integers(0, 100), st.lists(st.floats(0, 100), min_size=1, max_size=4))


def _same(a: object, b: object) -> bool:
    x, y = np.asarray(a), np.asarray(b)
    return x.shape == y.shape and x.dtype == y.dtype and np.array_equal(x, y, equal_nan=True)


@settings(max_examples=300, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=7),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=64)), QS, st.data())
def test_equal_to_numpy_on_any_floats(a: np.ndarray, q: object, data: st.DataObject) -> None:
    axis = data.draw(st.one_of(st.none(), st.integers(0, a.ndim - 1)))
    with np.errstate(all="ignore"):
        assert _same(percentiles(a, q, axis=axis), np.percentile(a, q, axis=axis))  # type: ignore[call-overload]


@given(hnp.arrays(np.int64, st.integers(1, 20), elements=st.integers(-1000, 1000)), QS)
def test_equal_to_numpy_on_integers(a: np.ndarray, q: object) -> None:
    assert _same(percentiles(a, q), np.percentile(a, q))  # type: ignore[call-overload]


def test_the_sampled_estimates_shape() -> None:
    rng = np.random.default_rng(7)
    x = rng.lognormal(size=(5, 10_000))
    assert _same(percentiles(x, [10.0, 50.0, 90.0], axis=1), np.percentile(x, [10.0, 50.0, 90.0], axis=1))
    assert _same(percentiles(x, 90.0, axis=1), np.percentile(x, 90.0, axis=1))

"""The chunked, vectorised Pareto sweep equals the one-candidate-at-a-time sweep it replaced."""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.sizing import pareto
from models.sizing.pareto import ParetoFront, Points, pareto_indices
from tests.models.sizing.optimizer_reference import _pareto_front

values = st.lists(st.sampled_from([1.0, 2.0, 3.0, 5.0, 8.0, float("nan")]), min_size=3, max_size=3)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(values, min_size=0, max_size=400), chunk=st.integers(1, 97),
       higher=st.booleans(), use_mask=st.booleans(), seed=st.integers(0, 2**31 - 1),
       block=st.sampled_from([1, 3, 8, pareto.SCREEN_BLOCK]), shared=st.booleans())
def test_chunked_front_equals_the_one_by_one_sweep(points: list[list[float]], chunk: int, higher: bool,
                                                   use_mask: bool, seed: int, block: int, shared: bool) -> None:
    # small screen blocks: a chunk has many, some ruled out whole and some not, and a short last one; `shared`: each
    # chunk's lowest capex handed over, as the optimizer has it
    with mock.patch.object(pareto, "SCREEN_BLOCK", block):
        _chunked_front_equals_the_sweep(points, chunk, higher, use_mask, seed, shared)


def _chunked_front_equals_the_sweep(points: list[list[float]], chunk: int, higher: bool, use_mask: bool,
                                    seed: int, shared: bool) -> None:
    arr = np.array(points, dtype=float).reshape(-1, 3)
    capex, value, power = np.nan_to_num(arr[:, 0], nan=4.0), arr[:, 1], arr[:, 2]
    mask = np.random.default_rng(seed).random(capex.size) < 0.6 if use_mask else None
    expected = _pareto_front(capex, value, power, higher, mask) if capex.size else []
    assert pareto_indices(capex, value, power, higher, mask) == expected
    # streamed in chunks, as the optimizer does
    idx = np.flatnonzero(mask) if mask is not None and np.any(mask) else np.arange(capex.size)
    perf = -value if higher else value
    front = ParetoFront()
    for start in range(0, idx.size, chunk):
        sel = idx[start:start + chunk]
        front.add(Points(capex[sel], perf[sel], power[sel], sel.astype(np.int64)), {"row": sel},
                  lowest_capex=float(capex[sel].min()) if shared and sel.size else None)
    assert [int(i) for i in front.index] == expected
    assert [int(i) for i in front.payload.get("row", [])] == expected


def test_a_big_front_is_exact() -> None:
    rng = np.random.default_rng(7)
    n = 3000  # anti-correlated: most points are on the front, so the block sweep does real work
    capex = rng.integers(0, 50, n).astype(float)
    value = -capex + rng.integers(0, 5, n)
    power = rng.integers(0, 40, n).astype(float)
    assert pareto_indices(capex, value, power, False) == _pareto_front(capex, value, power, False)


def test_a_big_front_streamed_is_exact_whatever_the_screen_blocks() -> None:
    rng = np.random.default_rng(11)
    n = 3000  # anti-correlated: each chunk has rows on the front and rows behind it in the same blocks
    capex = rng.integers(0, 60, n).astype(float)
    perf = capex + rng.integers(0, 9, n)  # lower is better: a cheaper design is slower
    power = rng.integers(0, 30, n).astype(float)
    expected = _pareto_front(capex, perf, power, False, None)
    for block in (1, 7, 64, pareto.SCREEN_BLOCK):
        front = ParetoFront()
        with mock.patch.object(pareto, "SCREEN_BLOCK", block):
            for start in range(0, n, 250):
                sel = np.arange(start, min(n, start + 250), dtype=np.int64)
                front.add(Points(capex[sel], perf[sel], power[sel], sel), {})
        assert [int(i) for i in front.index] == expected, block


def test_a_row_best_in_its_block_on_every_count_is_kept() -> None:
    """The first chunk is screened with a scout front of its own blocks' cheapest, fastest and leanest rows: a row
    that is all three of its block must survive its own block's screen (it ties itself on every count)."""
    rng = np.random.default_rng(5)
    n, block = 240, 8
    capex, perf, power = (rng.integers(10, 40, n).astype(float) for _ in range(3))
    for start in range(0, n, block):
        best = start + int(rng.integers(0, block))
        capex[best], perf[best], power[best] = (a[start:start + block].min() - int(rng.integers(0, 2))
                                                for a in (capex, perf, power))
    expected = _pareto_front(capex, perf, power, False, None)
    for chunk in (n, 97):
        front = ParetoFront()
        with mock.patch.object(pareto, "SCREEN_BLOCK", block):
            for start in range(0, n, chunk):
                sel = np.arange(start, min(n, start + chunk), dtype=np.int64)
                front.add(Points(capex[sel], perf[sel], power[sel], sel), {})
        assert [int(i) for i in front.index] == expected, chunk

"""The host-count search finds the smallest count meeting a monotone requirement, whatever the guess."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.sizing.greenplum.bisection import smallest_meeting

LIMIT = 300

guesses = st.one_of(st.floats(-5.0, 400.0), st.just(float("nan")), st.just(float("inf")))


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, LIMIT + 20), st.integers(1, LIMIT + 5), guesses, st.integers(-2, 2)),
                     min_size=1, max_size=60),
       exact_guess=st.booleans())
def test_the_smallest_count_meeting_the_requirement_whatever_the_guess(
        rows: list[tuple[int, int, float, int]], exact_guess: bool) -> None:
    need, low, guess, off = (np.array(c) for c in zip(*rows, strict=True))
    low = low.astype(np.int64)
    if exact_guess:  # right to the count, or a count or two off: the two-probe path and its fall-back
        guess = (need + off).astype(float)
    probed: list[int] = []

    def ok(counts: np.ndarray, idx: np.ndarray) -> np.ndarray:
        probed.append(idx.size)
        return counts >= need[idx]  # more is never worse: the requirement is monotone

    hosts, reachable = smallest_meeting(ok, low, LIMIT, guess.astype(float))
    bounded = np.minimum(low, LIMIT)
    expected = np.where(need <= LIMIT, np.maximum(need, bounded), LIMIT)
    assert hosts.tolist() == expected.tolist()
    assert reachable.tolist() == (need <= LIMIT).tolist()
    plain, plain_reachable = smallest_meeting(ok, low, LIMIT)  # no guess: plain bisection, the same answer
    assert plain.tolist() == expected.tolist() and plain_reachable.tolist() == reachable.tolist()


def test_a_right_guess_settles_in_two_probes() -> None:
    need = np.arange(3, 203, dtype=np.int64)
    calls = []

    def ok(counts: np.ndarray, idx: np.ndarray) -> np.ndarray:
        calls.append(idx.size)
        return counts >= need[idx]

    hosts, reachable = smallest_meeting(ok, np.full(need.size, 2, dtype=np.int64), 1000, need.astype(float))
    assert hosts.tolist() == need.tolist() and reachable.all()
    assert len(calls) == 2

"""The segment hosts the data needs (`hosts.capacity_hosts`)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.sizing.greenplum import hosts as gp_hosts


@settings(max_examples=200, deadline=None)
@given(per_host=st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 7.5])),
                         min_size=0, max_size=40), need=st.floats(0.0, 1e7))
def test_capacity_hosts_is_the_where_it_replaces(per_host: list[float], need: float) -> None:
    """`capacity_hosts` gives np.where(cap > 0, ceil(need / cap), MAX).astype(int64) element for element: no
    capacity (0, negative, NaN) the largest cluster, huge counts cast alike."""
    cap = np.array(per_host, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        expected = np.where(cap > 0, np.ceil(need / cap), gp_hosts.MAX_SEGMENT_HOSTS).astype(np.int64)
        got = gp_hosts.capacity_hosts(need, cap)
    assert got.dtype == expected.dtype and got.tolist() == expected.tolist()

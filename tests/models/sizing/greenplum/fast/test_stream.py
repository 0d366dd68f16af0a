"""The streamed reducers keep what the whole-array orders give: `RunningBest` the first row by (misses, part
warnings, shortfall, capex, hosts, drives, index), `CheapestFeasible` the first k feasible rows by (part warnings,
capex, hosts, drives, index), whatever the chunking (their screens skip chunks, never rows that belong)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import pricing
from models.hardware import Drive, HardwareCatalog, Server
from models.optimizer import _space
from models.sizing.greenplum.fast.stream import CheapestFeasible, RunningBest, first_per_server, lowest
from models.sizing.searched import Searched
from models.vocabulary import DEPLOYMENTS, RAID_LEVELS
from tests.models.sizing.conftest import sample

CASES = {
    "feasible": {},
    "mixed": {"targets": {"max_full_scan_s": 300, "max_power_w": 60_000}},
    "none feasible": {"targets": {"max_full_scan_s": 1, "max_capex": 1000}},
}


# every deployment and RAID level, whatever the sample names: the widest space the reducers must handle
EVERYTHING = Searched(DEPLOYMENTS, RAID_LEVELS, ())

def _twice(catalog: HardwareCatalog) -> HardwareCatalog:
    """Every server and drive twice at the same price: rows tying on every key but the index, across chunks."""
    return HardwareCatalog.of([*catalog, *(dataclasses.replace(p, id=f"{p.id}-same") for p in catalog
                                           if isinstance(p, Server | Drive))])


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("k", [1, 7, 256])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("shared", [False, True])
def test_the_reducers_equal_the_whole_array_order(case: str, k: int, ties: bool, shared: bool,
                                                  catalog: HardwareCatalog) -> None:
    """`shared`: each chunk's `Lowest` handed to both reducers, as the optimizer finds it once for them."""
    scenario = sample("retail-dw-gen5", **CASES[case])
    catalog = _twice(catalog) if ties else catalog
    priced = pricing.in_currency(catalog, scenario.commercial.currency, scenario.commercial.discounts_pct).catalog
    chunks = list(_space(scenario, priced, EVERYTHING).chunks(997))
    best, cheapest = RunningBest(), CheapestFeasible(k=k)
    for offset, ev in chunks:
        feasible = np.flatnonzero(ev.feasible)
        low = lowest(ev.part_warnings[feasible], ev.capex[feasible]) if shared and feasible.size else None
        best.add(offset, ev, feasible, low)
        cheapest.add(offset, ev, feasible_rows=feasible, low=low)
    def cat(column: str) -> np.ndarray:
        return np.concatenate([getattr(e, column) for _, e in chunks])

    drives = np.concatenate([e.candidates.drives_per_host for _, e in chunks])
    misses = np.concatenate([sum((~met).astype(np.int64) for met in e.meets.values()) for _, e in chunks])
    index = np.arange(drives.size)
    order = np.lexsort((index, drives, cat("segment_hosts"), cat("capex"), cat("shortfall"), cat("part_warnings"),
                        misses))
    assert best.index == int(order[0])
    feasible = order[misses[order] == 0][:k]
    if case == "none feasible":
        assert cheapest.pool is None and not best.feasible and feasible.size == 0
    else:
        assert cheapest.index is not None and cheapest.index.tolist() == feasible.tolist()
        pool = cheapest.pool
        assert pool is not None  # the rows themselves, in the pool's order, whichever chunks they came from
        for column in ("capex", "segment_hosts", "power_w", "part_warnings"):
            np.testing.assert_array_equal(getattr(pool, column), cat(column)[feasible])
        assert list(pool.metrics) == list(chunks[0][1].metrics)
        for name in pool.metrics:  # those computed with the chunk and those left for the rows kept
            np.testing.assert_array_equal(pool.metrics[name],
                                          np.concatenate([e.metrics[name] for _, e in chunks])[feasible])
        assert feasible.size == k  # not vacuous


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2), st.sampled_from([1.0, 2.0, 3.0, float("nan")])),
                     max_size=60))
def test_first_per_server_is_the_sorted_first_of_each_server(rows: list[tuple[int, int, float]]) -> None:
    rows = sorted(rows, key=lambda r: r[0])  # grouped by server, as a chunk is; ties keep their draw order
    server = np.array([r[0] for r in rows], dtype=np.int64)
    warned = np.array([r[1] for r in rows], dtype=np.int64)
    cost = np.array([r[2] for r in rows], dtype=float)
    order = np.lexsort((cost, warned))
    _, first = np.unique(server[order], return_index=True)
    got = first_per_server(server, warned, cost)
    assert got is not None and got.tolist() == sorted(order[first].tolist())
    if np.any(server[1:] != server[:-1]):
        assert first_per_server(server[::-1], warned[::-1], cost[::-1]) is None  # not grouped: the caller sorts

"""The Pareto front over (capex, performance, power), built chunk by chunk with numpy.

The definition is the optimizer's of old: sort the candidates by (capex, performance, power,
index), all lower-is-better, and keep a candidate unless an earlier one is at least as good on both
performance and power. Being dominated by any earlier candidate (kept or not) is the same as being
dominated by an earlier kept one (dominance is transitive), so:

- a chunk's candidates that an earlier kept point dominates can be dropped at once (one broadcast
  comparison with the current front, which stays small), and
- the front of everything seen is the sweep of (current front + the chunk's survivors).

The sweep runs over blocks of the sorted survivors: each block is checked against the points kept
so far and, through a triangular mask, against the block's own earlier points. Memory is bounded
by the chunk and the front; no Python loop runs per candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

BLOCK = 256  # rows compared at once in the sweep: BLOCK x (front + BLOCK) booleans
PREFILTER_CELLS = 1 << 22  # rows x front cells per broadcast in the prefilter
SCREENERS = 64  # kept points tried one at a time on a chunk before the exact check of what is left
# rows per block of the first screen: a chunk's blocks of contiguous candidates (a few drives and drive counts of
# one server) mostly lie behind the front as a whole, so their best corners rule most rows out at once
SCREEN_BLOCK = 512


@dataclass(frozen=True, slots=True)
class Points:
    """Candidates as columns: capex, performance (lower is better: negate a "higher" metric), power and each one's
    global index (strictly increasing across the chunks handed to one front)."""

    capex: FloatArray
    perf: FloatArray
    power: FloatArray
    index: IntArray

    def take(self, at: IntArray | BoolArray) -> Points:
        """The rows `at` (positions or a mask) of every column."""
        return Points(self.capex[at], self.perf[at], self.power[at], self.index[at])


@dataclass
class ParetoFront:
    """The running front; `payload` holds any per-candidate columns to report for its points."""

    capex: FloatArray = field(default_factory=lambda: np.zeros(0))
    perf: FloatArray = field(default_factory=lambda: np.zeros(0))  # lower is better (negate a "higher" metric)
    power: FloatArray = field(default_factory=lambda: np.zeros(0))
    index: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    payload: dict[str, NDArray] = field(default_factory=dict)  # type: ignore[type-arg]

    def __len__(self) -> int:
        return int(self.index.size)

    @property
    def points(self) -> Points:
        return Points(self.capex, self.perf, self.power, self.index)

    def add(self, points: Points, payload: dict[str, NDArray], rows: IntArray | None = None,  # type: ignore[type-arg]
            lowest_capex: float | None = None) -> None:
        """Merge candidates (global `index` strictly increasing across calls) into the front.

        `payload` columns are indexed by `rows` (the candidates' positions in them) when given, so a caller
        hands over whole-chunk columns and only the survivors' rows are ever copied. `lowest_capex`: `capex.min()`,
        where the caller has it.
        """
        if points.index.size == 0:
            return
        # first the kept points, then a scout of the chunk's own rows for what they leave (all of a first chunk)
        for by in (self, None) if len(self) else (None,):
            live = _screen(points, by.points if by is not None else _scout(points),
                           lowest_capex if by is not None else None)
            if live is not None:
                if live.size == 0:
                    return
                points = points.take(live)
                rows = live if rows is None else rows[live]
        # The chunk's own record holders (a perf or power better than every earlier candidate's of the
        # chunk) are on its front for sure; they screen out most of what the current front left.
        capex, perf, power, index = points.capex, points.perf, points.power, points.index
        order = np.lexsort((index, power, perf, capex))
        seed = order[_records(perf[order]) | _records(power[order])]
        keep = np.flatnonzero(_not_dominated_by(points, points.take(seed)))
        if keep.size == 0:
            return
        cols = {"capex": capex[keep], "perf": perf[keep], "power": power[keep], "index": index[keep]}
        at = keep if rows is None else rows[keep]
        if not self.payload:
            self.payload = {k: v[:0] for k, v in payload.items()}
        merged = {k: np.concatenate([getattr(self, k), v]) for k, v in cols.items()}
        merged_payload = {k: np.concatenate([self.payload[k], payload[k][at]]) for k in self.payload}
        order = np.lexsort((merged["index"], merged["power"], merged["perf"], merged["capex"]))
        kept = order[_sweep(merged["perf"][order], merged["power"][order])]
        self.capex, self.perf, self.power, self.index = (merged[k][kept] for k in ("capex", "perf", "power", "index"))
        self.payload = {k: v[kept] for k, v in merged_payload.items()}


def _screen(points: Points, by: Points | None, lowest_capex: float | None = None) -> IntArray | None:
    """Positions no point of `by` (the kept points, or a scout of the chunk's own) dominates (None: no points).
    A point strictly cheaper and no worse on perf and power rules a candidate out for sure; trying the points
    one at a time on what is left costs a few passes over the chunk (the first points take most of it), and
    only the few left are checked exactly against all of them (ties on capex, the index)."""
    if by is None or not by.index.size:
        return None
    capex, perf, power, index = points.capex, points.perf, points.power, points.index
    live = _blocks_behind(points, by, lowest_capex)
    if live is None:
        live, c_l, p_l, w_l = np.arange(index.size), capex, perf, power
    elif live.size == 0:
        return live
    else:
        c_l, p_l, w_l = capex[live], perf[live], power[live]
    for c, p, w in zip(*(a[:SCREENERS].tolist() for a in (by.capex, by.perf, by.power)), strict=True):
        alive = ~((c < c_l) & (p <= p_l) & (w <= w_l))
        if not alive.all():
            live, c_l, p_l, w_l = live[alive], c_l[alive], p_l[alive], w_l[alive]
            if live.size == 0:
                return np.zeros(0, dtype=np.int64)
    exact = _not_dominated_by(points.take(live), by)
    return np.asarray(live[exact], dtype=np.int64)


def _blocks_behind(points: Points, front: Points, lowest_capex: float | None = None) -> IntArray | None:
    """The rows of the blocks (SCREEN_BLOCK rows each) whose best corner no point of `front` dominates (None: every
    block's). A kept point strictly cheaper than a block's cheapest row and no worse than its best perf and
    power rules out every row of the block exactly as the one-point screen would; a NaN makes the block's
    minimum NaN, which no comparison rules out, so such a block goes on to the exact check."""
    capex, perf, power = points.capex, points.perf, points.power
    lowest = [float(capex.min()) if lowest_capex is None else lowest_capex, float(perf.min()), float(power.min())]
    # the usual chunk: behind as a whole
    if np.any((front.capex < lowest[0]) & (front.perf <= lowest[1]) & (front.power <= lowest[2])):
        return np.zeros(0, dtype=np.int64)
    n = capex.size
    whole = n - n % SCREEN_BLOCK
    corner = []
    for values in (capex, perf, power):
        low = values[:whole].reshape(-1, SCREEN_BLOCK).min(axis=1)
        corner.append(np.append(low, values[whole:].min()) if whole < n else low)
    c, p, w = (v[:, None] for v in corner)
    kept = slice(0, max(1, PREFILTER_CELLS // c.size))  # any kept points rule out soundly: a cap on cells
    behind = np.any((front.capex[kept] < c) & (front.perf[kept] <= p) & (front.power[kept] <= w), axis=1)
    if not behind.any():
        return None
    ahead = np.flatnonzero(~behind)
    rows = (ahead[:, None] * SCREEN_BLOCK + np.arange(SCREEN_BLOCK)).ravel()
    return rows[rows < n] if whole < n else rows  # the last block may be short


def _scout(points: Points) -> Points | None:
    """The front of a few of the chunk's own rows (each block's cheapest, fastest and leanest), to screen the chunk
    with when no front is kept yet (None: a chunk of one block, sorted whole as it is). Any rows of the chunk do:
    being dominated by an earlier candidate, kept or not, is what rules a candidate out."""
    capex, perf, power = points.capex, points.perf, points.power
    n = capex.size
    if n <= SCREEN_BLOCK:
        return None
    whole = n - n % SCREEN_BLOCK
    starts = np.arange(0, whole, SCREEN_BLOCK)
    picks = [starts + values[:whole].reshape(-1, SCREEN_BLOCK).argmin(axis=1) for values in (capex, perf, power)]
    if whole < n:
        picks += [np.array([whole + int(values[whole:].argmin()) for values in (capex, perf, power)])]
    rows = np.unique(np.concatenate(picks))
    if rows.size * 2 > n:
        return None  # blocks of a few rows: scouting would not leave much less to sort
    scout = ParetoFront()
    scout.add(points.take(rows), {})
    return scout.points


def _records(values: FloatArray) -> BoolArray:
    """Where a value is strictly below every earlier one (NaN never is)."""
    if values.size == 0:
        return np.zeros(0, dtype=bool)
    with np.errstate(invalid="ignore"):
        best_before = np.concatenate([[np.inf], np.fmin.accumulate(values)[:-1]])
        return values < best_before


def _not_dominated_by(points: Points, front: Points) -> BoolArray:
    """Candidates no front point both precedes (in the sort order) and weakly dominates."""
    capex, perf, power, index = points.capex, points.perf, points.power, points.index
    f_capex, f_perf, f_power, f_index = front.capex, front.perf, front.power, front.index
    keep = np.ones(index.size, dtype=bool)
    if f_index.size == 0:
        return keep
    rows = max(1, PREFILTER_CELLS // f_index.size)
    for start in range(0, index.size, rows):
        sl = slice(start, start + rows)
        c, p, w, i = capex[sl, None], perf[sl, None], power[sl, None], index[sl, None]
        weak = (f_perf <= p) & (f_power <= w)
        # with perf and power no worse, a front point comes first unless it is dearer, or ties on
        # capex, perf and power and has the later index
        precedes = (f_capex < c) | ((f_capex == c) & ((f_perf < p) | (f_power < w) | (f_index < i)))
        keep[sl] = ~np.any(weak & precedes, axis=1)
    return keep


def _sweep(perf: FloatArray, power: FloatArray) -> IntArray:
    """Positions (in the given sorted order) not weakly dominated on (perf, power) by an earlier one.

    NaN compares false, so a NaN point is kept and dominates nothing, as in the one-by-one sweep.
    """
    n = perf.size
    kept_perf = np.zeros(0)
    kept_power = np.zeros(0)
    kept: list[IntArray] = []
    tri = np.tri(BLOCK, BLOCK, -1, dtype=bool)  # tri[i, j]: j comes before i within a block
    for start in range(0, n, BLOCK):
        p = perf[start:start + BLOCK]
        w = power[start:start + BLOCK]
        m = p.size
        by_front = np.any((kept_perf <= p[:, None]) & (kept_power <= w[:, None]), axis=1) if kept_perf.size \
            else np.zeros(m, dtype=bool)
        within = np.any((p[None, :] <= p[:, None]) & (w[None, :] <= w[:, None]) & tri[:m, :m], axis=1)
        ok = ~(by_front | within)
        if np.any(ok):
            kept.append(start + np.flatnonzero(ok))
            kept_perf = np.concatenate([kept_perf, p[ok]])
            kept_power = np.concatenate([kept_power, w[ok]])
    return np.concatenate(kept) if kept else np.zeros(0, dtype=np.int64)


def pareto_indices(capex: FloatArray, value: FloatArray, power: FloatArray, higher_is_better: bool,
                   mask: BoolArray | None = None) -> list[int]:
    """Indices of the front of one set of arrays, cheapest first (the whole-array form of `ParetoFront`).

    >>> pareto_indices(np.array([1.0, 2.0, 3.0]), np.array([5.0, 4.0, 6.0]), np.array([1.0, 1.0, 1.0]), False)
    [0, 1]
    """
    idx = np.flatnonzero(mask) if mask is not None and np.any(mask) else np.arange(capex.size)
    perf = -value if higher_is_better else value
    front = ParetoFront()
    front.add(Points(capex[idx], perf[idx], power[idx], idx.astype(np.int64)), {})
    return [int(i) for i in front.index]


class _OnAPlatform(Protocol):  # read-only, as a frozen DesignPoint's fields are
    @property
    def server_id(self) -> str: ...
    @property
    def drive_id(self) -> str: ...
    @property
    def drives_per_host(self) -> int: ...
    @property
    def deployment(self) -> str: ...
    @property
    def raid(self) -> str: ...


D = TypeVar("D", bound=_OnAPlatform)


def pick_first(best: D, front: list[D]) -> list[D]:
    """The table the optimizer's pick is shown with: the pick first (as sized), then the front's other designs
    cheapest first. A front design on the pick's platform (the same server, drives, deployment and RAID) is the pick,
    so it is not listed twice; a pick the front does not hold (a TCO pick dominated on capex, power and the
    estimate) still leads the table, so the headline is always its first row.

    >>> from types import SimpleNamespace as D
    >>> a = D(server_id="s", drive_id="d", drives_per_host=8, deployment="bare-metal", raid="none", capex=100)
    >>> b = D(server_id="s", drive_id="d", drives_per_host=8, deployment="vsphere", raid="none", capex=90)
    >>> c = D(server_id="s", drive_id="d", drives_per_host=8, deployment="bare-metal", raid="none", capex=99)
    >>> [p.deployment for p in pick_first(a, [b, c])]
    ['bare-metal', 'vsphere']
    """
    def platform(p: D) -> tuple[str, str, int, str, str]:
        return (p.server_id, p.drive_id, p.drives_per_host, p.deployment, p.raid)

    return [best, *(p for p in front if platform(p) != platform(best))]

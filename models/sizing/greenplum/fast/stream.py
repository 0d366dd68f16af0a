"""Reducers over a streamed candidate search: what survives of millions of evaluated candidates.

The search hands out (offset, evaluated chunk) pairs; each reducer keeps only what it will report,
so memory is bounded by one chunk whatever the catalog's size. `RunningBest` is `evaluation.pick`
over everything seen: of the designs meeting every target, the one raising the fewest part warnings
(`part_warnings`), then the cheapest (ties: fewer hosts, fewer drives, earlier candidate), or, when none
does, the one missing the fewest targets, then the fewest part warnings, then the nearest them (`shortfall`), then
the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.sizing.greenplum import evaluation

BestKey = tuple[int, int, int, float, int, int, int]  # misses, part warnings, shortfall, capex, hosts, drives, index
# a chunk's feasible rows' fewest part warnings and lowest capex (NaN where a capex is NaN), found once for every
# reducer: their first test (can any row come before what they hold?) reads these two minima alone
Lowest = tuple[int, float]


def lowest(warned: np.ndarray, capex: np.ndarray) -> Lowest:
    """The `Lowest` of rows with these part warnings and capex."""
    return int(warned.min()), float(capex.min())


@dataclass
class RunningBest:
    key: BestKey | None = None
    row: evaluation.Evaluated | None = None  # the best candidate's evaluation, one row
    index: int = -1  # its position in the whole search

    @property
    def feasible(self) -> bool:
        return self.key is not None and self.key[0] == 0

    def add(self, offset: int, ev: evaluation.Evaluated, feasible: np.ndarray | None = None,
            low: Lowest | None = None) -> None:
        """Take the chunk's best into account (`feasible`: the chunk's feasible rows, when the caller has them, and
        `low` their `Lowest`)."""
        n = len(ev.candidates)
        if n == 0 or self._behind(ev, feasible, low):
            return
        # narrow to the fewest misses, part warnings and the lowest capex first: the full sort runs over the ties
        if feasible is not None and feasible.size:  # the fewest misses are none: the feasible rows
            tied, misses = feasible, np.zeros(n, dtype=np.int64)
        else:
            misses = np.zeros(n, dtype=np.int64)
            for met in ev.meets.values():
                misses += ~met
            tied = np.flatnonzero(misses == misses.min())
        warned = ev.part_warnings if tied.size == n else ev.part_warnings[tied]  # every row: no gather
        tied = tied[warned == warned.min()]
        short = ev.shortfall if tied.size == n else ev.shortfall[tied]
        tied = tied[short == short.min()]
        capex = ev.capex if tied.size == n else ev.capex[tied]
        if not np.all(np.isnan(capex)):
            tied = tied[capex == np.nanmin(capex)]
        keys = (tied, ev.candidates.drives_per_host[tied], ev.segment_hosts[tied], ev.capex[tied], misses[tied])
        j = int(tied[np.lexsort(keys)[0]])
        key: BestKey = (int(misses[j]), int(ev.part_warnings[j]), int(ev.shortfall[j]), float(ev.capex[j]),
                        int(ev.segment_hosts[j]),
                        int(ev.candidates.drives_per_host[j]), offset + j)
        if self.key is None or key < self.key:
            self.key, self.row, self.index = key, ev.take(np.array([j])), offset + j

    def _behind(self, ev: evaluation.Evaluated, feasible: np.ndarray | None, low: Lowest | None = None) -> bool:
        """Whether no row of the chunk can come before the feasible design held, told by two minima: rows missing a
        target never can, and a feasible row's key is at least (0, fewest part warnings, lowest capex) of the
        chunk's feasible rows (a NaN capex makes the minimum NaN, which rules nothing out)."""
        if self.key is None or self.key[0] != 0 or feasible is None:
            return False
        if feasible.size == 0:
            return True
        if low is None:
            every = feasible.size == len(ev.candidates)  # every row: the columns as they are, no gather
            low = lowest(ev.part_warnings if every else ev.part_warnings[feasible],
                         ev.capex if every else ev.capex[feasible])
        fewest, cheapest = low
        if fewest != self.key[1]:
            return fewest > self.key[1]
        return cheapest > self.key[3]  # a feasible row falls short of nothing: its shortfall is 0, as held


@dataclass
class CheapestFeasible:
    """The `k` first feasible candidates by (part warnings, capex, hosts, drives, index): what `search.settled_pick`
    settles, in its order.

    Settling adds hosts until the reported estimate meets the targets, cheapest first, and stops at
    `shortlist.settled_shortlist`'s `most`; keeping that many rows is all the settling ever reads.
    """

    k: int = 256
    pool: evaluation.Evaluated | None = None
    index: np.ndarray | None = None  # global candidate index of each pool row

    def add(self, offset: int, ev: evaluation.Evaluated, feasible: np.ndarray | None = None,
            feasible_rows: np.ndarray | None = None, low: Lowest | None = None) -> None:
        """Merge the chunk's feasible rows (`feasible_rows`, with their `Lowest` `low` where given, or where
        `feasible`, else where `ev` is feasible)."""
        sel = feasible_rows if feasible_rows is not None else np.flatnonzero(
            ev.feasible if feasible is None else feasible)
        if sel.size == 0:
            return
        sel = self._contenders(ev, sel, low if feasible_rows is not None else None)
        if sel.size == 0:
            return
        rows = ev.take(sel)
        index = offset + sel
        if self.pool is not None and self.index is not None:
            rows = _concat_rows([self.pool, rows])
            index = np.concatenate([self.index, index])
        order = np.lexsort((index, rows.candidates.drives_per_host, rows.segment_hosts, rows.capex,
                            rows.part_warnings))[: self.k]
        self.pool, self.index = rows.take(order), index[order]

    def _contenders(self, ev: evaluation.Evaluated, sel: np.ndarray, low: Lowest | None = None) -> np.ndarray:
        """The rows of `sel` that can enter the pool: (part warnings, capex) lead the order, so only the chunk's
        `k` first by them (and all rows tied with the k-th) and, once the pool is full, none after its last."""
        every = sel.size == len(ev.candidates)  # every row: the columns as they are, no gather
        warned, cost = (ev.part_warnings, ev.capex) if every else (ev.part_warnings[sel], ev.capex[sel])
        if self.pool is not None and len(self.pool.candidates) >= self.k:  # first: it leaves few rows to sort
            w_last, c_last = self.pool.part_warnings[-1], self.pool.capex[-1]  # the pool is kept in order
            if not np.isnan(c_last):
                # the usual chunk has no row to enter, which the minima tell at once (a NaN minimum rules none out)
                fewest, cheapest = lowest(warned, cost) if low is None else low
                if fewest > w_last or (fewest == w_last and cheapest > c_last):
                    return sel[:0]
                keep = np.flatnonzero((warned < w_last) | ((warned == w_last) & (cost <= c_last)))  # few rows
                sel, warned, cost = sel[keep], warned[keep], cost[keep]
        if sel.size > self.k:
            # the k-th by (part warnings, capex) without sorting: the k-th fewest warnings, then the rank left
            # among the rows with that many by capex (a partition puts NaN last, as the sort would)
            w_k = np.partition(warned, self.k - 1)[self.k - 1]
            level = warned == w_k
            rank = self.k - 1 - int(np.count_nonzero(warned < w_k))
            c_k = np.partition(cost[level], rank)[rank]
            if not np.isnan(c_k):  # NaN sorts last: fewer than k numbers, keep them all
                sel = sel[(warned < w_k) | ((warned == w_k) & (cost <= c_k))]
        return sel


def first_per_server(server: np.ndarray, warned: np.ndarray, cost: np.ndarray) -> np.ndarray | None:
    """Position of each server's first row by (part warnings, cost, position), NaN costs last as a sort puts them,
    for rows grouped by server (`server` non-decreasing, as the search hands out a chunk's candidates); None when
    they are not grouped (sort them instead).

    >>> first_per_server(np.array([0, 0, 0, 2, 2, 2]), np.array([1, 0, 0, 0, 0, 0]),
    ...                  np.array([1.0, 3.0, 2.0, np.nan, 5.0, 5.0])).tolist()
    [2, 4]
    """
    if np.any(server[1:] < server[:-1]):
        return None
    if server.size == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.concatenate([[0], np.flatnonzero(np.diff(server)) + 1])
    lengths = np.diff(np.append(starts, server.size))
    level = warned == np.repeat(np.minimum.reduceat(warned, starts), lengths)  # each server's fewest warnings
    low = np.repeat(np.fmin.reduceat(np.where(level, cost, np.nan), starts), lengths)  # NaN: none but NaN left
    hit = level & ((cost == low) | (np.isnan(low) & np.isnan(cost)))
    at = np.flatnonzero(hit)
    _, first = np.unique(server[at], return_index=True)
    return at[first]


def _concat_rows(parts: list[evaluation.Evaluated]) -> evaluation.Evaluated:
    from dataclasses import fields

    from models.sizing.greenplum.candidates import Candidates

    cands = Candidates(**{f.name: np.concatenate([getattr(p.candidates, f.name) for p in parts])
                          for f in fields(Candidates)})
    return evaluation.Evaluated.concat(parts, cands)

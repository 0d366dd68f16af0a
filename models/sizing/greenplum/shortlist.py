"""The shortlist of a Greenplum search: its best candidates settled on the estimate they report (`settle`),
walked cheapest first and only as far as a candidate left could still rank among those kept."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.scenario import GreenplumOltp
from models.sizing.greenplum import metrics
from models.sizing.greenplum.context import Fixed, SearchContext, Start
from models.sizing.greenplum.coordinator import CoordinatorOptions
from models.sizing.greenplum.evaluation import Evaluated, evaluate, pick
from models.sizing.greenplum.settle import (
    Cost,
    Gain,
    Prelude,
    Searched,
    least_hosts,
    oltp_search_key,
    settle,
    settled_on_estimate,
)

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def _capex(ev: Evaluated) -> FloatArray:
    return ev.capex


# the feasible candidates a shortlist walks at most, by their point design (`fast.stream.CheapestFeasible` keeps them)
MOST = 256


@dataclass(frozen=True)
class Keep:
    """What a shortlist keeps and ranks on: the `count` best designs of different servers, the fewest part warnings
    first (or, `part_warnings_first` False, the cost alone), ranked on capex or on `cost`, which grows with hosts at
    least as `gain` says."""

    count: int = 1
    part_warnings_first: bool = True
    cost: Cost | None = None
    gain: Gain | None = None


def settled_shortlist(sc: SearchContext, ev: Evaluated, extra_memory_price: FloatArray, keep: Keep = Keep(),
                      searched: dict[tuple[object, ...], Searched] | None = None) -> list[tuple[int, Evaluated, bool]]:
    """The best candidates once settled, of `keep` different servers, best first: fewest part warnings, then
    the lowest capex.

    Candidates are taken by their point design (fewest part warnings, then capex). Settling only adds hosts,
    so a candidate's point capex is a lower bound of its settled capex, and the part warnings no host count
    removes a lower bound of those it raises settled: a candidate whose bounds are no better than the
    `keep.count`-th best settled design is not settled (`size` and `optimize` both pick this way, so they agree to
    the cent). With no feasible candidate, the nearest one alone (feasible False). `part_warnings_first` False
    ranks the settled designs on capex alone (the pool's point part warnings are then zero). `Cost` has the rule,
    `gain` how it grows with hosts (`_Walk.beaten`). `searched`: `settle`'s host searches from shortlists of the
    same workload and targets, ranked otherwise."""
    c, feasible, cost, part_warnings_first = ev.candidates, ev.feasible, keep.cost, keep.part_warnings_first
    if not np.any(feasible):
        i, _ = pick(ev)
        start = Start(int(ev.segment_hosts[i]), int(ev.coordinator_idx[i]))
        return [(i, settle(sc, c.take(np.array([i])), float(extra_memory_price[i]), start), False)]
    idx = np.flatnonzero(feasible)
    order = idx[np.lexsort((c.drives_per_host[idx], ev.segment_hosts[idx], ev.capex[idx], ev.part_warnings[idx]))]
    order, fallback, best = order[:MOST], None, dict[int, Ranked]()  # best: per server, its best settled design
    walk = _Walk(sc, ev, extra_memory_price, order, cost, {} if searched is None else searched, keep.gain)
    # the walk stops once the kept designs (which only improve) are no worse than every bound left
    least = _least_left(ev.part_warnings_fixed[order], ev.capex[order])
    for pos, i in enumerate(order):
        bound = (int(ev.part_warnings_fixed[i]), float(ev.capex[i]))
        worst = _ranked(best, keep.count)[-1][0] if len(best) >= keep.count else None
        if worst is not None:
            if least[pos] >= worst:
                break
            if bound >= worst:
                continue  # the order is by the point's warnings, which settling can lower: later ones may still do
        server = int(c.server_idx[i])
        if server in best and bound >= best[server][0]:
            continue
        if walk.changes_nothing(pos, bound[0], best.get(server), worst, fallback is not None) or \
                walk.beaten(pos, bound[0], best.get(server), worst):  # bounded where its search adds hosts
            continue
        one = walk.settle(pos)
        if bool(one.feasible[0]):
            key = (int(one.part_warnings[0]) if part_warnings_first else 0, float((cost or _capex)(one)[0]))
            if server not in best or key < best[server][0]:
                best[server] = (key, int(i), one)
        elif fallback is None:
            fallback = (int(i), one)
    if best:
        return [(i, one, True) for _, i, one in _ranked(best, keep.count)]
    assert fallback is not None
    return [(fallback[0], fallback[1], False)]


@dataclass
class _Walk:
    """Settling a shortlist's candidates (`order`) in turn, the host searches shared (`settle`'s `searched`).

    OLTP: each candidate's search is keyed before it is settled (the segment plans and floors of the whole
    order in one call, `Prelude`), so a candidate sharing a search already done can be judged without settling
    (`changes_nothing`)."""

    sc: SearchContext
    ev: Evaluated
    extra_memory_price: FloatArray
    order: IntArray
    cost: Cost | None = None  # ranked on a cost other than capex: candidates judged on their reach alone
    searched: dict[tuple[object, ...], Searched] = dataclasses.field(default_factory=dict)
    gain: Gain | None = None  # how the ranked cost grows with hosts, when not capex

    def __post_init__(self) -> None:
        oltp = isinstance(self.sc.workload, GreenplumOltp)
        self.pre: Prelude | None = None  # the order's (`prelude`): OLTP keys each search before it is settled
        self.keys = [_key_of(self.ev, int(i), self.prelude(), pos, self.sc.coordinators)
                     for pos, i in enumerate(self.order)] if oltp else []
        self.rows: dict[int, tuple[Evaluated, int]] = {}  # evaluated ahead (`_evaluate_alike`): by position, its row

    def settle(self, pos: int) -> Evaluated:
        i, ev = int(self.order[pos]), self.ev
        found = self.searched.get(self.keys[pos]) if self.keys else None
        if found is None:
            return settle(self.sc, ev.candidates.take(np.array([i])), float(self.extra_memory_price[i]),
                          Start(int(ev.segment_hosts[i]), int(ev.coordinator_idx[i])), self.searched,
                          self.pre.row(pos) if self.pre is not None else None)
        if pos not in self.rows:
            self._evaluate_alike(pos, found)
        alike, row = self.rows.pop(pos)
        return settled_on_estimate(self.sc.workload, self.sc.targets, alike.take(np.array([row])), found)

    def beaten(self, pos: int, warnings: int, own: Ranked | None, worst: tuple[int, float] | None) -> bool:
        """Whether candidate `pos`, settled, could change nothing the shortlist returns, judged before it is settled:
        its (warnings, cost) bound at the fewest hosts of a settled design meeting every target (`least_hosts`) no
        better than its server's kept design (`own`) nor the `worst` kept. Its point cost bounds it only where its
        search adds no host; most add one, and one host of hundreds of cores costs more than the points differ."""
        if own is None and worst is None:
            return False
        i, ev = int(self.order[pos]), self.ev
        point = int(ev.segment_hosts[i])
        found = self.searched.get(self.keys[pos]) if self.keys else None  # OLTP: its search's key is known
        if found is not None and found.hosts <= point:
            return False  # its search, done for another candidate, adds no host: no bound beyond the point's
        c1 = ev.candidates.take(np.array([i]))
        # per host added, at least its server and data drives (its NICs and DIMMs come on top) and their watts
        per_host = float(c1.server_price[0]) + float(c1.drives_per_host[0]) * float(c1.drive_price[0])
        watts = float(metrics.host_power_w(c1, c1.drives_per_host, self.sc.net, self.sc.utilization)[0])

        def beats(hosts: int) -> bool:
            more = hosts - point
            if more <= 0:
                return False
            gain = more * per_host if self.gain is None else \
                self.gain(c1, point + int(ev.etl_hosts[i]), int(ev.etl_hosts[i]), more, more * per_host, more * watts)
            low = (warnings, (float(ev.capex[i]) + gain) * (1.0 - 1e-9))
            return (own is not None and low >= own[0]) or (worst is not None and low >= worst)

        return beats(least_hosts(self.sc, c1, Start(point, int(ev.coordinator_idx[i])), self.searched,
                                 self.prelude().row(pos), beats))

    def prelude(self) -> Prelude:
        """The segment plans and floors of the whole order, in one call (computed when first needed)."""
        if self.pre is None:
            self.pre = Prelude.of(self.sc.workload, self.ev.candidates.take(self.order), self.sc.platform)
        return self.pre

    def _evaluate_alike(self, pos: int, found: Searched) -> None:
        """Candidate `pos` evaluated at its searched hosts together with every later one sharing its search and
        coordinator, in one call (each row is what it is alone: the models work row by row)."""
        coordinator = self.ev.coordinator_idx
        same = [p for p in range(pos, len(self.order)) if p not in self.rows and self.keys[p] == self.keys[pos]
                and coordinator[self.order[p]] == coordinator[self.order[pos]]]
        rows = self.order[same]
        ev = evaluate(self.sc, self.ev.candidates.take(rows), self.extra_memory_price[rows],
                      Fixed(found.hosts, found.etl_hosts, int(coordinator[self.order[pos]])))
        self.rows.update({p: (ev, j) for j, p in enumerate(same)})

    def changes_nothing(self, pos: int, warnings: int, own: Ranked | None, worst: tuple[int, float] | None,
                        fallback: bool) -> bool:
        """Whether settling candidate `pos`, its host search already done by a candidate sharing it, would change
        nothing the shortlist returns: a target out of reach at its settled hosts (infeasible) once a `fallback`
        is kept; or, its server's design kept (`own`), its settled (warnings, capex) bound no better than that
        one's, or beyond the `worst` kept (that server is then kept outside them: no design returned changes,
        nor where its server ranks on ties)."""
        if not self.keys:
            return False
        i = int(self.order[pos])
        found = self.searched.get(self.keys[pos])
        if found is None:
            return False
        if found.out_of_reach:
            return fallback
        if self.cost is not None or own is None or found.hosts < int(self.ev.segment_hosts[i]):
            return False
        low = (warnings, capex_floor(self.ev, i, found.hosts))
        return low >= own[0] or (worst is not None and low > worst)


def _key_of(ev: Evaluated, i: int, pre: Prelude, pos: int, coordinators: CoordinatorOptions | None
            ) -> tuple[object, ...]:
    """The OLTP host search key candidate `i` (row `pos` of the shortlist's `pre`) will settle with (`settle`)."""
    c, k = ev.candidates, int(ev.coordinator_idx[i])
    coordinator = coordinators.cores[[k]] if coordinators is not None and k >= 0 else c.cores_total[[i]]
    return oltp_search_key(int(ev.segment_hosts[i]), int(pre.floor[pos]), pre.vms[[pos]], coordinator,
                           c.cores_total[[i]])


def capex_floor(ev: Evaluated, i: int, hosts: int) -> float:
    """A lower bound of candidate `i`'s OLTP capex settled at `hosts` (>= its point hosts; no ETL hosts): its point
    capex and, per host added, at least the host's server and data drives (its NIC and DIMMs come on top), less a
    billionth for rounding.

    Candidates sharing a host search settle at the same count: once one has settled, the others' settled capex is
    bounded without evaluating them."""
    c = ev.candidates
    per_host = float(c.server_price[i]) + float(c.drives_per_host[i]) * float(c.drive_price[i])
    return (float(ev.capex[i]) + (hosts - int(ev.segment_hosts[i])) * per_host) * (1.0 - 1e-9)


def _least_left(fixed: IntArray, capex: FloatArray) -> list[tuple[int, float]]:
    """From each position on, the least (part warnings no host count removes, capex) bound left.

    >>> _least_left(np.array([1, 0, 1]), np.array([5.0, 9.0, 2.0]))
    [(0, 9.0), (0, 9.0), (1, 2.0)]
    """
    least: list[tuple[int, float]] = [(0, 0.0)] * len(fixed)
    low: tuple[int, float] | None = None
    for j in range(len(fixed) - 1, -1, -1):
        here = (int(fixed[j]), float(capex[j]))
        low = here if low is None or here < low else low
        least[j] = low
    return least


Ranked = tuple[tuple[int, float], int, Evaluated]  # (part warnings, capex), candidate, its settled design


def _ranked(best: dict[int, Ranked], keep: int) -> list[Ranked]:
    """The `keep` best of the servers' best settled designs (a stable sort: ties to the server settled first)."""
    return sorted(best.values(), key=lambda t: t[0])[:keep]

"""Catalog-wide optimizer: every server x drive x drives per host x deployment x RAID, the cheapest
design meeting every target, and the Pareto front over capex, the main estimate and power.

The candidates go through `models.sizing.greenplum.evaluate`, the same code `size` runs, and the best
design is handed back to `size` as a fixed platform, so its numbers are exactly what `size` reports.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from models import pricing
from models.hardware import Drive, HardwareCatalog, Server
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing import greenplum
from models.sizing.engine import size
from models.sizing.greenplum import (
    SEARCH_CHUNK,
    BomFloor,
    CheapestFeasible,
    Choices,
    Lowest,
    RunningBest,
    SearchSpace,
    approx_tco,
    first_per_server,
    lowest,
    search_space,
    settle_designs,
    settled_pick,
    settled_pool,
)
from models.sizing.pareto import ParetoFront, Points, pareto_indices, pick_first
from models.sizing.part_filter import allowed, filter_problems
from models.sizing.parts import SizingInputError, current, resolve
from models.sizing.result import SizingResult
from models.sizing.searched import Searched
from models.sizing.targets import estimate_at
from models.tasks import IsCancelled, Progress, check_cancelled
from models.vocabulary import CAPACITY, KINDS, METRICS, RAID_LEVELS, TARGETS, target_words


@dataclass(frozen=True)
class DesignPoint:
    """One evaluated design, as a platform a scenario can take back."""

    server_id: str
    drive_id: str
    drives_per_host: int
    deployment: str
    raid: str
    segment_hosts: int
    capex: float
    power_w: float
    rack_u: float
    main_value: float
    feasible: bool

    def platform(self, base: Scenario) -> dict[str, Any]:
        plat = base.platform.model_dump(mode="json")
        plat.update(server_id=self.server_id, drive_id=self.drive_id, drives_per_host=self.drives_per_host,
                    deployment=self.deployment, raid=self.raid)
        return plat

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class OptimizationResult:
    main_metric: str
    higher_is_better: bool
    evaluated: int
    feasible: int
    best: DesignPoint | None
    best_sizing: SizingResult | None
    pareto: list[DesignPoint]
    unmet: dict[str, str] = field(default_factory=dict)  # target -> closest candidate, when nothing is feasible
    objective: str = "capex"
    kept: tuple[str, ...] = ()  # what the search kept as the scenario names it, in words

    def best_scenario(self, base: Scenario) -> Scenario | None:
        if self.best is None:
            return None
        return base.model_copy(update={"platform": base.platform.model_validate(self.best.platform(base))})


def _main(workload: GreenplumAnalytics | GreenplumOltp) -> tuple[str, bool]:
    main = KINDS[workload.kind].main_metric
    return main, METRICS[main].better == "higher"


# 10-20 s on a 2-core laptop at the rate `refarch bench` measures (optimizer.candidates_per_s, 1-1.7 M/s), about
# a minute on a loaded one; past it the user narrows the catalog instead of waiting, told so before anything runs.
MAX_CANDIDATES = 20_000_000


class SearchTooLarge(SizingInputError):
    """The catalog gives more candidate designs than one optimizer run searches."""


TCO_RERANK = 6  # exact TCO (full BOM) of this many candidates with the lowest approximate TCO
# Full capex (`size`: switches, cables, racks, PDUs) of this many feasible candidates with the lowest host capex plus
# controllers and management switches (`bom_floor`): what is left out follows the host count.
CAPEX_RERANK = 6


def optimize(
    scenario: Scenario,
    catalog: HardwareCatalog,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    pareto_limit: int = 200,
    objective: str | None = None,
    chunk: int = SEARCH_CHUNK,
    any_deployment: bool = False,
) -> OptimizationResult:
    """The cheapest feasible design by `objective`: "capex" (the BOM's one-time cost) or "tco" (N-year cost of
    ownership, `commercial.tco_years`); None takes the scenario's `commercial.optimize_for`.

    The search keeps the RAID level the scenario names (`platform.raid`; null: every level) and its deployment
    (`any_deployment`: bare metal and vSphere both), as `size` does, and says so (`OptimizationResult.kept`).

    Every candidate streams through the evaluation in chunks; the running best (`greenplum.pick`'s order),
    the cheapest feasible rows the settling reads, the Pareto front (`models.sizing.pareto`), the closest
    candidate per target and the lowest approximate TCOs survive each chunk. Memory is bounded by the chunk,
    time is linear in the candidates; results equal the whole-array search's
    (tests/models/sizing/test_optimizer_streaming.py).
    """
    objective = objective or scenario.commercial.optimize_for
    if objective not in ("capex", "tco"):
        raise SizingInputError([Problem("objective", f"'{objective}' is not one of capex, tco")])
    catalog = pricing.in_currency(catalog, scenario.commercial.currency, scenario.commercial.discounts_pct).catalog
    if problems := filter_problems(scenario, catalog):
        raise SizingInputError(problems)
    catalog = allowed(scenario, catalog)  # `size` of each reported design narrows to this same object again
    search = Searched.of(scenario, any_deployment)
    space = _space(scenario, catalog, search)
    state = _streamed(space, catalog, objective, chunk, progress, cancelled)
    sizer = SizedDesigns(scenario, catalog, cancelled)
    pareto = sized_front(_settled_front(state.pareto(pareto_limit), space, state.main, state.higher), sizer,
                         state.main, state.higher)
    return dataclasses.replace(_picked(state, space, objective, pareto, sizer), kept=search.kept)


def _space(scenario: Scenario, catalog: HardwareCatalog, searched: Searched) -> SearchSpace:
    """Every candidate of the catalog, refused up front (naming the count) when one run would not finish."""
    workload = scenario.workload
    if not isinstance(workload, GreenplumAnalytics | GreenplumOltp):
        raise SizingInputError([Problem("workload.kind", f"the optimizer covers Greenplum kinds, not {workload.kind}")])
    if not catalog.servers or not catalog.drives:
        raise SizingInputError([Problem("catalog", "empty (no servers or no drives): seed or import a catalog first")])
    parts = resolve(scenario, catalog)
    servers, drives = current(catalog.servers, catalog), current(catalog.drives, catalog)
    space = search_space(scenario, workload, catalog, parts, Choices(servers, drives, searched.deployments,
                                                                      searched.raids, None))
    total = space.count()
    if total > MAX_CANDIDATES:
        raise SearchTooLarge([Problem(
            "catalog",
            f"{len(servers):,} current servers x {len(drives):,} drives give {total:,} candidate designs,"
            f" more than the {MAX_CANDIDATES:,} one optimizer run searches; name a server or a drive in the"
            " scenario, or optimize over a smaller catalog",
        )])
    return space


def _streamed(space: SearchSpace, catalog: HardwareCatalog, objective: str, chunk: int, progress: Progress | None,
              cancelled: IsCancelled | None) -> _Stream:
    """Every candidate evaluated chunk by chunk into what the optimizer keeps (raises models.tasks.Cancelled)."""
    scenario = space.scenario
    main, higher = _main(space.workload)
    state = _Stream(main, higher, space.servers, space.drives)  # the servers whose slots hold the memory
    floor = BomFloor.of(catalog, space.servers, space.drives, space.workload, scenario.commercial.network)
    if objective == "tco":
        state.tco, state.rerank = (lambda ev: approx_tco(ev, space.servers, scenario, catalog) + floor(ev)), TCO_RERANK
    else:
        state.tco, state.rerank = (lambda ev: ev.capex + floor(ev)), CAPEX_RERANK
    for offset, ev in space.chunks(chunk, progress, cancelled):
        state.add(offset, ev)
    return state


def _picked(state: _Stream, space: SearchSpace, objective: str, pareto: list[DesignPoint], sizer: SizedDesigns
            ) -> OptimizationResult:
    """The best design: the streamed pick settled on its estimate, then judged by the full sizing."""
    scenario = sizer.scenario
    main, higher = state.main, state.higher
    if state.best.row is None or not state.best.feasible:
        return OptimizationResult(main, higher, state.evaluated, 0, None, None, pareto, state.unmet())
    pool = settled_pool(state.best, state.cheapest)
    pool_i, settled, ok = settled_pick(scenario, space.workload, space.found(pool))
    point = state.point(pool, pool_i)
    if not ok:
        return OptimizationResult(main, higher, state.evaluated, 0, None, None, pareto,
                                  _closest_per_target(settled, point))
    best = dataclasses.replace(
        point, segment_hosts=int(settled.segment_hosts[0]), capex=float(settled.capex[0]),
        power_w=float(settled.power_w[0]), rack_u=float(settled.rack_u[0]), main_value=float(settled.metrics[main][0]),
    )
    best, best_sized = judged(sizer, objective, best, sizer(best), [cand for *_, cand in state.tco_shortlist], pareto)
    return OptimizationResult(main, higher, state.evaluated, state.feasible, best, best_sized,
                              pick_first(best, pareto), objective=objective)


_PAYLOAD = ("server_idx", "drive_idx", "drives_per_host", "virtualized", "raid_code", "segment_hosts", "rack_u",
            "main_value", "feasible")


class _Stream:
    """What the optimizer keeps of the candidates seen so far."""

    def __init__(self, main: str, higher: bool, servers: list[Server], drives: list[Drive]) -> None:
        self.main, self.higher, self.servers, self.drives = main, higher, servers, drives
        self.evaluated = 0
        self.feasible = 0
        self.best = RunningBest()
        self.cheapest = CheapestFeasible()
        self.front_feasible = ParetoFront()
        self.front_all: ParetoFront | None = ParetoFront()  # dropped once a feasible design exists
        self.any_met: dict[str, bool] = {}
        self.closest: dict[str, tuple[float, int, str]] = {}  # target -> (key value, index, message)
        self.tco: Callable[[greenplum.Evaluated], NDArray[np.float64]] | None = None
        self.tco_shortlist: list[tuple[float, int, DesignPoint]] = []  # (cost, index, design), feasible
        self.rerank = TCO_RERANK
        self._rows = np.zeros(0, dtype=np.int64)

    def add(self, offset: int, ev: greenplum.Evaluated) -> None:
        n = len(ev.candidates)
        self.evaluated += n
        if n == 0:
            return
        feasible = ev.feasible
        # the feasible rows, found once for every reducer (the usual chunk: all of them, no search needed), and their
        # fewest part warnings and lowest capex, which tell each reducer whether any row can enter
        sel = self._every(n) if feasible.all() else np.flatnonzero(feasible)
        count = int(sel.size)
        self.feasible += count
        every = count == n  # all rows feasible (the usual chunk): the columns as they are, no gather
        low = lowest(ev.part_warnings if every else ev.part_warnings[sel], ev.capex if every else ev.capex[sel]) \
            if count else None
        self.best.add(offset, ev, sel, low)
        self.cheapest.add(offset, ev, feasible_rows=sel, low=low)
        values = ev.metrics[self.main]
        perf = -values if self.higher else values
        c = ev.candidates
        payload = {"server_idx": c.server_idx, "drive_idx": c.drive_idx, "drives_per_host": c.drives_per_host,
                   "virtualized": c.virtualized, "raid_code": c.raid_code, "segment_hosts": ev.segment_hosts,
                   "rack_u": ev.rack_u, "main_value": values, "feasible": feasible}
        if low is not None:
            chunk = Points(ev.capex, perf, ev.power_w, offset + sel) if every else \
                Points(ev.capex[sel], perf[sel], ev.power_w[sel], offset + sel)
            self.front_feasible.add(chunk, payload, rows=sel, lowest_capex=low[1])
            self.front_all = None
            if self.tco is not None:
                self._shortlist(offset, ev, sel, low)
        elif self.front_all is not None:
            self.front_all.add(Points(ev.capex, perf, ev.power_w, offset + np.arange(n, dtype=np.int64)), payload)
        if self.front_all is not None:  # nothing feasible yet: the closest designs may be reported
            self._closest(offset, ev)

    def _every(self, n: int) -> NDArray[np.int64]:
        """0 .. n - 1: every row of a chunk of n, built once per chunk size (read-only, shared by the reducers)."""
        if self._rows.size != n:
            self._rows = np.arange(n, dtype=np.int64)
            self._rows.flags.writeable = False
        return self._rows

    def _shortlist(self, offset: int, ev: greenplum.Evaluated, feasible: NDArray[np.int64], low: Lowest) -> None:
        """The feasible candidates of `rerank` different servers by the lowest approximate cost (the judge's first
        term, `judge_key`), ties to the earlier; each server's first alone, as `size` shortlists: one server's drive
        variants filled the list (`--top` changed the answer). Part warnings come after the costs in the judge's
        order, so they keep no cheaper design off the list."""
        assert self.tco is not None
        full = len(self.tco_shortlist) >= self.rerank and not np.isnan(self.tco_shortlist[-1][0])
        if full and low[1] >= self.tco_shortlist[-1][0]:
            return  # the usual chunk: every cost is the capex or more (`low`: the least), none comes before the last
        tco = self.tco(ev)
        every = feasible.size == len(ev.candidates)  # every row feasible: the columns as they are, no gather
        cost = tco if every else tco[feasible]
        if full:  # a full list in (cost, index) order: a later row enters only strictly before its last
            c_last = self.tco_shortlist[-1][0]
            if float(cost.min()) >= c_last:
                return  # the minimum shows no row comes before the last (a NaN minimum rules none out)
            before = np.flatnonzero(cost < c_last)  # few rows
            feasible, cost = feasible[before], cost[before]
        server = ev.candidates.server_idx if feasible.size == len(ev.candidates) else ev.candidates.server_idx[feasible]
        none = np.zeros(cost.size, dtype=np.int64)  # no warnings term: cost first
        best = first_per_server(server, none, cost)  # a chunk's rows come grouped by server: no sort of them all
        if best is not None:
            top = feasible[best[np.lexsort((best, cost[best]))[:self.rerank]]]
        else:
            order = feasible[np.argsort(cost, kind="stable")]  # stable: ties keep the earlier candidate
            _, first = np.unique(ev.candidates.server_idx[order], return_index=True)  # each server's best
            top = order[np.sort(first)[:self.rerank]]
        merged = self.tco_shortlist + [(float(tco[i]), offset + int(i), self.point(ev, int(i))) for i in top]
        merged.sort(key=lambda t: (t[0], t[1]))
        seen: set[str] = set()
        kept = []
        for entry in merged:
            if entry[2].server_id not in seen:
                seen.add(entry[2].server_id)
                kept.append(entry)
        self.tco_shortlist = kept[:self.rerank]

    def _closest(self, offset: int, ev: greenplum.Evaluated) -> None:
        for name, met in ev.meets.items():
            self.any_met[name] = self.any_met.get(name, False) or bool(np.any(met))
            key = _closest_key(ev, name)
            j = int(np.argmin(key)) if key is not None else 0
            value = float(key[j]) if key is not None else 0.0
            if key is None and offset > 0:
                continue  # no measure for this target: the first candidate stands, as before
            held = self.closest.get(name)
            # np.argmin's rule over everything: NaN wins, else the smaller value, ties to the earlier
            better = held is None or (not np.isnan(held[0]) and (np.isnan(value) or value < held[0]))
            if better:
                self.closest[name] = (value, offset + j, _closest_text(name, self.point(ev, j), ev, j))

    def unmet(self) -> dict[str, str]:
        return {name: self.closest[name][2] for name, met in self.any_met.items() if not met}

    def pareto(self, limit: int) -> list[DesignPoint]:
        front = self.front_all if self.front_all is not None else self.front_feasible
        out = []
        for k in range(min(limit, len(front))):
            pl = {name: front.payload[name][k] for name in _PAYLOAD}
            out.append(DesignPoint(
                server_id=self.servers[int(pl["server_idx"])].id,
                drive_id=self.drives[int(pl["drive_idx"])].id,
                drives_per_host=int(pl["drives_per_host"]),
                deployment="vsphere" if bool(pl["virtualized"]) else "bare-metal",
                raid=RAID_LEVELS[int(pl["raid_code"])],
                segment_hosts=int(pl["segment_hosts"]),
                capex=float(front.capex[k]),
                power_w=float(front.power[k]),
                rack_u=float(pl["rack_u"]),
                main_value=float(pl["main_value"]),
                feasible=bool(pl["feasible"]),
            ))
        return out

    def point(self, ev: greenplum.Evaluated, i: int) -> DesignPoint:
        c = ev.candidates
        return DesignPoint(
            server_id=self.servers[int(c.server_idx[i])].id,
            drive_id=self.drives[int(c.drive_idx[i])].id,
            drives_per_host=int(c.drives_per_host[i]),
            deployment="vsphere" if bool(c.virtualized[i]) else "bare-metal",
            raid=RAID_LEVELS[int(c.raid_code[i])],
            segment_hosts=int(ev.segment_hosts[i]),
            capex=float(ev.capex[i]),
            power_w=float(ev.power_w[i]),
            rack_u=float(ev.rack_u[i]),
            main_value=float(ev.metrics[self.main][i]),
            feasible=bool(ev.feasible[i]),
        )


def _meets(r: SizingResult) -> bool:
    """Every target met as `size` reports it (a capex budget on the full BOM, not the hosts alone)."""
    return all(c.met for c in r.target_checks)


def _as_sized(p: DesignPoint, r: SizingResult, main: str, confidence: str) -> DesignPoint:
    """`p` with what `size` reports for its platform: the full BOM's capex, power and rack space."""
    t = r.totals
    return dataclasses.replace(p, segment_hosts=r.design.segment_hosts, capex=t.capex, power_w=t.power_w,
                               rack_u=float(t.rack_u), main_value=estimate_at(r.estimates[main], main, confidence),
                               feasible=_meets(r))


class SizedDesigns:
    """`size` of each design's platform, run once: the front, the shortlist and the pick share designs."""

    def __init__(self, scenario: Scenario, catalog: HardwareCatalog, cancelled: IsCancelled | None) -> None:
        self.scenario, self.catalog, self.cancelled = scenario, catalog, cancelled
        self._done: dict[tuple[str, str, int, str, str], SizingResult] = {}

    def __call__(self, p: DesignPoint) -> SizingResult:
        check_cancelled(self.cancelled)
        key = (p.server_id, p.drive_id, p.drives_per_host, p.deployment, p.raid)
        if key not in self._done:
            plat = self.scenario.platform.model_validate(p.platform(self.scenario))
            self._done[key] = size(self.scenario.model_copy(update={"platform": plat}), self.catalog,
                                   cancelled=self.cancelled)
        return self._done[key]


def sized_front(points: list[DesignPoint], sizer: SizedDesigns, main: str, higher: bool) -> list[DesignPoint]:
    """Each reported front design as `size` reports it (`sizer`: the scenario's sizings, shared; full BOM capex),
    the dominated dropped, cheapest first."""
    scenario = sizer.scenario
    out = [_as_sized(p, sizer(p), main, scenario.targets.confidence) for p in points]
    if not out:
        return out
    keep = pareto_indices(np.array([p.capex for p in out]), np.array([p.main_value for p in out]),
                          np.array([p.power_w for p in out]), higher, None)
    return [out[i] for i in keep]


def judge_key(r: SizingResult, objective: str, main: str, higher: bool, confidence: str
              ) -> tuple[float, float, float, int]:
    """How the optimizer ranks a sized design: its BOM's capex (or TCO), then the other cost, then the main estimate
    at `confidence` (better first), then its part warnings (fewer first)."""
    t = r.totals
    value = estimate_at(r.estimates[main], main, confidence)
    return (*((t.tco, t.capex) if objective == "tco" else (t.capex, t.tco)), -value if higher else value,
            len(greenplum.raised_part_warnings(w.code for w in r.warnings)))


def judged(sizer: SizedDesigns, objective: str, best: DesignPoint, best_sized: SizingResult,
           shortlist: list[DesignPoint], front: list[DesignPoint]) -> tuple[DesignPoint, SizingResult]:
    """The pick by the full sizing (`sizer`: the scenario's sizings, shared): of the settled pick, the shortlist and
    the feasible front designs that meet every target once sized, the first by `judge_key` (BOM capex or TCO, the
    figure the table shows; ties to the lower other cost, as vSphere's licences make the same hardware dearer to own,
    then the better main estimate, then fewer part warnings, which the design still states), then the earlier."""
    scenario = sizer.scenario
    main, higher = _main(scenario.workload)  # type: ignore[arg-type]

    def cost(r: SizingResult) -> tuple[float, float, float, int]:
        return judge_key(r, objective, main, higher, scenario.targets.confidence)

    for cand in [*shortlist, *(p for p in front if p.feasible)]:
        r_i = sizer(cand)
        # the full sizing is the judge: a pick over the budget once fully priced gives way to one within it
        if _meets(r_i) and (not _meets(best_sized) or cost(r_i) < cost(best_sized)):
            best, best_sized = cand, r_i
    return _as_sized(best, best_sized, main, scenario.targets.confidence), best_sized


def _settled_front(points: list[DesignPoint], space: SearchSpace, main: str, higher: bool) -> list[DesignPoint]:
    """One estimate: each front design as `size` settles it at the scenario's confidence, the dominated dropped."""
    done = settle_designs(space, [p.server_id for p in points], [p.drive_id for p in points],
                          [p.drives_per_host for p in points], [p.deployment == "vsphere" for p in points],
                          [p.raid for p in points])
    out = [dataclasses.replace(p, segment_hosts=d.segment_hosts, capex=d.capex, power_w=d.power_w, rack_u=d.rack_u,
                               main_value=d.metrics[main], feasible=d.feasible)
           for p, d in zip(points, done, strict=True)]
    if not out:
        return out
    keep = pareto_indices(np.array([p.capex for p in out]), np.array([p.main_value for p in out]),
                          np.array([p.power_w for p in out]), higher, None)
    return [out[i] for i in keep]


def pareto_front(
    capex: NDArray[np.float64],
    value: NDArray[np.float64],
    power: NDArray[np.float64],
    higher_is_better: bool,
    mask: NDArray[np.bool_] | None = None,
) -> list[int]:
    """Indices not dominated on (capex low, main value, power low), cheapest first."""
    return pareto_indices(capex, value, power, higher_is_better, mask)


def _closest_per_target(ev: greenplum.Evaluated, point: DesignPoint) -> dict[str, str]:
    """For each target the one settled design `ev` misses, that design and how close it comes."""
    return {name: _closest_text(name, point, ev, 0) for name, met in ev.meets.items() if not np.any(met)}


def _metric_values(ev: greenplum.Evaluated) -> dict[str, NDArray[np.float64]]:
    return {**ev.metrics, "capex": ev.capex, "power_w": ev.power_w, "rack_u": ev.rack_u}


def _closest_key(ev: greenplum.Evaluated, name: str) -> NDArray[np.float64] | None:
    """How close each candidate comes to target `name` (lower is closer); None: no measure."""
    if name == CAPACITY:
        return -ev.user_capacity_tb
    target = TARGETS.get(name)
    values = _metric_values(ev).get(target.metric) if target else None
    if target is None or values is None:
        return None
    return values if target.bound == "max" else -values


def _closest_text(name: str, p: DesignPoint, ev: greenplum.Evaluated, i: int) -> str:
    return (
        f"no candidate meets the {target_words(name)} target; closest: {p.server_id} with"
        f" {p.drives_per_host} x {p.drive_id}, {p.deployment}, {p.raid}, {p.segment_hosts} hosts"
        f" ({_value_text(ev, name, i)})"
    )


def _value_text(ev: greenplum.Evaluated, name: str, i: int) -> str:
    if name == CAPACITY:
        return f"{ev.user_capacity_tb[i]:,.1f} TB"
    target = TARGETS[name]
    v = float(_metric_values(ev)[target.metric][i])
    if target.budget:
        return f"{v:,.0f} {target.unit}" if target.unit else f"{target.metric} {v:,.0f}"
    return f"{target.metric} {v:,.1f}"

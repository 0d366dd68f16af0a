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
from models.hardware import HardwareCatalog
from models.perf import cost_power
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing import greenplum, software
from models.sizing.engine import size
from models.sizing.greenplum_design import SearchCancelled, search, settled_pick
from models.sizing.parts import SizingInputError, current, resolve
from models.sizing.result import SizingResult
from models.sizing.rules import coordinator_count
from models.vocabulary import CAPACITY, DEPLOYMENTS, KINDS, METRICS, RAID_LEVELS, TARGETS, target_words

ProgressFn = Callable[[int, int], None]
CancelFn = Callable[[], bool]


class OptimizationCancelled(Exception):
    pass


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

    def best_scenario(self, base: Scenario) -> Scenario | None:
        if self.best is None:
            return None
        return base.model_copy(update={"platform": base.platform.model_validate(self.best.platform(base))})


def _main(workload: GreenplumAnalytics | GreenplumOltp) -> tuple[str, bool]:
    main = KINDS[workload.kind].main_metric
    return main, METRICS[main].better == "higher"



TCO_RERANK = 6  # exact TCO (full BOM) of this many candidates with the lowest approximate TCO


def approx_tco(ev: greenplum.Evaluated, servers: list, scenario: Scenario,  # type: ignore[type-arg]
               catalog: HardwareCatalog) -> NDArray[np.float64]:
    """Capex plus N years of licences, support and energy for every candidate (network and racks left out:
    they follow the host count and are priced exactly on the few candidates re-ranked by `size`)."""
    c = ev.candidates
    com, a = scenario.commercial, scenario.assumptions
    years = com.tco_years
    hosts = (ev.segment_hosts + coordinator_count() + ev.etl_hosts).astype(float)
    sockets = c.sockets.astype(float)
    per_cpu = c.cores_total / np.maximum(sockets, 1)
    data_tb = float(np.ceil(max(scenario.workload.data_tb / scenario.workload.compression_ratio, 1.0)))  # type: ignore[union-attr]
    once = np.zeros(len(c))
    yearly = np.zeros(len(c))
    for product in software.products(scenario):
        offers = [lic for lic in catalog.current(catalog.licences) if lic.applies_to == product]
        if com.licence_ids is not None:
            offers = [lic for lic in catalog.licences if lic.id in com.licence_ids and lic.applies_to == product]
        if not offers:
            continue
        costs = []
        for lic in offers:
            units = {"core": hosts * sockets * np.maximum(per_cpu, lic.min_cores_per_cpu),
                     "socket": hosts * sockets, "host": hosts}.get(lic.metric, np.full(len(c), data_tb))
            cost = np.maximum(units, lic.min_units) * lic.price
            costs.append((cost, lic.term))
        best = np.argmin(np.stack([x for x, _ in costs]), axis=0)
        for k, (cost, term) in enumerate(costs):
            sel = best == k
            (once if term == "perpetual" else yearly)[sel] += cost[sel]
    if com.support:
        vendors = np.array([servers[int(i)].vendor.casefold() for i in c.server_idx])
        support = np.full(len(c), np.inf)
        for sup in catalog.current(catalog.supports):
            fits = (vendors == sup.applies_to.casefold()) | (sup.applies_to == "*")
            cost = hosts * sup.price if sup.basis == "host" else ev.capex * sup.pct_of_hardware / 100.0
            support = np.where(fits, np.minimum(support, cost), support)
        yearly += np.where(np.isfinite(support), support, 0.0)
    energy = ev.power_w * a.pue * cost_power.HOURS_PER_YEAR / 1000.0 * a.energy_price_per_kwh
    return ev.capex + once + years * (yearly + energy)


def optimize(
    scenario: Scenario,
    catalog: HardwareCatalog,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
    pareto_limit: int = 200,
    objective: str | None = None,
) -> OptimizationResult:
    """The cheapest feasible design by `objective`: "capex" (the BOM's one-time cost) or "tco" (N-year cost of
    ownership, `commercial.tco_years`); None takes the scenario's `commercial.optimize_for`."""
    objective = objective or scenario.commercial.optimize_for
    if objective not in ("capex", "tco"):
        raise SizingInputError([Problem("objective", f"'{objective}' is not one of capex, tco")])
    catalog = pricing.in_currency(catalog, scenario.commercial.currency, scenario.commercial.discounts_pct).catalog
    workload = scenario.workload
    if not isinstance(workload, GreenplumAnalytics | GreenplumOltp):
        raise SizingInputError([Problem("workload.kind", f"the optimizer covers Greenplum kinds, not {workload.kind}")])
    if not catalog.servers or not catalog.drives:
        raise SizingInputError([Problem("catalog", "empty (no servers or no drives): seed or import a catalog first")])
    parts = resolve(scenario, catalog)
    servers, drives = current(catalog.servers, catalog), current(catalog.drives, catalog)
    main, higher = _main(workload)
    try:
        found = search(scenario, workload, catalog, parts, servers, drives, DEPLOYMENTS, RAID_LEVELS, None, progress,
                       cancelled)
    except SearchCancelled:
        raise OptimizationCancelled() from None
    ev = found.ev
    n = len(ev.candidates)
    feasible = ev.feasible
    values = ev.metrics[main]
    points = _points(ev, found.servers, found.drives, values, feasible)  # the servers whose slots hold the memory
    pareto = [points[i] for i in pareto_front(ev.capex, values, ev.power_w, higher, feasible)[:pareto_limit]]
    if not np.any(feasible):
        return OptimizationResult(main, higher, n, 0, None, None, pareto, closest_per_target(ev, points))
    best_i, settled, ok = settled_pick(scenario, workload, found)
    if not ok:
        return OptimizationResult(main, higher, n, 0, None, None, pareto, closest_per_target(settled, [points[best_i]]))
    best = dataclasses.replace(
        points[best_i], segment_hosts=int(settled.segment_hosts[0]), capex=float(settled.capex[0]),
        power_w=float(settled.power_w[0]), rack_u=float(settled.rack_u[0]), main_value=float(settled.metrics[main][0]),
    )
    best_scenario = scenario.model_copy(
        update={"platform": scenario.platform.model_validate(best.platform(scenario))}
    )
    best_sized = size(best_scenario, catalog)
    if objective == "tco":
        tco = approx_tco(ev, servers, scenario, catalog)
        idx = np.flatnonzero(feasible)
        shortlist = idx[np.argsort(tco[idx], kind="stable")[:TCO_RERANK]]
        for i in shortlist:
            plat = scenario.platform.model_validate(points[int(i)].platform(scenario))
            s_i = scenario.model_copy(update={"platform": plat})
            r_i = size(s_i, catalog)
            # the full sizing is the judge: a candidate that misses a target once sized is not taken
            if any(w.code.startswith("target-unmet") for w in r_i.warnings):
                continue
            if r_i.totals.tco < best_sized.totals.tco:
                best, best_sized = points[int(i)], r_i
    return OptimizationResult(main, higher, n, int(feasible.sum()), best, best_sized, pareto, objective=objective)


def _points(ev: greenplum.Evaluated, servers: list, drives: list, values: NDArray[np.float64],  # type: ignore[type-arg]
            feasible: NDArray[np.bool_]) -> list[DesignPoint]:
    c = ev.candidates
    return [
        DesignPoint(
            server_id=servers[int(c.server_idx[i])].id,
            drive_id=drives[int(c.drive_idx[i])].id,
            drives_per_host=int(c.drives_per_host[i]),
            deployment="vsphere" if bool(c.virtualized[i]) else "bare-metal",
            raid=RAID_LEVELS[int(c.raid_code[i])],
            segment_hosts=int(ev.segment_hosts[i]),
            capex=float(ev.capex[i]),
            power_w=float(ev.power_w[i]),
            rack_u=float(ev.rack_u[i]),
            main_value=float(values[i]),
            feasible=bool(feasible[i]),
        )
        for i in range(len(c))
    ]


def pareto_front(
    capex: NDArray[np.float64],
    value: NDArray[np.float64],
    power: NDArray[np.float64],
    higher_is_better: bool,
    mask: NDArray[np.bool_] | None = None,
) -> list[int]:
    """Indices not dominated on (capex low, main value, power low), cheapest first.

    Sorting by capex lets each point be compared only with the cheaper ones kept so far.
    """
    idx = np.flatnonzero(mask) if mask is not None and np.any(mask) else np.arange(capex.size)
    perf = -value if higher_is_better else value  # lower is better on every axis
    order = idx[np.lexsort((power[idx], perf[idx], capex[idx]))]
    kept: list[int] = []
    kept_perf = np.empty(0)
    kept_power = np.empty(0)
    for i in order:
        if kept and np.any((kept_perf <= perf[i]) & (kept_power <= power[i])):
            continue
        kept.append(int(i))
        kept_perf = np.append(kept_perf, perf[i])
        kept_power = np.append(kept_power, power[i])
    return kept


def closest_per_target(ev: greenplum.Evaluated, points: list[DesignPoint]) -> dict[str, str]:
    """For each target no candidate meets, the candidate that comes closest and by how much."""
    out: dict[str, str] = {}
    for name, met in ev.meets.items():
        if np.any(met):
            continue
        i = _closest(ev, name)
        p = points[i]
        out[name] = (
            f"no candidate meets the {target_words(name)} target; closest: {p.server_id} with"
            f" {p.drives_per_host} x {p.drive_id}, {p.deployment}, {p.raid}, {p.segment_hosts} hosts"
            f" ({_value_text(ev, name, i)})"
        )
    return out


def _metric_values(ev: greenplum.Evaluated) -> dict[str, NDArray[np.float64]]:
    return {**ev.metrics, "capex": ev.capex, "power_w": ev.power_w, "rack_u": ev.rack_u}


def _closest(ev: greenplum.Evaluated, name: str) -> int:
    if name == CAPACITY:
        return int(np.argmin(-ev.user_capacity_tb))
    target = TARGETS.get(name)
    values = _metric_values(ev).get(target.metric) if target else None
    if target is None or values is None:
        return 0
    return int(np.argmin(values if target.bound == "max" else -values))


def _value_text(ev: greenplum.Evaluated, name: str, i: int) -> str:
    if name == CAPACITY:
        return f"{ev.user_capacity_tb[i]:,.1f} TB"
    target = TARGETS[name]
    v = float(_metric_values(ev)[target.metric][i])
    if target.budget:
        return f"{v:,.0f} {target.unit}" if target.unit else f"{target.metric} {v:,.0f}"
    return f"{target.metric} {v:,.1f}"

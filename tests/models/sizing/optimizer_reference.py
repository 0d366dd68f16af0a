"""Today's (pre-streaming) optimizer, kept as the reference the streamed search must equal.

It evaluates every candidate of the catalog in one array, builds a point per candidate, sweeps the
Pareto front one candidate at a time, picks the best with `evaluation.pick` and the closest design per
unmet target with `argmin` over everything: slow and memory-hungry, but plainly right. Copied from
`models/optimizer.py` at 624c533 (issue 17), with the settled pick of e25970c. It follows the shared
evaluation's inputs (the platform, the memory floor and DIMMs that fit, 85442a9) and the closest-design
wording of the one vocabulary (6bab767) and the OLTP coordinator's own options (gp_coordinator): what is
compared is the search plumbing, not the sizing rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.optimizer import CAPEX_RERANK, DesignPoint, SizedDesigns, _settled_front, judged, sized_front
from models.scenario import GreenplumAnalytics, Scenario
from models.sizing.engine import size
from models.sizing.greenplum import evaluation
from models.sizing.greenplum.candidates import Choices, enumerate_candidates
from models.sizing.greenplum.context import SearchContext
from models.sizing.greenplum.coordinator import coordinator_options
from models.sizing.greenplum.host_memory import memory_plan
from models.sizing.greenplum.search import Search, search_space, settled_pick
from models.sizing.pareto import pick_first
from models.sizing.parts import NetworkChoice, choose_nic, current, nics_per_host, resolve
from models.sizing.rules import RULES, coordinator_drive_count
from models.vocabulary import CAPACITY, DEPLOYMENTS, KINDS, METRICS, RAID_LEVELS, TARGETS, target_words


@dataclass(frozen=True)
class RefPoint:
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


@dataclass(frozen=True)
class RefResult:
    evaluated: int
    feasible: int
    best: RefPoint | None
    pareto: list[RefPoint]
    unmet: dict[str, str]


def reference_optimize(scenario: Scenario, catalog: HardwareCatalog, pareto_limit: int = 200) -> RefResult:
    workload = scenario.workload
    assert isinstance(workload, evaluation.GreenplumAnalytics | evaluation.GreenplumOltp)
    parts = resolve(scenario, catalog)
    servers, drives = current(catalog.servers, catalog), current(catalog.drives, catalog)
    nic, _ = choose_nic(catalog, parts)
    net = NetworkChoice(nic, nics_per_host(nic, scenario.platform.nics_per_host))
    floor = figure(RULES, "min_memory_gib_per_segment_host") if isinstance(workload, GreenplumAnalytics) else 0.0
    memory = memory_plan(servers, scenario.platform.memory_gib, current(catalog.dimms, catalog), floor)
    servers_all = servers
    servers = [s for s, m in zip(servers, memory, strict=True) if m.fits]
    memory = [m for m in memory if m.fits]
    mem = np.array([m.memory_gib for m in memory])
    extra_price = np.array([m.price for m in memory])
    cands = enumerate_candidates(servers, drives, DEPLOYMENTS, RAID_LEVELS, None, evaluation.min_data_drives())
    cands = dataclasses.replace(cands, memory_gib=mem[cands.server_idx])
    coordinators = None  # OLTP: the coordinator sized on its own, from the same options as the search
    if isinstance(workload, evaluation.GreenplumOltp):
        coordinators = coordinator_options(servers_all, drives, coordinator_drive_count())
    ev = evaluation.evaluate(SearchContext.of(scenario, workload, net, coordinators), cands,
                             extra_price[cands.server_idx])
    main = KINDS[workload.kind].main_metric
    higher = METRICS[main].better == "higher"
    values = ev.metrics[main]
    feasible = ev.feasible
    points = _points(ev, servers, drives, values, feasible)
    pareto = [points[i] for i in _pareto_front(ev.capex, values, ev.power_w, higher, feasible)[:pareto_limit]]
    # the front as `size` reports it at the confidence (the shared settling, 'one estimate')
    choices = Choices(servers_all, drives, DEPLOYMENTS, RAID_LEVELS, None)
    space = search_space(scenario, workload, catalog, parts, choices)
    pareto = _settled_front(pareto, space, main, higher)  # type: ignore[arg-type]
    pareto = sized_front([DesignPoint(**dataclasses.asdict(p)) for p in pareto], SizedDesigns(scenario, catalog, None),
                         main, higher)  # type: ignore[assignment]
    if not np.any(feasible):
        return RefResult(len(cands), 0, None, pareto, _closest_per_target(ev, points))
    found = Search(servers, drives, net, None, memory, ev, coordinators)
    best_i, settled, ok = settled_pick(scenario, workload, found)
    if not ok:
        return RefResult(len(cands), 0, None, pareto, _closest_per_target(settled, [points[best_i]]))
    best = dataclasses.replace(
        points[best_i], segment_hosts=int(settled.segment_hosts[0]), capex=float(settled.capex[0]),
        power_w=float(settled.power_w[0]), rack_u=float(settled.rack_u[0]), main_value=float(settled.metrics[main][0]),
    )
    cheapest = np.flatnonzero(feasible)[np.argsort(ev.capex[feasible], kind="stable")[:CAPEX_RERANK]]
    best_scenario = scenario.model_copy(update={"platform": scenario.platform.model_validate(
        DesignPoint(**dataclasses.asdict(best)).platform(scenario))})
    best, _ = judged(SizedDesigns(scenario, catalog, None), "capex", DesignPoint(**dataclasses.asdict(best)),
                     size(best_scenario, catalog),
                     [DesignPoint(**dataclasses.asdict(points[int(i)])) for i in cheapest], pareto)  # type: ignore[arg-type]
    # the pick leads the table it is shown with (models.optimizer.pick_first)
    return RefResult(len(cands), int(feasible.sum()), best, pick_first(best, pareto), {})  # type: ignore[arg-type]


def _points(ev: evaluation.Evaluated, servers: list, drives: list, values: NDArray[np.float64],  # type: ignore[type-arg]
            feasible: NDArray[np.bool_]) -> list[RefPoint]:
    c = ev.candidates
    return [
        RefPoint(servers[int(c.server_idx[i])].id, drives[int(c.drive_idx[i])].id, int(c.drives_per_host[i]),
                 "vsphere" if bool(c.virtualized[i]) else "bare-metal", RAID_LEVELS[int(c.raid_code[i])],
                 int(ev.segment_hosts[i]), float(ev.capex[i]), float(ev.power_w[i]), float(ev.rack_u[i]),
                 float(values[i]), bool(feasible[i]))
        for i in range(len(c))
    ]


def _pareto_front(capex: NDArray[np.float64], value: NDArray[np.float64], power: NDArray[np.float64],
                  higher_is_better: bool, mask: NDArray[np.bool_] | None = None) -> list[int]:
    idx = np.flatnonzero(mask) if mask is not None and np.any(mask) else np.arange(capex.size)
    perf = -value if higher_is_better else value
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


def _closest_per_target(ev: evaluation.Evaluated, points: list[RefPoint]) -> dict[str, str]:
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


def _metric_values(ev: evaluation.Evaluated) -> dict[str, NDArray[np.float64]]:
    return {**ev.metrics, "capex": ev.capex, "power_w": ev.power_w, "rack_u": ev.rack_u}


def _closest(ev: evaluation.Evaluated, name: str) -> int:
    if name == CAPACITY:
        return int(np.argmin(-ev.user_capacity_tb))
    target = TARGETS.get(name)
    values = _metric_values(ev).get(target.metric) if target else None
    if target is None or values is None:
        return 0
    return int(np.argmin(values if target.bound == "max" else -values))


def _value_text(ev: evaluation.Evaluated, name: str, i: int) -> str:
    if name == CAPACITY:
        return f"{ev.user_capacity_tb[i]:,.1f} TB"
    target = TARGETS[name]
    v = float(_metric_values(ev)[target.metric][i])
    if target.budget:
        return f"{v:,.0f} {target.unit}" if target.unit else f"{target.metric} {v:,.0f}"
    return f"{target.metric} {v:,.1f}"

"""The Greenplum candidate search: every candidate of a set of platforms evaluated chunk by chunk, and the pick
settled on the estimate it reports."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from models.calibration_data import figure
from models.hardware import Drive, HardwareCatalog, Server
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing.greenplum import evaluation, segments, settle, shortlist
from models.sizing.greenplum.candidates import (
    Candidates,
    Choices,
    Tables,
    count_candidates,
    enumerate_candidates,
    iter_columns,
)
from models.sizing.greenplum.context import SearchContext, Start
from models.sizing.greenplum.coordinator import CoordinatorOptions, coordinator_options
from models.sizing.greenplum.fast.layouts import chunk_layouts
from models.sizing.greenplum.fast.stream import CheapestFeasible, RunningBest
from models.sizing.greenplum.host_memory import HostMemory, max_memory_gib, memory_plan
from models.sizing.parts import (
    NetworkChoice,
    ResolvedParts,
    SizingInputError,
    choose_nic,
    current,
    fits_nics,
    nics_per_host,
    taking_nics,
)
from models.sizing.result import Rationale
from models.sizing.rules import RULES, coordinator_drive_count
from models.tasks import IsCancelled, Progress, check_cancelled
from models.vocabulary import RAID_LEVELS

GpWorkload = GreenplumAnalytics | GreenplumOltp
# candidates per evaluation: bounded memory, and a progress report per chunk; at 32,768 a chunk's columns
# (256 KiB each) stay in a core's cache while the evaluation passes over them (10x catalog: ~10 % less time
# than at 65,536, and more time again at 16,384 where the per-chunk steps add up)
SEARCH_CHUNK = 32_768


@dataclass(frozen=True)
class Search:
    """Evaluated candidates of a set of platforms, with what is needed to explain one of them."""

    servers: list[Server]
    drives: list[Drive]
    net: NetworkChoice
    nic_why: Rationale | None
    memory: list[HostMemory]  # per server: memory, DIMMs added to reach it, their price
    ev: evaluation.Evaluated
    coordinators: CoordinatorOptions | None = None  # OLTP: the coordinator hosts searched apart


@dataclass(frozen=True)
class SearchSpace:
    """Every candidate of a set of platforms, ready to be evaluated chunk by chunk.

    The one evaluation path behind `size` (one platform, or every server and drive when none is
    named) and the optimizer (the whole catalog): `chunks` streams (offset, evaluated chunk) pairs
    through `evaluate_chunk`, so memory stays bounded by the chunk and a long search reports
    progress and stops when asked. Reducers (`models.sizing.greenplum.fast.stream`, the optimizer's front) keep
    what they report.
    """

    scenario: Scenario
    workload: GpWorkload
    servers: list[Server]
    drives: list[Drive]
    deployments: tuple[str, ...]
    raids: tuple[str, ...]
    drives_per_host: int | None
    net: NetworkChoice
    nic_why: Rationale | None
    memory: list[HostMemory]  # per server: memory, DIMMs added to reach it, their price
    memory_gib: np.ndarray  # per server: memory per host in the design
    extra_memory_price: np.ndarray  # per server: price of the added DIMMs
    coordinators: CoordinatorOptions | None = None  # OLTP: the coordinator hosts searched apart

    def count(self) -> int:
        ch = self.choices
        return count_candidates(ch.servers, ch.drives, ch.deployments, ch.raids, ch.drives_per_host,
                                ch.min_drives_per_host)

    def chunks(
        self,
        chunk: int = SEARCH_CHUNK,
        progress: Progress | None = None,
        cancelled: IsCancelled | None = None,
        total: int | None = None,
    ) -> Iterator[tuple[int, evaluation.Evaluated]]:
        total = self.count() if progress is not None and total is None else (total or 0)
        for offset, cands, extra, pieces in iter_columns(self.tables, self.choices, chunk):
            check_cancelled(cancelled)
            yield offset, _evaluated(self, cands, extra[0], chunk_layouts(pieces, len(cands)))
            if progress is not None:
                progress(offset + len(cands), total)

    @cached_property
    def tables(self) -> Tables:
        """The parts' columns with each server's memory in the design and the price of its added DIMMs (an extra
        row): a chunk's candidates come with both, no lookup by server index per chunk."""
        return Tables.of(self.servers, self.drives, self.memory_gib, [self.extra_memory_price])

    @property
    def choices(self) -> Choices:
        """What the space's candidates combine (at least the drives Greenplum's minimum asks for)."""
        return Choices(self.servers, self.drives, self.deployments, self.raids, self.drives_per_host,
                       evaluation.min_data_drives())

    @cached_property
    def context(self) -> SearchContext:
        """What evaluating and settling the space's candidates reads besides them (one per search)."""
        return SearchContext.of(self.scenario, self.workload, self.net, self.coordinators)

    def found(self, ev: evaluation.Evaluated) -> Search:
        return Search(self.servers, self.drives, self.net, self.nic_why, self.memory, ev, self.coordinators)


def search_space(scenario: Scenario, workload: GpWorkload, catalog: HardwareCatalog, parts: ResolvedParts,
                 choices: Choices) -> SearchSpace:
    """The candidates `choices` combines (its servers kept where their NICs and memory fit; at least the data drives
    Greenplum's minimum asks for, whatever `choices.min_drives_per_host` says), ready to be evaluated."""
    servers, drives, deployments = list(choices.servers), list(choices.drives), choices.deployments
    plat = scenario.platform
    nic, nic_why = choose_nic(catalog, parts, servers)  # a card every candidate server's slot carries at line rate
    if nic is None:
        # Greenplum moves data between segments over the interconnect: without a NIC no scan, load or motion
        # estimate exists, and a cluster without one cannot be built, so it is never priced.
        raise SizingInputError([Problem(
            "platform.nic_id",
            "the catalog has no NIC to choose from: a Greenplum cluster needs an interconnect (at least"
            f" {figure(RULES, 'network_min_gbps'):g} GbE, {figure(RULES, 'network_recommended_gbps'):g} GbE"
            " recommended); add a NIC to the catalog or name one",
        )])
    net = NetworkChoice(nic, nics_per_host(nic, plat.nics_per_host))
    dimms = current(catalog.dimms, catalog)
    floor = figure(RULES, "min_memory_gib_per_segment_host") if isinstance(workload, GreenplumAnalytics) else 0.0
    servers = taking_nics(servers, net.nics_per_host)  # parts that fit: NICs within PCIe slots
    memory = memory_plan(servers, plat.memory_gib, dimms, floor)
    fitting = [s for s, m in zip(servers, memory, strict=True) if m.fits]
    if not fitting:
        most = max(max_memory_gib(s, dimms) for s in servers)
        raise SizingInputError([Problem(
            "platform.memory_gib",
            f"{plat.memory_gib:,} GiB does not fit the DIMM slots of any server that could be chosen"
            f" (at most {most:,} GiB with the catalog's DIMMs; allowed 1-{most:,})",
        )])
    memory = [m for m in memory if m.fits]
    fitting, memory = _above_the_reserve(plat.hypervisor_reserve_gib, deployments, fitting, memory)
    mem = np.array([m.memory_gib for m in memory])
    extra_price = np.array([m.price for m in memory])
    coordinators = None
    if isinstance(workload, GreenplumOltp):  # every transaction passes the coordinator: it gets its own server
        # the coordinators carry the segment hosts' NICs: only servers whose PCIe slots take them (parts that fit)
        slotted_coordinators = [s for s in current(catalog.servers, catalog) if fits_nics(s, net.nics_per_host)]
        coordinators = coordinator_options(slotted_coordinators, current(catalog.drives, catalog),
                                           coordinator_drive_count())
    return SearchSpace(scenario, workload, fitting, drives, tuple(deployments), tuple(choices.raids),
                       choices.drives_per_host, net, nic_why, memory, mem, extra_price, coordinators)


def evaluate_chunk(space: SearchSpace, cands: Candidates) -> evaluation.Evaluated:
    """The per-chunk evaluation kernel: one chunk of candidates through the Greenplum sizing rules.

    The seam where the evaluation semantics live; everything around it (enumeration, streaming,
    reducers) only moves arrays.
    """
    cands = dataclasses.replace(cands, memory_gib=space.memory_gib[cands.server_idx])
    return _evaluated(space, cands, space.extra_memory_price[cands.server_idx])


def _evaluated(space: SearchSpace, cands: Candidates, extra_memory_price: np.ndarray,
               layouts: segments.HostLayouts | None = None) -> evaluation.Evaluated:
    """`evaluate_chunk` of candidates that already carry the design's memory, with their added DIMMs' price (and
    their `segments.host_layouts` where found already)."""
    return evaluation.evaluate(space.context, cands, extra_memory_price, layouts=layouts)


def search(scenario: Scenario, workload: GpWorkload, catalog: HardwareCatalog, parts: ResolvedParts,
           choices: Choices) -> Search:
    """Every candidate evaluated and kept (for small spaces and tests; the optimizer streams)."""
    space = search_space(scenario, workload, catalog, parts, choices)
    parts_ev = [ev for _, ev in space.chunks()]
    if not parts_ev:
        ch = choices
        empty = enumerate_candidates(ch.servers, ch.drives, ch.deployments, ch.raids, ch.drives_per_host,
                                     evaluation.min_data_drives())
        parts_ev = [evaluate_chunk(space, empty)]
    cands = parts_ev[0].candidates if len(parts_ev) == 1 else Candidates(**{
        f.name: np.concatenate([getattr(e.candidates, f.name) for e in parts_ev])
        for f in dataclasses.fields(Candidates)})
    return space.found(evaluation.Evaluated.concat(parts_ev, cands))


def settled_pool(best: RunningBest, cheapest: CheapestFeasible) -> evaluation.Evaluated:
    """What `settled_pick` needs of a streamed search: the cheapest feasible rows, else the nearest design."""
    pool = cheapest.pool if cheapest.pool is not None else best.row
    assert pool is not None
    return pool


def settled_pick(scenario: Scenario, workload: GpWorkload, found: Search) -> tuple[int, evaluation.Evaluated, bool]:
    """The best candidate sized on the estimate it reports (the first of `shortlist.settled_shortlist`)."""
    extra_price = np.array([m.price for m in found.memory])[found.ev.candidates.server_idx]
    sc = SearchContext.of(scenario, workload, found.net, found.coordinators)
    return shortlist.settled_shortlist(sc, found.ev, extra_price)[0]


@dataclass(frozen=True)
class Settled:
    """One design as `size` reports it at the scenario's confidence (hosts-and-coordinators capex, as ranked)."""

    segment_hosts: int
    capex: float
    power_w: float
    rack_u: float
    metrics: dict[str, float]
    feasible: bool


def settle_designs(space: SearchSpace, server_ids: Sequence[str], drive_ids: Sequence[str],
                   drives_per_host: Sequence[int], virtualized: Sequence[bool], raids: Sequence[str]) -> list[Settled]:
    """Each given design (e.g. a Pareto front) settled on the estimate it reports, as `size` settles it."""
    if not server_ids:
        return []
    s_idx = {s.id: i for i, s in enumerate(space.servers)}
    d_idx = {d.id: i for i, d in enumerate(space.drives)}
    cands = Tables.of(space.servers, space.drives).gather(
        np.array([s_idx[x] for x in server_ids], dtype=np.int64),
        np.array([d_idx[x] for x in drive_ids], dtype=np.int64),
        np.array(drives_per_host, dtype=np.int64), np.array(virtualized, dtype=bool),
        np.array([RAID_LEVELS.index(r) for r in raids], dtype=np.int64))
    ev = evaluate_chunk(space, cands)
    out = []
    for i in range(len(cands)):
        one = settle.settle(space.context, ev.candidates.take(np.array([i])),
                            float(space.extra_memory_price[cands.server_idx[i]]),
                            Start(int(ev.segment_hosts[i]), int(ev.coordinator_idx[i])))
        out.append(Settled(int(one.segment_hosts[0]), float(one.capex[0]), float(one.power_w[0]), float(one.rack_u[0]),
                           {k: float(v[0]) for k, v in one.metrics.items()}, bool(one.feasible[0])))
    return out


def _above_the_reserve(reserve: float | None, deployments: Sequence[str], servers: list[Server],
                       memory: list[HostMemory]) -> tuple[list[Server], list[HostMemory]]:
    """On vSphere, the servers whose memory exceeds the stated hypervisor reserve: the rest leave their segment
    VMs no memory (a reserve at or above the host's memory is bad input when no server is left)."""
    if reserve is None or "vsphere" not in deployments:
        return servers, memory
    keep = [k for k, m in enumerate(memory) if m.memory_gib > reserve]
    if not keep:
        most = max(m.memory_gib for m in memory)
        raise SizingInputError([Problem(
            "platform.hypervisor_reserve_gib",
            f"{reserve:,g} GiB leaves the segment VMs no memory: the hosts that could be chosen have at most"
            f" {most:,g} GiB (allowed 0 to less than {most:,g})",
        )])
    return [servers[k] for k in keep], [memory[k] for k in keep]

"""The explained Greenplum design: candidates evaluated, the best one laid out, estimated, priced and argued."""
from __future__ import annotations

import dataclasses

from models.hardware import HardwareCatalog
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing import greenplum
from models.sizing.gp_explain import explain
from models.sizing.gp_search import Search, search_space, settled_pick, settled_pool
from models.sizing.parts import (
    ResolvedParts,
    SizingInputError,
    candidate_servers,
    current,
)
from models.sizing.result import Rationale, SizingResult
from models.sizing.stream import CheapestFeasible, RunningBest
from models.tasks import IsCancelled, Progress
from models.vocabulary import RAID_LEVELS

GpWorkload = GreenplumAnalytics | GreenplumOltp


def chosen_raid(scenario: Scenario, workload: GpWorkload) -> tuple[str, Rationale]:
    raid = scenario.platform.raid
    if raid is not None:
        return raid, Rationale("RAID", f"RAID level {raid} as specified.", "scenario")
    if workload.mirrors:
        return "none", Rationale(
            "RAID",
            "No RAID on segment data drives: Greenplum mirrors already keep a second copy on another host, and the"
            " reference architecture does not recommend RAID on this configuration yet.",
            "002_feb9b45e1f157a35.txt, Future work: performance optimization for RAID",
        )
    return "raid5", Rationale(
        "RAID",
        "Without mirrors a drive failure would lose data, so segment drives use RAID-5, the lowest-cost redundancy"
        " (one drive of each group holds parity).",
        "002_feb9b45e1f157a35.txt, Future work: performance optimization for RAID",
    )


def explain_candidate(scenario: Scenario, workload: GpWorkload, found: Search, i: int, feasible: bool) -> SizingResult:
    c = found.ev.candidates
    raid = RAID_LEVELS[int(c.raid_code[i])]
    server = found.servers[int(c.server_idx[i])]
    reasons = [r for r in (chosen_raid(scenario, workload)[1], found.nic_why) if r]
    k = int(found.ev.coordinator_idx[i])
    coordinator = None
    if found.coordinators is not None and k >= 0:
        coordinator = (found.coordinators.servers[k], found.coordinators.drives[k])
    return explain(scenario, workload, found.ev, i, feasible, server, found.drives[int(c.drive_idx[i])], found.net,
                   raid, reasons, found.memory[int(c.server_idx[i])], coordinator)


def size_greenplum(
    scenario: Scenario, workload: GpWorkload, catalog: HardwareCatalog, parts: ResolvedParts,
    progress: Progress | None = None, cancelled: IsCancelled | None = None,
) -> SizingResult:
    servers = candidate_servers(catalog, parts)
    drives = [parts.drive] if parts.drive else current(catalog.drives, catalog)
    if not servers or not drives:
        raise SizingInputError([Problem("catalog", "no servers or no drives to size with (import or seed it)")])
    raid, _ = chosen_raid(scenario, workload)
    space = search_space(scenario, workload, catalog, parts, servers, drives, [scenario.platform.deployment], [raid],
                         scenario.platform.drives_per_host)
    best, cheapest = RunningBest(), CheapestFeasible()
    for offset, ev in space.chunks(progress=progress, cancelled=cancelled):
        best.add(offset, ev)
        cheapest.add(offset, ev)
    n = scenario.platform.drives_per_host
    most = max(s.data_bays for s in servers)
    if best.row is None and n is not None and n > most:
        raise SizingInputError([Problem(
            "platform.drives_per_host",
            f"{n} is more than the data bays of every server that could be chosen (the most is {most};"
            f" allowed 1-{most})",
        )])
    if best.row is None:
        what = f"server {parts.server.id}" if parts.server else "any server"
        raise SizingInputError(
            [Problem("platform", f"no drive in the catalog fits {what} with {raid} and the requested drive count")]
        )
    _, settled, feasible = settled_pick(scenario, workload, space.found(settled_pool(best, cheapest)))
    return explain_candidate(scenario, workload, space.found(settled), 0, feasible)


def explain_settled(
    scenario: Scenario, workload: GpWorkload, found: Search, i: int, settled: greenplum.Evaluated, feasible: bool
) -> SizingResult:
    """Explain candidate `i` of the search with its settled evaluation (one row)."""
    return explain_candidate(scenario, workload, dataclasses.replace(found, ev=settled), 0, feasible)

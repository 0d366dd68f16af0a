"""The OLTP shortlist settles fewer candidates: shared host searches give each what it gets alone, and a candidate
left unsettled would have changed nothing."""

from __future__ import annotations

import numpy as np
import pytest

from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.greenplum import evaluation, settle, shortlist
from models.sizing.greenplum.candidates import Choices
from models.sizing.greenplum.context import SearchContext, Start
from models.sizing.greenplum.search import Search, search
from models.sizing.parts import current, resolve
from tests.models.sizing.conftest import sample


@pytest.mark.parametrize(("mix", "clients", "tps"), [("select", 3000, 20_000), ("update", 3000, 20_000),
                                                     ("tpcb", 1000, 20_000)])
def test_a_shared_search_settles_every_candidate_as_alone(catalog: HardwareCatalog, mix: str, clients: int,
                                                          tps: float) -> None:
    s = sample("gp-oltp", workload={"mix": mix, "clients": clients, "target_tps": tps},
               platform={"server_id": None, "drive_id": None})
    found = search(s, s.workload, catalog, resolve(s, catalog), Choices(current(catalog.servers, catalog),  # type: ignore[arg-type]
                   current(catalog.drives, catalog), ["bare-metal"], ["none"], None))
    ev = found.ev
    extra = np.array([m.price for m in found.memory])[ev.candidates.server_idx]
    # the cheapest, as a shortlist settles them: several servers and drives, many sharing a coordinator
    feasible = np.flatnonzero(ev.feasible)
    rows = feasible[np.argsort(ev.capex[feasible], kind="stable")][:30]
    shared: dict[tuple[object, ...], settle.Searched] = {}
    hits = 0
    for i in rows:
        sc = SearchContext(s.workload, s.targets, found.net, 0.5, s.platform, found.coordinators)  # type: ignore[arg-type]
        args = (sc, ev.candidates.take(np.array([i])), float(extra[i]),
                Start(int(ev.segment_hosts[i]), int(ev.coordinator_idx[i])))
        before = len(shared)
        together = settle.settle(*args, searched=shared)
        hits += len(shared) == before
        alone = settle.settle(*args)
        assert together.segment_hosts.tolist() == alone.segment_hosts.tolist()
        assert together.capex.tolist() == alone.capex.tolist()
        assert {k: v.tolist() for k, v in together.metrics.items()} == {k: v.tolist() for k, v in alone.metrics.items()}
        assert {k: v.tolist() for k, v in together.meets.items()} == {k: v.tolist() for k, v in alone.meets.items()}
        assert together.out_of_reach == alone.out_of_reach
    assert hits > 0  # the candidates did share searches


def _space(catalog: HardwareCatalog, mix: str, clients: int, tps: float | None, confidence: str = "P50"
           ) -> tuple[Scenario, Search]:
    s = sample("gp-oltp", workload={"mix": mix, "clients": clients, "target_tps": tps},
               platform={"server_id": None, "drive_id": None}, targets={"confidence": confidence})
    return s, search(s, s.workload, catalog, resolve(s, catalog), Choices(current(catalog.servers, catalog),  # type: ignore[arg-type]
                     current(catalog.drives, catalog), ["bare-metal"], ["none"], None))


@pytest.mark.parametrize("workload", ["oltp", "analytics"])
def test_the_prelude_of_a_shortlist_is_each_candidates_own(catalog: HardwareCatalog, workload: str) -> None:
    """The segment plans and floors of a whole shortlist in one call (as the walk settles and bounds its candidates
    with them) are each candidate's computed alone."""
    s, found = _space(catalog, "tpcb", 1000, 20_000)
    if workload == "analytics":
        s = sample("retail-dw-gen5", platform={"server_id": None, "drive_id": None})
        found = search(s, s.workload, catalog, resolve(s, catalog), Choices(current(catalog.servers, catalog),  # type: ignore[arg-type]
                       current(catalog.drives, catalog), ["bare-metal"], ["none"], None))
    c = found.ev.candidates
    rows = np.flatnonzero(found.ev.feasible)[:300]  # past 256: the segment plan then goes by layouts
    assert len(rows) >= 256
    many = settle.Prelude.of(s.workload, c.take(rows), s.platform)  # type: ignore[arg-type]
    for j in range(0, len(rows), 7):
        one = settle.Prelude.of(s.workload, c.take(rows[[j]]), s.platform)  # type: ignore[arg-type]
        row = many.row(j)
        assert (row.primaries.tolist(), row.vms.tolist(), row.floor.tolist()) == (
            one.primaries.tolist(), one.vms.tolist(), one.floor.tolist())


@pytest.mark.parametrize(("mix", "clients", "tps"), [("update", 3000, 20_000), ("select", 1000, 60_000)])
def test_the_capex_floor_is_below_every_settled_capex(catalog: HardwareCatalog, mix: str, clients: int,
                                                       tps: float) -> None:
    s, found = _space(catalog, mix, clients, tps)
    ev = found.ev
    extra = np.array([m.price for m in found.memory])[ev.candidates.server_idx]
    feasible = np.flatnonzero(ev.feasible)
    grew = 0
    for i in feasible[np.argsort(ev.capex[feasible], kind="stable")][:40]:
        sc = SearchContext(s.workload, s.targets, found.net, 0.5, s.platform, found.coordinators)  # type: ignore[arg-type]
        one = settle.settle(sc, ev.candidates.take(np.array([i])), float(extra[i]),
                            Start(int(ev.segment_hosts[i]), int(ev.coordinator_idx[i])))
        hosts = int(one.segment_hosts[0])
        grew += hosts > int(ev.segment_hosts[i])
        assert shortlist.capex_floor(ev, int(i), hosts) <= float(one.capex[0])
        assert shortlist.capex_floor(ev, int(i), hosts) >= 0.95 * float(one.capex[0])  # close: it prunes
    assert grew  # the bound was tried where settling adds hosts


def _settle_all(s: Scenario, found: Search, keep: int) -> list[tuple[int, int, float, bool]]:
    """The shortlist as `settled_shortlist` built it settling every candidate its point bounds leave (before the
    OLTP searches were keyed ahead): (candidate, hosts, capex, feasible) of each design returned."""
    ev, c = found.ev, found.ev.candidates
    extra = np.array([m.price for m in found.memory])[c.server_idx]
    idx = np.flatnonzero(ev.feasible)
    order = idx[np.lexsort((c.drives_per_host[idx], ev.segment_hosts[idx], ev.capex[idx], ev.part_warnings[idx]))]
    best: dict[int, tuple[tuple[int, float], int, evaluation.Evaluated]] = {}
    fallback = None
    for i in order[:256]:
        bound = (int(ev.part_warnings_fixed[i]), float(ev.capex[i]))
        if len(best) >= keep:
            worst = sorted(best.values(), key=lambda t: t[0])[:keep][-1][0]
            if bound >= worst:
                continue
        server = int(c.server_idx[i])
        if server in best and bound >= best[server][0]:
            continue
        sc = SearchContext(s.workload, s.targets, found.net, 0.5, s.platform, found.coordinators)  # type: ignore[arg-type]
        one = settle.settle(sc, c.take(np.array([i])), float(extra[i]),
                            Start(int(ev.segment_hosts[i]), int(ev.coordinator_idx[i])))
        if bool(one.feasible[0]):
            key = (int(one.part_warnings[0]), float(one.capex[0]))
            if server not in best or key < best[server][0]:
                best[server] = (key, int(i), one)
        elif fallback is None:
            fallback = (int(i), one)
    if best:
        kept = sorted(best.values(), key=lambda t: t[0])[:keep]
        return [(i, int(one.segment_hosts[0]), float(one.capex[0]), True) for _, i, one in kept]
    assert fallback is not None
    return [(fallback[0], int(fallback[1].segment_hosts[0]), float(fallback[1].capex[0]), False)]


@pytest.mark.parametrize(("mix", "clients", "tps", "confidence"), [
    ("select", 3000, 20_000, "P50"),  # every candidate out of reach at P50: the first is the nearest design
    ("update", 3000, 20_000, "P50"),  # settling adds hosts to every candidate
    ("tpcb", 1000, 20_000, "P90"),
    ("insert", 1000, 50_000, "P50"),
])
def test_the_shortlist_is_the_one_settling_every_candidate_gives(catalog: HardwareCatalog, mix: str, clients: int,
                                                                 tps: float, confidence: str) -> None:
    s, found = _space(catalog, mix, clients, tps, confidence)
    extra = np.array([m.price for m in found.memory])[found.ev.candidates.server_idx]
    for keep in (1, 6):
        sc = SearchContext(s.workload, s.targets, found.net, 0.5, s.platform, found.coordinators)  # type: ignore[arg-type]
        got = shortlist.settled_shortlist(sc, found.ev, extra, shortlist.Keep(keep))
        assert [(i, int(one.segment_hosts[0]), float(one.capex[0]), ok) for i, one, ok in got] == _settle_all(
            s, found, keep)

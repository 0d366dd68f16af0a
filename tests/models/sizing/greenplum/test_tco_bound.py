"""The TCO shortlist walks its candidates on a valid lower bound: a design that gets cheaper to own with more hosts
(a perpetual licence taking over from a subscription) is not cut before it is settled."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models.hardware import Drive, HardwareCatalog, Licence
from models.scenario import Scenario
from models.sizing.greenplum import design, evaluation, settle, shortlist
from models.sizing.greenplum import tco as gp_tco
from models.sizing.greenplum.candidates import Choices
from models.sizing.greenplum.context import Fixed, SearchContext, Start
from models.sizing.greenplum.search import SearchSpace, search, search_space, settled_pool
from models.sizing.parts import current, resolve
from tests.models.sizing.conftest import sample

# a Greenplum licence bought once per TB on disk, at a price where 16-core hosts switch to it from the per-core
# subscription between the candidates' point and settled host counts (90 and 91 hosts of 16 cores, 44 TB)
PER_TB_PRICE = 29_600.0
DRIVES = ("samsung-pm1743-3840gb-e3s", "dell-2400gb-sas-10k-sff", "kioxia-cd8p-r-7680gb-e3s",
          "kioxia-cd8p-r-7680gb-u2")


def _catalog(base: HardwareCatalog) -> HardwareCatalog:
    subscription = next(lic for lic in base.licences if lic.applies_to == "greenplum")
    perpetual = dataclasses.replace(subscription, id="gp-perpetual-tb", model="Greenplum perpetual per TB",
                                    price=PER_TB_PRICE, metric="tb", term="perpetual")
    parts = [p for p in base if not isinstance(p, Drive) or p.id in DRIVES]
    return HardwareCatalog.of([*parts, perpetual], base.rates)


def _space(s: Scenario, catalog: HardwareCatalog) -> SearchSpace:
    parts = resolve(s, catalog)
    return search_space(s, s.workload, catalog, parts, Choices(current(catalog.servers, catalog),  # type: ignore[arg-type]
                        current(catalog.drives, catalog), ("bare-metal",), ("none",), None))


def _scenario() -> Scenario:
    return sample("retail-dw-gen5", platform={"server_id": None, "drive_id": None}, commercial={"optimize_for": "tco"})


def test_the_tco_floor_bounds_the_approximate_tco_at_every_host_count_above(catalog: HardwareCatalog) -> None:
    """More hosts can lower the approximate TCO (the per-TB perpetual licence becomes the cheaper price once the
    cores outgrow it), never below the floor taken at fewer hosts."""
    s, cat = _scenario(), _catalog(catalog)
    assert any(isinstance(p, Licence) and p.term == "perpetual" for p in cat)
    space = _space(s, cat)
    c = next(ev for _, ev in space.chunks()).candidates
    rows = c.take(np.arange(0, len(c), max(len(c) // 40, 1)))
    sc = SearchContext(s.workload, s.targets, space.net, 0.5)  # type: ignore[arg-type]
    at = {h: evaluation.evaluate(sc, rows, fixed=Fixed(h)) for h in range(80, 96)}
    tco = {h: gp_tco.approx_tco(ev, space.servers, s, cat) for h, ev in at.items()}
    floor = {h: gp_tco.tco_floor(ev, space.servers, s, cat) for h, ev in at.items()}
    assert any(np.any(tco[h + 1] < tco[h]) for h in range(80, 95))  # not monotone: a bound must not be the point
    for h in at:
        assert np.all(floor[h] <= tco[h])
        for more in range(h, 96):
            assert np.all(floor[h] <= tco[more] * (1 + 1e-12))


@pytest.mark.parametrize(("ranked_on", "keep"), [("tco", 1), ("tco", design.FULL_CAPEX_RERANK),
                                               ("capex", design.FULL_CAPEX_RERANK)])
def test_the_shortlist_is_that_of_every_feasible_candidate_settled(catalog: HardwareCatalog, ranked_on: str,
                                                                   keep: int) -> None:
    """The shortlist walked on its bounds (as `size` walks it) keeps the designs an exhaustive settle of every
    feasible candidate keeps: per server its lowest approximate TCO (or capex) settled, the `keep` lowest (before:
    ranked and cut on the point TCO, the 16-core SR655 V3 design, 3.9 M USD settled at 89 hosts where its point at
    88 hosts read 9.4 M, was cut)."""
    s, cat = _scenario(), _catalog(catalog)
    space = _space(s, cat)
    tco = design.Ranking.tco(s, cat, space)
    rank = tco if ranked_on == "tco" else design.Ranking("capex", None)
    cost = rank.cost or (lambda ev: ev.capex)
    pool = settled_pool(*design._streamed(space, None, None, rank=rank))
    util = s.assumptions.utilization_pct / 100.0
    sc = SearchContext(s.workload, s.targets, space.net, util, s.platform)  # type: ignore[arg-type]
    walked = shortlist.settled_shortlist(  # as design._best_of_pool calls it
        sc, pool, space.extra_memory_price[pool.candidates.server_idx],
        shortlist.Keep(keep, cost=rank.cost, gain=rank.gain))
    got = [(int(one.part_warnings[0]), float(cost(one)[0]), int(one.candidates.server_idx[0]))
           for _, one, _ in walked]
    ev = search(s, s.workload, cat, resolve(s, cat), Choices(current(cat.servers, cat), current(cat.drives, cat),  # type: ignore[arg-type]
                ("bare-metal",), ("none",), None)).ev
    per_server: dict[int, tuple[int, float]] = {}
    for i in np.flatnonzero(ev.feasible):
        server = int(ev.candidates.server_idx[i])
        one = settle.settle(sc, ev.candidates.take(np.array([i])), float(space.extra_memory_price[server]),
                            Start(int(ev.segment_hosts[i])))
        key = (int(one.part_warnings[0]), float(cost(one)[0]))
        if bool(one.feasible[0]) and (server not in per_server or key < per_server[server]):
            per_server[server] = key
    assert got == sorted((*k, server) for server, k in per_server.items())[:keep]


@pytest.mark.parametrize(("name", "changes"), [
    ("retail-dw-gen5", {}),
    ("retail-dw-gen5", {"targets": {"max_full_scan_s": 300, "confidence": "P90"}}),
    ("retail-dw-gen5", {"workload": {"mirroring": "block", "mirror_block_hosts": 4}}),
    ("gp-oltp", {}),
])
def test_the_least_hosts_bound_every_settled_design_meeting_its_targets(
    catalog: HardwareCatalog, name: str, changes: dict[str, dict[str, object]]
) -> None:
    """What the walk bounds a candidate on before settling it: the hosts of any settled design meeting every
    target are at least `least_hosts`, which is more than the point hosts for some (else it would prune nothing)."""
    s = sample(name, platform={"server_id": None, "drive_id": None}, **changes)
    space = _space(s, catalog)
    ev = search(s, s.workload, catalog, resolve(s, catalog), Choices(current(catalog.servers, catalog),  # type: ignore[arg-type]
                current(catalog.drives, catalog), ("bare-metal",), ("none",), None)).ev
    util, above = s.assumptions.utilization_pct / 100.0, 0
    sc = SearchContext(s.workload, s.targets, space.net, util, s.platform, space.coordinators)  # type: ignore[arg-type]
    rows = np.flatnonzero(ev.feasible)
    for i in rows[:: max(len(rows) // 60, 1)]:
        c1, k = ev.candidates.take(np.array([i])), int(ev.coordinator_idx[i])
        least = settle.least_hosts(sc, c1, Start(int(ev.segment_hosts[i]), k))
        one = settle.settle(sc, c1, float(space.extra_memory_price[c1.server_idx[0]]),
                            Start(int(ev.segment_hosts[i]), k))
        if bool(one.feasible[0]):
            assert int(one.segment_hosts[0]) >= least
        above += least > int(ev.segment_hosts[i])
    assert above > 0 or name == "gp-oltp"  # OLTP point answers meet their TPS at the confidence here

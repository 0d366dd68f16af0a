"""Host searches shared between the candidates a shortlist settles give each candidate what it gets alone."""

from __future__ import annotations

import numpy as np
import pytest

from models.hardware import HardwareCatalog
from models.sizing import gp_settle
from models.sizing.gp_search import search
from models.sizing.parts import current, resolve
from tests.models.sizing.conftest import sample


@pytest.mark.parametrize(("mix", "clients", "tps"), [("select", 3000, 20_000), ("update", 3000, 20_000),
                                                     ("tpcb", 1000, 20_000)])
def test_a_shared_search_settles_every_candidate_as_alone(catalog: HardwareCatalog, mix: str, clients: int,
                                                          tps: float) -> None:
    s = sample("gp-oltp", workload={"mix": mix, "clients": clients, "target_tps": tps},
               platform={"server_id": None, "drive_id": None})
    found = search(s, s.workload, catalog, resolve(s, catalog), current(catalog.servers, catalog),  # type: ignore[arg-type]
                   current(catalog.drives, catalog), ["bare-metal"], ["none"], None)
    ev = found.ev
    extra = np.array([m.price for m in found.memory])[ev.candidates.server_idx]
    # the cheapest, as a shortlist settles them: several servers and drives, many sharing a coordinator
    feasible = np.flatnonzero(ev.feasible)
    rows = feasible[np.argsort(ev.capex[feasible], kind="stable")][:30]
    shared: dict[tuple[object, ...], gp_settle.Searched] = {}
    hits = 0
    for i in rows:
        args = (s.workload, s.targets, ev.candidates.take(np.array([i])), found.net, 0.5, float(extra[i]), s.platform,
                int(ev.segment_hosts[i]), found.coordinators, int(ev.coordinator_idx[i]))
        before = len(shared)
        together = gp_settle.settle(*args, searched=shared)  # type: ignore[arg-type]
        hits += len(shared) == before
        alone = gp_settle.settle(*args)  # type: ignore[arg-type]
        assert together.segment_hosts.tolist() == alone.segment_hosts.tolist()
        assert together.capex.tolist() == alone.capex.tolist()
        assert {k: v.tolist() for k, v in together.metrics.items()} == {k: v.tolist() for k, v in alone.metrics.items()}
        assert {k: v.tolist() for k, v in together.meets.items()} == {k: v.tolist() for k, v in alone.meets.items()}
        assert together.out_of_reach == alone.out_of_reach
    assert hits > 0  # the candidates did share searches

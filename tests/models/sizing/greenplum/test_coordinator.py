"""The OLTP coordinator is sized on its own: its own server, searched by `size` and the optimizer alike."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.greenplum import evaluation
from models.sizing.greenplum.candidates import Choices
from models.sizing.greenplum.context import SearchContext
from models.sizing.greenplum.coordinator import coordinator_options
from models.sizing.greenplum.search import search
from models.sizing.parts import current, resolve
from tests.models.sizing.conftest import sample


def test_options_buy_more_cores_for_more_money_and_fit_their_drive(catalog: HardwareCatalog) -> None:
    opts = coordinator_options(current(catalog.servers, catalog), current(catalog.drives, catalog), 2)
    assert len(opts) >= 2
    price = opts.host_price(2)
    assert np.all(np.diff(price) >= 0) and np.all(np.diff(opts.cores) > 0)
    assert all(s.accepts(d) for s, d in zip(opts.servers, opts.drives, strict=True))
    # no server left out is both cheaper and bigger than one kept
    drives = current(catalog.drives, catalog)
    for s in current(catalog.servers, catalog):
        fitting = [d.price for d in drives if s.accepts(d)]
        if fitting:
            cheaper = opts.cores[price <= s.price + 2 * min(fitting)]
            assert cheaper.size and cheaper.max() >= s.cores_total


def test_a_tpcb_design_gets_its_own_coordinator_in_bom_layout_and_rationale(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp", workload={"mix": "tpcb", "target_tps": 20_000},
                    platform={"server_id": "lenovo-sr655-v3-12x-lff-1x-epyc-9124"}), catalog)
    (coord,) = [h for h in r.design.hosts if h.role == "coordinator host"]
    (line,) = [b for b in r.bom if b.role == "coordinator host" and b.kind == "server"]
    assert line.part_id == coord.server_id
    why = {x.decision: x.text for x in r.rationale}
    assert "Coordinator server" in why and "sized on its own" in why["Coordinator server"]
    # 16-core segment hosts: a coordinator of their size would bind long before 20,000 TPS
    assert coord.server_id != r.design.server_id
    assert all(c.met for c in r.target_checks)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tps=st.floats(2_000, 60_000), mix=st.sampled_from(["tpcb", "select", "update"]),
       clients=st.integers(20, 400))
def test_its_own_coordinator_never_costs_more_than_a_copy_of_the_segment_host(
    catalog: HardwareCatalog, tps: float, mix: str, clients: int
) -> None:
    s = sample("gp-oltp", workload={"mix": mix, "target_tps": tps, "clients": clients},
               platform={"server_id": None, "drive_id": None})
    found = search(s, s.workload, catalog, resolve(s, catalog), Choices(current(catalog.servers, catalog),  # type: ignore[arg-type]
                   current(catalog.drives, catalog), ["bare-metal"], ["none"], 8))
    ev = found.ev
    assert found.coordinators is not None
    copy = evaluation.evaluate(SearchContext(s.workload, s.targets, found.net, 0.5, s.platform),  # type: ignore[arg-type]
                               ev.candidates, np.array([m.price for m in found.memory])[ev.candidates.server_idx])
    own = ev
    both = own.feasible & copy.feasible
    assert np.all(own.feasible >= copy.feasible)
    # every copy is matched by an option with at least its cores for at most its price
    assert np.all(own.capex[both] <= copy.capex[both] + 1e-6)


def test_the_warehouse_coordinator_states_its_rule_and_sources(catalog: HardwareCatalog) -> None:
    """Analytics keeps the segment server for the coordinators (no separate spec in the Greenplum docs; study 002
    builds them from its segment server): the design says so, citing both."""
    r = size(sample("retail-dw-gen5"), catalog)
    coordinator = next(h for h in r.design.hosts if h.role == "coordinator host")
    assert coordinator.server_id == r.design.server_id
    why = next(x for x in r.rationale if x.decision == "Coordinator server")
    assert "fast, dedicated CPU" in why.text and "no core or memory figure" in why.text
    assert any("Greenplum Database 6 Installation Guide" in ref for ref in why.source)
    assert any("002_feb9b45e1f157a35.txt" in ref for ref in why.source)


def test_without_a_throughput_target_the_coordinator_is_the_segment_server(catalog: HardwareCatalog) -> None:
    """Select mix, 200 clients, no target, segment hosts pinned to a 192-core server: the coordinator is that server,
    not the catalog's cheapest (a 16-core server capped the design at 32,373 TPS, a ninth of what its segments
    serve); with a target the cheapest coordinator meeting it may still be smaller."""
    free = sample("gp-oltp", workload={"mix": "select", "clients": 200, "target_tps": None},
                  platform={"server_id": "hpe-dl385-gen11-24x-u3-2x-epyc-9654"})
    r = size(free, catalog)
    seg, coord = (next(h for h in r.design.hosts if h.role == role) for role in ("segment host", "coordinator host"))
    assert coord.server_id == seg.server_id
    small = next(s for s in catalog.servers if s.id == "lenovo-sr655-v3-12x-lff-1x-epyc-9124")
    assert r.estimates["tps"].p50 > 3 * 32_373 and small.cores_total < 32
    target = sample("gp-oltp", workload={"mix": "select", "clients": 200, "target_tps": 20_000},
                    platform={"server_id": "hpe-dl385-gen11-24x-u3-2x-epyc-9654"})
    t = size(target, catalog)
    assert t.check("min_tps") is not None and t.check("min_tps").status == "met"

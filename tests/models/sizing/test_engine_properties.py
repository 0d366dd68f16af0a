"""Engine-level properties over workloads no study names (the reported-met property is in test_one_estimate.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample

# each example sizes twice (~1 s each); no shrinking phase: a failure prints its inputs, which is enough here
SETTINGS = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])


def test_more_data_never_gives_fewer_hosts_on_the_same_hardware(catalog: HardwareCatalog) -> None:
    # the same hardware: server, drive and drive count pinned (free drive counts may trade hosts for drives)
    platform = {"drives_per_host": 4}
    sized = [size(sample("retail-dw-gen5", workload={"data_tb": tb}, platform=platform), catalog)
             for tb in (167.01983443975067, 167.01983443975067 * 4.38415118707851)]
    hosts = [r.design.worker_hosts for r in sized]
    scan = [r.check("max_full_scan_s") for r in sized]
    if all(c is not None and c.met for c in scan):
        assert hosts[1] >= hosts[0]
    else:
        # a scan target out of reach stops where one more host stops helping, whatever the data (a linear scan:
        # past ~200 hosts); a smaller cluster's target within reach may take more hosts to meet it
        assert scan[1] is not None and scan[1].status == "unreachable"
    # capacity alone (no target) never gives fewer hosts for more data
    bare = [size(sample("retail-dw-gen5", workload={"data_tb": tb}, platform=platform, targets={}),
                 catalog).design.worker_hosts for tb in (167.01983443975067, 167.01983443975067 * 4.38415118707851)]
    assert bare[1] >= bare[0]


@SETTINGS
@given(
    name=st.sampled_from(["retail-dw-gen5", "gp-oltp", "pg-consolidation", "sap-iq", "study-000-vsphere"]),
    scale=st.floats(0.2, 20.0),
)
def test_every_bom_sums_to_its_totals(catalog: HardwareCatalog, name: str, scale: float) -> None:
    base = sample(name)
    w = base.workload
    changed = {"data_tb": w.data_tb * scale} if hasattr(w, "data_tb") else {}
    r = size(sample(name, workload=changed) if changed else base, catalog)
    assert round(sum(line.extended_price for line in r.bom), 2) == round(r.totals.list_total, 2)  # capex + software
    assert {line.currency for line in r.bom} == {r.totals.currency}
    worker_lines = [line for line in r.bom if line.kind == "server"]
    assert sum(line.hosts for line in worker_lines) == r.design.total_hosts


@SETTINGS
@given(tb=st.floats(1.0, 50.0), factor=st.floats(1.0, 4.0))
def test_more_data_never_gives_fewer_iq_nodes(catalog: HardwareCatalog, tb: float, factor: float) -> None:
    # the node count is recommended (sample nodes: null) and grows with the data from about 20 TB here
    hosts = [size(sample("sap-iq", workload={"data_tb": t}), catalog).design.worker_hosts for t in (tb, tb * factor)]
    assert hosts[1] >= hosts[0]

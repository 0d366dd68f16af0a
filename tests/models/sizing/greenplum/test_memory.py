"""Memory per query: resource groups, statement_mem, the documented floor, connections."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.greenplum import memory
from models.sizing.settings import groups_for
from tests.models.sizing.conftest import sample


@settings(max_examples=200, deadline=None)
@given(
    ram=st.floats(8, 4096), swap=st.floats(0, 256), acting=st.integers(1, 256),
    c=st.integers(1, 5000), extra=st.integers(1, 5000),
)
def test_more_concurrency_never_raises_statement_mem(ram: float, swap: float, acting: int, c: int, extra: int) -> None:
    assert memory.statement_mem_mb(ram, swap, acting, c + extra) <= memory.statement_mem_mb(ram, swap, acting, c)


@settings(max_examples=100, deadline=None)
@given(ram=st.floats(8, 4096), swap=st.floats(0, 256), acting=st.integers(1, 255), c=st.integers(1, 500))
def test_more_acting_primaries_never_raise_per_query_memory(ram: float, swap: float, acting: int, c: int) -> None:
    assert memory.statement_mem_mb(ram, swap, acting + 1, c) <= memory.statement_mem_mb(ram, swap, acting, c)


def test_documented_resource_group_formula() -> None:
    # rg_perseg_mem = ((RAM x 95/100 + SWAP) x 0.7) / active primaries
    assert memory.rg_perseg_mem_mb(512, 32, 32) == (512 * 0.95 + 32) * 0.7 * 1024 / 32


def test_low_statement_mem_warns_with_the_numbers(catalog: HardwareCatalog) -> None:
    # so little memory that even one query on one primary per host cannot get the default statement_mem
    r = size(sample("retail-dw-gen5", platform={"memory_gib": 8, "swap_gib": 0}, targets={}), catalog)
    g = r.greenplum
    assert g is not None and g.resource_group_concurrency == 1 and g.primaries_per_segment_host == 1
    assert g.statement_mem_mb < 125
    w = {x.code: x.text for x in r.warnings}
    assert "low-statement-mem" in w and f"{g.statement_mem_mb:,} MB" in w["low-statement-mem"]
    ok = size(sample("retail-dw-gen5", targets={}), catalog)
    assert "low-statement-mem" not in {x.code for x in ok.warnings}


def test_thousands_of_reports_queue_in_the_resource_group_rather_than_starve(catalog: HardwareCatalog) -> None:
    """5,000 requested reports keep the cores' primaries (Type 1: 8 on the 48-core host); the resource group admits
    what memory gives the default statement_mem and the warning says how many wait, with the admitted count."""
    r = size(sample("retail-dw-gen5", workload={"concurrent_queries": 5000}, targets={}), catalog)
    g = r.greenplum
    assert g is not None and g.primaries_per_segment_host == 8
    assert 30 <= g.resource_group_concurrency < 5000 and g.statement_mem_mb >= 125
    per_seg = memory.rg_perseg_mem_mb(512, 32, g.max_acting_primary_segments)
    pool = min(per_seg, 0.9 * g.gp_vmem_protect_limit_mb)
    assert g.resource_group_concurrency == int(pool // 125)  # the most that keep 125 MB each
    w = {x.code: x.text for x in r.warnings}
    assert "low-statement-mem" not in w
    queued = 5000 - g.resource_group_concurrency
    assert f"{queued:,} of the 5,000" in w["queued-queries"] and f"CONCURRENCY={g.resource_group_concurrency}" \
        in w["queued-queries"]
    (rg,) = groups_for(r.design.settings, "greenplum-resource-group")
    assert rg.get("concurrency").value == g.resource_group_concurrency  # type: ignore[union-attr]
    why = next(x.text for x in r.rationale if x.decision == "Resource groups")
    assert f"the other {queued:,} wait in its queue" in why


def test_settings_are_values_for_a_deployment_config(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp"), catalog)
    g = r.greenplum
    assert g is not None
    assert g.gp_resource_manager == "group" and g.memory_spill_ratio == 0
    assert g.max_connections_coordinator >= 100 + 3  # 100 clients plus reserved superuser slots
    assert g.max_connections_segment == 5 * g.max_connections_coordinator
    assert g.max_prepared_transactions == g.max_connections_coordinator
    (cluster,) = [x for x in groups_for(r.design.settings, "greenplum") if x.target == "cluster"]
    (coord,) = [x for x in groups_for(r.design.settings, "greenplum") if x.target == "coordinator"]
    assert cluster.get("statement_mem").value == g.statement_mem_mb  # type: ignore[union-attr]
    assert cluster.get("max_connections").value == g.max_connections_segment  # type: ignore[union-attr]
    assert coord.get("max_connections").value == g.max_connections_coordinator  # type: ignore[union-attr]
    (rg,) = groups_for(r.design.settings, "greenplum-resource-group")
    assert rg.target == "default_group" and rg.get("concurrency").value == 100  # type: ignore[union-attr]
    (init,) = groups_for(r.design.settings, "greenplum-init")
    assert init.get("mirror_mode").value == "group"  # type: ignore[union-attr]


def test_primaries_give_way_to_memory_before_statement_mem_drops(catalog: HardwareCatalog) -> None:
    # 30 queries (the most the design always runs at once) on 128 GiB: Type 2 asks for 16, memory allows fewer
    r = size(sample("retail-dw-gen5", workload={"concurrent_queries": 30}, platform={"memory_gib": 128},
                    targets={}), catalog)
    g = r.greenplum
    assert g.primaries_per_segment_host < 16 and g.resource_group_concurrency == 30
    assert g.statement_mem_mb >= 125
    assert not {"low-statement-mem", "queued-queries"} & {x.code for x in r.warnings}
    assert any("by memory" in x.text for x in r.rationale if x.decision == "Primary segments per host")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(
    name=st.sampled_from(["retail-dw-gen5", "retail-dw-dual-socket-sas", "study-000-vsphere", "gp-oltp"]),
    deployment=st.sampled_from(["bare-metal", "vsphere"]),
    server=st.sampled_from([None, "dell-r670-10x-u3-2x-xeon-6740e", "dell-r7625-24x-u3-2x-epyc-9654",
                            "hpe-dl380e-gen8-2x-e5-2470", "lenovo-sr655-v3-12x-lff-1x-epyc-9124"]),
    queries=st.integers(1, 300), mirroring=st.sampled_from(["group", "spread", "block"]),
)
@example("study-000-vsphere", "vsphere", "hpe-dl380e-gen8-2x-e5-2470", 1, "group")  # 46 GiB VMs: was 8 per VM
@example("retail-dw-gen5", "vsphere", "dell-r670-10x-u3-2x-xeon-6740e", 12, "group")  # was 20 per VM, 3,878 MB
@example("gp-oltp", "bare-metal", "hpe-dl380e-gen8-2x-e5-2470", 100, "group")
def test_a_design_refarch_chose_keeps_the_vmem_floor_unless_one_primary_cannot(
    catalog: HardwareCatalog, name: str, deployment: str, server: str | None, queries: int, mirroring: str
) -> None:
    """The primaries' memory bound holds the same gp_vmem_protect_limit floor the low-vmem warning checks: a design
    refarch chose itself raises it only where even one primary per segment host (VM) cannot keep the floor."""
    work: dict[str, object] = {"mirroring": mirroring, "mirror_block_hosts": 4 if mirroring == "block" else None}
    work["clients" if name == "gp-oltp" else "concurrent_queries"] = queries
    plat = {"deployment": deployment, "server_id": server, "drive_id": None, "nic_id": None, "drives_per_host": None,
            "memory_gib": None}
    r = size(sample(name, workload=work, platform=plat, targets={}), catalog)
    g = r.greenplum
    assert g is not None
    floor = figure("sizing_rules", "gp_vmem_protect_limit_floor_mb")
    low = "low-vmem-per-segment" in {w.code for w in r.warnings}
    assert low == (g.gp_vmem_protect_limit_mb < floor)
    if low:
        assert g.primaries_per_segment_host == 1


@pytest.mark.parametrize("mix", ["tpcb", "select", "update", "insert"])
@pytest.mark.parametrize("clients", [100, 3000])
def test_oltp_statements_are_not_warned_for_spilling(catalog: HardwareCatalog, mix: str, clients: int) -> None:
    """Short transactions need little memory (the primaries' statement_mem bound is analytics-only): an OLTP
    design with many clients per resource group gets no low-statement-mem warning, whatever statement_mem is."""
    r = size(sample("gp-oltp", workload={"mix": mix, "clients": clients}), catalog)
    g = r.greenplum
    # clients beyond max_connections go through PgBouncer: the group runs what the pool's server connections carry
    assert g is not None and g.resource_group_concurrency == min(clients, g.max_connections_coordinator - 3)
    assert "low-statement-mem" not in {w.code for w in r.warnings}

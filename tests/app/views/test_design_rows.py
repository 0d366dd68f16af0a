"""The design's facts name what the design has, once for every renderer: a bare-metal SAP IQ multiplex on a SAN
has no data drives, no raw capacity on its hosts and no VMs, and says where its dbspaces are; a consolidation
states the range of its VMs' shared_buffers."""

from __future__ import annotations

from app.formatting import gib, number
from app.views.design import DATABASE_COLUMNS, FactRow, database_rows, design_rows, rows_of
from models.hardware import HardwareCatalog
from models.references import reference_parts
from models.sizing.engine import size
from models.sizing.result import Design
from tests.models.sizing.conftest import sample


def _texts(rows: list[FactRow]) -> dict[str, str]:
    return {f.label: f.text for f in rows}


def test_bare_metal_sap_iq_on_a_san(seed: HardwareCatalog) -> None:
    scenario = sample("sap-iq", platform={"deployment": "bare-metal", "server_id": None, "drive_id": None,
                                          "nic_id": None})
    r = size(scenario, seed)
    d = r.design
    assert (d.deployment, d.data_drives_per_host, d.raw_capacity_tb) == ("bare-metal", 0, 0.0)
    facts = _texts(design_rows(r))
    assert facts["Data drives per host"] == "none: dbspaces on the external SAN"  # was "0 (external SAN)"
    assert "Raw capacity (worker hosts)" not in facts and "VMs per host" not in facts  # was "Raw capacity 0 TB"
    assert facts["Hosts"] == f"{d.segment_hosts} IQ nodes"
    assert facts["DQP mode"] in ("Network transfer (private interconnect)", "Storage transfer (shared temp store)")


def _vm_shared_buffers_gib(d: Design) -> list[float]:
    return [float(s.value) / 1024 for g in d.settings if g.product == "postgresql"
            for s in g.settings if s.name == "shared_buffers"]


def test_a_consolidation_states_every_vms_shared_buffers(seed: HardwareCatalog) -> None:
    """Each database's VM is sized apart: the fact gives the range of their shared_buffers, not the first VM's
    value as if every VM had it (it showed 0.8 GiB for VMs of 0.8 to 9 GiB), and the ratio says whose it is."""
    r = size(sample("pg-consolidation"), seed)
    values = _vm_shared_buffers_gib(r.design)
    assert len(set(values)) > 1
    facts = _texts(design_rows(r))
    assert facts["shared_buffers"] == f"per database VM: {gib(min(values)).removesuffix(' GiB')} to {gib(max(values))}"
    assert "shared_buffers ratio, first VM" in facts and "shared_buffers ratio" not in facts


def test_alike_databases_state_their_one_shared_buffers(seed: HardwareCatalog) -> None:
    db = {"size_gb": 20, "peak_clients": 30, "working_set_gb": 4.0}
    r = size(sample("pg-consolidation", workload={"databases": [dict(db, name=f"db{i}") for i in range(4)]}), seed)
    d = r.design
    values = _vm_shared_buffers_gib(d)
    assert len(values) == 4 and len(set(values)) == 1 and d.shared_buffers_gib is not None
    facts = _texts(design_rows(r))
    assert facts["shared_buffers"] == gib(d.shared_buffers_gib)
    assert "shared_buffers ratio" in facts and "shared_buffers ratio, first VM" not in facts


def test_values_are_typed_and_written_by_their_unit(seed: HardwareCatalog) -> None:
    """A figure is a number in its unit, written by one rule (a share in percent, memory in GiB, capacity in TB),
    and the roles each get one row however many hosts the design lays out one by one."""
    r = size(sample("pg-consolidation"), seed)
    rows = {f.key: f for f in design_rows(r)}
    ratio = rows["shared_buffers_ratio"]
    assert isinstance(ratio.value, float) and ratio.unit == "%"
    assert ratio.text == f"{ratio.value * 100:.0f} % of VM memory"
    assert rows["memory_per_host"].value == r.design.memory_gib_per_host and rows["memory_per_host"].unit == "GiB"
    assert rows["usable_capacity"].text.endswith(" TB before compression")
    assert len(r.design.hosts) > 1 and [k for k in rows if k.startswith("ports.")] == ["ports.database host"]
    assert rows_of(list(rows.values()), "network")[0].key == "nic"


def test_a_setting_fact_carries_the_references_of_the_setting(seed: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5"), seed)
    rows = {f.key: f for f in design_rows(r)}
    vmem = next(s for g in r.design.settings for s in g.settings if s.name == "gp_vmem_protect_limit")
    assert rows["gp_vmem_protect_limit"].source == reference_parts(vmem.source) and vmem.source
    assert rows["hosts"].source == ()  # a count the engine arrived at, explained in the rationale


def test_each_database_gets_a_row_with_what_its_vm_carries_for_it(seed: HardwareCatalog) -> None:
    dbs = [{"name": "ledger", "size_gb": 40, "peak_clients": 40, "working_set_gb": 4.0, "peak_tps": 500.0},
           {"name": "archive", "size_gb": 900, "peak_clients": 40, "working_set_gb": 600.0, "peak_tps": 3000.0}]
    r = size(sample("pg-consolidation", workload={"databases": dbs, "vm_memory_gib": 32},
                    platform={"datastore_iops": 2000.0}), seed)
    rows = {row.database: row for row in database_rows(r)}
    assert set(rows) == {"ledger", "archive"}
    disks = {d.database: (v, d) for v in r.vms for d in v.disks}
    for name, row in rows.items():
        vm, disk = disks[name]
        assert (row.vm, row.host, row.peak_tps) == (vm.name, vm.host, disk.peak_tps)
        assert (row.tps_p10, row.tps_p50, row.tps_p90, row.binding) == (
            disk.tps_p10, disk.tps_p50, disk.tps_p90, disk.tps_binding)
        assert len(row.cells()) == len(DATABASE_COLUMNS) and row.cells()[5] == disk.tps_binding
    assert rows["archive"].binding == "storage IOPS" and rows["archive"].short  # 600 GB far beyond 32 GiB
    assert not rows["ledger"].short
    assert database_rows(size(sample("retail-dw-gen5"), seed)) == []  # no databases table for Greenplum


def test_runaway_iq_streams_show_the_nodes_they_need_and_the_best_at_the_cap(seed: HardwareCatalog) -> None:
    """1,200 streams on 8 TB, parts free: the streams' share needs more nodes than the design stops at, and the rows
    every renderer prints give those nodes and the best achievable there (its unit, what binds) from the result's
    streams_bound; 5 streams, where the share is kept, have neither row."""
    r = size(sample("sap-iq", workload={"data_tb": 8, "query_streams": 1200},
                    platform={"server_id": None, "drive_id": None, "nic_id": None}), seed)
    sb = r.iq.streams_bound if r.iq else None
    assert sb is not None and sb.nodes_needed > sb.hosts_for_achievable == r.design.segment_hosts
    rows = {f.key: f for f in rows_of(design_rows(r), "hosts")}
    needed, best = rows["streams_bound.nodes_needed"], rows["streams_bound.achievable"]
    assert needed.value == sb.nodes_needed and f"stops at {sb.hosts_for_achievable}" in needed.text
    assert best.value == sb.achievable and isinstance(best.value, float)
    assert best.text.startswith(number(sb.achievable)) and sb.unit in best.text and sb.binding in best.text
    kept = size(sample("sap-iq", workload={"data_tb": 8, "query_streams": 5}), seed)
    assert not any(f.key.startswith("streams_bound") for f in design_rows(kept))

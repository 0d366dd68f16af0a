"""The engine records what it used for each optional field left empty (`SizingResult.values_used`): typed values
with their references and what they follow from, `NotUsed` for a field the design has no use for, and nothing for a
field the user set."""

from __future__ import annotations

from models.calibration_data import point
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.result import NotUsed
from tests.models.sizing.conftest import sample


def test_a_warehouse_records_its_segment_tier_and_the_fields_it_does_not_use(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", workload={"concurrent_queries": 25, "segment_tier": None, "mirror_block_hosts": None},
               platform={"memory_gib": None, "hypervisor_reserve_gib": None, "deployment": "bare-metal"})
    r = size(s, catalog)
    used = {u.field: u for u in r.values_used}
    tier = used["workload.segment_tier"]
    assert isinstance(tier.value, str) and tier.value.startswith("Type 2")
    assert tier.basis == "from 25 concurrent queries"
    assert any("002_feb9b45e1f157a35.txt" in ref for ref in tier.source)  # the study the tiers come from
    memory = used["platform.memory_gib"]
    assert (memory.value, memory.unit) == (r.design.memory_gib_per_host, "GiB")
    assert used["platform.hypervisor_reserve_gib"].value == NotUsed("not used on bare metal")
    mirror = used["workload.mirror_block_hosts"]
    assert isinstance(mirror.value, NotUsed) and not mirror.used and "group" in mirror.value.text
    set_by_user = sample("retail-dw-gen5", workload={"segment_tier": "type-1"}, platform={"memory_gib": 512})
    fields = {u.field for u in size(set_by_user, catalog).values_used}
    assert "workload.segment_tier" not in fields and "platform.memory_gib" not in fields


def test_a_consolidation_records_each_estimated_peak_tps_and_the_reserve_it_kept(catalog: HardwareCatalog) -> None:
    r = size(sample("pg-consolidation"), catalog)
    used = {u.field: u for u in r.values_used}
    sized = {d.database: d.peak_tps for vm in r.vms for d in vm.disks}
    s = sample("pg-consolidation")
    for i, db in enumerate(s.workload.databases):  # type: ignore[union-attr]
        if db.peak_tps is None:
            u = used[f"workload.databases[{i}].peak_tps"]
            assert (u.value, u.unit, u.basis) == (sized[db.name], "TPS", f"estimated from {db.peak_clients} clients")
            assert len(u.source) == 2  # the study's per-client rate and the TPC-C mix share it is divided by
    reserve = used["platform.hypervisor_reserve_gib"]
    assert reserve.unit == "GiB"
    assert reserve.source == (point("sizing_rules", "hypervisor_reserve_fraction").source.cite(),)
    host = used["workload.host_memory_available_gib"]
    assert host.value == r.design.memory_gib_per_host - reserve.value  # type: ignore[operator]


def test_sap_iq_on_a_san_records_the_study_ratio_and_a_san_it_does_not_price(catalog: HardwareCatalog) -> None:
    s = sample("sap-iq", workload={"shared_storage": "san", "san_price_per_tb": None, "temp_to_main_ratio": None,
                                   "dqp_mode": None})
    r = size(s, catalog)
    used = {u.field: u for u in r.values_used}
    assert used["workload.san_price_per_tb"].value == NotUsed("not priced: the SAN is on quote, out of the capex")
    assert used["workload.vsan_architecture"].value == NotUsed("not used: the dbspaces are on an external SAN")
    on_vsan = {u.field: u for u in size(sample("sap-iq"), catalog).values_used}
    assert on_vsan["workload.vsan_architecture"].value == "osa"  # study 003's 900 GB SAS drives: disk groups
    ratio = used["workload.temp_to_main_ratio"]
    assert ratio.value == point("sapiq_dqp_003", "temp_to_main_dbspace_ratio").value and ratio.source
    assert used["workload.dqp_mode"].value == r.design.dqp_mode
    chosen = size(sample("sap-iq", workload={"dqp_mode": "storage-transfer"}), catalog)
    assert all(u.field != "workload.dqp_mode" for u in chosen.values_used)


def test_an_empty_vendor_list_restricts_nothing(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"vendors": None}), catalog)
    assert {u.field: u for u in r.values_used}["platform.vendors"].value == NotUsed("any vendor")
    vendor = catalog.server(r.design.server_id).vendor
    chosen = size(sample("retail-dw-gen5", platform={"vendors": [vendor]}), catalog)
    assert all(u.field != "platform.vendors" for u in chosen.values_used)

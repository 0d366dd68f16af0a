"""`size` reproduces the studies' own reference designs."""

from __future__ import annotations

import pytest

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample

GEN5 = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"


@pytest.mark.parametrize(("queries", "primaries"), [(40, 8), (31, 8), (30, 16), (10, 16), (7, 16), (5, 32), (1, 32)])
def test_study_002_segments_per_host_on_the_gen5_platform(
    catalog: HardwareCatalog, queries: int, primaries: int
) -> None:
    r = size(sample("retail-dw-gen5", workload={"concurrent_queries": queries}, targets={}), catalog)
    assert r.design.server_id == GEN5
    assert r.design.primary_segments_per_host == primaries
    assert r.design.mirror_segments_per_host == primaries
    segments = next(x for x in r.rationale if x.decision == "Primary segments per host")
    assert any("002_feb9b45e1f157a35.txt" in ref for ref in segments.source)


def test_study_000_runs_one_instance_per_disk_on_its_small_hosts(catalog: HardwareCatalog) -> None:
    """DL380e Gen8: 2 x 8 cores, 16 SATA disks in 2 VMs. Type 3 (2 queries) takes 32 x 16 / 48 = 10 on its cores (5
    per VM); 8 hard disks per VM carry one primary each, and 5 would load them unevenly: 4 per VM, 4 primaries and
    4 mirrors on 8 disks, the study's own 8 primaries + 8 mirrors per host on 16 disks. With swap enough for gp_vmem
    memory does not bind."""
    r = size(sample("study-000-vsphere", workload={"concurrent_queries": 2}, platform={"swap_gib": 96}), catalog)
    assert r.design.primary_segments_per_host == figure("gp_vsphere_000", "primary_segments_per_host") == 8
    assert r.design.mirror_segments_per_host == figure("gp_vsphere_000", "mirror_segments_per_host")
    text = next(x.text for x in r.rationale if x.decision == "Primary segments per host")
    assert "min(32 x 16 / 48, 16) = 10" in text and "one instance per volume" in text and "hard disks" in text
    # at the study's 96 GiB (46 GiB per VM) gp_vmem_protect_limit's floor with a host down still allows as many
    r = size(sample("study-000-vsphere", workload={"concurrent_queries": 2}), catalog)
    assert r.design.primary_segments_per_host <= 8
    assert r.design.gp_vmem_protect_limit_mb >= figure("sizing_rules", "gp_vmem_protect_limit_floor_mb")


def test_study_000_two_vms_per_host_of_8_vcpu_46_gb_8_drives(catalog: HardwareCatalog) -> None:
    r = size(sample("study-000-vsphere"), catalog)
    d = r.design
    assert d.vms_per_host == 2
    assert d.vm is not None
    assert (d.vm.vcpus, d.vm.memory_gib, d.vm.data_drives) == (8, 46, 8)
    assert d.primary_segments_per_host % d.vms_per_host == 0
    assert d.hosts[0].vms[0].primary_segments == d.primary_segments_per_host // 2


def test_bare_metal_multi_socket_gets_a_numa_warning(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-dual-socket-sas"), catalog)
    assert "numa-multi-socket" in {w.code for w in r.warnings}
    single = size(sample("retail-dw-gen5"), catalog)
    assert "numa-multi-socket" not in {w.code for w in single.warnings}


def test_study_001_shared_buffers_choice(catalog: HardwareCatalog) -> None:
    dedicated = size(sample("pg-consolidation"), catalog)
    study_max = figure("pg_tuning_docs", "sb_study_max_vm_gib")
    small = [vm for vm in dedicated.vms if vm.memory_gib <= study_max]
    assert small  # the sample's small dedicated VMs get study 001's 75 %, larger ones the documentation's 25 %
    for vm in dedicated.vms:
        sb = next(g for g in dedicated.design.settings if g.target == vm.name).get("shared_buffers")
        assert sb is not None
        assert sb.value / (vm.memory_gib * 1024) == pytest.approx(0.75 if vm in small else 0.25, abs=1e-3)
    shared = size(sample("pg-consolidation", workload={"placement": "shared-vm"}), catalog)
    assert shared.design.shared_buffers_ratio == pytest.approx(0.25)
    conventional = size(sample("pg-consolidation", workload={"shared_buffers_policy": "conventional"}), catalog)
    assert conventional.design.shared_buffers_ratio == pytest.approx(0.25)
    for r in (dedicated, shared, conventional):
        assert not 0.45 <= r.design.shared_buffers_ratio <= 0.55
        assert 0 <= r.design.overcommit_rate < 1


def test_overcommit_warning_past_the_safe_rate(catalog: HardwareCatalog) -> None:
    # 4 VMs whose working sets barely fit: squeeze available memory so configured memory is overcommitted
    r = size(sample("pg-consolidation", workload={"host_memory_available_gib": 24, "vm_memory_gib": 16}), catalog)
    assert r.design.overcommit_rate > 0
    assert r.design.overcommit_rate <= r.design.safe_overcommit_rate + 1e-9
    assert "Equation 1" in " ".join(x.source_text for x in r.rationale)


@pytest.mark.parametrize(
    ("streams", "mode"), [(1, "storage-transfer"), (6, "network-transfer"), (20, "network-transfer")]
)
def test_study_003_dqp_choice(catalog: HardwareCatalog, streams: int, mode: str) -> None:
    r = size(sample("sap-iq", workload={"query_streams": streams}), catalog)
    assert r.design.dqp_mode == mode
    assert {"power_metric", "throughput_metric"} <= set(r.estimates)


def test_coordinators_are_two_hosts_with_two_drives_in_raid1(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5"), catalog)
    assert r.design.coordinator_hosts == 2
    coord = [b for b in r.bom if b.role == "coordinator host" and b.kind == "drive"]
    assert coord and coord[0].qty_per_host == 2 and coord[0].hosts == 2


def test_load_target_adds_etl_hosts(catalog: HardwareCatalog) -> None:
    without = size(sample("retail-dw-gen5"), catalog)
    assert without.design.etl_hosts == 0
    with_target = size(sample("retail-dw-gen5", targets={"min_load_tb_per_hour": 20}), catalog)
    assert with_target.design.etl_hosts >= 1
    assert with_target.estimates["load_tb_per_hour"].p50 >= 20
    assert any(b.role == "ETL host" for b in with_target.bom)


def test_network_at_least_two_ports_and_warning_below_25g(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"nic_id": None}), catalog)
    assert r.design.nics_per_host * catalog.nic(r.design.nic_id).ports >= 2
    assert catalog.nic(r.design.nic_id).speed_gbps >= 100
    slow = size(sample("study-000-vsphere"), catalog)
    assert "network-below-minimum" in {w.code for w in slow.warnings}


def test_raid5_gives_alignment_advice_and_recommended_raid(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"raid": "raid5"}), catalog)
    assert any(x.decision == "RAID-5 alignment" for x in r.rationale)
    no_mirrors = size(sample("retail-dw-gen5", workload={"mirrors": False}, platform={"raid": None}), catalog)
    assert no_mirrors.design.raid == "raid5"
    assert no_mirrors.design.mirror_segments_per_host == 0

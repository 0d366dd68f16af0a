"""SAP IQ on vSAN laid out by the one vSAN rule PostgreSQL takes (issue 28): OSA disk groups of SAS/SATA capacity
drives behind a flash cache, or an ESA storage pool of NVMe devices (never NVMe capacity behind a cache device), on
hosts that meet ESA's minimums; ESA's per-host device minimum enforced for both workloads, the field named."""

from __future__ import annotations

import pytest

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.parts import SizingInputError
from models.sizing.result import SizingResult
from models.sizing.shared_storage import esa_host_short, esa_min_devices, esa_policy_factor
from tests.models.sizing.conftest import sample

VS = "vsan_storage"
NVME = "micron-7450-pro-3840gb-u3"
FREE = {"deployment": "vsphere", "server_id": None, "drive_id": None, "nic_id": None}


def _iq(catalog: HardwareCatalog, platform: dict[str, object] | None = None, **workload: object) -> SizingResult:
    return size(sample("sap-iq", platform={**FREE, **(platform or {})}, workload=workload), catalog)


def _node_drives(r: SizingResult) -> list[str]:
    return [b.part_id for b in r.bom if b.kind == "drive" and b.role == "IQ node"]


def test_a_named_nvme_drive_is_one_esa_tier_never_behind_a_cache(catalog: HardwareCatalog) -> None:
    """26 TB at 2.5:1, 10 streams on RAID-5, the NVMe drive named: ESA, one drive line (no cache device), at least
    ESA's devices per host, raw for ESA's RAID-5 scheme on this many hosts, hosts and card at ESA's minimums."""
    r = _iq(catalog, {"drive_id": NVME}, data_tb=26, compression_ratio=2.5, query_streams=10,
            vsan_policy="raid5-ftt1")
    d = r.design
    assert d.vsan_architecture == "esa" and _node_drives(r) == [NVME]
    assert d.data_drives_per_host >= esa_min_devices()
    factor = esa_policy_factor("raid5-ftt1", d.segment_hosts)
    assert d.raw_capacity_tb * (1 - figure(VS, "slack_fraction")) / factor >= d.data_needed_tb - 1e-6
    server = catalog.server(d.server_id)
    assert not esa_host_short(server.cores_total, d.memory_gib_per_host)
    assert d.network_gbps_per_host / max(d.nics_per_host, 1) >= figure(VS, "vsan_esa_min_gbps")
    words = next(x for x in r.rationale if x.decision == "Shared storage (vSAN)")
    assert "vSAN ESA" in words.text and "no cache tier" in words.text and "refarch assumption" in words.text


def test_osa_asked_keeps_nvme_out_of_the_capacity_tier(catalog: HardwareCatalog) -> None:
    """OSA asked for, parts free: every capacity drive is SAS/SATA behind its own flash cache line."""
    r = _iq(catalog, data_tb=3, query_streams=2, vsan_architecture="osa")
    d = r.design
    assert d.vsan_architecture == "osa"
    capacity = catalog.drive(d.drive_id or "")
    assert not capacity.interface.startswith("NVMe")
    assert len(_node_drives(r)) == 2  # the capacity drives and the cache devices in front of them


@pytest.mark.parametrize("kind", ["sap-iq", "pg-consolidation"])
def test_fewer_devices_than_esa_lays_out_is_refused_naming_the_field(catalog: HardwareCatalog, kind: str) -> None:
    """One NVMe device per host forced where ESA is the only architecture: refused, the field and the limit named,
    for SAP IQ and PostgreSQL alike (one rule)."""
    workload: dict[str, object] = {"vsan_architecture": "esa"}
    if kind == "pg-consolidation":
        workload |= {"shared_storage": "vsan"}
    scenario = sample(kind, platform={**FREE, "drives_per_host": esa_min_devices() - 1}, workload=workload)
    with pytest.raises(SizingInputError) as err:
        size(scenario, catalog)
    problem = err.value.problems[0]
    assert problem.path == "platform.drives_per_host" and f"at least {esa_min_devices()}" in problem.message


def test_esa_on_a_server_below_its_minimums_names_the_architecture(catalog: HardwareCatalog) -> None:
    """ESA asked for on study 003's 16-core R720xd: refused naming workload.vsan_architecture and the minimums."""
    with pytest.raises(SizingInputError) as err:
        _iq(catalog, {"server_id": "dell-r720xd-2x-e5-2690"}, vsan_architecture="esa")
    problem = err.value.problems[0]
    assert problem.path == "workload.vsan_architecture"
    assert f"{figure(VS, 'vsan_esa_min_host_cores'):g} cores" in problem.message


def test_esa_raid5_takes_three_nodes_where_osa_needs_four(catalog: HardwareCatalog) -> None:
    """Three nodes stated on RAID-5: ESA's 2+1 holds them; OSA's erasure coding is refused below its four."""
    r = _iq(catalog, {"drive_id": NVME}, nodes=3, vsan_policy="raid5-ftt1", query_streams=3)
    assert r.design.segment_hosts == 3 and r.design.vsan_architecture == "esa"
    with pytest.raises(SizingInputError, match=r"workload\.nodes"):
        _iq(catalog, nodes=3, vsan_policy="raid5-ftt1", vsan_architecture="osa")

"""Hand-built results for tests that must not depend on the sizing engine's numbers."""

from __future__ import annotations

from models.sizing.result import BomLine, Design, HostLayout, Rationale, SizingResult, Totals, VmLayout, Warning
from models.uncertainty import Estimate


def vsphere_host(vms_per_node: int = 1, sockets: int = 2, nodes_per_socket: int = 2) -> HostLayout:
    vms = tuple(
        VmLayout(numa_node=n, vcpus=8, memory_gib=64, data_drives=2, primary_segments=2, mirror_segments=2)
        for n in range(sockets * nodes_per_socket)
        for _ in range(vms_per_node)
    )
    return HostLayout(
        role="segment host", count=4, server_id="srv", sockets=sockets, numa_nodes_per_socket=nodes_per_socket,
        cores_per_numa_node=12, memory_gib=512, data_drives=8, drive_id="drv", raid="raid5", vms=vms,
        nic_ports=2, nic_speed_gbps=25,
    )


def bare_metal_host() -> HostLayout:
    vm = VmLayout(numa_node=None, vcpus=48, memory_gib=512, data_drives=12, primary_segments=8, mirror_segments=8)
    return HostLayout(
        role="segment host", count=6, server_id="srv", sockets=2, numa_nodes_per_socket=1, cores_per_numa_node=24,
        memory_gib=512, data_drives=12, drive_id="drv", raid="none", vms=(vm,), nic_ports=2, nic_speed_gbps=100,
    )


def fake_result(hosts: int = 4, capex: float = 100_000.0, scan_s: float = 600.0, name: str = "S") -> SizingResult:
    host = vsphere_host()
    design = Design(
        kind="greenplum-analytics", deployment="vsphere", server_id="srv", drive_id="drv", nic_id="nic",
        segment_hosts=hosts, data_drives_per_host=8, raid="raid5", memory_gib_per_host=512, vms_per_host=4,
        vm=host.vms[0], primary_segments_per_host=8, mirror_segments_per_host=8, raw_capacity_tb=100,
        usable_capacity_tb=40, hosts=(host,),
    )
    bom = (
        BomLine("segment host", "srv", "Server", 1, hosts, capex * 0.8 / hosts, "USD", "server"),
        BomLine("segment host", "drv", "Drive", 8, hosts, capex * 0.2 / hosts / 8, "USD", "drive"),
    )
    return SizingResult(
        scenario_name=name,
        design=design,
        estimates={"full_scan_s": Estimate(scan_s * 0.9, scan_s, scan_s * 1.1, "s"),
                   "load_tb_per_hour": Estimate(5, 6, 7, "TB/h")},
        binding_resource="drives",
        bom=bom,
        totals=Totals(capex=capex, power_w=4000.0 * hosts, rack_u=2 * hosts, currency="USD", kwh_per_year=1e4,
                      energy_cost_3y=4500.0),
        rationale=(Rationale("Segments", "because", "study 002"),),
        warnings=(Warning("no-rack", "watch out", "warning", None),),
        main_metric="full_scan_s",
    )

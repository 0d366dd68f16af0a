"""SAP IQ multiplex: nodes, drives, DQP mode and cache split, with the study-003 estimates."""

from __future__ import annotations

import math

import numpy as np

from models.calibration_data import figure
from models.hardware import Drive, HardwareCatalog, Server
from models.perf import cost_power, sap_iq
from models.scenario import SapIqMultiplex, Scenario
from models.sizing import bom, sap_iq_rules
from models.sizing.candidates import NetworkChoice
from models.sizing.design_settings import sap_iq_settings
from models.sizing.parts import (
    ResolvedParts,
    SizingInputError,
    candidate_drives,
    candidate_servers,
    choose_nic,
    nics_per_host,
)
from models.sizing.result import Design, HostLayout, Rationale, SizingResult, VmLayout, Warning
from models.sizing.rules import DOCS, data_needed_tb, hypervisor_reserve_gib, vm_memory_gib

# vSAN keeps a second copy of every object with the default failures-to-tolerate of 1, as in study 003's layout
VSAN_COPIES = 2


def size_sap_iq(
    scenario: Scenario, workload: SapIqMultiplex, catalog: HardwareCatalog, parts: ResolvedParts
) -> SizingResult:
    _check_memory(scenario)
    nic, nic_why = choose_nic(catalog, parts)
    net = NetworkChoice(nic, nics_per_host(nic, scenario.platform.nics_per_host))
    options: list[tuple[float, Server, Drive, int, int]] = []
    for server in candidate_servers(catalog, parts):
        drives = [parts.drive] if parts.drive else candidate_drives(catalog, parts, server)
        for drive in drives:
            if not server.accepts(drive):
                continue
            layout = _nodes_and_drives(scenario, workload, server, drive)
            if layout is None:
                continue
            nodes, per_node = layout
            capex = nodes * (server.price + per_node * drive.price + net.price_per_host)
            options.append((capex, server, drive, nodes, per_node))
    if not options:
        raise SizingInputError(["platform: no server and drive in the catalog can hold the data within their bays"])
    _, server, drive, nodes, per_node = min(options, key=lambda o: (o[0], o[3]))
    return _explain(scenario, workload, server, drive, nodes, per_node, net, nic_why)


def _reserve(scenario: Scenario, host_memory_gib: float) -> float:
    given = scenario.platform.hypervisor_reserve_gib
    return hypervisor_reserve_gib(host_memory_gib) if given is None else given


def _check_memory(scenario: Scenario) -> None:
    """platform.memory_gib must leave the IQ node memory after the hypervisor reserve (vSphere)."""
    mem = scenario.platform.memory_gib
    if mem is None or scenario.platform.deployment != "vsphere":
        return
    reserve = _reserve(scenario, mem)
    if mem <= reserve:
        raise SizingInputError([
            f"platform.memory_gib: {mem} GiB leaves no memory for the SAP IQ VM after the {reserve:g} GiB hypervisor"
            f" reserve; give more than {reserve:g} GiB (got {mem})"
        ])


def _need_tb(w: SapIqMultiplex) -> float:
    return data_needed_tb(w.data_tb, w.growth_pct_per_year, w.horizon_years, w.compression_ratio)


def _raw_per_tb(vsan: bool) -> float:
    # user data x copies, kept under the same 70 % fill limit Greenplum's capacity planning uses
    return (VSAN_COPIES if vsan else 1) / figure(DOCS, "gp_capacity_max_fill")


def _nodes_and_drives(
    scenario: Scenario, w: SapIqMultiplex, server: Server, drive: Drive
) -> tuple[int, int] | None:
    vsan = scenario.platform.deployment == "vsphere"
    raw_needed = _need_tb(w) * _raw_per_tb(vsan)
    if w.nodes is not None:
        nodes = w.nodes
    else:
        nodes = sap_iq_rules.recommend_nodes(
            _need_tb(w), w.query_streams, cores_per_node=server.cores_total,
            raw_capacity_tb_per_node=server.data_bays * drive.capacity_tb, vsan=vsan,
        ).nodes
    per_node = scenario.platform.drives_per_host or math.ceil(raw_needed / nodes / drive.capacity_tb)
    per_node = max(per_node, 1)
    if per_node > server.data_bays:
        if w.nodes is not None or scenario.platform.drives_per_host is not None:
            return None
        nodes = math.ceil(raw_needed / (server.data_bays * drive.capacity_tb))
        per_node = math.ceil(raw_needed / nodes / drive.capacity_tb)
    return nodes, per_node


def _explain(
    scenario: Scenario,
    w: SapIqMultiplex,
    server: Server,
    drive: Drive,
    nodes: int,
    per_node: int,
    net: NetworkChoice,
    nic_why: Rationale | None,
) -> SizingResult:
    vsan = scenario.platform.deployment == "vsphere"
    memory = float(scenario.platform.memory_gib or server.memory_gib)
    node_memory = vm_memory_gib(memory, 1, _reserve(scenario, memory)) if vsan else memory
    choice = sap_iq_rules.recommend_dqp_mode(w.query_streams)
    caches = sap_iq_rules.cache_split(node_memory)
    pred = sap_iq.predict_iq(choice.mode, nodes, w.query_streams, server.cores_total)
    need = _need_tb(w)
    rationale = [
        Rationale("DQP mode", choice.reason, choice.source),
        Rationale(
            "Multiplex nodes",
            f"{nodes} node(s) with {per_node} x {drive.capacity_tb:g} TB: {need:,.1f} TB of compressed data at the"
            f" horizon x {VSAN_COPIES if vsan else 1} cop{'ies' if vsan else 'y'} under a 70 % fill limit"
            f" needs {need * _raw_per_tb(vsan):,.1f} TB raw.",
            "003_4970b14b1c56345f.txt, Test bed (Virtual SAN storage layout)",
        ),
        Rationale("IQ caches", caches.reason, caches.source),
    ]
    if nic_why:
        rationale.append(nic_why)
    warnings: list[Warning] = []
    if pred.extrapolated:
        warnings.append(Warning(
            "extrapolated",
            "Nodes or query streams lie outside what study 003 measured (4 nodes, 1 and 6 streams): the range is"
            " wider and the estimate is an extrapolation.",
        ))
    if net.nic and net.nic.speed_gbps < 10:
        warnings.append(Warning("network-below-minimum", "DQP network-transfer needs at least a 10 GbE interconnect."))
    vm = VmLayout(None, server.cores_total, node_memory, per_node) if vsan else None
    layout = HostLayout(
        "IQ node", nodes, server.id, server.sockets, server.numa_nodes_per_socket, server.cores_per_numa_node,
        memory, per_node, drive.id, "vsan" if vsan else (scenario.platform.raid or "none"),
        (VmLayout(None, server.cores_total, node_memory, per_node),), net.ports,
        net.nic.speed_gbps if net.nic else 0.0,
    )
    design = Design(
        kind=w.kind, deployment=scenario.platform.deployment, server_id=server.id, drive_id=drive.id,
        nic_id=net.nic.id if net.nic else None, segment_hosts=nodes, data_drives_per_host=per_node,
        raid="vsan-ftt1" if vsan else (scenario.platform.raid or "none"), memory_gib_per_host=memory,
        vms_per_host=1 if vsan else 0, vm=vm, raw_capacity_tb=round(nodes * per_node * drive.capacity_tb, 3),
        usable_capacity_tb=round(nodes * per_node * drive.capacity_tb / _raw_per_tb(vsan), 3),
        data_needed_tb=round(need, 3), nics_per_host=net.nics_per_host, network_gbps_per_host=net.gbps_per_host,
        dqp_mode=choice.mode, iq_main_cache_gib=round(float(caches.main_cache_gib), 1),
        iq_temp_cache_gib=round(float(caches.temp_cache_gib), 1), hosts=(layout,),
        settings=sap_iq_settings(round(float(caches.main_cache_gib), 1), round(float(caches.temp_cache_gib), 1),
                                 caches.reason, caches.source),
    )
    lines = bom.host_lines("IQ node", nodes, server, drive, per_node, net.nic, net.nics_per_host)
    power = nodes * float(cost_power.host_power_w(
        server.idle_w, server.max_w, scenario.assumptions.utilization_pct / 100.0, per_node, drive.watts,
        net.nics_per_host, net.nic.watts if net.nic else 0.0,
    ))
    totals = bom.totals(lines, power, nodes * server.rack_u, scenario)
    return SizingResult(
        scenario_name=scenario.name, design=design,
        estimates={"power_metric": pred.power, "throughput_metric": pred.throughput},
        binding_resource=pred.binding_resource, bom=tuple(lines), totals=totals, rationale=tuple(rationale),
        warnings=tuple(warnings), main_metric="throughput_metric" if w.query_streams > 1 else "power_metric",
        extra={"network_advantage": float(np.asarray(choice.network_advantage))},
    )

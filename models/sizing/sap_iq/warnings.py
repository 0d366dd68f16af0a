"""What the customer must know about a SAP IQ multiplex design: where it leaves what study 003 measured
(extrapolated size, nodes smaller than its VMs or fewer cores per stream), an interconnect below DQP's minimum, a
node count capped by the cluster, a vSAN cluster beyond the study's release. `design` sizes; this module
only reads the result.
"""

from __future__ import annotations

from models.calibration_data import figure, point
from models.percent import percent
from models.perf import sap_iq
from models.scenario import SapIqMultiplex
from models.sizing.parts import NetworkChoice
from models.sizing.result import SCENARIO_WIDE, Warning
from models.sizing.sap_iq import streams
from models.sizing.sap_iq.node import IqOption, Node
from models.sizing.sap_iq.rules import DqpChoice

STUDY = "sapiq_dqp_003"
VS = "vsan_storage"
AWAY = {"nodes": "nodes", "vcpus": "vCPUs per node", "cpu": "CPU generation", "streams": "streams",
        "data": "data"}  # the dimensions `sap_iq_fit.distances` measures, as the warning names them


def _cite(pid: str, ds: str = STUDY) -> str:
    return point(ds, pid).source.cite()


def warnings(w: SapIqMultiplex, o: IqOption, node: Node, pred: sap_iq.IqPrediction,
             net: NetworkChoice, limit: int, choice: DqpChoice | None = None) -> list[Warning]:
    """Where the design leaves what study 003 measured: extrapolated size, nodes smaller than its VMs or fewer
    cores per stream, an interconnect below DQP's minimum, a vSAN cluster beyond the study's limit."""
    nodes, lay = o.nodes, o.vsan
    ref_vcpus = int(figure(STUDY, "vm_vcpus"))
    warnings: list[Warning] = _mode(w, choice)
    if pred.extrapolated:
        away = ", ".join(f"{AWAY[k]} {d:.1f}" for k, d in pred.distances if d > 1e-9)
        warnings.append(Warning(
            "extrapolated",
            f"{nodes} node(s) x {node.vcpus} vCPU at {node.speed:.2f} x the study's per-core speed, {w.query_streams}"
            f" stream(s) and the data lie outside what study 003 measured (4 nodes x {ref_vcpus} vCPU at"
            f" {figure(STUDY, 'cpu_base_ghz'):g} GHz, 1 and 6 streams, {figure(STUDY, 'scale_factor_gb'):g} GB)"
            + (f"; doublings away: {away}" if away else "") + f". The range widens by"
            f" {percent(figure(STUDY, 'band_sd_per_doubling'))} relative sd per doubling (in quadrature): the"
            " estimate is an extrapolation.",
            "info", SCENARIO_WIDE,
        ))
    per_stream = nodes * node.eff / w.query_streams
    ref_per_stream = figure(STUDY, "servers") * ref_vcpus / figure(STUDY, "query_streams_throughput_test")
    low_memory = node.memory_gib < figure(STUDY, "vm_memory_gib")
    short = ([f"each node has {node.memory_gib:,.0f} GiB, below study 003's {figure(STUDY, 'vm_memory_gib'):g} GiB"
              " VMs (queries spill to the temp dbspace)"] if low_memory else []) + (
        [f"the cluster has {per_stream:,.1f} study-equivalent cores per query stream, below study 003's"
         f" {ref_per_stream:,.1f} (queries queue)"] if per_stream < ref_per_stream - 1e-9 else [])
    if short:  # only what falls short: a 368 GiB node is not 'below 96 GiB' because its cores are
        text = "; ".join(short)
        warnings.append(Warning("small-vm", text[0].upper() + text[1:] + ".", "warning",
                                "platform.memory_gib" if low_memory else "workload.nodes"))
    if net.nic and net.nic.speed_gbps < figure(STUDY, "dqp_network_gbps"):
        warnings.append(Warning("network-below-minimum", "DQP network-transfer needs at least a"
                                f" {figure(STUDY, 'dqp_network_gbps'):g} GbE interconnect; this design"
                                f" has {net.nic.speed_gbps:g} GbE.", "warning", "platform.nic_id"))
    if o.capped:
        b = streams.bound(w, o, pred)
        assert b is not None  # a capped option has its bound
        past = (" (past that, the nodes whose temp caches hold the floor of what the streams need)"
                if nodes > streams.node_cap() else "")
        warnings.append(Warning(
            "nodes-capped",
            f"{w.query_streams} query streams need {o.needed_nodes} nodes of {o.server.vendor} {o.server.model} to"
            f" keep study 003's {ref_per_stream:,.1f} study-equivalent cores per stream, but {b.rule}. The design"
            f" stops at {nodes} nodes{past}: the best it achieves there is {b.achievable:,.0f} {b.unit} (P50) at"
            f" {per_stream:,.2f} cores per stream, bound by {b.binding}, and queries will queue. Levers: servers with"
            " more or faster cores, the streams split over several multiplexes, or a node count stated for the"
            f" multiplex (kept up to {limit}).",
            "critical", "workload.query_streams",
        ))
    if lay is not None and lay.hosts > figure(STUDY, "vsan_max_hosts"):
        # study 003's limit is vSAN 5.5's; the design itself stays within today's (vsan_max_hosts_per_cluster)
        warnings.append(Warning(
            "vsan-cluster-size",
            f"{lay.hosts} hosts exceed the {figure(STUDY, 'vsan_max_hosts'):g}-host vSAN cluster of the vSphere 5.5"
            f" release study 003 ran on; later vSAN releases take up to"
            f" {figure(VS, 'vsan_max_hosts_per_cluster'):g} hosts ({_cite('vsan_max_hosts_per_cluster', VS)}):"
            " confirm the customer's vSAN release.",
            "info", "workload.shared_storage"))
    return warnings


def _mode(w: SapIqMultiplex, choice: DqpChoice | None) -> list[Warning]:
    """A specified DQP mode that study 003 measured behind the recommended one for these streams."""
    if choice is None or choice.recommended is None or choice.relative >= 1.0:
        return []
    metric = "power" if w.query_streams == 1 else "throughput"
    return [Warning(
        "dqp-mode-not-recommended",
        f"DQP mode {choice.mode} as specified: for {w.query_streams} query stream(s) study 003 measured"
        f" {choice.recommended} ahead, so the TPC-H {metric} is about {100 * (1 - choice.relative):.0f} % below what"
        f" {choice.recommended} gives on the same nodes. Leave the mode empty for the recommended one.",
        "info", "workload.dqp_mode",
    )]

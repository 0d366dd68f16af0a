"""A SAP IQ multiplex after one node fails (on vSAN: its host): what the query streams keep until it is back.

Each node is one host (one IQ VM per host on vSphere, with nearly all the host's memory), so vSphere HA has no
room to restart a failed node's VM on a survivor: the multiplex runs on one node fewer. The streams then share
the survivors' cores; the throughput kept is the performance model's estimate on n - 1 nodes against n. A
coordinator failure is the same loss of one node after the designated failover node has taken over as
coordinator (SAP IQ 16 Administration: Multiplex); until then DQP queries pause and the coordinator's read-write
transactions roll back. On vSAN the dbspaces stay available through one host failure (study 003's
hostFailuresToTolerate 1); vSAN re-protects them only while the hosts left still number the policy's minimum.
`design` sizes; this module only reads the design.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.calibration_data import figure, point
from models.percent import percent
from models.perf import sap_iq
from models.scenario import SapIqMultiplex
from models.sizing.result import Rationale, Warning
from models.sizing.sap_iq.node import IqOption
from models.sizing.shared_storage import POLICIES, policy_min_hosts

STUDY = "sapiq_dqp_003"
VS = "vsan_storage"


def _cite(pid: str, ds: str = STUDY) -> str:
    return point(ds, pid).source.cite()


def _quote(pid: str) -> str:
    return point(STUDY, pid).source.quote or ""


def study_cores_per_stream() -> float:
    """Study-equivalent cores per query stream in study 003's throughput test: 4 nodes x 14 vCPU / 6 streams.

    >>> round(study_cores_per_stream(), 2)
    9.33
    """
    return figure(STUDY, "servers") * figure(STUDY, "vm_vcpus") / figure(STUDY, "query_streams_throughput_test")


@dataclass(frozen=True)
class NodeFailure:
    """The multiplex with one node down: the streams' share of cores before and after, and the main metric kept."""

    nodes: int
    streams: int
    metric: str  # the design's main estimate: throughput_metric, or power_metric for one stream
    before: float  # its P50 with every node
    after: float  # its P50 on the nodes left (0 when none is left)
    cores_per_stream_before: float
    cores_per_stream_after: float
    nodes_to_keep_share: int  # nodes whose n - 1 still give each stream the study's cores
    vsan_policy: str | None  # None: external SAN
    vsphere: bool = True  # one IQ VM per host; False: the node is the host (bare metal)

    @property
    def nodes_left(self) -> int:
        return self.nodes - 1

    @property
    def kept(self) -> float:
        return self.after / self.before if self.before > 0 else 0.0

    @property
    def share_before(self) -> bool:
        return self.cores_per_stream_before >= study_cores_per_stream() - 1e-9

    @property
    def share_after(self) -> bool:
        return self.cores_per_stream_after >= study_cores_per_stream() - 1e-9

    @property
    def reprotects(self) -> bool:
        """vSAN rebuilds the lost copies only on as many hosts as the policy places its components on."""
        return self.vsan_policy is None or self.nodes_left >= policy_min_hosts(self.vsan_policy)


def node_failure(w: SapIqMultiplex, o: IqOption, mode: str, eff: float, pred: sap_iq.IqPrediction,
                 dqp_network_gbps: float | None, vsphere: bool, away: sap_iq.Away | None = None) -> NodeFailure:
    """The design `o` (n nodes of `eff` study-equivalent cores) with one node down: the model on n - 1 nodes."""
    n, s = o.nodes, w.query_streams
    metric = "throughput_metric" if s > 1 else "power_metric"
    before = float(pred.throughput.p50 if s > 1 else pred.power.p50)
    after = 0.0
    if n > 1:  # the model's point estimates on n - 1 and n nodes scale the design's P50 (no second Monte Carlo run)
        def main(nodes: int) -> float:
            p = sap_iq.predict_iq(mode, nodes, s, eff, dqp_network_gbps=dqp_network_gbps, away=away or sap_iq.Away(),
                                  samples=0)
            return float(p.throughput.p50 if s > 1 else p.power.p50)

        after = before * main(n - 1) / main(n)
    # the fewest nodes whose survivors keep the study's share: the streams' need, plus the one that fails
    need = math.ceil(s * study_cores_per_stream() / eff - 1e-9) if eff > 0 else n
    return NodeFailure(n, s, metric, before, after, n * eff / s, (n - 1) * eff / s, need + 1,
                       o.vsan.policy if o.vsan is not None else None, vsphere)


def _storage_text(f: NodeFailure) -> str:
    if f.vsan_policy is None:
        return " The dbspaces are on the external SAN and stay reachable from the nodes left."
    text = (f" On vSAN the dbspaces stay available (study 003: \"{_quote('vsan_ftt1_available_after_host_failure')}\")"
            f" on the copies the other hosts hold")
    if f.reprotects:
        return text + f"; vSAN rebuilds the lost copies on the {f.nodes_left} hosts left."
    return text + (f", but {f.nodes_left} host(s) are fewer than the {policy_min_hosts(f.vsan_policy)} policy"
                   f" {f.vsan_policy} places its components on: vSAN cannot re-protect them until the host is back,"
                   f" {_second_failure(f.vsan_policy)}.")


def _second_failure(policy: str) -> str:
    """What one more failure does to dbspaces vSAN could not re-protect: lost at FTT 1, one failure left at FTT 2."""
    left = POLICIES[policy][2] - 1
    return ("and a second failure meanwhile loses them" if left == 0 else
            f"and meanwhile they tolerate {left} more host failure(s) instead of {POLICIES[policy][2]}")


def _coordinator_text() -> str:
    """A coordinator failure differs only until the failover node has taken over: then it is one node fewer."""
    return (" If the node is the coordinator, the designated failover node takes over as coordinator (SAP IQ: \""
            f"{_quote('iq_designated_failover_node')}\"); until it has, DQP queries on the other nodes pause when they"
            " need IQ_SHARED_TEMP space and read-write transactions on the failed coordinator roll back, then the"
            " multiplex runs on the nodes left as above.")


def rationale(f: NodeFailure) -> Rationale:
    """What one node's failure leaves: nodes, streams per node, cores per stream against the study's, metric kept."""
    label = "throughput" if f.metric == "throughput_metric" else "power"
    unit = "QthH@Size" if f.metric == "throughput_metric" else "QppH@Size"
    if f.nodes_left == 0:
        text = ("A single node has no failover: its failure stops every query stream until it is back."
                + _storage_text(f))
    else:
        ref = study_cores_per_stream()
        holds = ("still at least" if f.share_after else "below")
        dqp = (" With one node left DQP has no worker: every query runs on that node." if f.nodes_left == 1 else "")
        restart = (" and its IQ VM cannot restart on a survivor (each host's memory goes to its own IQ VM)"
                   if f.vsphere else "")
        text = (
            f"If one node fails{' (with its host)' if f.vsan_policy else ''}{restart}: {f.streams} query stream(s)"
            f" run on {f.nodes_left}"
            f" node(s), {f.streams / f.nodes_left:,.1f} per node, at {f.cores_per_stream_after:,.1f}"
            f" study-equivalent cores per stream ({f.cores_per_stream_before:,.1f} before), {holds} study 003's"
            f" {ref:,.1f}. TPC-H {label} falls from {f.before:,.0f} to {f.after:,.0f} {unit}"
            f" (P50): {percent(f.kept)} kept until the node is back.{dqp}"
            + _storage_text(f) + _coordinator_text()
        )
    source = "; ".join((_cite("query_streams_throughput_test"), _cite("iq_designated_failover_node"),
                        _cite("iq_coordinator_failure_dqp_suspended"))
                       + ((_cite("vsan_ftt1_available_after_host_failure"),
                           _cite(f"{f.vsan_policy.replace('-', '_')}_min_hosts", VS)) if f.vsan_policy else ()))
    return Rationale("Node failure (n-1)", text, source)


def warnings(f: NodeFailure) -> list[Warning]:
    """A failure that takes the streams below the cores per stream the design gave them; vSAN unable to
    re-protect the dbspaces after a host failure."""
    out: list[Warning] = []
    if f.nodes_left == 0:
        out.append(Warning("node-failure-stops", "One node: its failure stops the multiplex; a second node gives"
                           " it a coordinator failover.", "warning", "workload.nodes"))
    elif f.share_before and not f.share_after:
        out.append(Warning(
            "node-failure-streams",
            f"After one node fails, {f.streams} query streams share {f.nodes_left} node(s) at"
            f" {f.cores_per_stream_after:,.1f} study-equivalent cores per stream, below study 003's"
            f" {study_cores_per_stream():,.1f}: about {percent(f.kept)} of the TPC-H"
            f" {'throughput' if f.metric == 'throughput_metric' else 'power'} is kept and queries queue until it is"
            f" back. {f.nodes_to_keep_share} nodes keep the streams' share through one failure.",
            "warning", "workload.nodes",
        ))
    if not f.reprotects and f.vsan_policy is not None:
        out.append(Warning(
            "vsan-no-rebuild-host",
            f"{f.nodes} hosts: after one fails, the {f.nodes_left} left are fewer than the"
            f" {policy_min_hosts(f.vsan_policy)} vSAN policy {f.vsan_policy} needs: vSAN cannot rebuild the lost"
            f" copies until the host is back, {_second_failure(f.vsan_policy)}. One more host lets vSAN rebuild.",
            "info", "workload.nodes",
        ))
    return out

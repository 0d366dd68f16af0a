"""Runaway query streams bounded: refarch grows a multiplex for its streams' share of cores (study 003's per-stream
share) only to `max_cluster_doublings_for_streams` doublings of the study's cluster; beyond, the design stops there
and reports the best it achieves and what binds (`StreamsBound`), as a Greenplum target out of reach does.
"""

from __future__ import annotations

from models.calibration_data import figure, point
from models.perf import sap_iq
from models.scenario import SapIqMultiplex
from models.sizing.iq_result import StreamsBound
from models.sizing.sap_iq.failure import study_cores_per_stream
from models.sizing.sap_iq.node import STUDY, IqOption


def node_cap() -> int:
    """The most nodes refarch gives a multiplex for its streams: study 003's 4 nodes, 3 doublings on.

    >>> node_cap()
    32
    """
    return int(figure(STUDY, "servers") * 2 ** figure(STUDY, "max_cluster_doublings_for_streams"))


def rule() -> str:
    doublings = figure(STUDY, "max_cluster_doublings_for_streams")
    return (f"refarch grows a multiplex for its query streams to at most {node_cap()} nodes, {doublings:g} doublings of"
            f" study 003's {figure(STUDY, 'servers'):g} (where the cluster size alone widens the band by"
            f" {doublings * figure(STUDY, 'band_sd_per_doubling'):.1f} relative sd, and the largest Virtual SAN"
            f" cluster of the study's release) ({point(STUDY, 'max_cluster_doublings_for_streams').source.cite()}):"
            " a refarch assumption, not a product limit (SAP sets no maximum on a multiplex's secondary nodes, and its"
            f" sizing architect works through a multiplex of {figure(STUDY, 'multiplex_nodes_sap_example'):g} nodes:"
            f" {point(STUDY, 'multiplex_nodes_sap_example').source.cite()})")


def bound(w: SapIqMultiplex, o: IqOption, pred: sap_iq.IqPrediction) -> StreamsBound | None:
    """What the design achieves where it stops short of the streams' share; None when it gives them their share."""
    if not o.capped:
        return None
    one = w.query_streams == 1
    metric = pred.power if one else pred.throughput
    return StreamsBound(
        w.query_streams, o.needed_nodes, study_cores_per_stream(), float(metric.p50), metric.unit, o.nodes,
        o.cores / w.query_streams, pred.binding_resource, rule())

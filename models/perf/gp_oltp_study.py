"""What `refarch size` gives at study 004's own points: the card of the Greenplum OLTP model as a user meets it.

The USL cards (`usl-gp6-*`) show each curve passing through the points it was fitted on; a user sees instead the
TPS of a sized design, whose coordinator and segment hosts scale that curve (`models.perf.gp_oltp.predict_tps`).
This card evaluates the study's two clusters as the samples `resources/samples/study-004-*.json` describe them
(the hosts refarch builds them on, the segment host count, the clients) through the same function and draws
`size` uses, and sets each mix's peak over the study's client counts against the figure the study prints. Every
one of those figures set a parameter (the curves, the TPS per core), so the errors are in-sample: nothing of
study 004 is held out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from models.calibration_data import Point, dataset, figure, point
from models.hardware import HardwareCatalog, Server
from models.model_card import ModelCard, Residual
from models.perf import gp_bands
from models.perf.gp_oltp import predict_tps
from models.vocabulary import OLTP_MIXES, OltpMix

_DS = "gp6_oltp_004"
SAMPLES = ("study-004-gp6-oltp", "study-004-192-core")


@dataclass(frozen=True)
class StudyCluster:
    """One of the study's clusters as a sample scenario builds it: the server of every host (the coordinator is
    the segment hosts' server, as with no throughput target, or runs on the segment host: `pooled`), the segment
    hosts and the clients."""

    sample: str
    server_id: str
    segment_hosts: int
    clients: int
    mixes: tuple[OltpMix, ...]  # the mixes the study measured on it
    pooled: bool = False  # the sample's workload.coordinator_on_segment_host


@cache
def study_clusters() -> tuple[StudyCluster, ...]:
    """The two clusters, read from their sample files (the 4-host cluster ran every mix, the 192-core one select)."""
    out = []
    for name in SAMPLES:
        raw = json.loads((resources.files("resources.samples") / f"{name}.json").read_text(encoding="utf-8"))
        w = raw["workload"]
        mixes: tuple[OltpMix, ...] = OLTP_MIXES if name == SAMPLES[0] else ("select",)
        out.append(StudyCluster(name, raw["platform"]["server_id"], int(w["min_segment_hosts"]), int(w["clients"]),
                                mixes, bool(w.get("coordinator_on_segment_host", False))))
    return tuple(out)


def study_clients(mix: OltpMix, top: int) -> tuple[int, ...]:
    """The client counts of the study's curve of `mix` up to `top` (the calibration points' clients)."""
    counts = {int(p.conditions["clients"]) for p in dataset(_DS).points
              if p.id.startswith(f"usl_gp6_{mix}_n") and "clients" in p.conditions}
    return tuple(sorted(n for n in counts if n <= top))


def observed_tps(cluster: StudyCluster, mix: OltpMix) -> Point:
    """The figure the study prints for `mix` on `cluster`: the 4-host peaks, the 192-core environment's select."""
    return point(_DS, "env192_select_tps" if cluster.sample == SAMPLES[1] else f"gp6_{mix}_peak_tps")


def size_tps(cluster: StudyCluster, mix: OltpMix, cores: float) -> tuple[int, float]:
    """(clients, P50 TPS) at the top of the curve over the study's client counts, as `size` estimates it."""
    best = (0, -1.0)
    for n in study_clients(mix, cluster.clients):
        p50 = float(predict_tps(mix, n, cores, cluster.segment_hosts, cores, pooled=cluster.pooled).estimate.p50)
        if p50 > best[1]:
            best = (n, p50)
    return best


def _band_rule() -> str:
    """The OLTP band rule in words (`models.perf.gp_bands`), with its figures."""
    per = figure(_DS, "band_sd_per_doubling")
    hosts, lo, hi = figure(_DS, "segment_hosts"), figure(_DS, "clients_min"), figure(_DS, "clients_max")
    far = float(gp_bands.oltp_hosts_sd(16 * hosts))
    return (" Band rule (a refarch assumption, not fitted to any study: the study measures one cluster, so nothing in"
            f" it says how fast the error grows away from it): {per:g} relative sd per doubling of distance from the"
            f" study's {hosts:g} segment hosts widens"
            " the segment side's capacity (a cluster its coordinator binds is not made less certain by hosts it does"
            f" not use, and more hosts never lower a percentile), and {per:g} per doubling of clients outside the"
            " measured"
            f" {lo:g}-{hi:g} widens the whole rate, each draw times exp(z x sd), z ~ N(0, 1); 0 at the study's"
            f" cluster, so an extrapolated design never gets the in-sample band ({16 * hosts:g} segment hosts: sd"
            f" {far:.2f} on the segment side).")


def study_004_card(catalog: HardwareCatalog | None = None) -> ModelCard:
    """The card; without a catalog (the hosts' cores unknown) it carries no residuals and says so."""
    residuals: list[Residual] = []
    rows: list[dict[str, Any]] = []
    if catalog is not None:
        for cluster in study_clusters():
            server = catalog.get(cluster.server_id)
            if not isinstance(server, Server):
                continue
            cores = float(server.cores_total)
            for mix in cluster.mixes:
                obs = observed_tps(cluster, mix)
                clients, p50 = size_tps(cluster, mix, cores)
                r = Residual(f"{obs.id} ({cluster.segment_hosts} x {cores:g}-core segment hosts, {mix})", obs.value,
                             p50, "TPS")
                residuals.append(r)
                rows.append({"sample": cluster.sample, "mix": mix, "server_id": cluster.server_id, "cores": cores,
                             "segment_hosts": cluster.segment_hosts, "clients": clients, "observed": obs.value,
                             "size_p50": p50, "pct_err": r.pct_err, "in_sample": True})
    return ModelCard(
        name="gp6-oltp-through-size",
        description="Greenplum 6 OLTP TPS as `refarch size` gives it on the Greenplum 6 OLTP study's two clusters,"
                    " as its sample scenarios build them: the P50 at the top of each mix's curve over the study's"
                    " client counts, against the figure the study prints",
        parameters={"segment_hosts": float(point(_DS, "segment_hosts").value)},
        residuals=tuple(residuals),
        sources=tuple(dict.fromkeys(observed_tps(c, m).source.cite() for c in study_clusters() for m in c.mixes)),
        note=(
            "In-sample, all of it: the four peaks set the USL curves and the 192-core figure the TPS per core, so"
            " these errors show what the P50 of a sized design does to the study's own figures (the Monte Carlo"
            " draws and the hosts refarch builds on), not accuracy on other hardware. The study's VM sizes are an"
            " image absent from its text: the 4-host sample's hosts are the catalog size nearest below the"
            " master the single-select figures imply (the hardware-scaling check of the single-select scalability"
            " curve), and the study's 192-core environment is read as one machine whose cores the master and the"
            " segments share (the study does not say how many machines): one 192-core segment host running the"
            " coordinator (coordinator_on_segment_host), where a select's coordinator and segment work add up on the"
            " same cores whatever the coordinator's share: its capacity is the study's figure by construction, and"
            " its residual is the select curve's shape at the sample's clients alone. Built instead as a coordinator"
            " and a segment host of half the cores each, its P50 falls short: each draw of the share binds one half."
            + ("" if catalog is not None else " Built without a catalog: the hosts' cores are unknown, no residuals.")
            + _band_rule()
        ),
        extra={"through_size": rows},
        validation="",
    )

"""SAP IQ multiplex: TPC-H style power and throughput per DQP mode, cluster size and stream count.

The sizing decisions built on it (DQP mode, cache split, node count) are in
`models.sizing.sap_iq.rules`.

Calibrated on study 003 (`003_4970b14b1c56345f.txt`, "Distributed Query Processing in
SAP IQ on VMware vSphere and Virtual SAN"): four Dell R720xd hosts, one 14 vCPU / 96 GiB
SAP IQ 16 VM each on Virtual SAN, a 300 GB TPC-H database, one query stream (power
test) and six concurrent streams (throughput test), each run in both distributed query
processing (DQP) modes. Every study figure comes from `resources/calibration/sapiq_dqp_003.json`.

What the study measured (Table 3)
---------------------------------
=====================  ================  ================
metric                 storage-transfer  network-transfer
=====================  ================  ================
Power@300GB            93,720.6          79,225.5
stream elapsed (ms)    357,590           449,648
Throughput@300GB       59,874            78,806
throughput interval    2,381 s           1,809 s
=====================  ================  ================

One stream favours storage-transfer, six concurrent streams favour network-transfer,
because network-transfer ships intermediate results over the private DQP network instead
of writing them to, and reading them back from, Virtual SAN ("Throughput Test").

The model
---------
TPC-H metric definitions (TPC-H specification, Clause 5.4), S streams, SF the scale factor
in GB, Ts the throughput interval in seconds, 22 queries per stream::

    Throughput@Size = S * 22 * 3600 * SF / Ts          (reproduces Table 3 to 0.001 %)

Per DQP mode m, two anchors:

* ``T6[m]`` = the measured Throughput@300GB with S6 = 6 streams;
* ``T1[m]`` = the same formula with S = 1 and Ts = the power test's stream elapsed time:
  what one stream alone achieves (66,445 storage-transfer, 52,841 network-transfer).

Throughput as a function of streams is linear between the anchors and flat beyond them::

    T[m](S) = T1[m] + (T6[m] - T1[m]) * (min(S, S6) - 1) / (S6 - 1)

Assumption beyond six streams: the cluster is saturated at S6 (each further stream slows
the others, the aggregate stays), so T is held at T6 with a spread that widens by
`EXTRAPOLATION_SPREAD_PER_DOUBLING` per doubling of streams past S6 (P50 unchanged).
`mode_advantage(S) = T[network](S) / T[storage](S)` goes from 0.795 at one stream to
1.316 at six and crosses 1 near 3.1 streams.

Other clusters: near-linear scaling in total cores (nodes x cores per node) with the
measured mode ratios kept::

    Power(m, n, c)         = Power300[m] * k
    Throughput(m, n, S, c) = T[m](S) * k,        k = (n * c / (4 * 14)) ** beta

with beta ~ Uniform(`CORE_SCALING_EXPONENT`) (0.9 to 1.0): an assumption, not a study
figure; the study has one cluster size, so every other size is an extrapolation. Per
TPC-H the metrics are normalised by SF; with query time proportional to SF / cores they
do not depend on SF, which is also an assumption (the study has one SF and its working
set sat in the Virtual SAN SSD read cache).

Uncertainty: each Table 3 figure is read with the quoted-figure band of
`models.uncertainty.from_point` (+-5 % 1 sd), sampled independently, seeded.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from models.calibration_data import figure, point
from models.model_card import ModelCard, Residual
from models.percentiles import percentiles
from models.uncertainty import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    Distribution,
    Estimate,
    FloatArray,
    Uniform,
    from_point,
    sample_all,
)
from models.vocabulary import DQP_MODES as DQP_MODES  # declared once in the vocabulary; re-exported
from models.vocabulary import DqpMode as DqpMode

DATASET = "sapiq_dqp_003"

STORAGE: DqpMode = "storage-transfer"
NETWORK: DqpMode = "network-transfer"
_MODE_KEY: dict[str, str] = {STORAGE: "storage", NETWORK: "network"}

# Modelling assumptions, not study figures (the study has a single cluster size and two
# stream counts). Both are reported on the model card.
CORE_SCALING_EXPONENT = Uniform(0.9, 1.0)  # near-linear in total cores: 2x cores -> 1.87x to 2x
EXTRAPOLATION_SPREAD_PER_DOUBLING = 0.10  # +-10 % (uniform) per doubling of streams beyond six

SECONDS_PER_HOUR = 3600.0
MS_PER_S = 1000.0

BindingResource = Literal["cpu", "storage", "dqp-network"]


# --------------------------------------------------------------------------- reference


@dataclass(frozen=True, slots=True)
class _Reference:
    """The measured configuration and its metrics, read from the calibration file."""

    nodes: int
    vcpus_per_node: int
    scale_factor_gb: float
    queries_per_stream: int
    streams_measured: int
    dqp_network_gbps: float
    power: dict[str, float]
    elapsed_ms: dict[str, float]
    throughput6: dict[str, float]

    @property
    def vcpus_total(self) -> int:
        return self.nodes * self.vcpus_per_node

    def throughput1(self, mode: str) -> float:
        """Throughput@Size of one stream alone: 22 * 3600 * SF / (power-test elapsed in s)."""
        return self.queries_per_stream * SECONDS_PER_HOUR * self.scale_factor_gb / (self.elapsed_ms[mode] / MS_PER_S)


@cache
def reference() -> _Reference:
    def f(pid: str) -> float:
        return figure(DATASET, pid)

    return _Reference(
        nodes=int(f("servers")),
        vcpus_per_node=int(f("vm_vcpus")),
        scale_factor_gb=f("scale_factor_gb"),
        queries_per_stream=int(f("tpch_queries_per_stream")),
        streams_measured=int(f("query_streams_throughput_test")),
        dqp_network_gbps=f("dqp_network_gbps"),
        power={m: f(f"power_{_MODE_KEY[m]}_qpph") for m in DQP_MODES},
        elapsed_ms={m: f(f"power_elapsed_{_MODE_KEY[m]}_ms") for m in DQP_MODES},
        throughput6={m: f(f"throughput_{_MODE_KEY[m]}_qthh") for m in DQP_MODES},
    )


def cite(point_id: str) -> str:
    return point(DATASET, point_id).source.cite()


# --------------------------------------------------------------------------- validation


def check_mode(mode: str) -> DqpMode:
    if mode not in DQP_MODES:
        raise ValueError(f"unknown DQP mode '{mode}'; expected one of {', '.join(DQP_MODES)}")
    return mode


def at_least(name: str, value: ArrayLike, low: float) -> FloatArray:
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr < low):
        raise ValueError(f"{name} must be a finite number >= {low:g}, got {value!r}")
    return arr


# --------------------------------------------------------------------------- core formulas


def _interpolated_throughput(t1: ArrayLike, t6: ArrayLike, streams: FloatArray, s6: int) -> FloatArray:
    """T(S) = T1 + (T6 - T1) * (min(S, S6) - 1) / (S6 - 1): linear between the measured stream counts."""
    frac = (np.minimum(streams, s6) - 1.0) / (s6 - 1.0)
    t: FloatArray = np.asarray(t1, dtype=float) + (np.asarray(t6, dtype=float) - np.asarray(t1, dtype=float)) * frac
    return t


def _extrapolation_halfwidth(streams: FloatArray, s6: int) -> FloatArray:
    """Half-width of the relative spread beyond the measured six streams (0 inside the range)."""
    return EXTRAPOLATION_SPREAD_PER_DOUBLING * np.log2(np.maximum(streams, s6) / s6)


def _scale(nodes: FloatArray, cores_per_node: FloatArray, beta: ArrayLike) -> FloatArray:
    """k = (n * c / (n0 * c0)) ** beta: near-linear in total cores."""
    ref = reference()
    return np.power(nodes * cores_per_node / ref.vcpus_total, beta)


def throughput_at(mode: str, query_streams: ArrayLike) -> FloatArray | float:
    """Nominal Throughput@Size on the measured cluster at `query_streams` (no scaling, no sampling).

    Formula: T(S) = T1 + (T6 - T1) * (min(S, 6) - 1) / 5; T1 = 22 * 3600 * SF / Ts(power test),
    T6 = Table 3 (003_4970b14b1c56345f.txt, Results, Table 3).
    """
    m = check_mode(mode)
    s = at_least("query_streams", query_streams, 1.0)
    ref = reference()
    out = _interpolated_throughput(ref.throughput1(m), ref.throughput6[m], s, ref.streams_measured)
    return float(out) if out.ndim == 0 else out


def mode_advantage(query_streams: ArrayLike) -> FloatArray | float:
    """Relative throughput of network- vs storage-transfer DQP at `query_streams` concurrent streams.

    Formula: T_network(S) / T_storage(S) with T(S) of `throughput_at` (linear between the
    single-stream and six-stream measurements of Table 3). Measured: 0.795 at one stream
    (357,590 / 449,648 ms), 1.316 at six (78,806 / 59,874). Beyond six streams the ratio is
    held at its six-stream value: both modes are taken as saturated there, and the
    study gives no point to extend the trend (assumption, not measured).
    Source: 003_4970b14b1c56345f.txt, Results, Table 3; Power Test; Throughput Test.
    """
    net = np.asarray(throughput_at(NETWORK, query_streams))
    sto = np.asarray(throughput_at(STORAGE, query_streams))
    out = net / sto
    return float(out) if out.ndim == 0 else out


def crossover_streams() -> float:
    """Streams at which both modes reach the same throughput (linear anchors): about 3.1."""
    ref = reference()
    d1 = ref.throughput1(STORAGE) - ref.throughput1(NETWORK)
    slope_gap = (ref.throughput6[NETWORK] - ref.throughput1(NETWORK)) - (
        ref.throughput6[STORAGE] - ref.throughput1(STORAGE)
    )
    return 1.0 + (ref.streams_measured - 1) * d1 / slope_gap


# --------------------------------------------------------------------------- predictions


def _dists() -> dict[str, Distribution]:
    d: dict[str, Distribution] = {"beta": CORE_SCALING_EXPONENT, "u": Uniform(-1.0, 1.0)}
    for m in DQP_MODES:
        k = _MODE_KEY[m]
        d[f"power_{k}"] = from_point(point(DATASET, f"power_{k}_qpph"))
        d[f"elapsed_{k}"] = from_point(point(DATASET, f"power_elapsed_{k}_ms"))
        d[f"t6_{k}"] = from_point(point(DATASET, f"throughput_{k}_qthh"))
    return d


def _nominal() -> dict[str, FloatArray]:
    """Parameter medians as one-sample arrays (a point prediction, no Monte Carlo)."""
    ref = reference()
    beta = 0.5 * (CORE_SCALING_EXPONENT.low + CORE_SCALING_EXPONENT.high)
    out = {"beta": np.array([beta]), "u": np.array([0.0])}
    for m in DQP_MODES:
        k = _MODE_KEY[m]
        out[f"power_{k}"] = np.array([ref.power[m]])
        out[f"elapsed_{k}"] = np.array([ref.elapsed_ms[m]])
        out[f"t6_{k}"] = np.array([ref.throughput6[m]])
    return out


def _params(samples: int, seed: int) -> dict[str, FloatArray]:
    if samples < 0:
        raise ValueError(f"samples must be >= 0, got {samples}")
    return _nominal() if samples == 0 else sample_all(_dists(), samples, seed)


def _column(arr: FloatArray, ndim: int) -> FloatArray:
    """Shape (n,) -> (n, 1, ..., 1) so samples broadcast against inputs of `ndim` dimensions."""
    return arr.reshape(arr.shape + (1,) * ndim)


def _to_estimate(samples: FloatArray, unit: str) -> Estimate:
    """Percentiles over the sample axis. Array inputs give p10/p50/p90 arrays of the input shape."""
    if samples.shape[0] == 1:
        v = samples[0]
        return Estimate.exact(float(v), unit) if v.ndim == 0 else Estimate(v, v, v, unit)
    p10, p50, p90 = percentiles(samples, [10.0, 50.0, 90.0], axis=0)
    if p50.ndim == 0:
        return Estimate(float(p10), float(p50), float(p90), unit)
    return Estimate(p10, p50, p90, unit)


def _power_samples(mode: DqpMode, nodes: FloatArray, cores: FloatArray, prm: dict[str, FloatArray]) -> FloatArray:
    nd = np.broadcast(nodes, cores).nd
    k = _MODE_KEY[mode]
    scale = _scale(nodes, cores, _column(prm["beta"], nd))
    return _column(prm[f"power_{k}"], nd) * scale


def _throughput_samples(
    mode: DqpMode, nodes: FloatArray, streams: FloatArray, cores: FloatArray, prm: dict[str, FloatArray]
) -> FloatArray:
    ref = reference()
    nd = np.broadcast(nodes, streams, cores).nd
    k = _MODE_KEY[mode]
    t1 = ref.queries_per_stream * SECONDS_PER_HOUR * ref.scale_factor_gb / (_column(prm[f"elapsed_{k}"], nd) / MS_PER_S)
    t = _interpolated_throughput(t1, _column(prm[f"t6_{k}"], nd), streams, ref.streams_measured)
    spread = 1.0 + _extrapolation_halfwidth(streams, ref.streams_measured) * _column(prm["u"], nd)
    return t * spread * _scale(nodes, cores, _column(prm["beta"], nd))


def _inputs(
    nodes: ArrayLike, cores_per_node: ArrayLike | None, query_streams: ArrayLike | None = None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    n = at_least("nodes", nodes, 1.0)
    c = at_least("cores_per_node", reference().vcpus_per_node if cores_per_node is None else cores_per_node, 1.0)
    s = at_least("query_streams", 1 if query_streams is None else query_streams, 1.0)
    return n, c, s


def predict_power_metric(
    mode: str,
    nodes: ArrayLike,
    cores_per_node: ArrayLike | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    """TPC-H Power@Size (QppH@Size, one query stream) of an SAP IQ multiplex in DQP `mode`.

    Formula: Power = Power300[mode] * (nodes * cores_per_node / (4 * 14)) ** beta,
    Power300 from Table 3 (93,720.6 storage-transfer, 79,225.5 network-transfer),
    beta ~ U(0.9, 1.0) (assumed near-linear core scaling; the study has one cluster size).
    `cores_per_node` defaults to the study's 14 vCPU per VM. Numeric arguments broadcast:
    with arrays, p10/p50/p90 are arrays of the broadcast shape. `samples=0` gives a point
    prediction at the parameter medians.
    Source: 003_4970b14b1c56345f.txt, Results, Table 3; Appendix A, Table 7.
    """
    m = check_mode(mode)
    n, c, _ = _inputs(nodes, cores_per_node)
    return _to_estimate(_power_samples(m, n, c, _params(samples, seed)), "QppH@Size")


def predict_throughput_metric(
    mode: str,
    nodes: ArrayLike,
    query_streams: ArrayLike,
    cores_per_node: ArrayLike | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    """TPC-H Throughput@Size (QthH@Size) with `query_streams` concurrent streams in DQP `mode`.

    Formula: Throughput = T[mode](S) * (1 + w(S) * u) * (nodes * cores_per_node / 56) ** beta;
    T(S) = T1 + (T6 - T1) * (min(S, 6) - 1) / 5, T1 = 22 * 3600 * 300 / Ts(power test, s),
    T6 = Table 3 Throughput@300GB (59,874 storage-, 78,806 network-transfer);
    w(S) = 0.10 * log2(max(S, 6) / 6), u ~ U(-1, 1) (wider beyond the measured streams);
    beta ~ U(0.9, 1.0). Interpolated between 1 and 6 streams, extrapolated elsewhere.
    Source: 003_4970b14b1c56345f.txt, Results, Table 3; TPC-H specification Clause 5.4.
    """
    m = check_mode(mode)
    n, c, s = _inputs(nodes, cores_per_node, query_streams)
    return _to_estimate(_throughput_samples(m, n, s, c, _params(samples, seed)), "QthH@Size")


@dataclass(frozen=True, slots=True)
class IqPrediction:
    power: Estimate
    throughput: Estimate
    binding_resource: str  # "cpu" | "storage" | "dqp-network"
    mode: DqpMode
    extrapolated: bool  # outside the measured cluster size or stream counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "power": self.power.to_dict(),
            "throughput": self.throughput.to_dict(),
            "binding_resource": self.binding_resource,
            "extrapolated": self.extrapolated,
        }


def binding_resource(mode: str, query_streams: float, dqp_network_gbps: float | None = None) -> BindingResource:
    """The resource the study points at as limiting, for `mode` and `query_streams`.

    * one stream: "cpu": the power-test gap is put down to "differences in load
      distribution during execution" (Power Test);
    * storage-transfer, concurrent streams: "storage": intermediate results are written to and
      read back from Virtual SAN on all four hosts (Throughput Test, Aggregated Virtual Disk I/O);
    * network-transfer with a DQP network slower than the study's 10GbE: "dqp-network"
      (untested territory; the intermediate results all cross it);
    * network-transfer, concurrent streams otherwise: "cpu" (query processing; the leader
      node runs noticeably hotter, CPU Usage Charts).
    """
    m = check_mode(mode)
    s = float(at_least("query_streams", query_streams, 1.0))
    ref = reference()
    if m == NETWORK and dqp_network_gbps is not None and dqp_network_gbps < ref.dqp_network_gbps:
        return "dqp-network"
    if s <= 1.0:
        return "cpu"
    return "storage" if m == STORAGE else "cpu"


def predict_iq(
    mode: str,
    nodes: ArrayLike,
    query_streams: float,
    cores_per_node: ArrayLike | None = None,
    *,
    dqp_network_gbps: float | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> IqPrediction:
    """Power and throughput metrics from one shared Monte Carlo draw, and the binding resource.

    See `predict_power_metric` and `predict_throughput_metric` for the formulas; both use
    the same parameter samples, so their ranges are consistent. `query_streams` is a scalar
    (it decides the binding resource); `nodes` and `cores_per_node` may be arrays.
    """
    m = check_mode(mode)
    n, c, s = _inputs(nodes, cores_per_node, query_streams)
    if s.ndim:
        raise ValueError("predict_iq takes one query_streams value; use predict_throughput_metric for arrays")
    prm = _params(samples, seed)
    ref = reference()
    extrapolated = bool(np.any(n * c != ref.vcpus_total) or float(s) not in (1.0, float(ref.streams_measured)))
    return IqPrediction(
        power=_to_estimate(_power_samples(m, n, c, prm), "QppH@Size"),
        throughput=_to_estimate(_throughput_samples(m, n, s, c, prm), "QthH@Size"),
        binding_resource=binding_resource(m, float(s), dqp_network_gbps),
        mode=m,
        extrapolated=extrapolated,
    )


# --------------------------------------------------------------------------- model card


def card() -> ModelCard:
    """Fit of the SAP IQ DQP model on Table 3 of study 003 (point predictions, no sampling)."""
    ref = reference()
    residuals: list[Residual] = []
    for m in DQP_MODES:
        k = _MODE_KEY[m]
        pw = predict_power_metric(m, ref.nodes, ref.vcpus_per_node, samples=0).p50
        residuals.append(Residual(f"power_{k}_qpph", ref.power[m], pw, "QppH@Size"))
    for m in DQP_MODES:
        k = _MODE_KEY[m]
        tp = predict_throughput_metric(m, ref.nodes, ref.streams_measured, ref.vcpus_per_node, samples=0).p50
        residuals.append(Residual(f"throughput_{k}_qthh", ref.throughput6[m], tp, "QthH@Size"))
    for m in DQP_MODES:
        k = _MODE_KEY[m]
        tp = predict_throughput_metric(m, ref.nodes, ref.streams_measured, ref.vcpus_per_node, samples=0).p50
        ts = ref.streams_measured * ref.queries_per_stream * SECONDS_PER_HOUR * ref.scale_factor_gb / tp
        observed = figure(DATASET, f"throughput_interval_{k}_s")
        residuals.append(Residual(f"throughput_interval_{k}_s", observed, ts, "s"))
    params = {
        "power_storage_qpph": ref.power[STORAGE],
        "power_network_qpph": ref.power[NETWORK],
        "throughput1_storage_qthh": ref.throughput1(STORAGE),
        "throughput1_network_qthh": ref.throughput1(NETWORK),
        "throughput6_storage_qthh": ref.throughput6[STORAGE],
        "throughput6_network_qthh": ref.throughput6[NETWORK],
        "mode_advantage_1_stream": float(mode_advantage(1)),
        "mode_advantage_6_streams": float(mode_advantage(ref.streams_measured)),
        "crossover_streams": crossover_streams(),
        "reference_vcpus_total": float(ref.vcpus_total),
        "core_scaling_exponent_low": CORE_SCALING_EXPONENT.low,
        "core_scaling_exponent_high": CORE_SCALING_EXPONENT.high,
        "extrapolation_spread_per_doubling": EXTRAPOLATION_SPREAD_PER_DOUBLING,
    }
    note = (
        "Anchored on Table 3: at the measured cluster (4 nodes x 14 vCPU, SF 300) power and six-stream "
        "throughput are reproduced by construction, and the throughput intervals follow from the TPC-H "
        "definition Throughput@Size = S*22*3600*SF/Ts (checks the data and the metric reading, not predictive "
        "skill). Not tested by any study point, so extrapolation: other node counts and cores (near-linear "
        "scaling, beta 0.9-1.0, assumed), stream counts between 1 and 6 (linear interpolation of the throughput "
        "of each mode; the single-stream anchor is the power-test elapsed time read as a one-stream throughput "
        "run), beyond 6 streams (held flat, widening spread), other scale factors and newer CPUs (no per-core "
        "speed normalisation). The text's '18% drop' and '31.6% less time' are ratios taken against the "
        "network-transfer figure (Table 3: -15.5 % power, -24.0 % interval relative to storage-transfer)."
    )
    return ModelCard(
        name="sap-iq-dqp",
        description="SAP IQ multiplex DQP mode, TPC-H power/throughput vs streams and cluster size",
        parameters=params,
        residuals=tuple(residuals),
        sources=(
            cite("power_storage_qpph"),
            cite("dqp_choice_single_stream"),
            cite("dqp_choice_concurrent"),
            cite("vm_vcpus"),
            cite("tpch_queries_per_stream"),
        ),
        note=note,
    )

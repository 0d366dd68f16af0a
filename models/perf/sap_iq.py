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
the others, the aggregate stays), so T is held at T6 (P50 unchanged; the band widens, below).
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

Caches: given the design's main and temp caches (`CacheFit`), the metrics are multiplied by the
study-derived cache factor of `models.perf.sap_iq_fit` (1 at the study's cache ratios, lower where the main
caches hold less of the data or the temp caches less of what the streams need).

Uncertainty: each Table 3 figure is read with the quoted-figure band of
`models.uncertainty.from_point` (+-5 % 1 sd), sampled independently, seeded; the cache slowdowns over their
stated ranges; and a lognormal spread of `band_sd_per_doubling` relative sd per doubling of distance from the
study's point (nodes, vCPUs per node, per-core speed, streams, data: `sap_iq_fit.band_sd`, the rule
PostgreSQL TPS uses), so a band widens as the model extrapolates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from models.calibration_data import figure, point
from models.percentiles import percentiles
from models.perf import sap_iq_fit
from models.perf.sap_iq_fit import CacheFit
from models.uncertainty import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    QUOTED_RELATIVE_SD,
    Distribution,
    Estimate,
    FloatArray,
    Normal,
    Uniform,
    from_point,
    sample_all,
)
from models.vocabulary import DQP_MODES as DQP_MODES  # declared once in the vocabulary; re-exported
from models.vocabulary import DqpMode as DqpMode

DATASET = "sapiq_dqp_003"

STORAGE: DqpMode = "storage-transfer"
NETWORK: DqpMode = "network-transfer"
MODE_KEY: dict[str, str] = {STORAGE: "storage", NETWORK: "network"}

# A modelling assumption, not a study figure (the study has a single cluster size), reported on the model card.
CORE_SCALING_EXPONENT = Uniform(0.9, 1.0)  # near-linear in total cores: 2x cores -> 1.87x to 2x

# Caches that take more than the quoted-figure band (1 sd) off the metrics bind before the CPU does.
MEMORY_BINDS_BELOW = 1.0 - QUOTED_RELATIVE_SD

SECONDS_PER_HOUR = 3600.0
MS_PER_S = 1000.0

BindingResource = Literal["cpu", "storage", "dqp-network", "memory"]


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
        power={m: f(f"power_{MODE_KEY[m]}_qpph") for m in DQP_MODES},
        elapsed_ms={m: f(f"power_elapsed_{MODE_KEY[m]}_ms") for m in DQP_MODES},
        throughput6={m: f(f"throughput_{MODE_KEY[m]}_qthh") for m in DQP_MODES},
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
    d: dict[str, Distribution] = {"beta": CORE_SCALING_EXPONENT, "z": Normal(0.0, 1.0)}
    for k in ("main", "temp"):
        d[f"p_{k}"] = from_point(point(DATASET, f"cache_miss_slowdown_{k}"))
    for m in DQP_MODES:
        k = MODE_KEY[m]
        d[f"power_{k}"] = from_point(point(DATASET, f"power_{k}_qpph"))
        d[f"elapsed_{k}"] = from_point(point(DATASET, f"power_elapsed_{k}_ms"))
        d[f"t6_{k}"] = from_point(point(DATASET, f"throughput_{k}_qthh"))
    return d


def _nominal() -> dict[str, FloatArray]:
    """Parameter medians as one-sample arrays (a point prediction, no Monte Carlo)."""
    ref = reference()
    beta = 0.5 * (CORE_SCALING_EXPONENT.low + CORE_SCALING_EXPONENT.high)
    out = {"beta": np.array([beta]), "z": np.array([0.0])}
    for k in ("main", "temp"):
        out[f"p_{k}"] = np.array([figure(DATASET, f"cache_miss_slowdown_{k}")])
    for m in DQP_MODES:
        k = MODE_KEY[m]
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


@dataclass(frozen=True, slots=True)
class Away:
    """Where a design leaves study 003 besides nodes, cores and streams: its per-core speed (base clock over
    the study's) and, when given, its caches and data (`sap_iq_fit.CacheFit`)."""

    cpu_speed: float = 1.0
    caches: CacheFit | None = None
    cpu_doublings: float | None = None  # the CPU's distance in generations (None: the base clock's)


def _away(nodes: FloatArray, cores: FloatArray, streams: FloatArray, prm: dict[str, FloatArray], away: Away
          ) -> FloatArray:
    """The samples' multiplier away from the study: the lognormal band spread (`sap_iq_fit.band_sd`, median 1)
    times the cache factor (1 without caches)."""
    nd = np.broadcast(nodes, cores, streams).nd
    data = None if away.caches is None else away.caches.data_tb
    sd = np.vectorize(lambda n, c, s: sap_iq_fit.band_sd(n, c / away.cpu_speed, away.cpu_speed, s, data,
                                                         away.cpu_doublings), otypes=[float])(nodes, cores, streams)
    out: FloatArray = np.exp(_column(prm["z"], nd) * sd)
    if away.caches is not None:
        if np.size(nodes) != 1 or np.size(streams) != 1:
            raise ValueError("caches apply to one node count and one stream count")
        out = out * sap_iq_fit.cache_factor(away.caches, float(np.ravel(nodes)[0]), float(np.ravel(streams)[0]),
                                            _column(prm["p_main"], nd), _column(prm["p_temp"], nd))
    return out


def _power_samples(mode: DqpMode, nodes: FloatArray, cores: FloatArray, prm: dict[str, FloatArray],
                   away: Away) -> FloatArray:
    nd = np.broadcast(nodes, cores).nd
    k = MODE_KEY[mode]
    scale = _scale(nodes, cores, _column(prm["beta"], nd))
    return _column(prm[f"power_{k}"], nd) * scale * _away(nodes, cores, np.asarray(1.0), prm, away)


def _throughput_samples(
    mode: DqpMode, nodes: FloatArray, streams: FloatArray, cores: FloatArray, prm: dict[str, FloatArray],
    away: Away,
) -> FloatArray:
    ref = reference()
    nd = np.broadcast(nodes, streams, cores).nd
    k = MODE_KEY[mode]
    t1 = ref.queries_per_stream * SECONDS_PER_HOUR * ref.scale_factor_gb / (_column(prm[f"elapsed_{k}"], nd) / MS_PER_S)
    t = _interpolated_throughput(t1, _column(prm[f"t6_{k}"], nd), streams, ref.streams_measured)
    return t * _scale(nodes, cores, _column(prm["beta"], nd)) * _away(nodes, cores, streams, prm, away)


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
    away: Away = Away(),
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    """TPC-H Power@Size (QppH@Size, one query stream) of an SAP IQ multiplex in DQP `mode`.

    Formula: Power = Power300[mode] * (nodes * cores_per_node / (4 * 14)) ** beta,
    Power300 from Table 3 (93,720.6 storage-transfer, 79,225.5 network-transfer),
    beta ~ U(0.9, 1.0) (assumed near-linear core scaling; the study has one cluster size).
    `cores_per_node` defaults to the study's 14 vCPU per VM. Numeric arguments broadcast:
    with arrays, p10/p50/p90 are arrays of the broadcast shape. `samples=0` gives a point
    prediction at the parameter medians. `away`: per-core speed and caches (see the module text).
    Source: 003_4970b14b1c56345f.txt, Results, Table 3; Appendix A, Table 7.
    """
    m = check_mode(mode)
    n, c, _ = _inputs(nodes, cores_per_node)
    return _to_estimate(_power_samples(m, n, c, _params(samples, seed), away), "QppH@Size")


def predict_throughput_metric(
    mode: str,
    nodes: ArrayLike,
    query_streams: ArrayLike,
    cores_per_node: ArrayLike | None = None,
    *,
    away: Away = Away(),
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    """TPC-H Throughput@Size (QthH@Size) with `query_streams` concurrent streams in DQP `mode`.

    Formula: Throughput = T[mode](S) * (nodes * cores_per_node / 56) ** beta * exp(z * sd) * f_cache;
    T(S) = T1 + (T6 - T1) * (min(S, 6) - 1) / 5, T1 = 22 * 3600 * 300 / Ts(power test, s),
    T6 = Table 3 Throughput@300GB (59,874 storage-, 78,806 network-transfer);
    sd = 0.10 per doubling of distance from the study (`sap_iq_fit.band_sd`), z ~ N(0, 1);
    f_cache = `sap_iq_fit.cache_factor` with `away.caches` (else 1); beta ~ U(0.9, 1.0).
    Interpolated between 1 and 6 streams, extrapolated elsewhere.
    Source: 003_4970b14b1c56345f.txt, Results, Table 3; TPC-H specification Clause 5.4.
    """
    m = check_mode(mode)
    n, c, s = _inputs(nodes, cores_per_node, query_streams)
    return _to_estimate(_throughput_samples(m, n, s, c, _params(samples, seed), away), "QthH@Size")


@dataclass(frozen=True, slots=True)
class IqPrediction:
    power: Estimate
    throughput: Estimate
    binding_resource: str  # "cpu" | "storage" | "dqp-network" | "memory"
    mode: DqpMode
    extrapolated: bool  # away from the measured point: the band is wider (`sap_iq_fit.band_sd` > 0)
    cache_factor: float = 1.0  # the caches' factor on the metrics at the nominal slowdowns (1: the study's ratio)
    distances: tuple[tuple[str, float], ...] = ()  # doublings from the study's point per dimension (scalar inputs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "power": self.power.to_dict(),
            "throughput": self.throughput.to_dict(),
            "binding_resource": self.binding_resource,
            "extrapolated": self.extrapolated,
            "cache_factor": self.cache_factor,
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
    away: Away = Away(),
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
) -> IqPrediction:
    """Power and throughput metrics from one shared Monte Carlo draw, and the binding resource.

    See `predict_power_metric` and `predict_throughput_metric` for the formulas; both use
    the same parameter samples, so their ranges are consistent. `query_streams` is a scalar
    (it decides the binding resource); `nodes` and `cores_per_node` may be arrays (scalars with caches).
    Caches that cost more than the band's in-sample spread (`MEMORY_BINDS_BELOW`) make memory the binding
    resource.
    """
    m = check_mode(mode)
    n, c, s = _inputs(nodes, cores_per_node, query_streams)
    if s.ndim:
        raise ValueError("predict_iq takes one query_streams value; use predict_throughput_metric for arrays")
    prm = _params(samples, seed)
    data = None if away.caches is None else away.caches.data_tb
    sd = np.vectorize(lambda n_, c_: sap_iq_fit.band_sd(n_, c_ / away.cpu_speed, away.cpu_speed, float(s), data,
                                                        away.cpu_doublings), otypes=[float])(n, c)
    factor = 1.0
    if away.caches is not None:
        p = _nominal()
        factor = float(np.ravel(sap_iq_fit.cache_factor(away.caches, float(np.ravel(n)[0]), float(s), p["p_main"],
                                                        p["p_temp"]))[0])
    binding = binding_resource(m, float(s), dqp_network_gbps)
    dists = () if np.size(n) != 1 or np.size(c) != 1 else tuple(sap_iq_fit.distances(
        float(np.ravel(n)[0]), float(np.ravel(c)[0]) / away.cpu_speed, away.cpu_speed, float(s), data,
        away.cpu_doublings).items())
    return IqPrediction(
        power=_to_estimate(_power_samples(m, n, c, prm, away), "QppH@Size"),
        throughput=_to_estimate(_throughput_samples(m, n, s, c, prm, away), "QthH@Size"),
        binding_resource="memory" if factor < MEMORY_BINDS_BELOW and binding != "dqp-network" else binding,
        mode=m,
        extrapolated=bool(np.any(sd > 1e-12)),
        cache_factor=factor,
        distances=dists,
    )

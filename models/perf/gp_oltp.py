"""Greenplum 6 OLTP throughput (pgbench-style TPS) on given hardware, from the calibrated USL.

Study 004 (`004_c20ff83f1741d1fe.txt`, dataset `gp6_oltp_004`) measured a 1 master + 4
segment host cluster and quotes 220,000 select TPS on 192 cores (1 master + 18 segments)
with the master CPU above 90 % at the select peak. The USL of `usl_calibration` gives the
curve of the measured cluster; this module scales it to other coordinator and segment
hardware (`predict_tps`) and says which resource binds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import Point, point
from models.model_card import ModelCard
from models.percentiles import percentiles
from models.perf import gp_bands, measured
from models.perf.usl import UslFit, as_output, positive_array, usl
from models.perf.usl_calibration import calibrated, usl_card
from models.uncertainty import DEFAULT_SAMPLES, DEFAULT_SEED, Estimate, FloatArray, from_point, rng
from models.vocabulary import OLTP_MIXES, OltpMix

# --------------------------------------------------------------------------------------------
# Greenplum 6 TPS on given hardware

_DS = "gp6_oltp_004"
BINDING_COORDINATOR = "coordinator CPU"
BINDING_SEGMENT_CPU = "segment CPU"
BINDING_SEGMENT_WRITES = "segment hosts (WAL flush / lock capacity)"
BINDING_CLIENTS = "the clients (each runs one transaction at a time)"
BINDING_SHARED_HOST = "CPU of the segment host running the coordinator"


@dataclass(frozen=True, slots=True)
class _Gp6Scaling:
    env_tps: float
    env_cores: float
    share: Point  # master's share of a select's CPU in the 192-core environment (assumed, with range)
    ref_segment_hosts: float
    statements: dict[str, float]

    def per_core(self, share: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Select TPS per dedicated coordinator core and per segment core.

        In the 192-core box master and segments share the cores: 220,000 TPS x (CPU per select)
        = 192 cores, so a core doing only master work serves 220,000 / (192 x share) selects.
        """
        s = np.asarray(share, dtype=float)
        return self.env_tps / (self.env_cores * s), self.env_tps / (self.env_cores * (1.0 - s))

    def implied_reference_coordinator_cores(self, share: ArrayLike) -> FloatArray:
        """The master size at which the 5-host cluster's 79,000 select TPS matches the 192-core figure."""
        k_coord, _ = self.per_core(share)
        return calibrated("gp6-select").peak_throughput / k_coord


@cache
def _gp6_scaling() -> _Gp6Scaling:
    return _Gp6Scaling(
        env_tps=point(_DS, "env192_select_tps").value,
        env_cores=point(_DS, "env192_cores").value,
        share=point(_DS, "coordinator_cpu_share_select"),
        ref_segment_hosts=point(_DS, "segment_hosts").value,
        # Coordinator work per transaction, counted in statements it parses, plans and dispatches;
        # the single-statement scripts of 004 sections 2.2-2.4 send one each.
        statements={
            "tpcb": point(_DS, "tpcb_statements_per_txn").value,
            "select": 1.0,
            "update": 1.0,
            "insert": 1.0,
        },
    )


@dataclass(frozen=True, slots=True)
class TpsPrediction:
    """TPS on the given hardware.

    For scalar inputs the estimate's percentiles, `peak_clients` and `capacity_ratio` are floats
    and `binding_resource` a string; for array inputs they are arrays of the broadcast shape
    (`binding_resource` stays a string when every element binds on the same resource).
    """

    estimate: Estimate
    binding_resource: Any  # str, or an array of str when elements differ
    peak_clients: Any  # float or array
    capacity_ratio: Any  # capacity relative to the study's 1 master + 4 segment host cluster


def _reference(mix: str) -> tuple[UslFit, float]:
    """The curve a design's TPS is scaled from and that curve's cluster capacity (study frame): the study's USL of
    `mix` on its reference cluster (1.0), or, inside `measured.measured(...)`, the customer's measured sweep with
    the capacity ratio of the cluster it was measured on (`measured.MeasuredCurve`)."""
    m = measured.oltp_curve(mix)
    return (calibrated(f"gp6-{mix}"), 1.0) if m is None else (m.fit, m.capacity_ratio)


def capacity_ratio(mix: OltpMix, coordinator_cores: float, segment_hosts: float,
                   segment_cores_per_host: float) -> float:
    """A cluster's capacity relative to the study's reference cluster (central share): the ratio a measured
    sweep's cluster is placed at, so a design is scaled from it by its own ratio over this one."""
    cc, hh, ss = (np.asarray(v, dtype=float) for v in (coordinator_cores, segment_hosts, segment_cores_per_host))
    rc, ro, _ = _capacity_ratios(mix, cc, hh, ss, _gp6_scaling().share.value)
    return float(np.minimum(rc, ro))


def _scaled_usl(n: FloatArray, r: FloatArray, lam: Any, sigma: Any, kappa: Any) -> FloatArray:
    """r * X_ref(N / r): capacity scaled by r stretches the curve along both axes.

    Single-client rate (latency) is unchanged by more hardware; the contention and coherency
    terms act on the load per unit of capacity. Below one client-equivalent the curve is the
    linear lambda N, which keeps the prediction non-decreasing in r.
    """
    m = n / r
    return np.where(m < 1.0, lam * n, r * usl(np.maximum(m, 1.0), lam, sigma, kappa))


def _capacity_ratios(
    mix: str, coordinator_cores: FloatArray, segment_hosts: FloatArray, segment_cores: FloatArray, share: Any
) -> tuple[FloatArray, FloatArray, str]:
    sc = _gp6_scaling()
    k_coord, k_seg = sc.per_core(share)
    ref_peak = calibrated(f"gp6-{mix}").peak_throughput
    # Every transaction passes the coordinator; a write costs it at least what a select does.
    r_coord = k_coord * coordinator_cores / (sc.statements[mix] * ref_peak)
    if mix == "select":
        r_seg = k_seg * segment_hosts * segment_cores / ref_peak
        return r_coord, r_seg, BINDING_SEGMENT_CPU
    # Writes peaked far below select on the same master, so the master was not what bound them;
    # the study's levers for them are segment WAL flushing (checkpoint_segments, wal_segment_size).
    # One segment per host in the study: capacity scales with segment hosts.
    return r_coord, segment_hosts / sc.ref_segment_hosts, BINDING_SEGMENT_WRITES


def _combined(mix: str, r_coord: Any, r_other: Any, pooled: bool) -> Any:
    """The cluster's capacity ratio from its coordinator's and its segments' (`_capacity_ratios`): the smaller, on
    separate hosts; with the coordinator on a segment host (`pooled`), a select's coordinator work and that host's
    share of the segment work take turns on the same cores, so the work per transaction adds up there:
    1 / r = 1 / r_coord + 1 / r_seg (on one host, the cores' total TPS whatever the coordinator's share). Writes are
    bound by the segment hosts' WAL and locks, not their CPU, so their ratio stays the smaller of the two.

    >>> float(_combined("select", 2.0, 2.0, True)), float(_combined("select", 2.0, 2.0, False))
    (1.0, 2.0)
    """
    if pooled and mix == "select":
        return r_coord * r_other / (r_coord + r_other)
    return np.minimum(r_coord, r_other)


def _checked_cluster(
    mix: OltpMix,
    n: int,
    clients: ArrayLike,
    coordinator_cores: ArrayLike,
    segment_hosts: ArrayLike,
    segment_cores_per_host: ArrayLike,
) -> tuple[FloatArray, ...]:
    """The inputs refused with the argument's name when out of range, then broadcast to one shape."""
    if mix not in OLTP_MIXES:
        raise ValueError(f"unknown mix '{mix}'; one of {', '.join(OLTP_MIXES)}")
    if n < 0:
        raise ValueError("n (Monte Carlo samples) must be >= 0")
    arrays = [
        positive_array(v, name)
        for v, name in (
            (clients, "clients"),
            (coordinator_cores, "coordinator_cores"),
            (segment_hosts, "segment_hosts"),
            (segment_cores_per_host, "segment_cores_per_host"),
        )
    ]
    return tuple(np.broadcast_arrays(*arrays))


def _tps_range(
    mix: OltpMix, nc: FloatArray, cc: FloatArray, hh: FloatArray, ss: FloatArray, n: int, seed: int, pooled: bool
) -> Estimate:
    """P10/P50/P90 TPS over `n` draws of the USL parameters (their covariance) and of the coordinator's share of
    a select's CPU (its assumed range), all broadcast in one array of n x the input shape."""
    ref, r_ref = _reference(mix)
    d = ref.draws(n, seed)
    f = from_point(_gp6_scaling().share).sample(n, rng(seed + 1))
    shape = (-1,) + (1,) * nc.ndim
    rc, ro, _ = _capacity_ratios(mix, cc[None, ...], hh[None, ...], ss[None, ...], f.reshape(shape))
    z = gp_bands.z_draw(n, seed).reshape(shape)  # the band's extrapolation part (`gp_bands`)
    x = _scaled_usl(
        nc[None, ...],
        _combined(mix, rc, ro * np.exp(z * gp_bands.oltp_hosts_sd(hh[None, ...])), pooled) / r_ref,
        d[:, 0].reshape(shape),
        d[:, 1].reshape(shape),
        d[:, 2].reshape(shape),
    ) * np.exp(z * gp_bands.oltp_clients_sd(nc[None, ...]))
    p10, p50, p90 = percentiles(x, [10.0, 50.0, 90.0], axis=0)
    return Estimate(as_output(p10), as_output(p50), as_output(p90), "TPS")


def predict_tps(
    mix: OltpMix,
    clients: ArrayLike,
    coordinator_cores: ArrayLike,
    segment_hosts: ArrayLike,
    segment_cores_per_host: ArrayLike,
    n: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    pooled: bool = False,
) -> TpsPrediction:
    """Greenplum 6 pgbench-style TPS for `mix` at `clients` on the given cluster (`pooled`: the coordinator runs on
    a segment host of S cores, C = S, see `_combined`).

    X_H(N) = r * X_ref(N / r), with X_ref the GP6 USL calibration (5-host GCP cluster) and

        select: r = min(k_coord * C, k_seg * H * S) / P_select
        writes: r = min(k_coord * C / (statements * P_mix), H / 4)
        k_coord = 220,000 / (192 * f),  k_seg = 220,000 / (192 * (1 - f))

    C coordinator cores, H segment hosts, S cores per segment host, P the calibrated peak,
    f the master's share of a select's CPU (assumed 0.5, range 0.3-0.7). Select is coordinator-CPU
    bound per 004 ("master CPU usage can exceed 90%"); the 192-core figure sets the TPS per core.
    Write capacity scales with segment hosts only: the study ran one segment per host and does
    not print the hosts' size, so cores per segment host enter the select capacity alone.

    All numeric arguments broadcast (scalars or arrays). `n` Monte Carlo samples draw the USL
    parameters from their covariance and f from its range; n = 0 returns the central prediction
    only (p10 = p50 = p90), the fast path for optimizers. Monte Carlo holds n x (broadcast size)
    floats at once: pass n = 0, or a small n, for large arrays.
    """
    nc, cc, hh, ss = _checked_cluster(mix, n, clients, coordinator_cores, segment_hosts, segment_cores_per_host)
    ref, r_ref = _reference(mix)
    r_coord, r_other, other_name = _capacity_ratios(mix, cc, hh, ss, _gp6_scaling().share.value)
    r = _combined(mix, r_coord, r_other, pooled) / r_ref
    central = _scaled_usl(nc, r, ref.lam, ref.sigma, ref.kappa)
    binding_arr = np.where(r_coord <= r_other, BINDING_COORDINATOR, other_name) if not (pooled and mix == "select") \
        else np.full(r.shape, BINDING_SHARED_HOST)
    first = str(binding_arr.flat[0])
    binding: Any = first if np.all(binding_arr == first) else binding_arr
    peak = r * ref.peak_clients
    if n == 0:
        est = Estimate(as_output(central), as_output(central), as_output(central), "TPS")
    else:
        est = _tps_range(mix, nc, cc, hh, ss, n, seed, pooled)
    return TpsPrediction(est, binding, as_output(peak), as_output(r))


def client_ceiling_tps(mix: OltpMix, clients: ArrayLike) -> FloatArray:
    """The most TPS `clients` give on any hardware: each runs one transaction at a time, so at best every one
    at the single-client rate lambda (the USL's linear term; X_H(N) = r X_ref(N / r) <= lambda N for every r, and
    equals it once the cluster outgrows the clients, N / r < 1). Little's law: clients / latency.

    >>> round(float(client_ceiling_tps("tpcb", 100)))
    37477
    """
    return np.asarray(_reference(mix)[0].lam * np.asarray(clients, dtype=float), dtype=float)


# --------------------------------------------------------------------------------------------
# TPS at a percentile against segment hosts, for host searches
#
# One OLTP cluster's TPS percentile as a function of its segment host count, for host searches.
#
# A host search (`models.sizing.greenplum.settle`) probes one candidate's TPS at a percentile host count after host
# count, and the shortlist settles many candidates sharing a coordinator and a segment server: through
# `predict_tps` each probe redrew the coordinator's CPU share, rechecked its inputs and recomputed
# what no host count changes. `TpsCurve` holds those per (mix, clients, coordinator cores, segment cores),
# computes each new host count once (a batch of counts in one numpy call) and knows where the curve is flat:
# from the count where every draw's segment capacity reaches its coordinator's, the draws' capacity ratio is
# the coordinator's, so every later count has the same value.
#
# The arithmetic is `_tps_range`'s, operation for operation (each host count's column of draws is
# computed elementwise, so a batch gives every count the bits it gets alone); tests hold the two equal.

IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class _Draws:
    """The Monte Carlo draws of one mix, as columns (n, 1): USL parameters and TPS per core of each role."""

    lam: FloatArray
    sigma: FloatArray
    kappa: FloatArray
    k_coord: FloatArray
    k_seg: FloatArray
    ref_peak: float
    r_ref: float  # the capacity ratio of the curve's cluster (1.0: the study's)


@lru_cache(maxsize=8)
def _draws(mix: OltpMix, n: int, seed: int, curve: measured.MeasuredCurve | None = None) -> _Draws:
    ref, r_ref = (calibrated(f"gp6-{mix}"), 1.0) if curve is None else (curve.fit, curve.capacity_ratio)
    d = ref.draws(n, seed)
    sc = _gp6_scaling()
    f = from_point(sc.share).sample(n, rng(seed + 1))
    k_coord, k_seg = sc.per_core(f.reshape(-1, 1))
    col = (-1, 1)
    return _Draws(d[:, 0].reshape(col), d[:, 1].reshape(col), d[:, 2].reshape(col), k_coord, k_seg,
                  calibrated(f"gp6-{mix}").peak_throughput, r_ref)


@dataclass(eq=False)
class TpsCurve:
    """TPS at the `q`-th percentile of the draws against segment hosts, for one coordinator and segment server."""

    mix: OltpMix
    clients: float
    coordinator_cores: float
    segment_cores: float
    q: float
    n: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED
    measured: measured.MeasuredCurve | None = None
    pooled: bool = False  # the coordinator on a segment host (`_combined`)
    _known: dict[int, float] = field(default_factory=dict, repr=False)
    _flat_from: int = field(default=0, repr=False)  # from this count on every draw binds on the coordinator

    def __post_init__(self) -> None:
        self._d = _draws(self.mix, self.n, self.seed, self.measured)
        self._flat_from = self._coordinator_bound_from()

    def _r_coord(self) -> FloatArray:
        """The coordinator's capacity ratio per draw (recomputed, not kept: the curves kept hold no draws)."""
        d = self._d
        r: FloatArray = d.k_coord * self.coordinator_cores / (_gp6_scaling().statements[self.mix] * d.ref_peak)
        return r

    def _r_other(self, hosts: FloatArray) -> FloatArray:
        """The segment side's capacity ratio per draw (rows) and host count (columns), as `_capacity_ratios`, widened
        with the distance from the study's host count as `_tps_range` widens it."""
        z = gp_bands.z_draw(self.n, self.seed).reshape(-1, 1)
        if self.mix == "select":
            r: FloatArray = self._d.k_seg * hosts * self.segment_cores / self._d.ref_peak
        else:
            r = np.broadcast_to(hosts / _gp6_scaling().ref_segment_hosts, (self.n, np.shape(hosts)[-1]))
        widened: FloatArray = r * np.exp(z * gp_bands.oltp_hosts_sd(hosts))
        return widened

    def _coordinator_bound_from(self) -> int:
        """The fewest hosts (or, where the band's widening spreads the draws apart, a count found by doubling) at
        which every draw's segment ratio reaches its coordinator ratio, checked exactly
        (each ratio is a product and quotient of positive numbers by the host count: rounding keeps it
        non-decreasing in the count, so it holds at every larger count too); 0 when too far to matter."""
        r_coord = self._r_coord()
        if self.pooled and self.mix == "select":
            return 0  # the shared host's work grows with every count: never flat
        if self.mix == "select":
            need = r_coord * self._d.ref_peak / (self._d.k_seg * self.segment_cores)
        else:
            need = r_coord * _gp6_scaling().ref_segment_hosts
        guess = float(np.max(need))
        if not math.isfinite(guess) or guess > 1e9:
            return 0
        h = max(math.ceil(guess), 1)
        for _ in range(4):
            if bool(np.all(self._r_other(np.array([[float(h)]])) >= r_coord)):
                return h
            h += 1
        while h < 1e7:  # the band's widening (`_r_other`) moves the draws' bounds apart: a count where all bind
            h *= 2
            if bool(np.all(self._r_other(np.array([[float(h)]])) >= r_coord)):
                return h
        return 0

    def at(self, hosts: IntArray) -> FloatArray:
        """The percentile TPS at each host count (those not yet known computed in one call)."""
        keys = [self._key(int(h)) for h in np.asarray(hosts).ravel()]
        new = sorted({k for k in keys if k not in self._known})
        if new:
            vals = self._compute(np.array(new, dtype=float))
            self._known.update(zip(new, (float(v) for v in vals), strict=True))
        return np.array([self._known[k] for k in keys], dtype=float)

    def _key(self, hosts: int) -> int:
        return hosts if self._flat_from <= 0 or hosts < self._flat_from else self._flat_from

    def _compute(self, hosts: FloatArray) -> FloatArray:
        d = self._d
        hh = hosts[None, :]
        r = _combined(self.mix, self._r_coord(), self._r_other(hh), self.pooled) / d.r_ref
        clients = np.full(hh.shape, self.clients)
        x = _scaled_usl(clients, r, d.lam, d.sigma, d.kappa) * np.exp(
            gp_bands.z_draw(self.n, self.seed).reshape(-1, 1) * gp_bands.oltp_clients_sd(clients))
        return np.asarray(percentiles(x, self.q, axis=0), dtype=float)


def curve(mix: OltpMix, clients: float, coordinator_cores: float, segment_cores: float, q: float,
          pooled: bool = False) -> TpsCurve:
    """The curve of one cluster at percentile `q` (kept: a shortlist settles many candidates on the same one),
    from the measured sweep of `mix` inside a sizing on measurements."""
    return _curve(mix, clients, coordinator_cores, segment_cores, q, measured.oltp_curve(mix), pooled)


@lru_cache(maxsize=256)
def _curve(mix: OltpMix, clients: float, coordinator_cores: float, segment_cores: float, q: float,
           curve: measured.MeasuredCurve | None, pooled: bool) -> TpsCurve:
    return TpsCurve(mix, clients, coordinator_cores, segment_cores, q, measured=curve, pooled=pooled)


def forget_curves() -> None:
    """Drop the kept curves and draws: the next search computes them as a fresh process does (`refarch bench`)."""
    _curve.cache_clear()
    _draws.cache_clear()


# --------------------------------------------------------------------------------------------
# Model card


def scaling_check() -> dict[str, Any]:
    """What the two select figures say together, and why it is not a validation."""
    sc = _gp6_scaling()
    lo, mid, hi = sc.share.low, sc.share.value, sc.share.high
    assert lo is not None and hi is not None
    implied = [float(sc.implied_reference_coordinator_cores(s)) for s in (lo, mid, hi)]
    k_coord, k_seg = sc.per_core(mid)
    return {
        "select_tps_per_coordinator_core": float(k_coord),
        "select_tps_per_segment_core": float(k_seg),
        "implied_reference_master_cores": {"share_low": implied[0], "share": implied[1], "share_high": implied[2]},
        "validated": False,
        "why": (
            "004_c20ff83f1741d1fe.txt lists the master and segment VM sizes in a table that is an image "
            "absent from the text, so the 5-host cluster's core count is unknown. The 192-core figure sets "
            "select TPS per core; the 79,000 TPS peak then implies the master size shown here. With the "
            "real master size, (implied - actual) / actual would be the scaling error."
        ),
    }



def gp6_select_card() -> ModelCard:
    """The gp6-select USL card with the hardware-scaling check it cannot pass yet (see `scaling_check`)."""
    return usl_card(
        "gp6-select",
        more_extra={"scaling_check": scaling_check()},
        more_notes=(
            "Hardware scaling: TPS per core from the 192-core figure; the check against the 5-host "
            "cluster cannot be made because its master size is not in the text (see extra.scaling_check).",
        ),
    )


def bench_predict() -> object:
    """One central TPS prediction (the `refarch bench` hook)."""
    return predict_tps("select", 100, 32, 4, 48, n=0)


def bench_monte_carlo(samples: int) -> object:
    """One TPS estimate with `samples` Monte Carlo draws (the `refarch bench` hook)."""
    return predict_tps("select", 100, 32, 4, 48, n=samples)

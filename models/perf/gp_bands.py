"""Greenplum bands that widen with extrapolation: the rule of `models.perf.bands` (PostgreSQL TPS and SAP IQ use it
too) applied to the scan / load / queries-per-hour roofline and to the OLTP model.

Each estimate's Monte Carlo samples are multiplied by exp(z x sd), z ~ N(0, 1) (one seeded draw, median 1, so the P50
hardly moves) and sd = `band_sd_per_doubling` x the distance in doublings from the nearest calibration point,
added in quadrature over:

* scan, load and queries per hour (`gp_vsphere_000`, `gp_nvme_ra_002`): the CPU (SPECrate2017_int_base per core against
  its generation's calibrated processor: study 000's Xeon E5-2470 by its stand-in, study 002's EPYC 9454P; a processor
  without a score counts as its generation's, as the roofline does), the segment hosts (both studies' clusters: 4),
  and for queries per hour the queries running at once (study 002's single stream and 15 concurrent streams);
* OLTP TPS (`gp6_oltp_004`): the segment hosts (study 004's 4), on the segment side's capacity (a cluster bound by
  its coordinator is not made less certain by hosts it does not use), and the clients outside the measured 10-200.

At a calibration point sd = 0 and the band is the in-sample one; a rate is multiplied, a time (a full scan) divided.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure
from models.fit_cache import disk_cached
from models.uncertainty import DEFAULT_SEED, rng

FloatArray = NDArray[np.float64]
GP000 = "gp_vsphere_000"
GP002 = "gp_nvme_ra_002"
GP004 = "gp6_oltp_004"
SPREAD_SEED_OFFSET = 33  # the band's own stream of the seeded draws (not a study figure)


def _log2_dist(value: ArrayLike, calibrated: float) -> FloatArray:
    out: FloatArray = np.abs(np.log2(np.maximum(np.asarray(value, dtype=float), 1e-12) / calibrated))
    return out


def cpu_doublings(specrate_per_core: float | None, generation: float, gen1_specrate_per_core: float | None) -> float:
    """Doublings of a processor's SPECrate2017_int_base per core from its generation's calibrated processor (study
    000's stand-in score for generation 0, study 002's EPYC 9454P for 1); 0 without a score (the roofline counts it
    as its generation's processor).

    >>> cpu_doublings(None, 1.0, 10.86), cpu_doublings(10.86, 1.0, 10.86), round(cpu_doublings(8.08, 0.0, 10.86), 2)
    (0.0, 0.0, 1.0)
    """
    if specrate_per_core is None:
        return 0.0
    ref = figure(GP000, "study_cpu_specrate_per_core") if generation < 0.5 else gen1_specrate_per_core
    return 0.0 if ref is None else float(_log2_dist(specrate_per_core, ref))


def scan_sd(cpu: ArrayLike, hosts: ArrayLike) -> FloatArray:
    """The extrapolation sd of the scan and load roofline: CPU doublings and segment hosts against the studies' 4.

    >>> float(scan_sd(0.0, 4)), round(float(scan_sd(0.0, 64)), 2), round(float(scan_sd(1.0, 64)), 3)
    (0.0, 0.4, 0.412)
    """
    hosts_d = _log2_dist(hosts, figure(GP000, "segment_hosts"))
    return np.asarray(figure(GP000, "band_sd_per_doubling") * np.hypot(np.asarray(cpu, dtype=float), hosts_d))


def queries_sd(cpu: ArrayLike, hosts: ArrayLike, running: ArrayLike) -> FloatArray:
    """`scan_sd` with the queries running at once against study 002's nearer test (1 stream or 15 concurrent).

    >>> float(queries_sd(0.0, 4, 15)), round(float(queries_sd(0.0, 4, 60)), 2)
    (0.0, 0.2)
    """
    streams = np.minimum(_log2_dist(running, 1.0), _log2_dist(running, figure(GP002, "tpcds_streams")))
    base = scan_sd(cpu, hosts) / figure(GP000, "band_sd_per_doubling")
    return np.asarray(figure(GP000, "band_sd_per_doubling") * np.hypot(base, streams))


def oltp_hosts_sd(hosts: ArrayLike) -> FloatArray:
    """The OLTP model's extrapolation sd over segment hosts (study 004's 4): it widens the segment side's capacity,
    which the host count scales, not a coordinator-bound cluster's rate (more hosts never lower a percentile).

    >>> float(oltp_hosts_sd(4)), round(float(oltp_hosts_sd(16)), 2)
    (0.0, 0.2)
    """
    return np.asarray(figure(GP004, "band_sd_per_doubling") * _log2_dist(hosts, figure(GP004, "segment_hosts")))


def oltp_clients_sd(clients: ArrayLike) -> FloatArray:
    """The OLTP model's extrapolation sd over clients outside study 004's measured 10-200 (0 inside): it widens the
    whole rate.

    >>> float(oltp_clients_sd(100)), round(float(oltp_clients_sd(800)), 2), round(float(oltp_clients_sd(5)), 2)
    (0.0, 0.2, 0.1)
    """
    lo, hi = figure(GP004, "clients_min"), figure(GP004, "clients_max")
    c = np.asarray(clients, dtype=float)
    away = np.where(c < lo, _log2_dist(c, lo), np.where(c > hi, _log2_dist(c, hi), 0.0))
    return np.asarray(figure(GP004, "band_sd_per_doubling") * away)


@disk_cached
def _draw(n: int, seed: int) -> FloatArray:
    """The band's seeded standard normal draw, kept on disk beside the fits (`models.fit_cache`): a sizing that finds
    it does not import numpy.random."""
    return rng(seed + SPREAD_SEED_OFFSET).standard_normal(n)


@cache
def z_draw(n: int, seed: int = DEFAULT_SEED) -> FloatArray:
    """The band's seeded standard normal draw of `n` (read-only; the same for every design)."""
    z = np.array(_draw(n, seed), dtype=float)
    z.setflags(write=False)
    return z


def spread(sd: ArrayLike, n: int, seed: int = DEFAULT_SEED) -> FloatArray:
    """exp(z x sd) for `n` seeded draws: shape sd.shape + (n,) (rows of designs, columns of draws); 1 where sd = 0.

    >>> s = spread(np.array([0.0, 0.5]), 2_000)
    >>> s.shape, float(s[0].min()), float(s[0].max()), 1.0 < float(np.percentile(s[1], 90)) / 1.5 < 1.4
    ((2, 2000), 1.0, 1.0, True)
    """
    sd_arr = np.asarray(sd, dtype=float)
    return np.asarray(np.exp(sd_arr[..., None] * z_draw(n, seed)))

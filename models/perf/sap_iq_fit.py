"""SAP IQ throughput away from study 003's operating point: the caches a design gives its nodes, and the band.

Caches (study-derived; figures in `resources/calibration/sapiq_dqp_003.json`)
------------------------------------------------------------------------------
Study 003 ran 96 GiB VMs; the cache split (`iq_memory_share_of_ram` x `iq_cache_fraction_main` / `_temp`)
gives each of its 4 nodes 25.6 GiB of main and of temp cache for a 300 GB database and 6 streams. These are
the ratios the measured throughput was reached with:

* main cache: the multiplex's main caches together hold a share of the main store (DQP spreads the scans over
  the nodes); the reads they miss (`bands.miss_share`, uniform access) reach the shared store. In the study
  36.6 % of the data fitted (miss 0.634). A design that misses a share m runs at
  f_main = (1 + p_main x m_study) / (1 + p_main x m), at most 1 (more cache than the study's ratio is not
  credited: the study measured none);
* temp cache: each stream needs the temp cache it had in the study, 25.6 GiB x 4 nodes / 6 streams = 17.1 GiB,
  spread over the nodes (need per node = 17.1 GiB x streams / nodes); what does not fit spills to the temp
  dbspace: f_temp = 1 / (1 + p_temp x m_temp) (m_temp = 0 at the study's point);
* p_main, p_temp: the slowdown of work that misses its cache entirely, relative to work that hits. ASSUMPTION
  (the study measured one memory size): 1.0, range 0.5-2.0, sampled, so the band carries it.

Below `temp_cache_floor_share` of the temp cache the streams need, the curve is not extrapolated: the design is
refused (`models.sizing.sap_iq`).

Band (the rule `models.perf.bands.extrapolation_sd`, as PostgreSQL TPS uses it)
-------------------------------------------------------------------------------
Each doubling of distance from study 003's point adds `band_sd_per_doubling` relative sd, in quadrature over:
nodes (4), vCPUs per node (14), the CPU (the larger of the base clock's distance from the study's 2.9 GHz and,
for a CPU with a SPECrate2017_int_base score, its per-core score's from the E5-2690's stand-in), streams (the
nearer of the measured 1 and 6) and the data (300 GB; the metrics are normalised by it, an assumption the study tests at
one size).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from models.calibration_data import figure
from models.perf.bands import doublings, extrapolation_sd, miss_share
from models.uncertainty import FloatArray

DATASET = "sapiq_dqp_003"
GB_PER_GIB = 1.073741824
GB_PER_TB = 1000.0


@dataclass(frozen=True, slots=True)
class CacheFit:
    """What a design gives each node's caches, and the main store they serve."""

    main_cache_gib: float  # per node (-iqmc)
    temp_cache_gib: float  # per node (-iqtc)
    data_tb: float  # the main store (after compression)


def _f(pid: str) -> float:
    return figure(DATASET, pid)


def study_cache_gib(kind: str) -> float:
    """Main ("main") or temp ("temp") cache per node in study 003: the cache split of its 96 GiB VMs.

    >>> round(study_cache_gib("main"), 1), round(study_cache_gib("temp"), 1)
    (25.6, 25.6)
    """
    return _f("iq_memory_share_of_ram") * _f(f"iq_cache_fraction_{kind}") * _f("vm_memory_gib")


def study_main_miss() -> float:
    """Share of study 003's data its 4 main caches did not hold (0.634)."""
    return miss_share(_f("servers") * study_cache_gib("main") * GB_PER_GIB, _f("scale_factor_gb"))


def temp_need_gib(nodes: float, streams: float) -> float:
    """Temp cache each node needs: study 003's temp cache per stream (17.1 GiB) x streams / nodes.

    >>> round(temp_need_gib(4, 6), 1), round(temp_need_gib(1, 8), 1)
    (25.6, 136.5)
    """
    per_stream = study_cache_gib("temp") * _f("servers") / _f("query_streams_throughput_test")
    return per_stream * streams / nodes


def misses(c: CacheFit, nodes: float, streams: float) -> tuple[float, float]:
    """(main-cache miss share over the main store, temp-cache shortfall against the streams' need)."""
    main = miss_share(nodes * c.main_cache_gib * GB_PER_GIB, c.data_tb * GB_PER_TB)
    return main, miss_share(c.temp_cache_gib, temp_need_gib(nodes, streams))


def cache_factor(c: CacheFit, nodes: float, streams: float, p_main: ArrayLike, p_temp: ArrayLike) -> FloatArray:
    """Throughput relative to caches in study 003's ratio: f_main x f_temp (see the module text).

    >>> at_study = CacheFit(25.6, 25.6, 0.3)
    >>> float(cache_factor(at_study, 4, 6, 1.0, 1.0))
    1.0
    >>> round(float(cache_factor(CacheFit(6.4, 6.4, 5.0), 4, 6, 1.0, 1.0)), 2)  # 28 GiB hosts, 5 TB
    0.47
    """
    m, mt = misses(c, nodes, streams)
    pm, pt = np.asarray(p_main, dtype=float), np.asarray(p_temp, dtype=float)
    f_main = np.minimum(1.0, (1.0 + pm * study_main_miss()) / (1.0 + pm * m))
    out: FloatArray = f_main / (1.0 + pt * mt)
    return out


def distances(nodes: float, vcpus: float, cpu_speed: float, streams: float, data_tb: float | None,
              cpu_doublings: float | None = None) -> dict[str, float]:
    """Doublings from study 003's point in each dimension the band widens with (`cpu_doublings`: the CPU's
    distance in generations where the caller knows it, else the base clock's).

    >>> d = distances(4, 14, 1.0, 6, 0.3)
    >>> sorted(d.items())
    [('cpu', 0.0), ('data', 0.0), ('nodes', 0.0), ('streams', 0.0), ('vcpus', 0.0)]
    >>> round(distances(1, 14, 1.0, 8, None)["nodes"], 2), round(distances(1, 14, 1.0, 8, None)["streams"], 2)
    (2.0, 0.42)
    """
    measured = (_f("tpch_power_test_streams"), _f("query_streams_throughput_test"))
    return {
        "nodes": doublings(nodes, _f("servers")),
        "vcpus": doublings(vcpus, _f("vm_vcpus")),
        "cpu": doublings(cpu_speed, 1.0) if cpu_doublings is None else cpu_doublings,
        "streams": min(doublings(streams, s) for s in measured),
        "data": 0.0 if data_tb is None else doublings(data_tb * GB_PER_TB, _f("scale_factor_gb")),
    }


def band_sd(nodes: float, vcpus: float, cpu_speed: float, streams: float, data_tb: float | None,
            cpu_doublings: float | None = None) -> float:
    """The extrapolation part of the relative sd: `band_sd_per_doubling` per doubling, in quadrature.

    >>> band_sd(4, 14, 1.0, 6, 0.3)
    0.0
    >>> round(band_sd(1, 14, 1.0, 8, None), 3)  # one node, 8 streams: 2 and 0.42 doublings
    0.204
    """
    return extrapolation_sd(_f("band_sd_per_doubling"), distances(nodes, vcpus, cpu_speed, streams, data_tb,
                                                                   cpu_doublings).values())

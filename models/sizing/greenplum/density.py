"""Density check: cores and memory of the segment hosts per TB on disk, against what a peer sizing tool provisions.

The Apache Cloudberry sizing calculator (a Greenplum-family MPP database) provisions 8 logical cores and 32 GB
of memory per TB of on-disk data for up to 80 concurrent queries, scaled in steps above that (x1.5 up to 120,
x2 up to 160). The on-disk TB is one copy of the compressed data (mirrors are not counted), at the horizon.
The concurrency is the queries that run at once: those the resource group admits (`segments.admitted`, its
CONCURRENCY); queued reports hold no cores or memory, so asking 2,000 where memory runs 185 is checked at 185.
A design far below that serves its data with little compute, whatever the targets say (a design with no
targets is otherwise unchecked); refarch warns with the numbers, and says whose rule it is. Figures in
`resources/calibration/vendor_docs.json`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure
from models.hardware import Server
from models.scenario import GreenplumAnalytics, GreenplumOltp
from models.sizing.result import SCENARIO_WIDE, Rationale, Warning
from models.sizing.rules import DOCS, cite

GpWorkload = GreenplumAnalytics | GreenplumOltp
GB_PER_GIB = 2**30 / 1e9
GP002 = "gp_nvme_ra_002"
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True)
class Density:
    on_disk_tb: float
    logical_cores: int
    memory_gb: float
    factor: float  # the concurrency scale of the baseline
    cores_needed: float
    memory_needed_gb: float

    @property
    def cores_per_tb(self) -> float:
        return self.logical_cores / self.on_disk_tb

    @property
    def memory_gb_per_tb(self) -> float:
        return self.memory_gb / self.on_disk_tb

    @property
    def short(self) -> bool:
        return self.logical_cores < self.cores_needed or self.memory_gb < self.memory_needed_gb


def concurrency_factor(concurrent_queries: int) -> float:
    """The baseline's scale, in the calculator's steps: 1 up to its concurrency, x1.5 up to 120, x2 up to 160,
    and on in steps of 40 queries (each half the baseline).

    >>> concurrency_factor(20), concurrency_factor(100), concurrency_factor(120), concurrency_factor(160)
    (1.0, 1.5, 1.5, 2.0)
    """
    return float(factors(concurrent_queries))


def factors(running: ArrayLike) -> FloatArray:
    """`concurrency_factor` of each count of queries running at once (per candidate).

    >>> factors(np.array([20.0, 100.0, 185.0])).tolist()
    [1.0, 1.5, 2.5]
    """
    step = figure(DOCS, "density_concurrency_step_queries")
    base = figure(DOCS, "density_baseline_concurrent_queries")
    q = np.asarray(running, dtype=float)
    if not q.ndim:
        return np.asarray(np.maximum(1.0, np.ceil(q / step) * step / base), dtype=float)
    f = q / step  # per candidate: the same steps written into one array (a chunk's factors, without temporaries)
    np.ceil(f, out=f)
    f *= step
    f /= base
    return np.maximum(1.0, f, out=f)


def short(running: ArrayLike, threads_per_host: FloatArray, memory_gib: FloatArray, hosts: IntArray | FloatArray,
          on_disk_tb: float) -> BoolArray:
    """Per candidate, whether its segment hosts fall short of the density (the rule `density` explains) with
    `running` queries at once (a count, or each candidate's: those its resource group admits); `hosts`: the
    counts, or those as floats (the products below convert them so).

    >>> short(20, np.array([96.0, 96.0]), np.array([512.0, 512.0]), np.array([100, 50]), 1000.0).tolist()
    [False, True]
    >>> short(np.array([2000.0, 185.0]), np.array([96.0, 96.0]), np.array([512.0] * 2), np.array([10, 10]), 43.9
    ...       ).tolist()  # what runs at once counts, not what queues
    [True, False]
    """
    f = factors(running)
    cores_needed = figure(DOCS, "density_vcpu_per_tb_on_disk") * f * on_disk_tb
    memory_needed = figure(DOCS, "density_memory_gb_per_tb_on_disk") * f * on_disk_tb
    have = hosts * threads_per_host  # the cores, then (the same array) the memory: one column, not two
    if (type(have) is not np.ndarray or have.dtype != np.float64 or np.shape(memory_needed) not in ((), have.shape)
            or np.broadcast_shapes(np.shape(hosts), np.shape(memory_gib)) != have.shape):
        mem_gb = hosts * memory_gib
        mem_gb *= GB_PER_GIB
        return np.asarray((have < cores_needed) | (mem_gb < memory_needed))
    out = have < cores_needed
    np.multiply(hosts, memory_gib, out=have)
    have *= GB_PER_GIB
    out |= have < memory_needed
    return out


def density(workload: GreenplumAnalytics, server: Server, hosts: int, memory_gib: float, on_disk_tb: float,
            running: int | None = None) -> Density:
    """The design's density against the baseline for `running` queries at once (None: all requested run)."""
    threads = server.threads_total
    f = concurrency_factor(workload.concurrent_queries if running is None else running)
    return Density(
        on_disk_tb=on_disk_tb,
        logical_cores=hosts * threads,
        memory_gb=hosts * memory_gib * GB_PER_GIB,
        factor=f,
        cores_needed=figure(DOCS, "density_vcpu_per_tb_on_disk") * f * on_disk_tb,
        memory_needed_gb=figure(DOCS, "density_memory_gb_per_tb_on_disk") * f * on_disk_tb,
    )


def _whose_rule() -> str:
    """What the rule is and how the Greenplum reference architecture's own host stands against it (checked in
    tests/models/sizing/greenplum/test_density.py: its drive set at 1 PB passes, twice the drives do not)."""
    return (
        "This is a peer tool's provisioning rule, not a Greenplum requirement: the Greenplum NVMe reference"
        f" architecture's host ({figure(GP002, 'gen5_cores_per_host'):g} cores,"
        f" {figure(GP002, 'gen5_data_drives_per_host'):g} x {figure(GP002, 'gen5_drive_capacity_tb'):g} TB drives)"
        " stays within it, while the larger drives it offers for storage-bound workloads fall below it."
    )


def density_check(
    workload: GpWorkload, server: Server, hosts: int, memory_gib: float, on_disk_tb: float, running: int | None = None
) -> tuple[list[Rationale], list[Warning]]:
    """The rationale line with the design's density, and a warning naming the numbers when it falls short;
    `running`: the queries the resource group runs at once (None: all requested).

    Analytics only: the baseline is a data-warehouse query load (OLTP is sized on its TPS).
    """
    if not isinstance(workload, GreenplumAnalytics) or on_disk_tb <= 0 or hosts <= 0:
        return [], []
    requested = workload.concurrent_queries
    run = requested if running is None else min(running, requested)
    d = density(workload, server, hosts, memory_gib, on_disk_tb, run)
    cores, mem = figure(DOCS, "density_vcpu_per_tb_on_disk"), figure(DOCS, "density_memory_gb_per_tb_on_disk")
    base_q = figure(DOCS, "density_baseline_concurrent_queries")
    queued = f" the resource group runs at once; the other {requested - run:,} queue" if run < requested else ""
    scale = (f"x {d.factor:.2f} for {run:,} concurrent queries{queued} (baseline {base_q:g})"
             if d.factor > 1 else f"up to {base_q:g} concurrent queries{queued}")
    have = (f"{hosts} segment host(s) give {d.logical_cores:,} logical cores and {d.memory_gb:,.0f} GB of memory"
            f" for {on_disk_tb:,.1f} TB on disk: {d.cores_per_tb:,.1f} cores and {d.memory_gb_per_tb:,.0f} GB per TB")
    want = (f"{cores:g} logical cores and {mem:g} GB per TB ({scale}): {math.ceil(d.cores_needed):,} cores and"
            f" {math.ceil(d.memory_needed_gb):,} GB")
    source = f"{cite(DOCS, 'density_vcpu_per_tb_on_disk')}; {cite(GP002, 'gen5_data_drives_per_host')}"
    rationale = [Rationale("Density", f"{have} at the {workload.horizon_years}-year horizon; a peer sizing tool"
                           f" provisions {want}. {_whose_rule()}", source)]
    if not d.short:
        return rationale, []
    short = [what for what, ok in (("cores", d.logical_cores >= d.cores_needed),
                                   ("memory", d.memory_gb >= d.memory_needed_gb)) if not ok]
    warning = Warning(
        "density-low",
        f"Low {' and '.join(short)} per TB on disk: {have}, below the {want} the Apache Cloudberry sizing"
        f" calculator provisions. {_whose_rule()} Expect queries to spill and queue at this concurrency; use"
        " fewer or smaller drives per host (more hosts), more memory or cores, or set the performance targets"
        " that matter.",
        "warning", SCENARIO_WIDE,
    )
    return rationale, [warning]

"""Density check: cores and memory of the segment hosts per TB on disk, against what a peer sizing tool provisions.

The Apache Cloudberry sizing calculator (a Greenplum-family MPP database) provisions 8 logical cores and 32 GB
of memory per TB of on-disk data for up to 80 concurrent queries, scaled linearly above that (x1.5 up to 120,
x2 up to 160, i.e. queries / 80). A design far below that serves its data with little compute, whatever the
targets say (a design with no targets is otherwise unchecked); refarch warns with the numbers. Figures in
`resources/calibration/vendor_docs.json`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from models.calibration_data import figure
from models.hardware import Server
from models.scenario import GreenplumAnalytics, GreenplumOltp
from models.sizing.result import SCENARIO_WIDE, Rationale, Warning
from models.sizing.rules import DOCS, cite

GpWorkload = GreenplumAnalytics | GreenplumOltp
GB_PER_GIB = 2**30 / 1e9


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
    """The baseline's scale: 1 up to its concurrency, then in proportion (x1.5 at 120, x2 at 160).

    >>> concurrency_factor(20), concurrency_factor(120), concurrency_factor(160)
    (1.0, 1.5, 2.0)
    """
    return max(1.0, concurrent_queries / figure(DOCS, "density_baseline_concurrent_queries"))


def density(workload: GreenplumAnalytics, server: Server, hosts: int, memory_gib: float, on_disk_tb: float) -> Density:
    threads = server.sockets * server.cpu.threads
    f = concurrency_factor(workload.concurrent_queries)
    return Density(
        on_disk_tb=on_disk_tb,
        logical_cores=hosts * threads,
        memory_gb=hosts * memory_gib * GB_PER_GIB,
        factor=f,
        cores_needed=figure(DOCS, "density_vcpu_per_tb_on_disk") * f * on_disk_tb,
        memory_needed_gb=figure(DOCS, "density_memory_gb_per_tb_on_disk") * f * on_disk_tb,
    )


def density_check(
    workload: GpWorkload, server: Server, hosts: int, memory_gib: float, on_disk_tb: float
) -> tuple[list[Rationale], list[Warning]]:
    """The rationale line with the design's density, and a warning naming the numbers when it falls short.

    Analytics only: the baseline is a data-warehouse query load (OLTP is sized on its TPS).
    """
    if not isinstance(workload, GreenplumAnalytics) or on_disk_tb <= 0 or hosts <= 0:
        return [], []
    d = density(workload, server, hosts, memory_gib, on_disk_tb)
    cores, mem = figure(DOCS, "density_vcpu_per_tb_on_disk"), figure(DOCS, "density_memory_gb_per_tb_on_disk")
    base_q = figure(DOCS, "density_baseline_concurrent_queries")
    scale = (f"x {d.factor:.2f} for {workload.concurrent_queries} concurrent queries (baseline {base_q:g})"
             if d.factor > 1 else f"up to {base_q:g} concurrent queries")
    have = (f"{hosts} segment host(s) give {d.logical_cores:,} logical cores and {d.memory_gb:,.0f} GB of memory"
            f" for {on_disk_tb:,.1f} TB on disk: {d.cores_per_tb:,.1f} cores and {d.memory_gb_per_tb:,.0f} GB per TB")
    want = (f"{cores:g} logical cores and {mem:g} GB per TB ({scale}): {math.ceil(d.cores_needed):,} cores and"
            f" {math.ceil(d.memory_needed_gb):,} GB")
    source = cite(DOCS, "density_vcpu_per_tb_on_disk")
    rationale = [Rationale("Density", f"{have}; a peer sizing tool provisions {want}.", source)]
    if not d.short:
        return rationale, []
    short = [what for what, ok in (("cores", d.logical_cores >= d.cores_needed),
                                   ("memory", d.memory_gb >= d.memory_needed_gb)) if not ok]
    warning = Warning(
        "density-low",
        f"Low {' and '.join(short)} per TB on disk: {have}, below the {want} the Apache Cloudberry sizing"
        " calculator provisions. Queries will spill and queue; add segment hosts, memory or cores, or set the"
        " performance targets that matter.",
        "warning", SCENARIO_WIDE,
    )
    return rationale, [warning]

"""The main estimate against the worker host count, with its P10-P90 band, on the design's hardware.

The GUI's chart and the PDF's draw this curve: the calibrated model swept over host counts around
the design, every point through the same estimators `size` uses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, GreenplumOltp, SapIqMultiplex, Scenario
from models.sizing import greenplum
from models.sizing.engine import size
from models.sizing.parts import NetworkChoice, SizingInputError
from models.sizing.result import SizingResult
from models.tasks import IsCancelled, Progress, check_cancelled
from models.uncertainty import Estimate

CURVE_POINTS = 12


def host_counts(current: int, n: int = CURVE_POINTS) -> list[int]:
    """Host counts around the design's: from a quarter of it to about twice it, at most about `n` of them."""
    lo = max(1, current // 4)
    hi = max(current * 2, current + 4)
    step = max(1, -(-(hi - lo) // (n - 1)))
    return sorted({*range(lo, hi + 1, step), current})


def main_metric_curve(
    scenario: Scenario,
    catalog: HardwareCatalog,
    counts: list[int],
    result: SizingResult | None = None,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    metric: str | None = None,
) -> list[tuple[int, Estimate]]:
    """(hosts, estimate of `metric`, the result's main metric when None) for each count; empty for kinds without
    such a curve.

    One Monte Carlo estimate per count: `progress(done, len(counts))` after each, and `cancelled()`
    checked before each (`models.tasks`)."""
    result = result or size(scenario, catalog, cancelled=cancelled)
    metric = metric or result.main_metric
    w = scenario.workload
    if isinstance(w, GreenplumAnalytics | GreenplumOltp):
        points = _greenplum_curve(scenario, catalog, (result, metric), counts, progress, cancelled)
    elif isinstance(w, SapIqMultiplex):
        points = []
        for i, n in enumerate(counts):
            check_cancelled(cancelled)
            copy = scenario.model_copy(update={"workload": w.model_copy(update={"nodes": n})})
            try:
                est = size(copy, catalog, cancelled=cancelled).estimates.get(metric)
            except SizingInputError:
                est = None  # too few nodes to hold the data: not a point of the curve
            if est is not None:
                points.append((n, est))
            if progress is not None:
                progress(i + 1, len(counts))
    else:
        points = []
    if progress is not None:
        progress(len(counts), len(counts))
    return points


def design_context(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult
                   ) -> tuple[greenplum.GpContext, int] | None:
    """The performance context of a Greenplum design's hardware (its server, drives, memory, network and, for OLTP,
    its coordinator's cores) and the fewest segment hosts its mirroring policy builds; None without a data drive."""
    w = scenario.workload
    assert isinstance(w, GreenplumAnalytics | GreenplumOltp)  # the Greenplum kinds only
    d = result.design
    if d.drive_id is None:
        return None
    c = greenplum.enumerate_candidates(
        [catalog.server(d.server_id)], [catalog.drive(d.drive_id)], [d.deployment], [d.raid], d.data_drives_per_host
    )
    if len(c) == 0:
        return None
    c = dataclasses.replace(c.take(np.array([0])), memory_gib=np.array([d.memory_gib_per_host]))
    primaries, vms = greenplum.primaries_per_host(w, c, scenario.platform)
    net = NetworkChoice(catalog.nic(d.nic_id) if d.nic_id else None, d.nics_per_host)
    ctx = greenplum.GpContext.of(w, c, primaries, vms, net, greenplum.needed_tb(w), platform=scenario.platform)
    coordinator = [h for h in d.hosts if h.role == "coordinator host"]
    if isinstance(w, GreenplumOltp) and coordinator:  # OLTP: the coordinator's own cores (it may bind)
        cores = np.array([float(catalog.server(coordinator[0].server_id).cores_total)])
        ctx = dataclasses.replace(ctx, coordinator_cores=cores)
    return ctx, int(greenplum.min_hosts(w, primaries // vms)[0])


def design_estimates(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult, counts: Sequence[int]
                     ) -> tuple[int, list[dict[str, Estimate]]] | None:
    """A Greenplum design's fewest hosts (`design_context`) and every estimate of it at each of `counts` hosts (its
    ETL hosts as they are); None where the model cannot rebuild it."""
    w = scenario.workload
    built = design_context(scenario, catalog, result)
    if built is None or not isinstance(w, GreenplumAnalytics | GreenplumOltp):
        return None
    ctx, floor = built
    return floor, [greenplum.gp_ranges(w, ctx, h, result.design.etl_hosts)[0] for h in counts]


def _greenplum_curve(scenario: Scenario, catalog: HardwareCatalog, of: tuple[SizingResult, str], counts: list[int],
                     progress: Progress | None, cancelled: IsCancelled | None) -> list[tuple[int, Estimate]]:
    """`of`: the design and the metric drawn."""
    result, metric = of
    w = scenario.workload
    assert isinstance(w, GreenplumAnalytics | GreenplumOltp)  # `curve` sends the Greenplum kinds here
    built = design_context(scenario, catalog, result)
    if built is None:
        return []
    ctx, floor = built
    points = []
    for i, h in enumerate(counts):
        check_cancelled(cancelled)
        if h >= floor:
            points.append((h, greenplum.gp_ranges(w, ctx, h, result.design.etl_hosts)[0][metric]))
        if progress is not None:
            progress(i + 1, len(counts))
    return points

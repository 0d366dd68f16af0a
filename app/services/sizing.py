"""Size one scenario, and the main estimate against the host count: the window's and the CLI's one door to the engine.

The engine is imported inside the functions, so the window's start and `refarch --help` do not load it.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.services.errors import ServiceError
from app.views.summary import headline_metric
from models.hardware import HardwareCatalog
from models.problems import ROOT, Problem
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import IsCancelled, Progress
from models.uncertainty import Estimate


@dataclass(frozen=True)
class Curve:
    """The main metric at several host counts: what the estimate-vs-hosts chart draws."""

    metric: str
    unit: str
    hosts: tuple[int, ...]
    p10: tuple[float, ...]
    p50: tuple[float, ...]
    p90: tuple[float, ...]
    current_hosts: int


def size(scenario: Scenario, catalog: HardwareCatalog, progress: Progress | None = None,
         cancelled: IsCancelled | None = None, label: str | None = None) -> SizingResult:
    """`models.sizing.engine.size`; input the engine refuses raises `ServiceError("invalid scenario <label>")`
    with the engine's problems (`label` defaults to the scenario's name)."""
    from app.services import measurement_source
    from models.sizing import engine

    what = f"invalid scenario {label or scenario.name}"
    named = measurement_source.profiles(scenario.platform.measurements)
    try:
        return engine.size(scenario, catalog, progress, cancelled, named or None)
    except engine.SizingInputError as exc:
        raise ServiceError(what, list(exc.problems) or [Problem(ROOT, str(exc))]) from None
    except ValueError as exc:  # a combination the engine refuses, e.g. no drive fits the server's bays
        raise ServiceError(what, [Problem(ROOT, str(exc))]) from None


def curve_points(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult,
                 progress: Progress | None = None, cancelled: IsCancelled | None = None) -> list[tuple[int, Estimate]]:
    """(hosts, estimate of the headline metric: the one the scenario's target names, else the main one) around the
    design's host count (`models.sizing.curves`)."""
    from models.perf.measured import using
    from models.sizing import curves

    with using(result.measured):  # a design sized on measurements: its curve on the same measured rates
        return curves.main_metric_curve(scenario, catalog, curves.host_counts(result.design.segment_hosts),
                                        result, progress, cancelled, headline_metric(result))


def estimate_curve(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult,
                   progress: Progress | None = None, cancelled: IsCancelled | None = None) -> Curve | None:
    """The main metric against host count as the chart draws it; None for kinds without such a curve."""
    return _curve(result, curve_points(scenario, catalog, result, progress, cancelled))


def _curve(result: SizingResult, points: list[tuple[int, Estimate]]) -> Curve | None:
    if len(points) < 2:
        return None
    points = sorted(points, key=lambda p: p[0])
    return Curve(
        metric=headline_metric(result),
        unit=points[0][1].unit,
        hosts=tuple(n for n, _ in points),
        p10=tuple(e.p10 for _, e in points),
        p50=tuple(e.p50 for _, e in points),
        p90=tuple(e.p90 for _, e in points),
        current_hosts=result.design.segment_hosts,
    )

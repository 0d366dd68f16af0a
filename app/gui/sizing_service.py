"""The GUI's one door to the sizing engine: call it, and turn its errors into problem lists.

The engine is imported lazily so the window opens (and shows why results are
missing) even when the models are broken or not yet installed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from models.hardware import HardwareCatalog
from models.problems import ROOT, Problem
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import IsCancelled, Progress
from models.uncertainty import Estimate


class SizingFailure(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


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


def engine_problem() -> str | None:
    """Why sizing cannot run at all, or None."""
    try:
        import models.sizing.engine  # noqa: F401
    except ImportError as exc:
        return f"the sizing engine is not available ({exc})"
    return None


def size(scenario: Scenario, catalog: HardwareCatalog, progress: Progress | None = None,
         cancelled: IsCancelled | None = None) -> SizingResult:
    try:
        from models.sizing import engine
    except ImportError as exc:
        raise SizingFailure([Problem(ROOT, f"the sizing engine is not available ({exc})")]) from None
    try:
        return engine.size(scenario, catalog, progress, cancelled)
    except engine.SizingInputError as exc:
        raise SizingFailure(list(exc.problems) or [Problem(ROOT, str(exc))]) from None
    except ValueError as exc:  # a combination the engine refuses, e.g. no drive fits the server's bays
        raise SizingFailure([Problem(ROOT, str(exc))]) from None


def estimate_curve(
    scenario: Scenario,
    catalog: HardwareCatalog,
    result: SizingResult,
    cancel: threading.Event,
    progress: Callable[[int, int], None],
) -> Curve | None:
    """The main metric against host count (`models.sizing.curves`); None for kinds without such a curve."""
    from models.sizing import curves

    points = curves.main_metric_curve(scenario, catalog, curves.host_counts(result.design.segment_hosts), result,
                                      progress, cancel.is_set)
    return _curve(result, list(points))


def _curve(result: SizingResult, points: list[tuple[int, Estimate]]) -> Curve | None:
    if len(points) < 2:
        return None
    points.sort(key=lambda p: p[0])
    return Curve(
        metric=result.main_metric,
        unit=points[0][1].unit,
        hosts=tuple(n for n, _ in points),
        p10=tuple(e.p10 for _, e in points),
        p50=tuple(e.p50 for _, e in points),
        p90=tuple(e.p90 for _, e in points),
        current_hosts=result.design.segment_hosts,
    )

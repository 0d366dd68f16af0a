"""The GUI's one door to the sizing engine: call it, and turn its errors into problem lists.

The engine is imported lazily so the window opens (and shows why results are
missing) even when the models are broken or not yet installed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.result import SizingResult


class SizingFailure(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
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


def size(scenario: Scenario, catalog: HardwareCatalog) -> SizingResult:
    try:
        from models.sizing import engine
    except ImportError as exc:
        raise SizingFailure([f"the sizing engine is not available ({exc})"]) from None
    try:
        return engine.size(scenario, catalog)
    except engine.SizingInputError as exc:
        raise SizingFailure(list(exc.problems) or [str(exc)]) from None
    except ValueError as exc:  # a combination the engine refuses, e.g. no drive fits the server's bays
        raise SizingFailure([str(exc)]) from None


def estimate_curve(
    scenario: Scenario,
    catalog: HardwareCatalog,
    result: SizingResult,
    cancel: threading.Event,
    progress: Callable[[int, int], None],
) -> Curve | None:
    """The main metric against host count, from the engine's sweep helper when it has one."""
    try:
        from models.sizing import curves
    except ImportError:
        return None
    return _curve_from_module(curves, scenario, catalog, result, cancel, progress)


def _curve_from_module(
    curves: object,
    scenario: Scenario,
    catalog: HardwareCatalog,
    result: SizingResult,
    cancel: threading.Event,
    progress: Callable[[int, int], None],
) -> Curve | None:
    return None

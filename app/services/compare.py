"""Compare scenarios: size them and put them side by side (`models.whatif.compare`); the rows every renderer
shows are `app.views.compare`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.services import sizing
from app.views.compare import CompareRow, chart_series, compare_rows, compare_rows_by_kind, rows_by_kind
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import IsCancelled

if TYPE_CHECKING:
    from models.whatif import CompareRow as WhatifRow

__all__ = ["CompareRow", "chart_series", "clear_difference_pct", "compare_rows", "compare_rows_by_kind",
           "compare_scenarios", "rows_by_kind", "unranked"]


def unranked(results: Sequence[SizingResult]) -> list[int]:
    """The options shown but never ranked: sized for other work than the others (`models.whatif.unranked`)."""
    from models.whatif import unranked as shown_only

    return shown_only(list(results))


def clear_difference_pct() -> float:
    """Values closer than this (percent) have no winner (`models.whatif`); loads the engine when first asked."""
    from models.whatif import CLEAR_DIFFERENCE_PCT

    return CLEAR_DIFFERENCE_PCT


def compare_scenarios(scenarios: Sequence[Scenario], catalog: HardwareCatalog, labels: Sequence[str] | None = None,
                      cancelled: IsCancelled | None = None) -> tuple[list[SizingResult], list[WhatifRow]]:
    """Size every scenario (a refused one raises `ServiceError` naming it), then compare them row by row."""
    from models.whatif import compare

    names = list(labels) if labels is not None else [s.name for s in scenarios]
    results = [sizing.size(s, catalog, cancelled=cancelled, label=n) for s, n in zip(scenarios, names, strict=True)]
    return results, compare(results)

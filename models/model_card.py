"""Model cards: how well each model fits the published points it is calibrated on.

A performance module builds its card with a plain function; `models.perf.cards` lists
them all (`CARD_FACTORIES`, `all_cards()`), so `refarch calibrate`, the GUI and the PDF
appendix show the same fit figures.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.hardware import HardwareCatalog


@dataclass(frozen=True, slots=True)
class Residual:
    point_id: str
    observed: float
    predicted: float
    unit: str

    @property
    def pct_err(self) -> float:
        return 100.0 * (self.predicted - self.observed) / self.observed

    def to_dict(self) -> dict[str, Any]:
        return {
            "point_id": self.point_id,
            "observed": self.observed,
            "predicted": self.predicted,
            "unit": self.unit,
            "pct_err": self.pct_err,
        }


@dataclass(frozen=True, slots=True)
class HeldOut:
    """A published figure the model was not fitted on, against the band the model gives for its configuration."""

    point_id: str
    observed: float
    p10: float
    p50: float
    p90: float
    unit: str
    configuration: str = ""

    @property
    def pct_err(self) -> float:
        """P50 against the published figure, percent."""
        return 100.0 * (self.p50 - self.observed) / self.observed

    @property
    def inside(self) -> bool:
        return self.p10 <= self.observed <= self.p90

    def to_dict(self) -> dict[str, Any]:
        return {"point_id": self.point_id, "configuration": self.configuration, "observed": self.observed,
                "p10": self.p10, "p50": self.p50, "p90": self.p90, "unit": self.unit, "pct_err": self.pct_err,
                "inside_p10_p90": self.inside}


@dataclass(frozen=True)
class ModelCard:
    name: str
    description: str
    parameters: dict[str, float]
    residuals: tuple[Residual, ...]
    sources: tuple[str, ...]
    note: str = ""  # why a fit misses 5 % MAPE, or what the points cannot tell
    extra: dict[str, Any] = field(default_factory=dict)
    # what the model was checked against that its fit did not use; "" when nothing was (then the residuals only
    # show that the curve reproduces its own points, which is not accuracy on new workloads)
    validation: str = ""
    residuals_are_checks: bool = False  # the residuals compare against data no parameter was set from
    held_out: tuple[HeldOut, ...] = ()  # published figures no parameter was fitted on, beside the in-sample residuals

    @property
    def error_kind(self) -> str:
        """How to read `mape_pct`: "none" (no points), "in-sample" (fitted on them) or "check" (not fitted)."""
        if not self.residuals:
            return "none"
        return "check" if self.residuals_are_checks else "in-sample"

    @property
    def points(self) -> int:
        return len(self.residuals)

    @property
    def mape_pct(self) -> float:
        if not self.residuals:
            return 0.0
        return float(np.mean([abs(r.pct_err) for r in self.residuals]))

    @property
    def max_abs_pct_err(self) -> float:
        if not self.residuals:
            return 0.0
        return float(max(abs(r.pct_err) for r in self.residuals))

    def in_sample_text(self) -> str:
        """The in-sample error as a reader should take it; never a bare "0.00 %" that reads as proven accuracy."""
        if self.error_kind == "none":
            return "nothing fitted (a documented formula)"
        if self.error_kind == "check":
            return "no parameter fitted to these points"
        if self.mape_pct < 0.05:
            return "passes through its points (as many parameters as facts): not a measure of accuracy"
        return f"{self.mape_pct:.1f} % mean, {self.max_abs_pct_err:.1f} % largest"

    def fitted_text(self, cited: str = "") -> str:
        """What the model was fitted on, with `cited` (the sources as the document cites them, e.g. "[2] Table 3")."""
        if not self.points:
            return "no points" + (f" (documented in {cited})" if cited else "")
        return f"{self.points} point{'s' if self.points != 1 else ''}" + (f" from {cited}" if cited else "")

    def validation_text(self) -> str:
        return self.validation or "nothing outside the fit"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "parameters": dict(self.parameters),
            "points": self.points,
            "mape_pct": self.mape_pct,
            "max_abs_pct_err": self.max_abs_pct_err,
            "residuals": [r.to_dict() for r in self.residuals],
            "sources": list(self.sources),
            "note": self.note,
            "error_kind": self.error_kind,
            "validation": self.validation,
            "held_out": [h.to_dict() for h in self.held_out],
        }


CardFactory = Callable[..., ModelCard]


def build(factory: CardFactory, catalog: HardwareCatalog | None = None) -> ModelCard:
    """Build one card; a card that validates against catalog prices (it takes `catalog`) gets the catalog."""
    if catalog is not None and "catalog" in inspect.signature(factory).parameters:
        return factory(catalog=catalog)
    return factory()

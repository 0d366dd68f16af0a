"""Model cards: how well each model fits the published points it is calibrated on.

A performance module declares its card with `@model_card`; `all_cards()` imports
every module of `models.perf` and collects them, so `refarch calibrate`, the GUI
and the PDF appendix all show the same fit figures.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
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


@dataclass(frozen=True)
class ModelCard:
    name: str
    description: str
    parameters: dict[str, float]
    residuals: tuple[Residual, ...]
    sources: tuple[str, ...]
    note: str = ""  # why a fit misses 5 % MAPE, or what the points cannot tell
    extra: dict[str, Any] = field(default_factory=dict)

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
        }


CardFactory = Callable[[], ModelCard]
_FACTORIES: list[CardFactory] = []


def model_card(factory: CardFactory) -> CardFactory:
    """Register a zero-argument function that builds a model's card."""
    _FACTORIES.append(factory)
    return factory


def import_card_modules() -> list[str]:
    """Import every `models.perf` module so its cards register; returns the modules that failed, with why."""
    import models.perf as perf

    problems = []
    for info in pkgutil.iter_modules(perf.__path__):
        name = f"{perf.__name__}.{info.name}"
        try:
            importlib.import_module(name)
        except Exception as exc:  # reported by the caller; the other modules' cards still build
            problems.append(f"{name}: cannot import: {type(exc).__name__}: {exc}")
    return problems


def factories() -> list[CardFactory]:
    """Registered card factories, one per (module, name): a reloaded module replaces its own."""
    latest = {(getattr(f, "__module__", ""), getattr(f, "__qualname__", str(id(f)))): f for f in _FACTORIES}
    return list(latest.values())


def build(factory: CardFactory, catalog: HardwareCatalog | None = None) -> ModelCard:
    """Build one card; a card that validates against catalog prices (it takes `catalog`) gets the catalog."""
    if catalog is not None and "catalog" in inspect.signature(factory).parameters:
        return factory(catalog=catalog)  # type: ignore[call-arg]
    return factory()


def all_cards(catalog: HardwareCatalog | None = None) -> list[ModelCard]:
    problems = import_card_modules()
    if problems:
        raise ImportError("; ".join(problems))
    return sorted((build(f, catalog) for f in factories()), key=lambda c: c.name)

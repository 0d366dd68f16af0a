"""Search the catalog for the cheapest design meeting the targets (`models.optimizer`), for the dialog and the CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.services.errors import ServiceError
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.tasks import IsCancelled, Progress

if TYPE_CHECKING:
    # this use case's result and its design points, for its callers
    from models.optimizer import DesignPoint as DesignPoint
    from models.optimizer import OptimizationResult as OptimizationResult


def optimize(scenario: Scenario, catalog: HardwareCatalog, objective: str | None = None, label: str | None = None,
             progress: Progress | None = None, cancelled: IsCancelled | None = None,
             pareto_limit: int = 200, any_deployment: bool = False) -> OptimizationResult:
    """`models.optimizer.optimize`; input it refuses raises `ServiceError("cannot optimize <label>", problems)`."""
    from app.services import sizing
    from models import optimizer
    from models.perf.measured import using
    from models.sizing.parts import SizingInputError

    # a scenario on measurement profiles: the search runs on the rates its sizing measured (one sizing first)
    measured = sizing.size(scenario, catalog, label=label).measured if scenario.platform.measurements else None
    try:
        with using(measured):
            return optimizer.optimize(scenario, catalog, progress=progress, cancelled=cancelled, objective=objective,
                                      pareto_limit=pareto_limit, any_deployment=any_deployment)
    except SizingInputError as exc:
        raise ServiceError(f"cannot optimize {label or scenario.name}", exc.problems) from None

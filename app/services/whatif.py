"""What-if use cases on one scenario: its growth year by year and its sensitivity (`models.whatif`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.services import sizing
from app.services.errors import ServiceError
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import IsCancelled

if TYPE_CHECKING:
    from app.views.sensitivity import SensitivityView
    from models.whatif import GrowthYear, SensitivityBar


def growth(scenario: Scenario, catalog: HardwareCatalog, label: str | None = None,
           cancelled: IsCancelled | None = None) -> tuple[SizingResult, list[GrowthYear]]:
    """The design, then the hosts each year's data needs on its hardware and what each year adds."""
    from models.perf.measured import using
    from models.sizing.parts import SizingInputError
    from models.whatif import growth as plan

    result = sizing.size(scenario, catalog, cancelled=cancelled, label=label)
    try:
        with using(result.measured):  # sized on measurements: every year on the same measured rates
            return result, plan(scenario, catalog, result, cancelled)
    except SizingInputError as exc:
        raise ServiceError(f"cannot plan the growth of {label or scenario.name}", exc.problems) from None


def sensitivity(scenario: Scenario, catalog: HardwareCatalog, delta: float, label: str | None = None,
                cancelled: IsCancelled | None = None) -> tuple[SizingResult, list[SensitivityBar]]:
    """The design, then capex and main estimate for -delta / +delta on each main input."""
    from models.perf.measured import using
    from models.sizing.parts import SizingInputError
    from models.whatif import sensitivity as bars

    result = sizing.size(scenario, catalog, cancelled=cancelled, label=label)
    try:
        with using(result.measured):
            return result, bars(scenario, catalog, delta, result, cancelled)
    except SizingInputError as exc:
        raise ServiceError(f"cannot vary the inputs of {label or scenario.name}", exc.problems) from None


def tornado_view(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult, delta: float,
                 cancelled: IsCancelled | None = None) -> SensitivityView:
    """The tornado of a design already sized (the window's Sensitivity tab, the report's section) as view rows:
    -delta / +delta on each main input, whole and continuous host counts (`app.views.sensitivity`)."""
    from app.views.sensitivity import sensitivity_view
    from models.perf.measured import using
    from models.sizing.parts import SizingInputError
    from models.whatif import sensitivity as bars

    try:
        with using(result.measured):
            return sensitivity_view(result, bars(scenario, catalog, delta, result, cancelled), delta * 100)
    except SizingInputError as exc:
        raise ServiceError(f"cannot vary the inputs of {scenario.name}", exc.problems) from None

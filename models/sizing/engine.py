"""`size`: from a scenario and a hardware catalog to a complete, explained design."""

from __future__ import annotations

from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, GreenplumOltp, PostgresConsolidation, SapIqMultiplex, Scenario
from models.sizing import greenplum_design, postgres_design, sap_iq_design
from models.sizing.parts import SizingInputError, resolve
from models.sizing.result import SizingResult

__all__ = ["SizingInputError", "size"]


def size(scenario: Scenario, catalog: HardwareCatalog) -> SizingResult:
    """Size one scenario. Unknown or incompatible parts raise `SizingInputError` listing every problem;
    targets that cannot be met are not errors: the nearest design comes back with `target-unmet:*` warnings."""
    parts = resolve(scenario, catalog)
    workload = scenario.workload
    if isinstance(workload, GreenplumAnalytics | GreenplumOltp):
        return greenplum_design.size_greenplum(scenario, workload, catalog, parts)
    if isinstance(workload, PostgresConsolidation):
        return postgres_design.size_postgres(scenario, workload, catalog, parts)
    if isinstance(workload, SapIqMultiplex):
        return sap_iq_design.size_sap_iq(scenario, workload, catalog, parts)
    raise SizingInputError([f"workload.kind: no sizer for {type(workload).__name__}"])

"""`size`: from a scenario and a hardware catalog to a complete, explained design."""

from __future__ import annotations

import dataclasses

from models.hardware import HardwareCatalog
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, PostgresConsolidation, SapIqMultiplex, Scenario
from models.sizing import greenplum_design, postgres_design, sap_iq_design
from models.sizing.oltp_advice import oltp_warnings
from models.sizing.parts import SizingInputError, resolve
from models.sizing.result import SizingResult
from models.sizing.targets import check_targets

__all__ = ["SizingInputError", "size"]


def size(scenario: Scenario, catalog: HardwareCatalog) -> SizingResult:
    """Size one scenario. Unknown or incompatible parts raise `SizingInputError` listing every problem;
    targets that cannot be met are not errors: the nearest design comes back, `result.target_checks` says
    which target is met, missed or unreachable (and a critical warning per target not met)."""
    parts = resolve(scenario, catalog)
    workload = scenario.workload
    if isinstance(workload, GreenplumAnalytics | GreenplumOltp):
        result = greenplum_design.size_greenplum(scenario, workload, catalog, parts)
    elif isinstance(workload, PostgresConsolidation):
        result = postgres_design.size_postgres(scenario, workload, catalog, parts)
    elif isinstance(workload, SapIqMultiplex):
        result = sap_iq_design.size_sap_iq(scenario, workload, catalog, parts)
    else:
        raise SizingInputError([Problem("workload.kind", f"no sizer for {type(workload).__name__}")])
    checks, warnings = check_targets(scenario, result)
    warnings += tuple(oltp_warnings(scenario, result))
    return dataclasses.replace(result, target_checks=checks, warnings=result.warnings + warnings)

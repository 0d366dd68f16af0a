"""`size`: from a scenario and a hardware catalog to a complete, explained design."""

from __future__ import annotations

import dataclasses

from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, GreenplumOltp, PostgresConsolidation, SapIqMultiplex, Scenario
from models.sizing import greenplum_design, postgres_design, sap_iq_design
from models.sizing.oltp_advice import oltp_warnings
from models.sizing.parts import SizingInputError, resolve
from models.sizing.result import SizingResult, Warning
from models.vocabulary import TARGETS, metric_label

__all__ = ["SizingInputError", "size"]


def size(scenario: Scenario, catalog: HardwareCatalog) -> SizingResult:
    """Size one scenario. Unknown or incompatible parts raise `SizingInputError` listing every problem;
    targets that cannot be met are not errors: the nearest design comes back with `target-unmet:*` warnings."""
    parts = resolve(scenario, catalog)
    workload = scenario.workload
    if isinstance(workload, GreenplumAnalytics | GreenplumOltp):
        result = greenplum_design.size_greenplum(scenario, workload, catalog, parts)
    elif isinstance(workload, PostgresConsolidation):
        result = postgres_design.size_postgres(scenario, workload, catalog, parts)
    elif isinstance(workload, SapIqMultiplex):
        result = sap_iq_design.size_sap_iq(scenario, workload, catalog, parts)
    else:
        raise SizingInputError([f"workload.kind: no sizer for {type(workload).__name__}"])
    extra = target_warnings(scenario, result) + oltp_warnings(scenario, result)
    return dataclasses.replace(result, warnings=result.warnings + tuple(extra)) if extra else result


def target_warnings(scenario: Scenario, result: SizingResult) -> list[Warning]:
    """Budget targets checked on the totals of every kind, and targets that do not apply said so."""
    have = {w.code for w in result.warnings}
    out: list[Warning] = []
    targets = scenario.targets.model_dump(exclude_none=True)
    targets.pop("confidence", None)  # how targets are checked, not a target
    kind = scenario.workload.kind
    for name, limit in targets.items():
        target = TARGETS[name]
        code = f"target-unmet:{name}"
        if target.budget:
            total = float(getattr(result.totals, target.metric))
            if not target.met(total, limit) and code not in have:
                what = metric_label(target.metric).lower()
                out.append(Warning(code, f"The {what} target is out of reach: totals.{target.metric} is {total:,.0f}"
                                         f" against {limit:,.0f}; the nearest design is shown."))
        elif kind not in target.kinds:
            out.append(Warning(f"target-not-applicable:{name}",
                               f"targets.{name} does not apply to {kind} and was not used."))
    return out

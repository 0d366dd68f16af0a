"""The verdict on every target a scenario sets: met, missed or unreachable, and the warnings that say so.

One place for every kind: a sizer that searches (Greenplum) reports the targets its search
could not reach; everything else is judged here on the finished result, on the same P50
estimates and totals the report shows.
"""

from __future__ import annotations

import dataclasses

from models.scenario import Scenario
from models.sizing.result import SizingResult, TargetCheck, TargetStatus, Warning
from models.uncertainty import Estimate
from models.vocabulary import METRICS, TARGETS, kind_label, target_words


# Defined here, not in `confidence` (the Greenplum search's module, which uses it too): judging the targets of a
# PostgreSQL or SAP IQ design then loads none of the Greenplum models.
def percentile(metric: str, confidence: str) -> float:
    """The percentile of `metric` a target is checked at.

    >>> percentile("full_scan_s", "P90"), percentile("tps", "P90"), percentile("tps", "P50")
    (90.0, 10.0, 50.0)
    """
    if confidence == "P50":
        return 50.0
    return 10.0 if METRICS[metric].better == "higher" else 90.0


def target_limit(scenario: Scenario, name: str) -> float | None:
    """The limit the scenario sets on target `name`; an OLTP workload's own `target_tps` stands in for `min_tps`."""
    return scenario.targets.limit(name, scenario.workload)


def estimate_at(e: Estimate, metric: str, confidence: str) -> float:
    """The value of `e` a target on `metric` is checked at: P50, or at P90 confidence the cautious end."""
    return float({50.0: e.p50, 10.0: e.p10, 90.0: e.p90}[percentile(metric, confidence)])


def result_value(result: SizingResult, metric: str, confidence: str = "P50") -> float | None:
    """An estimate at the scenario's confidence (P50, or the cautious end of P10-P90 for P90), or a total
    (capex, power_w, rack_u), as the report shows it."""
    if metric in result.estimates:
        return estimate_at(result.estimates[metric], metric, confidence)
    if hasattr(result.totals, metric):
        return float(getattr(result.totals, metric))
    return None


def _num(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.3g}"


def judge(
    name: str, limit: float, value: float, unit: str, unreachable_text: str | None = None, confidence: str = "P50"
) -> TargetCheck:
    """The check of one target; `unreachable_text` when the sizer's search found no design meeting it.

    >>> judge("max_full_scan_s", 600.0, 540.0, "s").status
    'met'
    >>> judge("min_tps", 5000.0, 4200.0, "TPS").text
    'P50 4,200 TPS against at least 5,000 TPS.'
    """
    target = TARGETS[name]
    if unreachable_text is not None:
        status: TargetStatus = "unreachable"
        text = unreachable_text
    elif target.met(value, limit):
        status, text = "met", ""
    else:
        status = "missed"
        bound = "at most" if target.bound == "max" else "at least"
        text = f"{'total' if target.budget else confidence} {_num(value)} {unit} against {bound} {_num(limit)} {unit}."
        text = text.replace("  ", " ").replace(" .", ".")
    return TargetCheck(name, target.metric, limit, value, unit, status, text)


def check_targets(scenario: Scenario, result: SizingResult) -> tuple[tuple[TargetCheck, ...], tuple[Warning, ...]]:
    """A check for every target the scenario sets and its kind is judged by, and the warnings they raise.

    Checks already on `result` (a sizer's unreachable targets) are kept; a target the kind is
    not judged by gets an info warning instead of a check.
    """
    given = {c.target: c for c in result.target_checks}
    kind = scenario.workload.kind
    checks: list[TargetCheck] = []
    warnings: list[Warning] = []
    for name, target in TARGETS.items():
        limit = target_limit(scenario, name)
        if limit is None:
            continue
        if kind not in target.kinds:
            warnings.append(Warning("target-not-applicable", f"The {target.words} target does not apply to"
                                    f" {kind_label(kind)} and was not used.", "info", f"targets.{name}"))
            continue
        value = result_value(result, target.metric, scenario.targets.confidence)
        if name in given and target.budget and value is not None and given[name].estimate != value:
            # the sizer judged its hosts; the totals also hold network, racks and software (models.sizing.commercial)
            g = given[name]
            unit = result.totals.currency if target.metric == "capex" else target.unit
            checks.append(dataclasses.replace(g, estimate=value, unit=unit, text=(
                f"no design with this hardware meets it; the nearest is shown ({target.metric} {_num(value)} {unit}"
                f" in total vs {_num(limit)}).") if g.status == "unreachable" else g.text))
        elif name in given:
            checks.append(given[name])
        elif value is not None:
            unit = result.totals.currency if target.metric == "capex" else target.unit
            checks.append(judge(name, limit, value, unit, confidence=scenario.targets.confidence))
    for c in checks:
        if not c.met:
            lead = f"The {target_words(c.target)} target is {'out of reach' if c.status == 'unreachable' else 'missed'}"
            warnings.append(Warning(f"target-{c.status}", f"{lead}: {c.text}", "critical", f"targets.{c.target}"))
    return tuple(checks), tuple(warnings)

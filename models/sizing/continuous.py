"""The main estimate of a Greenplum design on its continuous host count, for the tornado.

A design has whole segment hosts, so a +-20 % input can move its main estimate the "wrong" way: -20 % data on one
host fewer scans slower than the base when the base's last host was barely used. The continuous count h is the
fractional number of hosts the rules that set the count need: the data, need / (user capacity per host), and every
performance target (full scan, report response, load rate, queries per hour, TPS), the count where the target's
estimate at the scenario's confidence meets its limit exactly. Between the design's H - 1 and H hosts an estimate
is taken as linear in the rate (a time by its inverse), the same calibrated model (`models.sizing.curves`) giving
the step from H - 1 to H and the design's own estimates anchoring H; a rate that scales with the hosts (a scan
bound by drives, cores or network) is exact on it. When none of these rules needs more than H - 1 hosts, another
whole-host rule set the count (the mirroring policy's fewest hosts, spread mirroring's unit, a cluster already
built), and the design's H stands. A target the design misses needs all H. SAP IQ and PostgreSQL designs place
whole nodes and VMs, with no continuous count: None (the tornado states the rounding instead).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing.result import SizingResult
from models.sizing.targets import estimate_at
from models.uncertainty import Estimate
from models.vocabulary import METRICS

GP_METRICS = ("full_scan_s", "report_s", "load_tb_per_hour", "queries_per_hour", "tps")


@dataclass(frozen=True)
class Continuous:
    """A design on its continuous count: `hosts` (H - 1 < hosts <= H, or H where a whole-host rule set it), the main
    estimate's P50 on it, and the rule that needs `hosts` ("data", a target's field, or "whole": another rule)."""

    hosts: float
    main: float
    by: str


def _rate(value: float, metric: str) -> float:
    """A value as a rate that grows with the hosts: a time (lower is better) by its inverse."""
    return 1.0 / value if METRICS[metric].better == "lower" else value


def _step(metric: str, value_at_h: float, ratio: float, f: float) -> float:
    """`metric` at H - 1 + f hosts, from its value at H and its model's ratio value(H - 1) / value(H)."""
    at_h, below = _rate(value_at_h, metric), _rate(value_at_h * ratio, metric)
    return _rate(below + f * (at_h - below), metric)  # _rate is its own inverse


def _fraction(limit: float, value_at_h: float, ratio: float, metric: str) -> float:
    """The share f of the last host a target needs: 0 when H - 1 hosts meet it, 1 when H hosts miss it.

    A scan that takes 120 s on 4 hosts (160 s on 3) meets 150 s on 3.2 hosts:
    >>> round(_fraction(150.0, 120.0, 4 / 3, "full_scan_s"), 6)
    0.2
    """
    need, at_h, below = _rate(limit, metric), _rate(value_at_h, metric), _rate(value_at_h * ratio, metric)
    if below >= need:
        return 0.0
    if at_h <= below or at_h < need:
        return 1.0
    return (need - below) / (at_h - below)


def continuous(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult) -> Continuous | None:
    """The design on its continuous count (see the module); None for kinds without one or a design the model cannot
    rebuild (no data drive)."""
    from models.sizing.curves import design_estimates  # Greenplum only: other kinds never load the engine's models

    w, d, main = scenario.workload, result.design, result.main_metric
    est = result.estimates.get(main)
    hosts = d.segment_hosts
    if not isinstance(w, GreenplumAnalytics | GreenplumOltp) or est is None or hosts <= 0:
        return None
    whole = Continuous(float(hosts), est.p50, "whole")
    if hosts < 2:
        return whole
    built = design_estimates(scenario, catalog, result, (hosts - 1, hosts))
    if built is None:
        return None
    floor, (lower, upper) = built
    if hosts - 1 < floor:  # the mirroring policy's (or a built cluster's) fewest hosts set the count
        return whole
    ratios = _ratios(lower, upper, scenario.targets.confidence)
    needs: list[tuple[float, str]] = []
    per_host = d.usable_capacity_tb / hosts
    if per_host > 0:
        needs.append((d.data_needed_tb / per_host - (hosts - 1), "data"))
    for check in result.target_checks:
        if check.metric in ratios and check.estimate > 0 and check.limit > 0:
            needs.append((_fraction(check.limit, check.estimate, ratios[check.metric], check.metric), check.target))
    f, by = max(needs, default=(0.0, "whole"))
    if f <= 1e-9:  # no rule here needs the last host: another one set the count
        return whole
    f = min(f, 1.0)
    main_ratio = _ratio(lower[main].p50, upper[main].p50)
    return Continuous(hosts - 1 + f, _step(main, est.p50, main_ratio, f), by)


def _ratio(below: float, here: float) -> float:
    return below / here if here > 0 and math.isfinite(below) else 1.0


def _ratios(lower: dict[str, Estimate], upper: dict[str, Estimate], confidence: str) -> dict[str, float]:
    """Each Greenplum metric's model value at H - 1 hosts over its value at H, at the scenario's confidence (the
    value a target is checked at)."""
    return {name: _ratio(estimate_at(lower[name], name, confidence), estimate_at(upper[name], name, confidence))
            for name in GP_METRICS if name in lower and name in upper}

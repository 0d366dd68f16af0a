"""What a Greenplum design could not reach, said plainly: targets out of reach (with the lever), the implicit
service level with no target."""
from __future__ import annotations

import dataclasses

import numpy as np

from models.percent import percent
from models.release_words import role_label
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario, Targets
from models.sizing.greenplum import evaluation, metrics
from models.sizing.greenplum.releases import role_word
from models.sizing.result import Rationale, TargetCheck, Totals, Warning
from models.sizing.rules import RULES, cite
from models.sizing.targets import estimate_at, judge, target_limit
from models.uncertainty import Estimate
from models.vocabulary import CAPACITY, METRICS, TARGETS, target_words

GpWorkload = GreenplumAnalytics | GreenplumOltp


def implicit_service_level(
    workload: GpWorkload, scenario: Scenario, estimates: dict[str, Estimate]
) -> list[Warning]:
    """With no performance target, the least a customer would expect: every concurrent query slot turns over
    at least once an hour (queries/h >= concurrent queries). Said plainly when the design falls short."""
    t = scenario.targets
    if not isinstance(workload, GreenplumAnalytics) or any(
        v is not None for v in (t.max_full_scan_s, t.min_load_tb_per_hour, t.min_queries_per_hour, t.max_report_s)
    ):
        return []
    qph = estimates.get("queries_per_hour")
    if qph is None or qph.p50 >= workload.concurrent_queries:
        return []
    scan = estimates.get("full_scan_s")
    scan_text = f"; a full scan takes {scan.p50 / 3600:,.1f} h" if scan is not None else ""
    return [Warning(
        "no-target-service-level",
        f"No performance target was set, and this design serves {qph.p50:,.1f} queries/h for"
        f" {workload.concurrent_queries} concurrent queries: each query would run longer than an hour{scan_text}."
        f" Set a target (e.g. min queries/h = {workload.concurrent_queries}) to size the hosts for it.",
        "warning", "targets.min_queries_per_hour",
    )]


def search_verdicts(
    ev: evaluation.Evaluated, i: int, scenario: Scenario, estimates: dict[str, Estimate], totals: Totals
) -> tuple[list[TargetCheck], list[Warning]]:
    """What the search could not reach: the targets no candidate met with the others (the nearest design is
    shown), and capacity. The targets it met are judged on the P50 estimates by `targets.check_targets`."""
    checks: list[TargetCheck] = []
    warnings: list[Warning] = []
    for name, met in ev.meets.items():
        if bool(met[i]):
            continue
        shortfall = _shortfall(name, ev, i, scenario.targets)
        if name == CAPACITY:
            warnings.append(Warning(
                "capacity-unmet", f"The {target_words(name)} is out of reach with this hardware: the nearest design is"
                f" shown ({shortfall}).", "critical", "workload.data_tb"))
            continue
        target = TARGETS[name]
        limit = target_limit(scenario, name)
        confidence = scenario.targets.confidence
        e = estimates.get(target.metric)
        value = float(getattr(totals, target.metric)) if e is None else estimate_at(e, target.metric, confidence)
        if limit is not None:
            unit = totals.currency if target.metric == "capex" else target.unit
            text = f"no design with this hardware meets it; the nearest is shown ({shortfall})."
            achievable, binding, best_hosts = None, "", None
            if name in ev.out_of_reach:  # no host count reaches it: say what the design reaches and what binds
                here, binding, achievable, best_hosts = ev.out_of_reach[name]
                unit_m = METRICS[target.metric].unit
                best = (f"the best this hardware reaches within refarch's {evaluation.MAX_SEGMENT_HOSTS:,}-host cap"
                        f" is {achievable:,.1f} {unit_m} at {best_hosts:,} segment hosts" if best_hosts !=
                        ev.segment_hosts[i] else "more hosts would not improve it")
                version = getattr(scenario.workload, "greenplum_version", "6")  # Greenplum 6: master
                text = (
                    f"this design reaches {here:,.1f} {unit_m} at {ev.segment_hosts[i]:,} segment hosts, bound by"
                    f" {role_label(binding, version)}: {_why_stopped(ev, i)}; {best} ({shortfall}). To move it:"
                    f" {_lever(binding, scenario, limit).replace('{coordinator}', role_word(version))}."
                )
            check = judge(name, limit, value, unit, unreachable_text=text, confidence=confidence)
            checks.append(dataclasses.replace(check, achievable=achievable, binding=binding,
                                              hosts_for_achievable=best_hosts))
    return checks, warnings


def stop_rationale(ev: evaluation.Evaluated, i: int, scenario: Scenario, ctx: metrics.GpContext,
                   host_price: float) -> Rationale | None:
    """Where the design stops growing for the targets no host count meets (None: every target is within reach):
    refarch's cap, or its stopping rule (one more host gains under `MIN_MARGINAL_GAIN` of the metric and the target
    lies beyond the cap at that rate), with what one more host would cost per unit of the metric gained."""
    reach = ev.out_of_reach
    if not reach:
        return None
    w, hosts, cur = scenario.workload, int(ev.segment_hosts[i]), scenario.commercial.currency
    assert isinstance(w, GreenplumAnalytics | GreenplumOltp)
    parts = []
    for name, (here, _, achievable, best_hosts) in reach.items():
        metric, unit = TARGETS[name].metric, METRICS[TARGETS[name].metric].unit
        if hosts >= evaluation.MAX_SEGMENT_HOSTS:
            parts.append(f"the {target_words(name)} is out of reach: the design stops at"
                         f" {evaluation.MAX_SEGMENT_HOSTS:,} segment hosts, the largest cluster refarch sizes"
                         f" ({here:,.1f} {unit})")
            continue
        more = metrics.at_confidence(w, ctx, np.array([hosts + 1]), np.array([int(ev.etl_hosts[i])]),
                                     scenario.targets.confidence, only=frozenset({metric}))[metric]
        gain = abs(float(more[0]) - here)
        per = f", {host_price / gain:,.0f} {cur} per {unit} gained" if gain > 0 else ", nothing gained"
        parts.append(
            f"the {target_words(name)} is out of reach within refarch's {evaluation.MAX_SEGMENT_HOSTS:,} segment hosts"
            f" at the rate more hosts improve it, so the design stops at {hosts:,}, where one more host"
            f" ({host_price:,.0f} {cur}) would move it from {here:,.1f} to {float(more[0]):,.1f} {unit}, less than"
            f" {percent(evaluation.MIN_MARGINAL_GAIN, 1)}{per}; the best within the cap is {achievable:,.1f} {unit}"
            f" at {best_hosts:,} hosts")
    text = "; ".join(parts) + ". Growing on buys little for its price; the lever is faster hosts (see the warning)."
    return Rationale("Where the host count stops", text[0].upper() + text[1:],
                     "; ".join((cite(RULES, "gp_min_marginal_gain_per_host"), cite(RULES, "gp_max_segment_hosts"))))


def _lever(binding: str, scenario: Scenario, limit: float) -> str:
    """What would move the binding resource; for OLTP beyond what the clients give on any hardware, that too."""
    w = scenario.workload
    if not isinstance(w, GreenplumOltp):
        return LEVERS.get(binding, "faster hardware")
    from models.perf.gp_oltp import BINDING_CLIENTS, client_ceiling_tps  # OLTP only: analytics sizing never loads it

    lever = CLIENTS_LEVER if binding == BINDING_CLIENTS else LEVERS.get(binding, "faster hardware")
    ceiling = float(client_ceiling_tps(w.mix, w.clients))
    if limit <= ceiling:
        return lever
    clients = (f"{w.clients:,} clients give at most {ceiling:,.0f} TPS on any hardware (one transaction at a time"
               " each), so the target needs more concurrent clients (workload.clients)")
    return clients if binding == BINDING_CLIENTS else f"{lever}; and beyond that, {clients}"


def _why_stopped(ev: evaluation.Evaluated, i: int) -> str:
    if ev.segment_hosts[i] >= evaluation.MAX_SEGMENT_HOSTS:
        return f"{evaluation.MAX_SEGMENT_HOSTS:,} segment hosts is the largest cluster refarch sizes"
    return (f"one more host would gain less than {percent(evaluation.MIN_MARGINAL_GAIN, 1)}; at that rate the target"
            f" lies beyond the {evaluation.MAX_SEGMENT_HOSTS:,} segment hosts refarch sizes, so the design stops"
            " there rather than grow toward a cluster that still would not meet it")


LEVERS = {
    "drives": "faster data drives or more of them per host",
    "cpu": "more cores per segment host (a bigger CPU) or more primaries per host (a segment tier with more)",
    "network": "more interconnect bandwidth per host (faster or more NIC ports)",
    "loader": "more or faster ETL hosts",
    "coordinator CPU": "a bigger {coordinator} host (more cores)",  # the release's word for the role
    "segment CPU": "more cores per segment host",
    "segment hosts (WAL flush / lock capacity)": "faster WAL drives on the segment hosts",
}
CLIENTS_LEVER = "more concurrent clients (workload.clients)"  # OLTP: the binding is gp_oltp.BINDING_CLIENTS


def _shortfall(name: str, ev: evaluation.Evaluated, i: int, t: Targets) -> str:
    words = metrics.shortfall(name, ev.metrics, i, t)
    if words is not None:
        return words
    if name == "max_capex":
        return f"capex {ev.capex[i]:,.0f} vs {t.max_capex:,.0f}"
    if name == "max_power_w":
        return f"{ev.power_w[i]:,.0f} W vs {t.max_power_w:,.0f} W"
    if name == "max_rack_u":
        return f"{ev.rack_u[i]:,.0f} U vs {t.max_rack_u} U"
    return f"{ev.segment_hosts[i]} hosts, the most this tool sizes"

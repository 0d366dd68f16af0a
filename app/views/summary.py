"""The headline of one result as typed rows: the key figures (capex, a year of subscriptions, the cost over the
planning horizon, power, hosts and racks, the main estimate) and every estimate with its P10, P50 and P90, its
target and the engine's verdict on it.

The editable deliverables (`app.export.docx_report`, `app.export.pptx_deck`) render these rows and nothing else;
each figure is written once here, with its unit or its currency, by `app.formatting`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.formatting import DASH, bare, estimate_range, money, number, power, rack_power, unit_text, value
from app.views.ownership import ownership
from models.release_words import role_label
from models.sizing.result import BomLine, RackLayout, SizingResult
from models.uncertainty import Estimate
from models.vocabulary import KINDS, TARGETS, metric_label, target_of_metric


@dataclass(frozen=True)
class KpiRow:
    """One key figure: `text` is the value as printed, with its currency or unit; `note` qualifies it."""

    key: str  # stable: "capex", "first_year", "recurring_per_year", "tco", "power", "hosts", "main_estimate"
    label: str
    text: str
    note: str = ""


@dataclass(frozen=True)
class EstimateRow:
    """One estimate: its percentiles as printed in `unit`, the target it is judged by and the verdict."""

    key: str  # the metric's name in `SizingResult.estimates`
    label: str
    p10: str
    p50: str
    p90: str
    unit: str
    target: str  # "≤ 600", or DASH when no target applies
    status: str  # "met", "missed", "unreachable", "not checked", or DASH
    main: bool = False


BINDING_LABELS = {"cpu": "CPU", "drives": "drives (storage bandwidth)", "memory": "memory", "network": "network"}


def binding_label(name: str, version: str | None = None) -> str:
    """A binding resource as a reader names it ("drives (storage bandwidth)" for "drives"; Greenplum 6's "master
    CPU" for "coordinator CPU" on a design sized for `version` "6")."""
    return role_label(BINDING_LABELS.get(name, name), version)


@dataclass(frozen=True)
class Headline:
    """The estimate a result's headline leads with: the metric the scenario's target bounds (a report response time
    when the target is one), else the kind's main metric; with the resource that binds it."""

    metric: str
    label: str
    estimate: Estimate
    binding: str  # as a reader names it: the target check's binding resource, else the design's
    target: str = ""  # the target field it answers ("max_report_s"), "" for the kind's main metric


def headline_metric(r: SizingResult) -> str:
    """The metric the headline leads with: of the targets judged on an estimate of the design, the first one not
    met, else the first one; the kind's main metric when no target bounds an estimate."""
    judged = [c for c in r.target_checks if c.metric in r.estimates]
    if not judged:
        return r.main_metric
    return min(judged, key=lambda c: c.met).metric  # a stable min: the first not met, else the first


def headline(r: SizingResult) -> Headline | None:
    """The headline estimate of `r` (None when the design estimates neither a targeted metric nor its main one)."""
    metric = headline_metric(r)
    est = r.estimates.get(metric)
    if est is None:
        return None
    check = next((c for c in r.target_checks if c.metric == metric), None)
    binding = (check.binding if check is not None and check.binding else r.binding_resource)
    return Headline(metric, metric_label(metric), est, binding_label(binding, r.design.greenplum_version),
                    check.target if check else "")


def worker_word(r: SizingResult) -> str:
    """What one worker host of the design's kind is called ("segment host", "database host")."""
    return KINDS[r.design.kind].worker_role if r.design.kind in KINDS else "worker host"


def kpi_rows(r: SizingResult) -> list[KpiRow]:
    """The key figures in the order the cover and the summary show them (running costs: subscriptions, support,
    energy, rack space and operations); the cost over the horizon only when the
    engine counted one, the main estimate only when the design has one."""
    d, t = r.design, r.totals
    cur = t.currency
    # what the capex leaves out (parts priced on quote) matters more than its line count, and a tile holds one
    rows = [KpiRow("capex", "Capex (one-time)", money(t.capex, cur, cents=False),
                   ownership(r).quote_clause or f"{len(r.bom)} BOM lines")]
    if r.tco:  # year 1 of the TCO, as the PDF's cover and summary give it (`app.views.ownership`)
        rows.append(KpiRow("first_year", "First year", money(ownership(r).first_year, cur, cents=False),
                           "capex + a year of running costs"))
    if t.recurring_per_year:
        rows.append(KpiRow("recurring_per_year", "Subscriptions and support",
                           f"{money(t.recurring_per_year, cur, cents=False)} /yr", "every year"))
    if t.tco_years and t.tco:
        rows.append(KpiRow("tco", f"Cost of ownership, {t.tco_years} years", money(t.tco, cur, cents=False),
                           "capex + running costs"))
    rows.append(KpiRow("power", "Power", power(t.power_w), f"{t.kwh_per_year:,.0f} kWh/year"))
    worker = worker_word(r)
    rows.append(KpiRow("hosts", "Hosts · rack space", f"{d.total_hosts} · {t.rack_u} U",
                       f"{d.segment_hosts} {worker}{'s' if d.segment_hosts != 1 else ''}"))
    head = headline(r)
    if head is not None:
        main = head.estimate
        rows.append(KpiRow("main_estimate", f"{head.label} (P50)", value(main.p50, main.unit),
                           f"P10–P90 {estimate_range(main)}; bound by {head.binding}"))
    return rows


def target_status(r: SizingResult, field: str) -> str:
    """The engine's verdict on a target; "not applicable" when the kind is not judged by it."""
    check = r.check(field)
    if check is not None:
        return check.status
    return "not applicable" if r.design.kind not in TARGETS[field].kinds else "not checked"


def estimate_rows(r: SizingResult, targets: object) -> list[EstimateRow]:
    """Every estimate, the main one first: P10, P50 and P90 in its unit, the target (the limit the engine judged,
    else the scenario's `targets`) and the verdict."""
    rows = []
    lead = headline_metric(r)
    for name in sorted(r.estimates, key=lambda n: (n != lead, n)):
        e = r.estimates[name]
        target_text, status = DASH, DASH
        target = target_of_metric(name)
        check = r.check(target.name) if target is not None else None
        goal = check.limit if check is not None else getattr(targets, target.name, None) if target else None
        if target is not None and goal is not None:
            target_text = f"{'≤' if target.bound == 'max' else '≥'} {number(goal)}"
            status = target_status(r, target.name)
        rows.append(EstimateRow(name, metric_label(name), bare(e.p10, e.unit), bare(e.p50, e.unit),
                                bare(e.p90, e.unit), unit_text(e.unit), target_text, status, name == lead))
    return rows


@dataclass(frozen=True)
class RackRow:
    """One rack as a line of a table: its space and power as printed, and what it holds, top to bottom."""

    name: str
    space: str  # "38/42 U"
    power: str  # "13.7 kW peak of 15 kW"
    contents: str  # "16 × segment host: PowerEdge R670; 2 × leaf switch: ...; 2 0U PDUs"
    over_budget: bool = False


def racks_as_shown(r: SizingResult) -> tuple[RackLayout, ...]:
    """The design's racks with each slot's role in the release's words (Greenplum 6's master host): what every
    rack renderer (window, PDF, DOCX, PPTX) draws or lists."""
    v = r.design.greenplum_version
    return tuple(replace(rack, slots=tuple(replace(s, role=role_label(s.role, v)) for s in rack.slots))
                 for rack in r.racks)


def bom_as_shown(r: SizingResult) -> tuple[BomLine, ...]:
    """The BOM lines with their roles in the release's words, for the charts that group by role."""
    v = r.design.greenplum_version
    return tuple(replace(ln, role=role_label(ln.role, v)) for ln in r.bom)


def rack_rows(racks: Sequence[RackLayout]) -> list[RackRow]:
    """Every rack of the layout (`SizingResult.racks`), its slots counted by role and part from the top U down."""
    rows = []
    for rack in racks:
        counts: dict[tuple[str, str], int] = {}
        for slot in sorted(rack.slots, key=lambda x: -x.u_bottom):
            key = (slot.role if slot.kind != "pdu" else "PDU", slot.label)
            counts[key] = counts.get(key, 0) + 1
        held = [f"{n} × {role}: {label}" if role else f"{n} × {label}" for (role, label), n in counts.items()]
        if rack.zero_u_pdus:
            held.append(f"{rack.zero_u_pdus} 0U PDUs")
        rows.append(RackRow(rack.name, f"{rack.u_used}/{rack.u_total} U", rack_power(rack.peak_kw, rack.budget_kw),
                            "; ".join(held), rack.peak_kw > rack.budget_kw))
    return rows

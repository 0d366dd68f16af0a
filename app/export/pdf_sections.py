"""The per-scenario sections of the report: executive summary, workload and assumptions,
performance estimates, rationale and warnings (the design section is `pdf_design`). They
render a `SizingResult` and its `Scenario`; nothing is re-sized here.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from app.export.engine_values import estimated_tps_cites, estimated_tps_source, used_text, used_values
from app.export.pdf_blocks import Cell, Ctx
from app.export.pdf_estate import database_table, estate_section
from app.export.pdf_styles import BAD, GOOD, GOOD_FILL, MUTED
from app.formatting import (
    bare,
    estimate_range,
    gib,
    humanize,
    is_fraction,
    money,
    money_short,
    number,
    part_description,
    power,
    unit_text,
    value,
)
from app.views.design import database_rows
from app.views.edition import warning_rows
from app.views.ownership import ownership
from app.views.summary import binding_label, headline, headline_metric
from models.field_words import field_info, field_label
from models.money import cents, total
from models.references import readable
from models.release_words import role_label
from models.scenario import PostgresConsolidation, Scenario
from models.sizing.result import SizingResult, UsedValue, Warning
from models.vocabulary import KINDS, TARGETS, deployment_label, kind_label, metric_label, raid_label, target_of_metric


def worker_role(r: SizingResult) -> str:
    """What one worker host of the design's kind is called ("segment host", "database host", "IQ node")."""
    return KINDS[r.design.kind].worker_role if r.design.kind in KINDS else "worker host"


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1] + 'ies' if word.endswith('y') else word + 'es' if word.endswith('s') else word + 's'}"


def warning_title(w: Warning, version: str | None = None) -> str:
    """"Target not met (Max full-scan time (s))": the warning's title (in the words of the Greenplum release
    `version`) and the field it concerns."""
    title = role_label(w.title, version)
    return f"{title} ({field_label(w.field)})" if w.field else title


def _in_sentence(label: str) -> str:
    """A label inside a sentence: "full-scan time", but "TPC-H throughput" keeps its acronym."""
    first = label.split(" ", 1)[0]
    return label if first.isupper() else label[:1].lower() + label[1:]


def target_status(r: SizingResult, field: str) -> str:
    """The engine's verdict on a target (`SizingResult.target_checks`); "not applicable" when the kind is not
    judged by it."""
    check = r.check(field)
    if check is not None:
        return check.status
    return "not applicable" if r.design.kind not in TARGETS[field].kinds else "not checked"


def status_cell(ctx: Ctx, status: str) -> Flowable:
    colour = {"met": GOOD, "missed": BAD, "unreachable": BAD}.get(status, MUTED)
    return ctx.m(f"<font color='#{colour.hexval()[2:]}'><b>{ctx.text(status)}</b></font>", ctx.styles.cell)


def _field_value(v: object, used: UsedValue | None = None) -> str:
    """A scenario value as the report prints it; for one left empty, what the engine used in its place
    (`app.export.engine_values`), as the form shows it."""
    if v is None:
        if used is None:
            return "chosen by refarch"
        return f"{used_text(used)}, chosen by refarch" if used.used else used_text(used)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:,g}"
    return str(v)


def _used_or_dash(used: dict[str, UsedValue], path: str) -> str:
    u = used.get(path)
    return used_text(u) if u is not None else "–"


# list fields whose items a customer reads as they typed them (vendor names); other lists hold catalog ids or
# profile names, internal to the design, and are not printed
_NAME_LISTS = frozenset({"platform.vendors"})


def _model_rows(model: BaseModel, section: str, skip: Sequence[str] = ("kind",),
                r: SizingResult | None = None, used: dict[str, UsedValue] | None = None) -> list[tuple[str, str]]:
    """(label, value) of every field of `model`, the part of the scenario at JSON path `section`; a part id
    reads as the part's name (as the BOM lists it) when the sized result `r` is given, an empty field as what
    the engine used (`used`, by JSON path)."""
    used = used or {}
    rows = []
    for name in type(model).model_fields:
        if name in skip:
            continue
        v = getattr(model, name)
        if f"{section}.{name}" in _NAME_LISTS and v:  # a restriction the customer set, in the customer's words
            rows.append((field_info(f"{section}.{name}").text, ", ".join(v)))  # type: ignore[union-attr]
            continue
        if isinstance(v, list):
            continue
        info = field_info(f"{section}.{name}")
        text = (info.choice_label(v) if info is not None and info.choices and v is not None
                else _field_value(v, used.get(f"{section}.{name}")))
        if name.endswith("_id") and r is not None:  # a part by its name; the id stays in the BOM
            picked = v if isinstance(v, str) else getattr(r.design, name, None)
            if isinstance(picked, str):
                text = part_description(r, picked) + ("" if isinstance(v, str) else ", chosen by refarch")
        rows.append((info.text if info is not None else humanize(name), text))
    return rows


# --- Executive summary ---------------------------------------------------------------------------------------


def capex_split(r: SizingResult) -> tuple[float, float, float]:
    """The one-time cost as hardware (servers, network, racks) and perpetual licences, and what it is at list
    prices: the summary names what the money buys and never calls a discounted total a list price."""
    once = [ln for ln in r.bom if not ln.recurring]
    licences = total(ln.extended_price for ln in once if ln.kind == "licence")
    at_list = total(cents((ln.list_unit_price if ln.list_unit_price is not None else ln.unit_price) * ln.qty)
                    for ln in once)
    return cents(r.totals.capex - licences), licences, at_list


def capex_sentence(r: SizingResult) -> str:
    """"The hardware costs X at list prices", or "It costs X up front: Y hardware and Z perpetual licences, net of
    discounts (W at list prices)" (markup)."""
    cur = r.totals.currency
    hardware, licences, at_list = capex_split(r)
    text = (f"It costs <b>{money(r.totals.capex, cur)}</b> up front: {money(hardware, cur)} hardware and"
            f" {money(licences, cur)} perpetual licences" if licences else
            f"The hardware costs <b>{money(r.totals.capex, cur)}</b>")
    quote = ownership(r).quote_clause
    tail = f" ({quote})" if quote else ""  # parts with no price yet are in no figure: say so beside the capex
    if at_list > r.totals.capex:
        return text + f", net of discounts ({money(at_list, cur)} at list prices){tail},"
    return text + f" at list prices{tail}"


def capex_tile(r: SizingResult) -> str:
    """The KPI tile's label: the capex is net of discounts when the scenario has any."""
    return "Capex (net)" if capex_split(r)[2] > r.totals.capex else "Capex (list)"


def cost_tiles(r: SizingResult) -> list[tuple[str, str, str]]:
    """The cost of ownership as three KPI tiles: capex, the first year and the total over the horizon (N stated)."""
    o = ownership(r)
    cur = o.currency
    once = "one-time" + (f", {o.quote_clause}" if o.quote_clause else "")
    return [(capex_tile(r), money(o.capex, cur, cents=False), once),
            ("First year", money(o.first_year, cur, cents=False),
             f"incl. {money_short(o.recurring_per_year, cur)}/year subscriptions and support"),
            (o.horizon, money(o.tco, cur, cents=False), f"over the {o.years}-year planning horizon")]


def ownership_sentence(r: SizingResult) -> str:
    """"Its first year costs X with subscriptions, support, energy, rack space and operations; over the 5-year
    horizon, Y."
    (markup): the cost of ownership next to the price, so the one-time figure is never read as the whole cost."""
    o = ownership(r)
    cur = o.currency
    return (f"Its first year costs <b>{money(o.first_year, cur, cents=False)}</b> with subscriptions and support "
            f"({money(o.recurring_per_year, cur)} a year), energy, rack space and operations; over the {o.years}-year"
            " planning "
            f"horizon it costs <b>{money(o.tco, cur, cents=False)}</b> to own. ")


def recommendation(ctx: Ctx, r: SizingResult, s: Scenario) -> str:
    """The design in one paragraph (markup; every catalog and user string escaped)."""
    d, t = r.design, r.totals
    t_ = ctx.text
    who = f"For {t_(s.customer)}, refarch" if s.customer else "refarch"
    parts = [f"{plural(d.segment_hosts, worker_role(r))} on {t_(part_description(r, d.server_id))}"]
    if d.coordinator_hosts:
        parts.append(plural(d.coordinator_hosts, role_label("coordinator host", d.greenplum_version)))
    if d.etl_hosts:
        parts.append(plural(d.etl_hosts, "ETL host"))
    total_hosts = d.total_hosts
    hosts = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    text = (f"{who} recommends <b>{hosts}</b>, on {deployment_label(d.deployment)}: "
            f"{plural(total_hosts, 'host')} in {t.rack_u} U. ")
    if d.drive_id and d.data_drives_per_host:
        text += (f"Each {t_(worker_role(r))} holds {d.data_drives_per_host} × {t_(part_description(r, d.drive_id))}"
                 f" ({t_(raid_label(d.raid))}) and {gib(d.memory_gib_per_host)} of memory")
        text += f", split into {d.vms_per_host} VMs. " if d.vms_per_host > 1 else ". "
    text += capex_sentence(r) + (f" and draws <b>{power(t.power_w)}</b> ({t.kwh_per_year:,.0f} kWh a year with PUE"
                                 f" {s.assumptions.pue:g}). ")
    text += ownership_sentence(r)
    head = headline(r)
    if head is not None:
        main = head.estimate
        text += (f"Its {_in_sentence(head.label)} is estimated at <b>{value(main.p50, main.unit)}</b>"
                 f" (P10–P90: {estimate_range(main)}); ")
    binding = head.binding if head else binding_label(r.binding_resource, r.design.greenplum_version)
    text += f"the binding resource is <b>{t_(binding)}</b>."
    return text


def estimates_table(ctx: Ctx, r: SizingResult, s: Scenario) -> Flowable:
    rows: list[list[Cell]] = []
    lead = headline_metric(r)
    names = sorted(r.estimates, key=lambda n: (n != lead, n))
    for name in names:
        e = r.estimates[name]
        target_text, status = "–", "–"
        target = target_of_metric(name)
        check = r.check(target.name) if target is not None else None
        # the limit judged (an OLTP workload's target throughput stands in for the minimum TPS target)
        goal = check.limit if check is not None else getattr(s.targets, target.name) if target is not None else None
        if target is not None and goal is not None:
            target_text = f"{'≤' if target.bound == 'max' else '≥'} {number(goal)}"
            status = target_status(r, target.name)
        label = metric_label(name) + (" (main)" if name == lead else "")
        rows.append([label, bare(e.p10, e.unit), bare(e.p50, e.unit), bare(e.p90, e.unit), unit_text(e.unit),
                     target_text, status_cell(ctx, status) if status != "–" else status])
    w = ctx.width
    t = ctx.grid(["Estimate", "P10", "P50", "P90", "Unit", "Target", "Status"], rows,
                 [w * 0.27, w * 0.11, w * 0.11, w * 0.11, w * 0.2, w * 0.11, w * 0.09], numeric=(1, 2, 3, 5))
    return t


def executive_summary(ctx: Ctx, r: SizingResult, s: Scenario, warnings_section: str) -> list[Flowable]:
    st = ctx.styles
    d, t = r.design, r.totals
    out: list[Flowable] = [ctx.heading("Executive summary"), ctx.m(recommendation(ctx, r, s), st.lead)]
    head = headline(r)
    tiles = [
        ("Power", power(t.power_w), f"{t.kwh_per_year:,.0f} kWh/year"),
        ("Hosts · rack", f"{d.total_hosts} · {t.rack_u} U",
         f"{d.segment_hosts} {worker_role(r)}s" if d.segment_hosts != 1 else f"1 {worker_role(r)}"),
    ]
    if head is not None:
        tiles.append((head.label + " (P50)", value(head.estimate.p50, head.estimate.unit),
                      f"P10–P90 {estimate_range(head.estimate)} · bound by {head.binding}"))
    out += [Spacer(1, 2), ctx.kpis(cost_tiles(r)), Spacer(1, 6), ctx.kpis(tiles), Spacer(1, 10)]
    binding = binding_label(r.binding_resource, r.design.greenplum_version)
    out += [ctx.m("<b>Headline estimates</b> with their P10–P90 range (80 % of the simulated outcomes lie "
                  f"between P10 and P90). Binding resource: <b>{ctx.text(binding)}</b>.",
                  st.body), estimates_table(ctx, r, s)]
    if r.warnings:
        out += [Spacer(1, 8), ctx.callout([ctx.m(
            f"<b>{ctx.text(ctx.edition.warnings_callout(len(r.warnings), warnings_section))}</b>: "
            + "; ".join(ctx.text(warning_title(w, r.design.greenplum_version)) for w in r.warnings) + ".",
            st.warning)])]
    else:
        out += [Spacer(1, 8), ctx.callout([ctx.p("refarch raised no warnings for this design.",
                                                 st.warning)], color=GOOD, fill=GOOD_FILL)]
    return out


# --- Workload and assumptions ----------------------------------------------------------------------------------


def workload_section(ctx: Ctx, r: SizingResult, s: Scenario) -> list[Flowable]:
    st = ctx.styles
    w = s.workload
    out: list[Flowable] = [*ctx.section("Workload and assumptions")]
    out.append(ctx.p(f"Workload: {kind_label(w.kind)}.", st.body))
    used = used_values(r)
    out += [ctx.heading("Workload", 1), ctx.facts(_model_rows(w, "workload", used=used))]
    if isinstance(w, PostgresConsolidation):
        tps = [number(db.peak_tps) if db.peak_tps is not None
               else _used_or_dash(used, f"workload.databases[{i}].peak_tps") for i, db in enumerate(w.databases)]
        carried = {row.database: f"{number(row.tps_p10)}-{number(row.tps_p90)} ({row.binding})"
                   for row in database_rows(r)}
        out += database_table(ctx, w, tps, carried)
        if any(db.peak_tps is None for db in w.databases):
            out.append(ctx.m(f"A peak TPS left empty is estimated at {ctx.text(estimated_tps_source())}"
                             f" ({'; '.join(ctx.cite(c) for c in estimated_tps_cites())}).", st.cell_small))
        out += estate_section(ctx, w, r)
    out += [ctx.heading("Platform choices", 1), ctx.facts(_model_rows(s.platform, "platform", r=r, used=used))]
    targets = [(field_label(f"targets.{k}"), k, v) for k, v in s.targets.model_dump().items()
               if v is not None and k != "confidence"]
    for c in r.target_checks:  # a limit the workload sets (an OLTP target throughput) is a target too
        if getattr(s.targets, c.target, None) is None:
            targets.append((f"{field_label(f'targets.{c.target}')} (the workload's target)", c.target, c.limit))
    out.append(ctx.heading("Targets", 1))
    if targets:
        out.append(ctx.p(f"Each performance target is met on the {s.targets.confidence} estimate the design reports.",
                         st.body))
        cw = ctx.width
        rows: list[list[Cell]] = [[label, _field_value(v), status_cell(ctx, target_status(r, k))]
                                  for label, k, v in targets]
        out.append(ctx.grid(["Target", "Value", "Status"], rows, [cw * 0.45, cw * 0.25, cw * 0.3], numeric=(1,)))
    else:
        out.append(ctx.p("No targets were set: the design is sized for capacity at the horizon and the engine's "
                         "rules.", st.body))
    a = s.assumptions
    out += [ctx.heading("Commercial assumptions", 1), ctx.facts([
        ("Energy price", f"{a.energy_price_per_kwh:g} {r.totals.currency} per kWh"),
        ("Data-centre PUE", f"{a.pue:g}"),
        ("Average utilisation for energy", f"{a.utilization_pct:g} %"),
        *((field_label(f"commercial.{name}"), _running_cost(s, r, name, used))
          for name in ("rack_cost_per_year", "host_operations_per_year")),
        ("Prepared by", s.prepared_by or "–"),
    ])]
    if s.notes.strip():
        out.append(ctx.heading("Notes", 1))
        out += [ctx.p(par, st.body) for par in s.notes.split("\n") if par.strip()]
    return out


def _running_cost(s: Scenario, r: SizingResult, name: str, used: dict[str, UsedValue]) -> str:
    """A running cost the TCO counts: the scenario's figure, or the sourced default it left empty ("by default")."""
    given = getattr(s.commercial, name)
    if given is not None:
        return f"{money(given, r.totals.currency)}" + (" (none counted)" if given == 0 else "")
    default = used.get(f"commercial.{name}")
    return f"{used_text(default)}, by default (see the cost of ownership)" if default is not None else "–"


# --- Performance ---------------------------------------------------------------------------------------------


def performance_section(
    ctx: Ctx, r: SizingResult, s: Scenario, chart: Flowable | None, curve_chart: Flowable | None = None
) -> list[Flowable]:
    st = ctx.styles
    out: list[Flowable] = [*ctx.section("Performance estimates")]
    out.append(ctx.m(
        "Each estimate is a Monte Carlo over the calibrated model's parameter uncertainty: P50 is the median, "
        "P10 and P90 bound 80 % of the outcomes. The models and their fit to the published studies are in the "
        f"appendix. The binding resource, the one that limits this design, is "
        f"<b>{ctx.text(binding_label(r.binding_resource, r.design.greenplum_version))}</b>.", st.body))
    out.append(estimates_table(ctx, r, s))
    if chart is not None:
        out += [Spacer(1, 8), ctx.figure(chart, "Estimate ranges: the bar spans P10 to P90, the dot is P50, a dashed "
                                                "line marks the target.")]
    if curve_chart is not None:
        out += [Spacer(1, 8), ctx.figure(curve_chart, "The main estimate against the number of worker hosts on this"
                                                      " design's hardware: the line is P50, the band P10 to P90,"
                                                      " the marker this design.")]
    fractions = [n for n, e in r.estimates.items() if is_fraction(e.unit)]
    if fractions:
        out.append(ctx.p("Ratios are shown in percent.", st.muted))
    return out


# --- Rationale and warnings ----------------------------------------------------------------------------------


def rationale_section(ctx: Ctx, r: SizingResult) -> list[Flowable]:
    st = ctx.styles
    out: list[Flowable] = [*ctx.section("Rationale")]
    out.append(ctx.p("Why the design is what it is: each decision, its reason, and the study or document "
                     "behind it ([n] is entry n of the reference list at the end, followed by the section, table "
                     "or figure).", st.body))
    w = ctx.width
    rows: list[list[Cell]] = []
    for x in r.rationale:
        reason: list[Flowable] = [ctx.p(readable(x.text, ctx.refs), st.cell),
                  ctx.m(f"<b>Source:</b> {ctx.cite(x.source)}", st.cell_small)]
        rows.append([ctx.p(role_label(x.decision, r.design.greenplum_version), st.cell_bold), reason])
    if rows:
        out.append(ctx.grid(["Decision", "Reason and source"], rows, [w * 0.25, w * 0.75], zebra=True))
    return out


def warnings_section(ctx: Ctx, r: SizingResult) -> list[Flowable]:
    st = ctx.styles
    out: list[Flowable] = [*ctx.section("Warnings", (45 if r.warnings else 22) * mm)]
    if not r.warnings:
        out.append(ctx.callout([ctx.p("refarch raised no warnings for this design.", st.warning)],
                               color=GOOD, fill=GOOD_FILL))
        return out
    out.append(ctx.p(ctx.edition.warnings_intro(), st.body))
    for row in warning_rows(r.warnings, r.design.greenplum_version):
        out += [ctx.callout([ctx.m(f"<b>{ctx.text(row.heading)}</b>", st.warning),
                             ctx.p(readable(ctx.edition.warning_text(row), ctx.refs), st.warning)]),
                Spacer(1, 5)]
    return out

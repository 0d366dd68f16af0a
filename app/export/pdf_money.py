"""Bill of materials, cost and power, and buy-as-you-grow sections of the report.

The BOM table is drawn from `app.export.bom.bom_table`, the same rows the CSV and XLSX
carry, so the grand total printed here is the one procurement gets in the spreadsheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from reportlab.platypus import Flowable, KeepTogether, Spacer, Table

from app.export.bom import GRAND, ONE_TIME, PER_YEAR, BomTable
from app.export.pdf_blocks import Ctx
from app.export.pdf_doc import Para
from app.export.pdf_styles import SUB_FILL, TOTAL_FILL, grid_table_style
from app.formatting import (
    PRICE_WORDS,
    converted_from,
    line_amount,
    money,
    money_figure,
    money_short,
    number,
    power_with_watts,
)
from app.views.compare import compare_rows
from app.views.ownership import ownership
from app.views.summary import racks_as_shown
from models.scenario import Scenario
from models.sizing import running_costs
from models.sizing.result import PriceStatus, SizingResult
from models.vocabulary import METRICS
from models.whatif import GrowthYear

BASIS_MARK = {"list": "L", "quote": "Q", "estimate": "E"}


def bom_section(ctx: Ctx, table: BomTable, result: SizingResult | None = None) -> list[Flowable]:
    st = ctx.styles
    w = ctx.width
    widths = [w * 0.35, w * 0.07, w * 0.07, w * 0.06, w * 0.12, w * 0.06, w * 0.12, w * 0.15]
    cur = table.currency
    head = ["Part", "Qty / host", "Hosts", "Qty", f"List unit ({cur})", "Disc. %", f"Net unit ({cur})",
            f"Extended ({cur})"]
    numeric = {1, 2, 3, 4, 5, 6, 7}
    data: list[list[object]] = [[Para(ctx.text(h), st.cell_head_num if i in numeric else st.cell_head)
                                 for i, h in enumerate(head)]]
    cmds: list[tuple[object, ...]] = []
    current_group = None
    for row in table.rows:
        i = len(data)
        if row.kind == "line":
            if row.group != current_group:
                current_group = row.group
                title = ctx.text(row.group[:1].upper() + row.group[1:])
                if row.group == row.role and row.hosts and row.part_kind not in ("switch", "cable", "rack", "pdu"):
                    title = f"{title}</b> · {row.hosts} host{'s' if row.hosts != 1 else ''}<b>"
                data.append([ctx.m(f"<b>{title}</b>", st.cell), "", "", "", "", "", "", ""])
                cmds += [("SPAN", (0, i), (-1, i)), ("BACKGROUND", (0, i), (-1, i), SUB_FILL)]
                i += 1
            origin = BASIS_MARK.get(row.price_basis, "?") + (f" {row.quote}" if row.quote else "")
            if row.source_currency and row.source_currency != cur:
                origin += f" · {converted_from(row.source_price, row.source_currency, row.fx_rate)}"
            # vendor part number first (what procurement orders by); refarch's catalog id last, in small print
            sub = f"P/N {row.part_number} · " if row.part_number else ""
            # a SAN has no price date; a quote carries its own
            sub += " · ".join(x for x in (row.part_kind, origin, "" if row.quote else row.price_as_of) if x)
            if row.note:
                sub += f" · {row.note}"
            if ctx.edition.internal:  # the catalog id is the team's; the customer orders by part number
                sub += f" · id {row.part_id}"
            part = [ctx.p(row.description, st.cell), ctx.fitted(sub, widths[0] - 8)]
            disc = f"{row.discount_pct:g}" if row.discount_pct else ""
            # every figure on one line: the font shrinks to fit its column, else its k / M form is printed;
            # "incl." or "on quote" for a part with no price of its own (never 0.00)
            figures = [(f"{row.qty_per_host:,}", None), (f"{row.hosts:,}", None), (f"{row.qty:,}", None),
                       _amount(row.list_unit_price, status=row.price_status), (disc, None),
                       _amount(row.unit_price, status=row.price_status),
                       _amount(row.extended, row.recurring, row.price_status)]
            data.append([part, *(ctx.number_cell(text, widths[k + 1], short)
                                 for k, (text, short) in enumerate(figures))])
        elif row.kind == "subtotal":
            text, short = _amount(row.extended, status=row.price_status)
            data.append([ctx.p(f"Subtotal {row.role}", st.cell_bold), "", "", "", "", "", "",
                         ctx.number_cell(text, widths[7], short, bold=True)])
            cmds += [("SPAN", (0, i), (6, i)), ("LINEABOVE", (0, i), (-1, i), 0.6, st.h1.textColor)]
        else:
            label = {ONE_TIME: "One-time total (capex)", PER_YEAR: "Per-year total (subscriptions and support)",
                     GRAND: "BOM total, first year"}.get(row.label, row.label)
            data.append([ctx.p(f"{label} ({cur})", st.cell_bold), "", "", "", "", "",
                         ctx.p(money(row.extended, cur), st.cell_num_bold), ""])
            cmds += [("SPAN", (0, i), (5, i)), ("SPAN", (6, i), (7, i)), ("BACKGROUND", (0, i), (-1, i), TOTAL_FILL),
                     ("LINEABOVE", (0, i), (-1, i), 1.0, st.h1.textColor)]
    # the last line, its subtotal and the totals stay on one page
    cmds.append(("NOSPLIT", (0, max(1, len(data) - 5)), (-1, len(data) - 1)))
    t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    style = grid_table_style(1, zebra=False, rows=len(data))
    for c in cmds:
        style.add(*c)
    t.setStyle(style)
    bases = sorted({r.price_basis for r in table.lines})
    marks = {"list": "L list price", "quote": "Q quoted, with the quote and its date", "estimate": "E estimate"}
    basis_text = ", ".join(marks.get(b, b) for b in bases)
    out: list[Flowable] = [
        *ctx.section("Bill of materials"),
        ctx.p(f"Everything to build {table.scenario}: hosts by role, network, racks and power, software licences "
              f"and support. Net prices in {cur} after discounts; each line shows its catalog price basis "
              f"({basis_text}), any conversion and the price date (prices as of {table.price_date}). "
              f"Lines marked /yr recur every year.{_status_legend(table)} The CSV and XLSX exports carry the same "
              "lines and totals.",
              st.body),
        t,
    ]
    if result is not None:
        out += _rates_block(ctx, result, cur)
        out += _racks_block(ctx, result)
    return out


def _amount(amount: float | Decimal | None, recurring: bool = False,
            status: PriceStatus = "priced") -> tuple[str, str | None]:
    """A BOM amount as its column prints it (cents, "/yr") and its k / M form for a column too narrow for it; the
    status's word for a line priced in another line or on quote."""
    if status in PRICE_WORDS:
        return PRICE_WORDS[status], None
    if amount is None:
        return line_amount(amount), None
    return line_amount(amount, recurring), money_short(float(amount), "") + (" /yr" if recurring else "")


def _status_legend(table: BomTable) -> str:
    """What "incl." and "on quote" mean, for those the table prints."""
    statuses = {r.price_status for r in table.lines}
    words = [w for s, w in (("included", "“incl.” is priced in the server's line"),
                            ("on_quote", "“on quote” has no public price and is left out of the totals until the "
                                         "vendor's quote prices it")) if s in statuses]
    return f" A part marked {' and one marked '.join(words)}." if words else ""


def _default_note(s: Scenario, field: str, which: int, ctx: Ctx) -> str:
    """" (the default: a published colocation rate per kW, [n] ...; an estimate the scenario can replace)" where the
    scenario left the running cost empty; "" where it set it (0 included: the user said none)."""
    if getattr(s.commercial, field) is not None:
        return ""
    what = ("the rack's power budget at a published colocation rate per kW" if which == 0 else
            "an administrator's published mean wage over the servers one runs")
    return f" (by default: {what}, {ctx.refs.mark(running_costs.sources()[which])}; an estimate to replace with " \
           "the customer's own figure)"


def _rates_block(ctx: Ctx, r: SizingResult, cur: str) -> list[Flowable]:
    st = ctx.styles
    if not r.exchange_rates:
        return [ctx.p(f"Every price used is in {cur}: no currency conversion.", st.muted)]
    w = ctx.width
    rows = [[f"1 {x['from']}", f"{x['rate']:.6g} {x['to']}", str(x["as_of"]), ctx.p(str(x["table"]), st.cell)]
            for x in r.exchange_rates]
    return [ctx.heading("Exchange rates used", 1),
            ctx.p(f"Prices in other currencies were converted to {cur} at these dated rates from the catalog's rate "
                  "table (USD is its pivot); nothing in another currency is added unconverted.", st.muted),
            ctx.grid(["Unit", f"In {cur}", "As of", "Rate table rows"], rows,
                     [w * 0.1, w * 0.16, w * 0.12, w * 0.62], numeric=(1,))]


def _racks_block(ctx: Ctx, r: SizingResult) -> list[Flowable]:
    if not r.racks:
        return []
    from app.export.rack_drawing import rack_drawings

    st = ctx.styles
    t = r.totals
    text = (f"{t.racks} rack(s), {t.rack_u} U occupied, filled host by host up to each rack's U and its peak power "
            f"budget of {r.racks[0].budget_kw:g} kW; leaf switches at the top of each rack.")
    drawings = rack_drawings(racks_as_shown(r), ctx.width, ctx.fonts)
    return [ctx.figure(drawings[0], "Rack elevation" + (" (first racks)" if len(drawings) > 1 else ""),
                       before=[ctx.heading("Racks and power", 1), ctx.p(text, st.body)]),
            *(ctx.figure(d, "Rack elevation (continued)") for d in drawings[1:])]


def efficiency_rows(r: SizingResult) -> list[tuple[str, str]]:
    """Performance per money and per watt of each estimate: the comparison's rate rows of this one design."""
    return [(row.label, row.text(0)) for row in compare_rows([r]) if row.per is not None and row.values[0] is not None]


def cost_section(ctx: Ctx, r: SizingResult, s: Scenario, chart: Flowable | None,
                 growth: Sequence[GrowthYear] | None, growth_chart: Flowable | None) -> list[Flowable]:
    st = ctx.styles
    t = r.totals
    a = s.assumptions
    cur = t.currency
    out: list[Flowable] = [*ctx.section("Cost and power")]
    quote = ownership(r).quote_clause
    rows = [
        ("Capex (one-time, net)", money(t.capex, cur) + (f" ({quote})" if quote else "")),
        ("Subscriptions and support per year", money(t.recurring_per_year, cur)),
        ("BOM at list prices (first year)", money(t.list_total, cur)),
        (f"Power at {a.utilization_pct:g} % average utilisation", power_with_watts(t.power_w)),
        ("Rack space", f"{t.racks} rack(s), {t.rack_u} U"),
        (f"Energy per year (PUE {a.pue:g})",
         f"{t.kwh_per_year:,.0f} kWh, {money(t.energy_cost_per_year, cur, cents=False)}"),
        ("Energy price", f"{a.energy_price_per_kwh:g} {cur} per kWh"),
        (f"Cost of ownership over {t.tco_years} years", money(t.tco, cur, cents=False)),
    ]
    out.append(ctx.facts(rows, label_w=200))
    if r.tco:
        w = ctx.width
        tco_rows = [[f"Year {y.year}", str(y.hosts), *(money_figure(x, cents=False) for x in (
                     y.hardware, y.licences, y.support, y.energy, y.space, y.operations, y.total, y.cumulative))]
                    for y in r.tco]
        how = ("hardware bought in year 1 for the whole horizon" if s.commercial.purchase == "upfront" else
               "hosts bought in the year the data growth needs them")
        out += [ctx.heading(f"Cost of ownership, year by year ({cur})", 1),
                ctx.m(f"Purchases ({how}), licences (perpetual in the year bought, subscriptions every year), "
                      f"support, energy at PUE {a.pue:g}, rack space at"
                      f" {ctx.text(money(t.space_per_rack_year, cur, cents=False))}"
                      f" per rack per year{ctx.text(_default_note(s, 'rack_cost_per_year', 0, ctx))} and operations"
                      f" at {ctx.text(money(t.operations_per_host_year, cur, cents=False))} per host per year"
                      f"{ctx.text(_default_note(s, 'host_operations_per_year', 1, ctx))}, in whole {ctx.text(cur)}."
                      " No discounting or price drift.", st.muted),
                ctx.grid(["Year", "Hosts", "Hardware", "Licences", "Support", "Energy", "Space", "Operations",
                          "Total", "Cumulative"], tco_rows,
                         [w * 0.07, w * 0.07, w * 0.11, w * 0.11, w * 0.09, w * 0.085, w * 0.085, w * 0.12, w * 0.12,
                          w * 0.14], numeric=(1, 2, 3, 4, 5, 6, 7, 8, 9))]
    eff = efficiency_rows(r)
    if eff:
        rates = [METRICS[m].rate_label.lower() for m in sorted(r.estimates) if m in METRICS and METRICS[m].rate_label]
        note = "P50 estimates divided by capex (per 1,000) and by power (per kW)"
        note += f"; a time counts as the rate it stands for ({', '.join(rates)})." if rates else "."
        out += [ctx.heading("Performance per money and per watt", 1), ctx.p(note, st.muted),
                ctx.facts(eff, label_w=260)]
    if chart is not None:
        out.append(ctx.figure(chart, "The BOM (one-time lines plus a year of subscriptions and support) by role, "
                              "split by part kind, at net prices.",
                              before=[ctx.heading("Where the first year's money goes", 1)]))
    if growth and len(growth) > 1:
        block: list[Flowable] = [ctx.heading("Buy as you grow", 1)]
        block.append(ctx.p("Hosts the data needs each year on this design's hardware, and what each year's expansion "
                         "costs at today's list prices (re-sized by the engine year by year).", st.body))
        w = ctx.width
        g_rows = [[f"Year {y.year}", number(y.data_tb), number(y.data_on_disk_tb), str(y.hosts),
                   money(y.capex_expansion, cur, cents=False), money(y.capex_total, cur, cents=False)]
                  for y in growth]
        block.append(ctx.grid(["Year", "Data (TB)", "On disk (TB)", "Worker hosts", "Expansion", "Installed total"],
                            g_rows, [w * 0.12, w * 0.14, w * 0.14, w * 0.14, w * 0.23, w * 0.23],
                            numeric=(1, 2, 3, 4, 5)))
        if not any(y.capex_expansion for y in growth[1:]):
            block.append(ctx.p("The hardware of year 0 holds the data to the horizon: no expansion is planned.",
                               st.muted))
        out.append(KeepTogether(block))
        if growth_chart is not None:
            out += [Spacer(1, 6), ctx.figure(growth_chart, "Installed capex each year: light is hardware bought in "
                                                           "earlier years, dark is that year's expansion.")]
    return out

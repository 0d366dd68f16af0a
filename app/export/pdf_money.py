"""Bill of materials, cost and power, and buy-as-you-grow sections of the report.

The BOM table is drawn from `app.export.bom.bom_table`, the same rows the CSV and XLSX
carry, so the grand total printed here is the one procurement gets in the spreadsheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from app.export.bom import BomTable
from app.export.pdf_blocks import Ctx
from app.export.pdf_styles import SUB_FILL, TOTAL_FILL, grid_table_style
from app.formatting import money, number, power, unit_text
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import METRICS
from models.whatif import CompareRow, GrowthYear, compare


def bom_section(ctx: Ctx, table: BomTable) -> list[Flowable]:
    st = ctx.styles
    w = ctx.width
    widths = [w * 0.43, w * 0.07, w * 0.08, w * 0.07, w * 0.07, w * 0.13, w * 0.15]
    cur = table.currency
    head = ["Part", "Kind", "Qty / host", "Hosts", "Qty", f"Unit price ({cur})", f"Extended ({cur})"]
    numeric = {2, 3, 4, 5, 6}
    data: list[list[object]] = [[Paragraph(ctx.text(h), st.cell_head_num if i in numeric else st.cell_head)
                                 for i, h in enumerate(head)]]
    cmds: list[tuple[object, ...]] = []
    current_role = None
    for row in table.rows:
        i = len(data)
        if row.kind == "line":
            if row.role != current_role:
                current_role = row.role
                hosts = row.hosts or 0
                data.append([ctx.m(f"<b>{ctx.text(row.role[:1].upper() + row.role[1:])}</b> · "
                                   f"{hosts} host{'s' if hosts != 1 else ''}", st.cell), "", "", "", "", "", ""])
                cmds += [("SPAN", (0, i), (-1, i)), ("BACKGROUND", (0, i), (-1, i), SUB_FILL)]
                i += 1
            part = [ctx.p(row.description, st.cell), ctx.fitted(row.part_id, widths[0] - 8)]
            data.append([part, ctx.p(row.part_kind, st.cell), ctx.p(str(row.qty_per_host), st.cell_num),
                         ctx.p(str(row.hosts), st.cell_num), ctx.p(str(row.qty), st.cell_num),
                         ctx.p(f"{row.unit_price:,.2f}", st.cell_num), ctx.p(f"{row.extended:,.2f}", st.cell_num)])
        elif row.kind == "subtotal":
            data.append([ctx.p(f"Subtotal {row.role}", st.cell_bold), "", "", "", "", "",
                         ctx.p(f"{row.extended:,.2f}", st.cell_num_bold)])
            cmds += [("SPAN", (0, i), (5, i)), ("LINEABOVE", (0, i), (-1, i), 0.6, st.h1.textColor)]
        else:
            label = f"Grand total ({cur}, list prices as of {table.price_date})"
            data.append([ctx.p(label, st.cell_bold), "", "", "", "",
                         ctx.p(money(row.extended, cur), st.cell_num_bold), ""])
            cmds += [("SPAN", (0, i), (4, i)), ("SPAN", (5, i), (6, i)), ("BACKGROUND", (0, i), (-1, i), TOTAL_FILL),
                     ("LINEABOVE", (0, i), (-1, i), 1.0, st.h1.textColor)]
    # the last line, its subtotal and the grand total stay on one page
    cmds.append(("NOSPLIT", (0, max(1, len(data) - 3)), (-1, len(data) - 1)))
    t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    style = grid_table_style(1, zebra=False, rows=len(data))
    for c in cmds:
        style.add(*c)
    t.setStyle(style)
    return [
        *ctx.section("Bill of materials"),
        ctx.p(f"Hardware for {table.scenario}, grouped by role. Prices are list prices from the refarch catalog "
              f"(as of {table.price_date}); the CSV and XLSX exports carry the same lines and totals.", st.body),
        t,
    ]


def compare_label(row: CompareRow) -> tuple[str, str]:
    """A readable metric name and unit for a `compare` row (rates per money or per kW carry no unit)."""
    per = row.metric.endswith(" per kW") or " per 1k " in row.metric
    return row.label, "" if per else unit_text(row.unit)


def efficiency_rows(r: SizingResult) -> list[tuple[str, str]]:
    """Performance per money and per watt of each estimate, from `models.whatif.compare`."""
    out = []
    for row in compare([r]):
        if row.metric.endswith(" per kW") or " per 1k " in row.metric:
            v = row.values[0]
            if v is not None:
                label, _ = compare_label(row)
                out.append((label, number(v)))
    return out


def cost_section(ctx: Ctx, r: SizingResult, s: Scenario, chart: Flowable | None,
                 growth: Sequence[GrowthYear] | None, growth_chart: Flowable | None) -> list[Flowable]:
    st = ctx.styles
    t = r.totals
    a = s.assumptions
    cur = t.currency
    out: list[Flowable] = [*ctx.section("Cost and power")]
    rows = [
        ("Capex (hardware at list prices)", money(t.capex, cur)),
        (f"Power at {a.utilization_pct:g} % average utilisation", f"{power(t.power_w)} ({t.power_w:,.0f} W)"),
        ("Rack space", f"{t.rack_u} U"),
        (f"Energy per year (PUE {a.pue:g})", f"{t.kwh_per_year:,.0f} kWh"),
        ("Energy price", f"{a.energy_price_per_kwh:g} {cur} per kWh"),
        ("Energy cost over 3 years", money(t.energy_cost_3y, cur)),
        ("Capex plus 3 years of energy", money(t.capex + t.energy_cost_3y, cur)),
    ]
    out.append(ctx.facts(rows, label_w=200))
    eff = efficiency_rows(r)
    if eff:
        rates = [METRICS[m].rate_label.lower() for m in sorted(r.estimates) if m in METRICS and METRICS[m].rate_label]
        note = "P50 estimates divided by capex (per 1,000) and by power (per kW)"
        note += f"; a time counts as the rate it stands for ({', '.join(rates)})." if rates else "."
        out += [ctx.heading("Performance per money and per watt", 1), ctx.p(note, st.muted),
                ctx.facts(eff, label_w=260)]
    if chart is not None:
        out.append(ctx.figure(chart, "Capex by role, split by part kind, at list prices.",
                              before=[ctx.heading("Where the money goes", 1)]))
    if growth and len(growth) > 1:
        block: list[Flowable] = [ctx.heading("Buy as you grow", 1)]
        block.append(ctx.p("Hosts the data needs each year on this design's hardware, and what each year's expansion "
                         "costs at today's list prices (re-sized by the engine year by year).", st.body))
        w = ctx.width
        g_rows = [[f"Year {y.year}", number(y.data_tb), number(y.data_on_disk_tb), str(y.hosts),
                   money(y.capex_expansion, cur), money(y.capex_total, cur)] for y in growth]
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

"""Front and back matter: the cover page, the table of contents, and the appendix with
how to read the estimates and the model cards (fit quality per model).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, NextPageTemplate, PageBreak, Spacer

from app.export.pdf_blocks import Cell, Ctx
from app.export.pdf_compare import option_letter
from app.export.pdf_doc import Para
from app.export.pdf_sections import cost_tiles
from app.export.pdf_styles import ACCENT, ZEBRA, TableCommand
from app.export.pdf_toc import OnePassToc
from app.formatting import long_date, money, power, value
from app.views.edition import ModelRow
from app.views.ownership import ownership
from app.views.summary import headline
from models.references import readable
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import deployment_label, kind_label


def cover(ctx: Ctx, title: str, results: Sequence[SizingResult], scenarios: Sequence[Scenario],
          when: date) -> list[Flowable]:
    st = ctx.styles
    single = len(results) == 1
    kicker = "REFERENCE ARCHITECTURE" if single else "REFERENCE ARCHITECTURE OPTIONS"
    out: list[Flowable] = [Spacer(1, 28 * mm),
                           ctx.m(f"<font color='#{ACCENT.hexval()[2:]}'><b>{kicker}</b></font>",
                                 st.cover_label),
                           Spacer(1, 4), ctx.p(title, st.title)]
    if single:
        s, r = scenarios[0], results[0]
        out.append(ctx.p(f"{kind_label(s.workload.kind)} on "
                         f"{deployment_label(r.design.deployment)}", st.subtitle))
    else:
        out.append(ctx.p(f"{len(results)} options compared", st.subtitle))
    out.append(Spacer(1, 14 * mm))

    customers = sorted({s.customer for s in scenarios if s.customer})
    authors = sorted({s.prepared_by for s in scenarios if s.prepared_by})
    facts: list[tuple[str, str]] = [
        ("Prepared for", ", ".join(customers) or "–"),
        ("Prepared by", ", ".join(authors) or "–"),
        ("Date", long_date(when)),
    ]
    for label, val in facts:
        out += [ctx.p(label, st.cover_label), ctx.p(val, st.cover_value), Spacer(1, 5)]
    out.append(Spacer(1, 10 * mm))

    if single:
        r = results[0]
        t, d = r.totals, r.design
        head = headline(r)
        tiles = [("Power", power(t.power_w), f"{t.kwh_per_year:,.0f} kWh/year"),
                 ("Hosts", str(d.total_hosts), f"{t.rack_u} U")]
        if head is not None:
            tiles.append((head.label, value(head.estimate.p50, head.estimate.unit),
                          f"P50 estimate · bound by {head.binding}"))
        out += [ctx.kpis(cost_tiles(r)), Spacer(1, 6), ctx.kpis(tiles)]
    else:
        out.append(_options_table(ctx, results, scenarios))
    out += [Spacer(1, 16 * mm), ctx.p(
        "Sized by refarch from published studies and vendor documentation. Estimates are model predictions with "
        "their P10–P90 range; prices are list prices from the refarch catalog at the date shown with the bill of "
        "materials. Confirm prices with a vendor quote before ordering.", st.muted)]
    out += [NextPageTemplate("body"), PageBreak()]
    return out


def _options_table(ctx: Ctx, results: Sequence[SizingResult], scenarios: Sequence[Scenario]) -> Flowable:
    """One row per option: its capex, first year and cost of ownership over the horizon (stated in the heading
    when the options share it, in each cell when they do not), and its power."""
    owned = [ownership(r) for r in results]
    years = {o.years for o in owned}
    same = len(years) == 1
    tco_head = f"{next(iter(years))}-year TCO" if same else "TCO (horizon)"
    rows = [[option_letter(i), s.name, money(o.capex, o.currency, cents=False),
             money(o.first_year, o.currency, cents=False),
             money(o.tco, o.currency, cents=False) + ("" if same else f" ({o.years} y)"), power(r.totals.power_w)]
            for i, (r, s, o) in enumerate(zip(results, scenarios, owned, strict=True))]
    w = ctx.width
    return ctx.grid(["", "Option", "Capex", "First year", tco_head, "Power"], rows,
                    [w * 0.05, w * 0.32, w * 0.17, w * 0.17, w * 0.18, w * 0.11], numeric=(2, 3, 4, 5), zebra=True)


def toc(ctx: Ctx) -> list[Flowable]:
    st = ctx.styles
    t = OnePassToc([st.toc1, st.toc2])  # its entries: `OnePassToc.expect` once the story is complete
    return [Para("Contents", st.h1), Spacer(1, 4), t, PageBreak()]


def appendix(ctx: Ctx, models: Sequence[ModelRow]) -> list[Flowable]:
    """The models and their fit: in the customer edition only the ones the report's designs are estimated with,
    by title; the internal edition lists every model with its id under the title."""
    st = ctx.styles
    shown = ctx.edition.models(models)
    out: list[Flowable] = [*ctx.section("Appendix: models and their fit", 110 * mm)]
    out.append(ctx.p(
        "refarch estimates performance with models calibrated on published studies. For each model: the points it "
        "was fitted on and how closely it reproduces them (in-sample error, the mean and largest absolute "
        "percentage error), and what it was checked against that the fit did not use. An in-sample error says the "
        "model can reproduce its own points; it is not the accuracy to expect on other workloads or hardware. "
        "The P10–P90 ranges in this report come from Monte Carlo sampling of each model's parameter uncertainty.",
        st.body))
    w = ctx.width
    rows: list[list[Cell]] = []
    extra: list[TableCommand] = []
    for model in shown:
        c = model.card
        i = len(rows) + 1
        sources = "; ".join(ctx.refs.marks("; ".join(c.sources))) if c.sources else ""
        fitted = c.fitted_text(sources)
        checked = ctx.text(readable(c.validation, ctx.refs)) if c.validation else \
            "<i>nothing outside the fit</i>"
        name: list[Flowable] = [ctx.p(model.title, st.cell_bold)]
        if ctx.edition.internal:  # the model's id on one line, never broken mid-word
            name.append(ctx.fitted(model.model_id, w * 0.2 - 8, max_size=6.5, min_size=5.0))
        rows.append([name, ctx.p(fitted, st.cell), ctx.p(c.in_sample_text(), st.cell),
                     ctx.m(checked, st.cell)])
        detail: list[Flowable] = [ctx.p(readable(c.description, ctx.refs), st.cell)]
        if c.note:
            detail.append(ctx.m("<b>Note:</b> " + ctx.text(readable(c.note, ctx.refs)), st.cell_small))
        rows.append([detail, "", "", ""])
        extra += [("SPAN", (0, i + 1), (-1, i + 1)), ("LINEBELOW", (0, i), (-1, i), 0, colors.white),
                  ("BACKGROUND", (0, i), (-1, i), ZEBRA), ("BOTTOMPADDING", (0, i + 1), (-1, i + 1), 7),
                  ("NOSPLIT", (0, i), (-1, i + 1))]
    if rows:
        out.append(ctx.grid(["Model", "Fitted on", "In-sample error", "Checked on data not fitted"], rows,
                            [w * 0.2, w * 0.3, w * 0.22, w * 0.28], extra=extra, zebra=False))
    else:
        out.append(ctx.p("No model cards are registered.", st.body))
    return out


def references_section(ctx: Ctx) -> list[Flowable]:
    """The numbered list every [n] in the document points to (studies by title, vendor documents)."""
    st = ctx.styles
    if not len(ctx.refs):
        return []
    head, heading = ctx.section("References", 40 * mm)
    out: list[Flowable] = [heading]
    out.append(ctx.p("Documents cited in this report as [n]; the section, table or figure follows the number where "
                     "the text cites it.", st.muted))
    w = ctx.width
    rows: list[list[Cell]] = [[f"[{n}]", ctx.p(ref.entry(), st.cell)] for n, ref in ctx.refs.entries()]
    out.append(ctx.grid(["", "Document"], rows, [w * 0.07, w * 0.93], zebra=True))
    # a list that fits a page starts on one rather than leaving its last entries alone on the next
    return [head, KeepTogether(out)]

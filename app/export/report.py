"""The PDF design report: one scenario gives a design report, several give the same per
scenario plus a comparison and a table of contents.

`render_report` renders what `size` returned (and, when given, `models.whatif.growth`);
it sizes nothing itself. Progress and cancellation follow `models.tasks` so the GUI can run
it in a worker thread: `progress(done, total)`, `cancelled() -> bool`. The PDF is written
to a temporary file beside `path` and renamed over it only when complete.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from reportlab.platypus import Flowable, PageBreak

from app.export.atomic import atomic_write
from app.export.bom import bom_table
from app.export.fonts import ReportFonts, report_fonts
from app.export.pdf_blocks import Ctx, Numbering
from app.export.pdf_charts import (
    comparison_chart,
    cost_flowable,
    curve_flowable,
    estimates_flowable,
    growth_flowable,
)
from app.export.pdf_compare import comparison_section, kind_rows, option_groups, option_letter
from app.export.pdf_config import config_appendix
from app.export.pdf_cover import appendix, cover, references_section, toc
from app.export.pdf_design import design_section
from app.export.pdf_doc import ReportDoc, numbered_canvas
from app.export.pdf_measurements import measurements_section
from app.export.pdf_money import bom_section, cost_section
from app.export.pdf_plot import Pen
from app.export.pdf_sections import (
    executive_summary,
    performance_section,
    rationale_section,
    warnings_section,
    workload_section,
)
from app.export.pdf_sensitivity import sensitivity_section
from app.export.pdf_styles import make_styles
from app.export.pdf_toc import OnePassToc
from app.formatting import long_date
from app.views.compare import chart_series
from app.views.edition import Audience, Edition, model_rows
from app.views.sensitivity import SensitivityView
from models.model_card import ModelCard
from models.references import ReferenceList
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import IsCancelled, Progress, check_cancelled
from models.uncertainty import Estimate
from models.whatif import GrowthYear

__all__ = ["render_report"]

# the sections of one scenario, in order; the executive summary points forward to "warnings"
SECTIONS = ("summary", "workload", "design", "bom", "cost", "performance", "sensitivity", "measurements", "rationale",
            "warnings")


def _header(s: Scenario) -> str:
    return " · ".join(x for x in (s.name, s.customer) if x)


def default_title(scenarios: Sequence[Scenario]) -> str:
    if len(scenarios) == 1:
        return scenarios[0].name
    customers = sorted({s.customer for s in scenarios if s.customer})
    return f"Design options for {customers[0]}" if len(customers) == 1 else "Design options"


def render_report(
    results: list[SizingResult],
    scenarios: list[Scenario],
    path: str | Path,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    *,
    growth: Sequence[Sequence[GrowthYear] | None] | None = None,
    curves: Sequence[Sequence[tuple[int, Estimate]] | None] | None = None,
    sensitivity: Sequence[SensitivityView | None] | None = None,
    cards: Sequence[ModelCard] | None = None,
    title: str | None = None,
    report_date: date | None = None,
    audience: Audience = "internal",
) -> None:
    """Write the report for `results` (one per scenario, same order) to `path`.

    `growth[i]` is the buy-as-you-grow plan of scenario i (`models.whatif.growth`), or None to leave it out;
    `curves[i]` the main estimate against host count (`models.sizing.curves.main_metric_curve`), or None;
    `sensitivity[i]` its tornado (`app.views.sensitivity`), or None to leave the section out;
    `cards` default to `models.perf.cards.all_cards()`; `audience` chooses the edition (`app.views.edition`): the
    customer's leaves out catalog and model ids, instructions to the team and the models no design uses.
    Raises `models.tasks.Cancelled` when `cancelled()` turns True (nothing written) and
    `app.export.atomic.ExportError` when `path` cannot be written.
    """
    if not results or len(results) != len(scenarios):
        raise ValueError("render_report needs one scenario per result, and at least one")
    if growth is not None and len(growth) != len(results):
        raise ValueError("growth needs one entry (or None) per result")
    if curves is not None and len(curves) != len(results):
        raise ValueError("curves needs one entry (or None) per result")
    if sensitivity is not None and len(sensitivity) != len(results):
        raise ValueError("sensitivity needs one entry (or None) per result")
    path = Path(path)
    total = len(results) + 3
    done = 0

    def tick() -> None:
        nonlocal done
        check_cancelled(cancelled)
        done += 1
        if progress is not None:
            progress(min(done, total), total)

    fonts = report_fonts()
    styles = make_styles(fonts)
    when = report_date or date.today()
    numbering = Numbering()
    refs = ReferenceList()
    edition = Edition(audience)
    top = Ctx(styles, numbering, depth=0, refs=refs, edition=edition)
    single = len(results) == 1
    doc_title = title or default_title(scenarios)
    pen = Pen(fonts)

    story: list[Flowable] = cover(top, doc_title, results, scenarios, when)
    if not single:
        story += toc(top) + _comparison(top, pen, results, scenarios)
    tick()

    for i, (r, s) in enumerate(zip(results, scenarios, strict=True)):
        ctx = top if single else Ctx(styles, numbering, depth=1, refs=refs, edition=edition)
        if not single:
            story += [PageBreak(), top.heading(f"Option {option_letter(i)}: {s.name}", header=_header(s))]
        story += _scenario_story(ctx, pen, r, s, growth[i] if growth is not None else None,
                                 curves[i] if curves is not None else None,
                                 sensitivity[i] if sensitivity is not None else None)
        tick()

    if cards is None:
        from models.perf.cards import all_cards

        cards = all_cards()
    story += appendix(top, model_rows(cards, scenarios))
    story += config_appendix(top, results, scenarios)
    story += references_section(top)
    tick()
    _build(path, story, fonts, scenarios, doc_title, when, cancelled)
    tick()


def _comparison(top: Ctx, pen: Pen, results: list[SizingResult], scenarios: list[Scenario]) -> list[Flowable]:
    """The options compared: the table, and a chart per workload kind that has two options or more."""
    kinds = [r.design.kind for r in results]
    per_kind = kind_rows(results)
    charts: list[Flowable | None] = []
    for group in option_groups(kinds):
        idx, rows = per_kind[kinds[group[0]]]
        # one option of its workload: its own section shows it; a chart of single bars compares nothing
        charts.append(None if len(group) < 2 else comparison_chart(
            pen, chart_series(rows, [idx.index(i) for i in group]), [option_letter(i) for i in group],
            top.width, top.max_figure_height))
    return comparison_section(top, results, scenarios, charts)


def _build(path: Path, story: list[Flowable], fonts: ReportFonts, scenarios: list[Scenario], doc_title: str,
           when: date, cancelled: IsCancelled | None) -> None:
    """Lay `story` out into pages and write them to `path` (whole or not at all), with the running header and
    footer: one scenario's name, or the title and the customers; who it is prepared for and by."""
    customers = sorted({s.customer for s in scenarios if s.customer})
    authors = sorted({s.prepared_by for s in scenarios if s.prepared_by})
    footer = "Prepared" + (f" for {', '.join(customers)}" if customers else "") + (
        f" by {', '.join(authors)}" if authors else "")
    single = len(scenarios) == 1
    header = _header(scenarios[0]) if single else " · ".join([doc_title, *(c for c in customers if c not in doc_title)])
    with atomic_write(path) as tmp:
        doc = ReportDoc(str(tmp), fonts=fonts, header=header, footer_left=footer,
                        footer_date=long_date(when), title=doc_title, author=", ".join(authors),
                        subject=", ".join(customers), cancelled=cancelled)
        for f in story:
            if isinstance(f, OnePassToc):
                f.expect(story)
        doc.multiBuild(story, canvasmaker=numbered_canvas(fonts))


def _scenario_story(ctx: Ctx, pen: Pen, r: SizingResult, s: Scenario, growth: Sequence[GrowthYear] | None,
                    curve: Sequence[tuple[int, Estimate]] | None = None, tornado: SensitivityView | None = None
                    ) -> list[Flowable]:
    left_out = {"measurements"} if r.calibration is None else set()
    sections = tuple(x for x in SECTIONS if x not in left_out | ({"sensitivity"} if tornado is None else set()))
    warnings_no = ctx.numbering.peek(ctx.depth, ahead=sections.index("warnings") + 1)
    cost_chart = cost_flowable(pen, r, ctx.width) if r.bom else None
    est_chart = estimates_flowable(pen, r, s, ctx.width)
    grows = growth is not None and len(growth) > 1 and any(y.capex_expansion for y in growth[1:])
    growth_chart = growth_flowable(pen, growth, r.totals.currency, ctx.width) if growth is not None and grows else None
    curve_chart = curve_flowable(pen, r, s, curve, ctx.width) if curve and len(curve) > 1 else None
    table = bom_table(r, s.customer)
    story: list[Flowable] = []
    story += executive_summary(ctx, r, s, warnings_no)
    story += workload_section(ctx, r, s)
    story += design_section(ctx, r, s)
    story += bom_section(ctx, table, r)
    story += cost_section(ctx, r, s, cost_chart, growth, growth_chart)
    story += performance_section(ctx, r, s, est_chart, curve_chart)
    story += sensitivity_section(ctx, tornado) if tornado is not None else []
    story += measurements_section(ctx, r)  # only when the scenario names measurement profiles
    story += rationale_section(ctx, r)
    story += warnings_section(ctx, r)
    return story

"""The report as a Word document a presales architect edits before it goes out: a cover (title, scenarios,
customer, who prepared it, the date), the options compared when there are several, then per scenario its key
figures, its design, its estimates (P10, P50, P90, target, verdict), its bill of materials by group with totals
in its currency and its racks, and its warnings; the studies cited at the end.

Everything is rendered from the rows the PDF renders (`app.views.design.design_rows`, `app.views.summary`,
`app.views.compare`, `app.export.bom.bom_table`); no figure is formatted or derived here. Written with python-docx
into a temporary file beside the target and renamed over it only when complete (`app.export.atomic`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import cast

from docx import Document
from docx.document import Document as DocxDocument
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Cm, Length, Pt, RGBColor
from docx.table import Table

from app.export.atomic import atomic_write
from app.export.bom import BomTable, bom_table
from app.export.deliverable_rows import bom_summary, compare_tables, option_name, report_title
from app.export.fonts import report_fonts, string_width
from app.formatting import long_date
from app.views.design import FactRow, Group, design_rows, rows_of
from app.views.edition import Audience, Edition, warning_rows
from app.views.summary import EstimateRow, estimate_rows, kpi_rows, rack_rows, racks_as_shown
from models.references import ReferenceList, readable
from models.scenario import Scenario
from models.sizing.result import SizingResult

__all__ = ["render_docx"]

ACCENT = RGBColor(0x1F, 0x4E, 0x79)
MUTED = RGBColor(0x59, 0x59, 0x59)
TEXT_WIDTH = Cm(17.0)
GROUP_HEADINGS: dict[Group, str] = {"hosts": "Hosts", "drives": "Drives and capacity", "network": "Network",
                                    "failure": "Host failure"}


def render_docx(results: Sequence[SizingResult], scenarios: Sequence[Scenario], path: str | Path, *,
                title: str | None = None, report_date: date | None = None, audience: Audience = "internal") -> None:
    """Write the report of `results` (one per scenario, same order) to `path` as DOCX, whole or not at all;
    `audience` chooses the edition (`app.views.edition`: the customer's warnings leave out their internal part).
    Raises `app.export.atomic.ExportError` when `path` cannot be written."""
    if not results or len(results) != len(scenarios):
        raise ValueError("render_docx needs one scenario per result, and at least one")
    doc = Document()
    _styles(doc)
    refs = ReferenceList()
    _cover(doc, title or report_title(scenarios), results, scenarios, report_date or date.today())
    single = len(results) == 1
    if not single:
        _comparison(doc, results, scenarios)
    for i, (r, s) in enumerate(zip(results, scenarios, strict=True)):
        if not single:
            doc.add_page_break()  # type: ignore[no-untyped-call]
            doc.add_heading(option_name(i, s), level=1)
        _scenario(doc, (r, s), refs, Edition(audience), level=1 if single else 2)
    if len(refs):
        doc.add_heading("References", level=1)
        for n, ref in refs.entries():
            doc.add_paragraph(f"[{n}] {ref.entry()}")
    with atomic_write(Path(path)) as tmp:
        doc.save(str(tmp))


def _styles(doc: DocxDocument) -> None:
    """A4 with 2 cm margins (TEXT_WIDTH between them), body text in 10 pt Calibri."""
    for section in doc.sections:
        section.page_width, section.page_height = Cm(21.0), Cm(29.7)
        section.left_margin = section.right_margin = section.top_margin = section.bottom_margin = Cm(2.0)
    normal = doc.styles["Normal"]
    normal.font.name = "Calibri"
    normal.font.size = Pt(10)


def _cover(doc: DocxDocument, title: str, results: Sequence[SizingResult], scenarios: Sequence[Scenario],
           when: date) -> None:
    doc.add_heading(title, level=0)
    customers = sorted({s.customer for s in scenarios if s.customer})
    authors = sorted({s.prepared_by for s in scenarios if s.prepared_by})
    facts = [("Scenario" if len(scenarios) == 1 else "Options",
              "; ".join(option_name(i, s) if len(scenarios) > 1 else s.name for i, s in enumerate(scenarios)))]
    if customers:
        facts.append(("Customer", ", ".join(customers)))
    if authors:
        facts.append(("Prepared by", ", ".join(authors)))
    facts.append(("Date", long_date(when)))
    _pairs(doc, facts)
    if len(results) == 1:
        doc.add_paragraph()
        _pairs(doc, [(k.label, k.text + (f" ({k.note})" if k.note else "")) for k in kpi_rows(results[0])])
    doc.add_page_break()  # type: ignore[no-untyped-call]


def _comparison(doc: DocxDocument, results: Sequence[SizingResult], scenarios: Sequence[Scenario]) -> None:
    doc.add_heading("Options compared", level=1)
    for t in compare_tables(results, scenarios):
        doc.add_heading(t.kind, level=2)
        # the options named above the table, its columns headed by letter: a figure column stays wide enough
        _muted(doc, "; ".join(t.head[1:1 + len(t.letters)]))
        head = [t.head[0], *t.letters, *(["Best"] if t.verdict else [])]
        shares = [COMPARE_LABEL_SHARE] + ([COMPARE_BEST_SHARE] if t.verdict else [])
        figure_share = (1 - sum(shares)) / len(t.letters)
        widths = [COMPARE_LABEL_SHARE, *([figure_share] * len(t.letters)), *shares[1:]]
        table = _grid(doc, head, fitted_rows(t.rows, t.short_rows, t.figure_columns,
                                             figure_share * TEXT_WIDTH / EMU_PER_PT), numeric=t.figure_columns,
                      widths=widths)
        for row in table.rows:
            for cell in row.cells:
                for run in (r for para in cell.paragraphs for r in para.runs):
                    run.font.size = Pt(FIGURE_PT)


COMPARE_LABEL_SHARE, COMPARE_BEST_SHARE = 0.25, 0.13  # of the text width: the measure's column, the best's
EMU_PER_PT = 12_700
CELL_PADDING_PT = 14.0  # Word's default cell margins, 0.19 cm each side, and room for the renderer's own font
FIGURE_PT = 9.0  # the compare table's size


def fitted_rows(rows: Sequence[Sequence[str]], short: Sequence[Sequence[str]], columns: set[int], width_pt: float
                ) -> list[list[str]]:
    """`rows` with each figure of `columns` in its short form (`short`, the same shape) where it would not fit
    `width_pt` on one line, measured in the report's sans font (wider than Word's default, so it errs on the side of
    the short form).

    >>> fitted_rows([["Capex", "2,794,330", "27,949,320"]], [["Capex", "2.79 M", "27.95 M"]], {1, 2}, 65.0)
    [['Capex', '2,794,330', '27.95 M']]
    """
    fonts = report_fonts()
    room = width_pt - CELL_PADDING_PT

    def fits(text: str) -> bool:
        return string_width(text, fonts.regular, FIGURE_PT, fonts) <= room

    return [[text if j not in columns or not short or fits(text) else short[i][j] for j, text in enumerate(r)]
            for i, r in enumerate(rows)]


def _scenario(doc: DocxDocument, design: tuple[SizingResult, Scenario], refs: ReferenceList, edition: Edition,
              level: int) -> None:
    r, s = design
    doc.add_heading("Executive summary", level=level)
    _grid(doc, ["Key figure", "Value", ""], [[k.label, k.text, k.note] for k in kpi_rows(r)], numeric={1},
          widths=(0.34, 0.28))
    doc.add_heading("Design", level=level)
    facts = design_rows(r)
    for group, heading in GROUP_HEADINGS.items():
        rows: list[FactRow] = rows_of(facts, group)
        if rows:
            doc.add_heading(heading, level=level + 1)
            _pairs(doc, [(f.label, f.text) for f in rows])
    doc.add_heading("Performance estimates", level=level)
    _muted(doc, "P50 is the median of the Monte Carlo outcomes; 80 % of them lie between P10 and P90.")
    _estimates(doc, estimate_rows(r, s.targets))
    if r.bom:
        _bom(doc, bom_table(r, s.customer), level)
    if r.racks:
        doc.add_heading("Racks and power", level=level + 1)
        _grid(doc, ["Rack", "Space", "Power", "Holds, top to bottom"],
              [[x.name, x.space, x.power, x.contents] for x in rack_rows(racks_as_shown(r))], numeric={1},
              widths=(0.11, 0.11, 0.2))
    doc.add_heading("Warnings", level=level)
    if not r.warnings:
        doc.add_paragraph("refarch raised no warnings for this design.")
    else:
        _muted(doc, edition.warnings_intro())
    for row in warning_rows(r.warnings, r.design.greenplum_version):
        p = doc.add_paragraph(style="List Bullet")
        p.add_run(row.heading).bold = True
        p.add_run(f": {readable(edition.warning_text(row), refs)}")


def _estimates(doc: DocxDocument, rows: Sequence[EstimateRow]) -> None:
    _grid(doc, ["Estimate", "P10", "P50", "P90", "Unit", "Target", "Status"],
          [[e.label + (" (main)" if e.main else ""), e.p10, e.p50, e.p90, e.unit, e.target, e.status] for e in rows],
          numeric={1, 2, 3, 5}, widths=(0.28, 0.1, 0.1, 0.1, 0.18, 0.1))


def _bom(doc: DocxDocument, table: BomTable, level: int) -> None:
    doc.add_heading("Bill of materials", level=level)
    _muted(doc, f"Net prices in {table.currency} after discounts, prices as of {table.price_date}; the BOM CSV and "
                "XLSX carry every line.")
    summary = bom_summary(table)
    _grid(doc, ["Group", "Lines", f"Amount ({table.currency})"],
          [[g.label, g.lines, g.amount] for g in summary], numeric={1, 2},
          bold={i for i, g in enumerate(summary) if g.total}, widths=(0.48, 0.22))


def _pairs(doc: DocxDocument, pairs: Sequence[tuple[str, str]]) -> None:
    """Label and value, two columns, the label bold."""
    table = doc.add_table(rows=0, cols=2)
    table.style = "Table Grid"
    table.autofit = False
    for label, text in pairs:
        cells = table.add_row().cells
        cells[0].text = label
        cells[1].text = text
        for run in cells[0].paragraphs[0].runs:
            run.bold = True
    _widths(table, (0.38, 0.62))


def _widths(table: Table, shares: Sequence[float]) -> None:
    """The columns' shares of the text width: on the grid (LibreOffice reads it) and on every cell (Word does)."""
    for column, share in zip(table.columns, shares, strict=True):
        column.width = Length(int(TEXT_WIDTH * share))
    for row in table.rows:
        for cell, share in zip(row.cells, shares, strict=True):
            cell.width = Length(int(TEXT_WIDTH * share))


def _grid(doc: DocxDocument, head: Sequence[str], rows: Sequence[Sequence[str]], *, numeric: set[int],
          bold: set[int] | None = None, widths: Sequence[float] = ()) -> Table:
    """A table with a head row; `widths` gives the leading columns' shares of the text width (the others share
    the rest), by default a third for the first column."""
    table = doc.add_table(rows=1, cols=len(head))
    table.autofit = False
    table.style = "Light Grid Accent 1"
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    for cell, text in zip(table.rows[0].cells, head, strict=True):
        cell.text = text
    for i, row in enumerate(rows):
        cells = table.add_row().cells
        for j, (cell, text) in enumerate(zip(cells, row, strict=True)):
            cell.text = text
            para = cell.paragraphs[0]
            if j in numeric:
                para.alignment = WD_ALIGN_PARAGRAPH.RIGHT
            if bold and i in bold:
                for run in para.runs:
                    run.bold = True
    lead = list(widths) or [0.34]
    rest = (1 - sum(lead)) / max(1, len(head) - len(lead))
    _widths(table, [lead[j] if j < len(lead) else rest for j in range(len(head))])
    return cast(Table, table)


def _muted(doc: DocxDocument, text: str) -> None:
    run = doc.add_paragraph().add_run(text)
    run.font.color.rgb = MUTED
    run.font.size = Pt(9)

"""A short PowerPoint deck a presales architect edits: a cover, the options compared when there are several,
then per scenario its key figures with its estimates, its racks' elevations (space, power, every slot), and its bill of
materials by group with the totals in its currency.

Rendered from the rows the PDF renders (`app.views.summary`, `app.views.compare`, `app.export.bom.bom_table`);
nothing is derived here. The racks are drawn in PowerPoint shapes from `SizingResult.racks` as the PDF's
`app.export.rack_drawing` draws them (reportlab rasterises a drawing only with a backend, rlPyCairo, that refarch
does not install, and shapes stay editable). Written with
python-pptx into a temporary file beside the target, renamed over it only when complete (`app.export.atomic`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_SHAPE
from pptx.enum.text import PP_ALIGN
from pptx.presentation import Presentation as Deck
from pptx.slide import Slide
from pptx.util import Emu, Inches, Pt

from app.export.atomic import atomic_write
from app.export.bom import bom_table
from app.export.deliverable_rows import bom_summary, compare_tables, option_name, report_title
from app.formatting import label_forms, long_date
from app.views.edition import Audience
from app.views.summary import RackRow, estimate_rows, kpi_rows, rack_rows, racks_as_shown
from models.scenario import Scenario
from models.sizing.result import RackLayout, SizingResult

__all__ = ["render_pptx"]

ACCENT = RGBColor(0x1F, 0x4E, 0x79)  # type: ignore[no-untyped-call]
MUTED = RGBColor(0x59, 0x59, 0x59)  # type: ignore[no-untyped-call]
TILE_FILL = RGBColor(0xEA, 0xF1, 0xF8)  # type: ignore[no-untyped-call]
WIDTH, HEIGHT = Inches(13.333), Inches(7.5)  # 16:9
MARGIN = Inches(0.5)
BODY_TOP = Inches(1.3)
MAX_TABLE_ROWS = 16  # rows below the head that fit a slide at 11 pt
RACKS_PER_SLIDE = 6
SLOT_PT = 7.0
INK = RGBColor(0x1A, 0x1A, 0x1A)  # type: ignore[no-untyped-call]
OVER = RGBColor(0xC0, 0x39, 0x2B)  # type: ignore[no-untyped-call]  # a rack above its power budget
SLOT_COLOURS = {  # fill and edge by slot kind, as the PDF's rack drawing
    "server": (RGBColor(0xD0, 0xE2, 0xFF), RGBColor(0x4A, 0x6F, 0xA5)),  # type: ignore[no-untyped-call]
    "switch": (RGBColor(0xC6, 0xF0, 0xD8), RGBColor(0x3C, 0x8D, 0x5A)),  # type: ignore[no-untyped-call]
    "pdu": (RGBColor(0xFF, 0xE8, 0xC2), RGBColor(0xB7, 0x79, 0x1F)),  # type: ignore[no-untyped-call]
}


def render_pptx(results: Sequence[SizingResult], scenarios: Sequence[Scenario], path: str | Path, *,
                title: str | None = None, report_date: date | None = None, audience: Audience = "internal") -> None:
    """Write the deck of `results` (one per scenario, same order) to `path` as PPTX, whole or not at all.
    Both editions (`audience`) are the same deck: it holds no catalog or model id, warning or instruction to the
    team. Raises `app.export.atomic.ExportError` when `path` cannot be written."""
    if not results or len(results) != len(scenarios):
        raise ValueError("render_pptx needs one scenario per result, and at least one")
    deck = Presentation()
    deck.slide_width, deck.slide_height = WIDTH, HEIGHT
    _cover(deck, title or report_title(scenarios), scenarios, report_date or date.today())
    if len(results) > 1:
        for t in compare_tables(results, scenarios, rates=False):
            for n in range(0, len(t.rows), MAX_TABLE_ROWS):
                slide = _slide(deck, f"Options compared: {t.kind}" + (" (continued)" if n else ""))
                _table(slide, t.head, t.rows[n:n + MAX_TABLE_ROWS], BODY_TOP, numeric=t.figure_columns)
    for i, (r, s) in enumerate(zip(results, scenarios, strict=True)):
        name = s.name if len(results) == 1 else option_name(i, s)
        _kpis(deck, r, s, name)
        if r.racks:
            _racks(deck, racks_as_shown(r), name)
        if r.bom:
            _bom(deck, r, s, name)
    with atomic_write(Path(path)) as tmp:
        deck.save(str(tmp))


def _slide(deck: Deck, title: str) -> Slide:
    slide: Slide = deck.slides.add_slide(deck.slide_layouts[5])  # "Title Only"
    shape = slide.shapes.title
    assert shape is not None
    shape.left, shape.top, shape.width, shape.height = MARGIN, Inches(0.3), Emu(WIDTH - 2 * MARGIN), Inches(0.8)
    shape.text = title
    para = shape.text_frame.paragraphs[0]
    para.alignment = PP_ALIGN.LEFT
    para.font.size, para.font.bold, para.font.color.rgb = Pt(26), True, ACCENT
    return slide


def _text(slide: Slide, text: str, left: int, top: int, width: int, height: int, size: float,
          *, bold: bool = False, color: RGBColor | None = None) -> None:
    frame = slide.shapes.add_textbox(Emu(left), Emu(top), Emu(width), Emu(height)).text_frame
    frame.word_wrap = True
    frame.text = text
    font = frame.paragraphs[0].font
    font.size, font.bold = Pt(size), bold
    if color is not None:
        font.color.rgb = color


def _cover(deck: Deck, title: str, scenarios: Sequence[Scenario], when: date) -> None:
    slide = deck.slides.add_slide(deck.slide_layouts[6])  # blank
    _text(slide, title, MARGIN, Inches(2.2), WIDTH - 2 * MARGIN, Inches(1.2), 36, bold=True, color=ACCENT)
    names = [s.name if len(scenarios) == 1 else option_name(i, s) for i, s in enumerate(scenarios)]
    customers = sorted({s.customer for s in scenarios if s.customer})
    authors = sorted({s.prepared_by for s in scenarios if s.prepared_by})
    lines = ["; ".join(names)]
    lines += [f"For {', '.join(customers)}"] if customers else []
    lines += [f"Prepared by {', '.join(authors)}"] if authors else []
    lines.append(long_date(when))
    _text(slide, "\n".join(lines), MARGIN, Inches(3.6), WIDTH - 2 * MARGIN, Inches(2.0), 18, color=MUTED)


def _kpis(deck: Deck, r: SizingResult, s: Scenario, name: str) -> None:
    slide = _slide(deck, f"{name}: key figures")
    tiles = kpi_rows(r)
    gap = Inches(0.15)
    w = int((WIDTH - 2 * MARGIN - gap * (len(tiles) - 1)) / len(tiles))
    for n, k in enumerate(tiles):
        left = MARGIN + n * (w + gap)
        box = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(left), BODY_TOP, Emu(w), Inches(1.5))
        box.fill.solid()
        box.fill.fore_color.rgb = TILE_FILL
        box.line.color.rgb = ACCENT
        _text(slide, k.label, left, BODY_TOP + Inches(0.05), w, Inches(0.4), 11, color=MUTED)
        _text(slide, k.text, left, BODY_TOP + Inches(0.4), w, Inches(0.6), 16, bold=True, color=ACCENT)
        _text(slide, k.note, left, BODY_TOP + Inches(1.0), w, Inches(0.4), 10, color=MUTED)
    rows = [[e.label + (" (main)" if e.main else ""), e.p10, e.p50, e.p90, e.unit, e.target, e.status]
            for e in estimate_rows(r, s.targets)][:9]
    if rows:
        _table(slide, ["Estimate", "P10", "P50", "P90", "Unit", "Target", "Status"], rows, Inches(3.1),
               numeric={1, 2, 3, 5})


def _racks(deck: Deck, racks: Sequence[RackLayout], name: str) -> None:
    """The racks' elevations as the PDF draws them, in shapes the architect can move and relabel: RACKS_PER_SLIDE
    racks side by side, each U to scale, every slot a box coloured by kind with its role and part."""
    rows = rack_rows(racks)
    for n in range(0, len(racks), RACKS_PER_SLIDE):
        slide = _slide(deck, f"{name}: racks" + (" (continued)" if n else ""))
        shown = racks[n:n + RACKS_PER_SLIDE]
        u_max = max(r.u_total for r in shown)
        col_w = int((WIDTH - 2 * MARGIN) / RACKS_PER_SLIDE)
        u_h = int((HEIGHT - BODY_TOP - Inches(1.2)) / u_max)
        for k, (rack, row) in enumerate(zip(shown, rows[n:n + RACKS_PER_SLIDE], strict=True)):
            _elevation(slide, rack, row, MARGIN + k * col_w, col_w - Inches(0.15), u_h)
        _text(slide, "Servers blue, switches green, PDUs orange; U counted from the bottom; peak kW is the sum of "
                     "server max draw, drives, NICs and switches.", MARGIN, HEIGHT - Inches(0.5),
              WIDTH - 2 * MARGIN, Inches(0.3), 10, color=MUTED)


def _elevation(slide: Slide, rack: RackLayout, row: RackRow, left: int, width: int, u_h: int) -> None:
    colour = OVER if row.over_budget else MUTED
    _text(slide, f"{row.name} · {row.space}", left, BODY_TOP, width, Inches(0.3), 11, bold=True)
    _text(slide, row.power, left, BODY_TOP + Inches(0.28), width, Inches(0.3), 9, color=colour)
    top = BODY_TOP + Inches(0.65)
    frame = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(left), Emu(top), Emu(width), Emu(u_h * rack.u_total))
    frame.fill.background()
    frame.line.color.rgb = OVER if row.over_budget else MUTED
    for slot in rack.slots:
        y = top + (rack.u_total - slot.u_bottom - slot.u_height + 1) * u_h
        box = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(left), Emu(y), Emu(width), Emu(u_h * slot.u_height))
        fill, edge = SLOT_COLOURS.get(slot.kind, (TILE_FILL, MUTED))
        box.fill.solid()
        box.fill.fore_color.rgb = fill
        box.line.color.rgb = edge
        box.line.width = Pt(0.5)
        frame_text = box.text_frame
        frame_text.margin_top = frame_text.margin_bottom = 0
        frame_text.margin_left = frame_text.margin_right = Inches(0.04)
        frame_text.word_wrap = False
        frame_text.text = _slot_text(slot.role if slot.kind != "pdu" else "", slot.label, width)
        para = frame_text.paragraphs[0]
        para.alignment = PP_ALIGN.LEFT
        para.font.size = Pt(SLOT_PT)
        para.font.color.rgb = INK


def _slot_text(role: str, label: str, width: int) -> str:
    """The slot's role and the longest form of its part's name that fits `width` at SLOT_PT (an average glyph is
    taken as half the font size wide); the part's model number alone when nothing longer fits."""
    room_pt = width / Pt(1) - 6
    forms = label_forms(label)
    for form in forms:
        text = f"{role}: {form}" if role else form
        if len(text) * SLOT_PT * 0.5 <= room_pt:
            return text
    return forms[-1]


def _bom(deck: Deck, r: SizingResult, s: Scenario, name: str) -> None:
    table = bom_table(r, s.customer)
    summary = bom_summary(table)
    slide = _slide(deck, f"{name}: bill of materials")
    _table(slide, ["Group", "Lines", f"Amount ({table.currency})"], [[g.label, g.lines, g.amount] for g in summary],
           BODY_TOP, numeric={1, 2}, bold={i for i, g in enumerate(summary) if g.total}, width=Inches(9))
    _text(slide, f"Net prices in {table.currency} after discounts, prices as of {table.price_date}; every line is in "
                 "the report and the BOM CSV and XLSX.", MARGIN, HEIGHT - Inches(0.7), WIDTH - 2 * MARGIN,
          Inches(0.4), 11, color=MUTED)


def _table(slide: Slide, head: Sequence[str], rows: Sequence[Sequence[str]], top: int, *, numeric: set[int],
           bold: set[int] | None = None, width: int | None = None, widths: Sequence[float] = (),
           size: float = 11) -> None:
    """A table at `top`: the first column a third of `width` (half for three columns or fewer), the others share
    the rest; `widths` gives the leading columns' shares instead (the last column takes what is left)."""
    w = width or WIDTH - 2 * MARGIN
    shape = slide.shapes.add_table(len(rows) + 1, len(head), MARGIN, Emu(top), Emu(w),
                                   Emu(Inches(0.3) * (len(rows) + 1)))
    table = shape.table
    shares = list(widths) or [0.34 if len(head) > 3 else 0.5]
    rest = (1 - sum(shares)) / (len(head) - len(shares))
    for j in range(len(head)):
        table.columns[j].width = Emu(int(w * (shares[j] if j < len(shares) else rest)))
    for i, row in enumerate([head, *rows]):
        for j, text in enumerate(row):
            cell = table.cell(i, j)
            cell.text = text
            para = cell.text_frame.paragraphs[0]
            para.font.size = Pt(size)
            para.font.bold = i == 0 or (bold is not None and i - 1 in bold)
            if j in numeric and i > 0:
                para.alignment = PP_ALIGN.RIGHT

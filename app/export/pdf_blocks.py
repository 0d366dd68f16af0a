"""Small building blocks shared by the report sections: numbered headings, escaped
paragraphs, label/value tables, grid tables, key-figure tiles and call-out boxes.

Every piece of user or catalog text goes through `Ctx.text` / `Ctx.p` (markup escaped,
fallback font for characters DejaVu lacks); only strings written here carry markup.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeAlias

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Spacer, Table, TableStyle

from app.export.fonts import ReportFonts, markup, string_width
from app.export.pdf_doc import Heading, Para
from app.export.pdf_styles import (
    FRAME_H,
    FRAME_W,
    MUTED,
    RULE,
    WARN,
    WARN_FILL,
    Styles,
    TableCommand,
    facts_table_style,
    grid_table_style,
)
from app.views.edition import Edition
from models.references import ReferenceList

Cell: TypeAlias = str | Flowable | list[Flowable]


FIGURE_MIN_PT = 5.5  # the smallest a figure in a table prints before its short form takes its place


@cache
def _sized(base: ParagraphStyle, size: float) -> ParagraphStyle:
    """`base` at `size` points (one style per size, so paragraphs of one figure share their parse)."""
    if size == base.fontSize:
        return base
    return ParagraphStyle(f"{base.name}-{size:.1f}", parent=base, fontSize=size, leading=base.leading)


def fitting_size(s: str, font: str, width: float, fonts: ReportFonts, max_size: float, min_size: float,
                 step: float = 0.2) -> float:
    """The first of max_size, max_size - step, ... at which `s` fits `width`, or the first at or below `min_size`.

    A font size steps down from `max_size` until the text fits; widths shrink with the size, so the sizes are
    bisected (a few widths measured, not one per step) and each is the value stepping down would reach.

    >>> round(fitting_size("x" * 40, "Helvetica", 100.0, None, 7.5, 5.2), 6)  # 20 pt wide per point of size
    5.1
    >>> round(fitting_size("x" * 36, "Helvetica", 100.0, None, 7.5, 5.2), 6)  # 5.5 is the first at most 100 pt
    5.5
    >>> fitting_size("abc", "Helvetica", 100.0, None, 7.5, 5.2)
    7.5
    """
    sizes = [max_size]
    while sizes[-1] > min_size:
        sizes.append(sizes[-1] - step)
    k = bisect.bisect_left(range(len(sizes) - 1), True, key=lambda k: string_width(s, font, sizes[k], fonts) <= width)
    return sizes[k]


@dataclass
class Numbering:
    """Section numbers "2", "2.1", "2.1.3" for headings at depth 0, 1, 2."""

    counters: list[int] = field(default_factory=lambda: [0, 0, 0])

    def next(self, depth: int) -> str:
        self.counters[depth] += 1
        for d in range(depth + 1, len(self.counters)):
            self.counters[d] = 0
        return ".".join(str(c) for c in self.counters[: depth + 1])

    def peek(self, depth: int, ahead: int = 1) -> str:
        """The number the heading `ahead` headings later at `depth` will get (no deeper headings between)."""
        nums = [*self.counters[:depth], self.counters[depth] + ahead]
        return ".".join(str(c) for c in nums)


@dataclass
class Ctx:
    styles: Styles
    numbering: Numbering
    depth: int = 0  # depth of this scenario's section headings (0 single report, 1 inside a chapter)
    width: float = FRAME_W
    # one numbered reference list per document: every section cites into it ("[2] Table 3"), the last page lists it
    refs: ReferenceList = field(default_factory=ReferenceList)
    edition: Edition = field(default_factory=Edition)  # who the report is for: what it shows (app.views.edition)

    @property
    def max_figure_height(self) -> float:
        """The tallest chart that still leaves a page room for its caption (and a heading above it)."""
        return FRAME_H * 0.8

    def cite(self, source: str | Iterable[str]) -> str:
        """Markup for a citation: "[n] locator" per document cited (numbered on first use); no file names."""
        return self.text(self.refs.mark(source))

    @property
    def fonts(self) -> ReportFonts:
        return self.styles.fonts

    def text(self, s: object) -> str:
        """User or catalog text as safe Paragraph markup."""
        return markup(s, self.fonts)

    def p(self, s: object, style: ParagraphStyle | None = None) -> Para:
        """A paragraph of plain (escaped) text."""
        return Para(self.text(s), style or self.styles.body)

    def m(self, marked: str, style: ParagraphStyle | None = None) -> Para:
        """A paragraph of markup this module wrote (user parts already escaped with `text`)."""
        return Para(marked, style or self.styles.body)

    def heading(self, title: str, extra_depth: int = 0, header: str | None = None) -> Heading:
        depth = self.depth + extra_depth
        number = self.numbering.next(depth)
        style = (self.styles.h1, self.styles.h2, self.styles.h3)[min(depth, 2)]
        plain = f"{number}  {title}"
        return Heading(f"{number}&nbsp;&nbsp;{self.text(title)}", style, plain=plain, level=depth, toc=depth <= 1,
                       header=header)

    def section(self, title: str, min_space: float = 70 * mm) -> list[Flowable]:
        """A section heading that starts a new page when less than `min_space` is left on this one."""
        return [CondPageBreak(min_space), self.heading(title)]

    def facts(self, rows: Sequence[tuple[str, Cell]], label_w: float = 150, width: float | None = None) -> Table:
        """A label / value table; string values are escaped."""
        s = self.styles
        data = [[Para(self.text(k), s.cell_bold), v if isinstance(v, Flowable | list) else Para(
            self.text(v), s.cell)] for k, v in rows]
        w = width or self.width
        t = Table(data, colWidths=[label_w, w - label_w], hAlign="LEFT")
        t.setStyle(facts_table_style())
        return t

    def grid(self, header: Sequence[str | Flowable], rows: Sequence[Sequence[Cell]], widths: Sequence[float],
             numeric: Sequence[int] = (), extra: Sequence[TableCommand] = (), zebra: bool = True,
             repeat: bool = True) -> Table:
        """A table with a dark header row; string cells are escaped, `numeric` columns right-aligned (a header given
        as a flowable is used as it is)."""
        s = self.styles
        head = [h if isinstance(h, Flowable) else Para(self.text(h), s.cell_head_num if i in numeric else s.cell_head)
                for i, h in enumerate(header)]
        body = [[c if isinstance(c, Flowable | list) else Para(self.text(c), s.cell_num if i in numeric
                                                                    else s.cell)
                 for i, c in enumerate(row)] for row in rows]
        t = Table([head, *body], colWidths=list(widths), repeatRows=1 if repeat else 0, hAlign="LEFT")
        style = grid_table_style(1, zebra, len(body) + 1)
        for cmd in extra:
            style.add(*cmd)
        t.setStyle(style)
        return t

    def kpis(self, tiles: Sequence[tuple[str, str, str]]) -> Table:
        """Key figures in a row of tiles: (label, value, note)."""
        s = self.styles
        n = len(tiles)
        gap = 6.0
        w = (self.width - gap * (n - 1)) / n

        def value_style(text: str) -> ParagraphStyle:
            size = s.kpi_value.fontSize
            while size > 9 and string_width(text, s.kpi_value.fontName, size, self.fonts) > w - 14:
                size -= 0.5
            return ParagraphStyle(f"kpi-{size}", parent=s.kpi_value, fontSize=size, leading=s.kpi_value.leading)

        cells = [[Para(self.text(label), s.kpi_label), Para(self.text(value), value_style(value)),
                  Para(self.text(note), s.kpi_label)] for label, value, note in tiles]
        inner = []
        for c in cells:
            t = Table([[c[0]], [c[1]], [c[2]]], colWidths=[w])
            t.setStyle(TableStyle([
                ("LEFTPADDING", (0, 0), (-1, -1), 7), ("RIGHTPADDING", (0, 0), (-1, -1), 5),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("TOPPADDING", (0, 0), (-1, 0), 6), ("BOTTOMPADDING", (0, -1), (-1, -1), 6),
                ("BOX", (0, 0), (-1, -1), 0.6, RULE), ("LINEBEFORE", (0, 0), (0, -1), 2.5, s.h1.textColor),
            ]))
            inner.append(t)
        row: list[Flowable | str] = []
        widths: list[float] = []
        for i, t in enumerate(inner):
            if i:
                row.append("")
                widths.append(gap)
            row.append(t)
            widths.append(w)
        outer = Table([row], colWidths=widths, hAlign="LEFT")
        outer.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                   ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                                   ("VALIGN", (0, 0), (-1, -1), "TOP")]))
        return outer

    def callout(self, items: Sequence[Flowable], color: object = WARN, fill: object = WARN_FILL) -> Table:
        """Flowables in a tinted box with a coloured bar on the left (warnings, notes)."""
        t = Table([[it] for it in items], colWidths=[self.width], hAlign="LEFT")
        t.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), fill), ("LINEBEFORE", (0, 0), (0, -1), 3, color),
            ("LEFTPADDING", (0, 0), (-1, -1), 9), ("RIGHTPADDING", (0, 0), (-1, -1), 7),
            ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("TOPPADDING", (0, 0), (-1, 0), 6), ("BOTTOMPADDING", (0, -1), (-1, -1), 6),
        ]))
        return t

    def figure(self, chart: Flowable, caption: str, before: Sequence[Flowable] = ()) -> KeepTogether:
        """A chart with its caption under it (and `before`, e.g. its heading), never split apart.

        One KeepTogether only: reportlab moves a KeepTogether nested in another to the next page even when it fits.
        """
        return KeepTogether([*before, chart, Spacer(1, 2), Para(self.text(caption), self.styles.caption),
                             Spacer(1, 6)])

    def number_cell(self, s: str, width: float, short: str | None = None, bold: bool = False,
                    style: ParagraphStyle | None = None) -> Para:
        """A figure in a cell `width` wide, right-aligned and on one line: the font shrinks (to 5.5 pt at least)
        until it fits, and where even that would wrap `short` (its k / M form) is printed instead. `style`: another
        right-aligned style to start from (a smaller line under the figure)."""
        base = style or (self.styles.cell_num_bold if bold else self.styles.cell_num)
        room = width - 8  # the cell's padding
        size = fitting_size(s, base.fontName, room, self.fonts, base.fontSize, FIGURE_MIN_PT)
        if short is not None and string_width(s, base.fontName, size, self.fonts) > room:
            s = short
            size = fitting_size(s, base.fontName, room, self.fonts, base.fontSize, FIGURE_MIN_PT)
        return Para(self.text(s), _sized(base, round(size, 1)))

    def fitted(self, s: str, width: float, max_size: float = 7.5, min_size: float = 5.2,
               style: ParagraphStyle | None = None, color: colors.Color = MUTED) -> Para:
        """An identifier on one line: the font shrinks until it fits `width` (part ids must stay copyable)."""
        base = style or self.styles.cell_small
        size = fitting_size(s, base.fontName, width, self.fonts, max_size, min_size)
        st = ParagraphStyle(f"{base.name}-{size:.1f}", parent=base, fontSize=size, leading=size * 1.25,
                            textColor=color)
        return Para(self.text(s), st)

"""The report's document template: cover and body pages, running header and footer,
"page n of N", numbered headings that feed the table of contents and the PDF outline,
and a cancellation check between flowables.

The canvas keeps every page until the document is laid out, so it can also draw what only the whole layout
knows (the page count, the table of contents' page numbers) where it belongs: the document is laid out once.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from reportlab import rl_config
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph

from app.export.fonts import ReportFonts, fit_text, runs, string_width
from app.export.pdf_styles import MARGIN_BOTTOM, MARGIN_TOP, MARGIN_X, MUTED, PAGE, RULE
from models.tasks import IsCancelled, check_cancelled

FOOTER_Y = MARGIN_BOTTOM - 16

# Page and image streams are stored Flate-compressed, without reportlab's default ASCII85 armour on top: the armour
# only makes the file 7-bit clean (no use to anyone now, and 25 % larger), and it cost a second of a five-option
# report in encoding chart images when reportlab ran without its C accelerator (now a dependency, rl-accel).
rl_config.useA85 = 0


def bookmark_key(n: int) -> str:
    """The PDF destination of the document's `n`-th heading (0-based), which its TOC entry links to."""
    return f"h{n}"


# The fragments reportlab's markup parser made of a text in a style, per style (the report's own, made per report):
# a report repeats many cell texts ("", "1", "–", "As the row above.": 1,454 distinct texts in 3,970 paragraphs of a
# 5-option report), and parsing is a Python HTML parser per paragraph.
_PARSED: weakref.WeakKeyDictionary[ParagraphStyle, dict[str, tuple[str, ParagraphStyle, list[Any]]]] = (
    weakref.WeakKeyDictionary())
# The lines broken for those shared fragments, per style and width: (fragments, wrap widths, lines, size). A report
# wraps many paragraphs of one text at one width (table cells of "–", "1", a repeated note): 3,480 wraps of a
# 5-option report broke the lines of 1,300 distinct (text, style, width).
_BROKEN: weakref.WeakKeyDictionary[ParagraphStyle, dict[tuple[int, float], tuple[list[Any], list[float], Any,
                                                                               tuple[float, float]]]] = (
    weakref.WeakKeyDictionary())


class Para(Paragraph):  # type: ignore[misc]  # reportlab ships no stubs: its classes are Any to mypy
    """A Paragraph whose markup is parsed once per text and style, and whose lines are broken again only when it
    is wrapped at another width.

    Paragraphs of the same text and style share the parser's fragments, which reportlab only reads (it clones a
    fragment to change it; hyphenation, which would change one in a split, is not used here).

    Tables wrap every cell to measure rows, then again to draw it (and once more when they split); a KeepTogether
    wraps its content before the frame does: 6 of 10 wraps in a report met the same paragraph at the same width,
    and breaking lines (a width per word) was the largest part of the layout. `wrap` depends only on the width,
    the fragments and the style, and leaves its answer in `blPara`, which a split deletes: the memo holds while
    all of them are the ones it was made with. Paragraphs sharing fragments share the lines broken at a width
    too (`_BROKEN`): reportlab reads a paragraph's lines to draw and split it and never changes them.
    """

    # Paragraph's attributes this class reads and sets (declared here: the base class is untyped)
    text: str
    style: ParagraphStyle
    bulletText: str | None
    frags: list[Any]
    _memo: tuple[float, object, object, object, tuple[float, float]] | None = None
    _shared = False  # the fragments are the shared parse of the text (not a split's part or a <bullet> paragraph)

    def __init__(self, text: str | None, style: ParagraphStyle, bulletText: Any = None, frags: Any = None) -> None:
        if text is None or bulletText is not None or frags is not None:  # as `split` makes the parts: no parsing
            super().__init__(text, style, bulletText, frags)
            return
        parsed = _PARSED.setdefault(style, {})
        hit = parsed.get(text)
        if hit is None:
            super().__init__(text, style)
            if self.bulletText is None:  # a <bullet> tag in the text sets it: such paragraphs are parsed each time
                parsed[text] = (self.text, self.style, self.frags)
                self._shared = True
            return
        super().__init__(text, style, frags=hit[2])
        self.text, self.style = hit[0], hit[1]  # as the parser left them: the text cleaned, the style of its <para>
        self.bulletText = None
        self._shared = True

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        memo = self._memo
        if (memo is not None and memo[0] == availWidth and memo[1] is self.frags and memo[2] is self.style
                and memo[3] is self.__dict__.get("blPara")):
            self.width, self.height = memo[4]
            return memo[4]
        broken = _BROKEN.setdefault(self.style, {}) if self._shared else None
        hit = broken.get((id(self.frags), availWidth)) if broken is not None else None
        if hit is not None and hit[0] is self.frags:
            self._wrapWidths, self.blPara, size = list(hit[1]), hit[2], hit[3]
            self.width, self.height = size
        else:
            size = super().wrap(availWidth, availHeight)
            if broken is not None and "blPara" in self.__dict__:  # not when too narrow to break any line
                broken[(id(self.frags), availWidth)] = (self.frags, list(self._wrapWidths), self.blPara, size)
        self._memo = (availWidth, self.frags, self.style, self.__dict__.get("blPara"), size)
        return size


class Heading(Para):
    """A numbered heading: a TOC entry and a PDF bookmark; a chapter heading also sets the running header."""

    def __init__(self, text: str, style: ParagraphStyle, *, plain: str, level: int, toc: bool = True,
                 header: str | None = None) -> None:
        super().__init__(text, style)
        self.markup = text
        self.plain = plain
        self.level = level
        self.toc = toc
        self.header = header


def draw_text(canv: Canvas, x: float, y: float, text: str, font: str, size: float, fonts: ReportFonts,
              align: str = "left") -> None:
    """Draw `text` on the canvas with fallback-font runs (names in CJK print in the header too)."""
    width = string_width(text, font, size, fonts)
    if align == "right":
        x -= width
    elif align == "center":
        x -= width / 2
    for name, seg in runs(text, font, fonts):
        canv.setFont(name, size)
        canv.drawString(x, y, seg)
        x += canv.stringWidth(seg, name, size)


def numbered_canvas(fonts: ReportFonts, skip_first: bool = True) -> type[Canvas]:
    """A canvas class that knows the page count at save time and prints "Page n of N" in the footer."""

    class NumberedCanvas(Canvas):  # type: ignore[misc]  # reportlab ships no stubs: its classes are Any to mypy
        # Canvas's attributes this class reads and sets (declared here: the base class is untyped)
        _code: list[str]
        _pageNumber: int
        _annotationCount: int
        _curr_tx_info: dict[str, Any]
        _startPage: Callable[[], None]

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []
            self._deferred: dict[int, list[tuple[str, dict[str, Any], Callable[[Canvas], object]]]] = {}  # by page

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def defer(self, draw: Callable[[Canvas], object]) -> None:
            """Call `draw(canvas)` when the document is saved, as if it were called now: this page, this point
            of its content, this graphics state and text position. For what the layout decides later in the
            document (a table of contents' page numbers)."""
            here = self._deferred.setdefault(self._pageNumber, [])
            mark = f"% refarch deferred {len(here)}"  # a PDF comment, replaced by what `draw` draws
            self._code.append(mark)
            state = {name: getattr(self, name) for name in self.STATE_ATTRIBUTES}
            state["_curr_tx_info"] = dict(getattr(self, "_curr_tx_info", {}))
            here.append((mark, state, draw))

        def bookmarkPage(self, key: str, *args: Any, **kwargs: Any) -> None:
            # a destination names its page object, which is made when `save` writes the page: taken now, every
            # bookmark and TOC link would lead to the first page
            self.defer(lambda canvas: Canvas.bookmarkPage(canvas, key, *args, **kwargs))

        def _draw_deferred(self, annotations: int) -> int:
            """This page's deferred drawings in the places they were deferred from; returns the annotation
            count, which every page restores to its own (so a link added now needs the document's last)."""
            for mark, state, draw in self._deferred.get(self._pageNumber, []):
                code = self._code
                now = {name: getattr(self, name) for name in self.STATE_ATTRIBUTES}
                self.__dict__.update(state)
                self._code, self._annotationCount = [], annotations
                draw(self)
                i = code.index(mark)
                code[i:i + 1] = self._code
                annotations = self._annotationCount
                self._code = code
                self.__dict__.update(now)
                del self._curr_tx_info
            return annotations

        def save(self) -> None:
            total = len(self._pages)
            annotations = self._annotationCount
            for state in self._pages:
                self.__dict__.update(state)
                annotations = self._draw_deferred(annotations)
                if not (skip_first and self._pageNumber == 1):
                    self.setFillColor(MUTED)
                    draw_text(self, PAGE[0] - MARGIN_X, FOOTER_Y, f"Page {self._pageNumber} of {total}",
                              fonts.regular, 7.5, fonts, "right")
                super().showPage()
            super().save()

    return NumberedCanvas


class ReportDoc(BaseDocTemplate):  # type: ignore[misc]  # reportlab ships no stubs: its classes are Any to mypy
    """Cover page template (no header) and body template (header, footer, page numbers)."""

    def __init__(self, filename: str, *, fonts: ReportFonts, header: str, footer_left: str, footer_date: str,
                 title: str, author: str, subject: str, cancelled: IsCancelled | None = None) -> None:
        super().__init__(filename, pagesize=PAGE, leftMargin=MARGIN_X, rightMargin=MARGIN_X, topMargin=MARGIN_TOP,
                         bottomMargin=MARGIN_BOTTOM, title=title, author=author, subject=subject,
                         creator="refarch", producer="refarch (reportlab)")
        self.fonts = fonts
        self.running_header = header
        self._default_header = header
        self.footer_left = footer_left
        self.footer_date = footer_date
        self.cancelled = cancelled
        self._bookmarks = 0
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        cover = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="cover",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate(id="cover", frames=[cover], onPage=self._cover_page),
            PageTemplate(id="body", frames=[frame], onPageEnd=self._body_page),
        ])

    def beforeDocument(self) -> None:
        self.running_header = self._default_header
        self._bookmarks = 0

    def _cover_page(self, canv: Canvas, doc: BaseDocTemplate) -> None:
        from app.export.pdf_styles import ACCENT

        canv.saveState()
        canv.setFillColor(ACCENT)
        canv.rect(0, PAGE[1] - 9, PAGE[0], 9, stroke=0, fill=1)
        canv.restoreState()

    def _body_page(self, canv: Canvas, doc: BaseDocTemplate) -> None:
        f = self.fonts
        canv.saveState()
        top = PAGE[1] - MARGIN_TOP + 8
        canv.setFillColor(MUTED)
        width = PAGE[0] - 2 * MARGIN_X
        draw_text(canv, MARGIN_X, top + 4, fit_text(self.running_header, f.regular, 7.5, width - 50, f),
                  f.regular, 7.5, f)
        draw_text(canv, PAGE[0] - MARGIN_X, top + 4, "refarch", f.bold, 7.5, f, "right")
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.5)
        canv.line(MARGIN_X, top, PAGE[0] - MARGIN_X, top)
        canv.line(MARGIN_X, FOOTER_Y + 10, PAGE[0] - MARGIN_X, FOOTER_Y + 10)
        left = " · ".join(x for x in (self.footer_left, self.footer_date) if x)
        draw_text(canv, MARGIN_X, FOOTER_Y, fit_text(left, f.regular, 7.5, width - 80, f), f.regular, 7.5, f)
        canv.restoreState()

    def afterFlowable(self, flowable: Flowable) -> None:
        check_cancelled(self.cancelled)  # models.tasks.Cancelled: nothing was written
        if isinstance(flowable, Heading):
            if flowable.header is not None:
                self.running_header = flowable.header
            elif flowable.level == 0:  # a chapter of the whole report (appendix, references) after an option's
                self.running_header = self._default_header
            key = bookmark_key(self._bookmarks)
            self._bookmarks += 1
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(flowable.plain, key, level=flowable.level, closed=flowable.level > 0)
            if flowable.toc:
                self.notify("TOCEntry", (flowable.level, flowable.markup, self.page, key))

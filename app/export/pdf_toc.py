"""The table of contents, laid out in one pass.

reportlab's `TableOfContents` learns its entries while the document is laid out, so `multiBuild` lays a report
out three times: without entries, with them (the pages after the contents move), and once more to confirm. Here
the entries are known before layout (the story's numbered headings, in order) and only their page numbers are
not; a page number takes no room in the layout, so it is drawn when the document is saved (the canvas's
`defer`), from the pages this same pass gave each heading. When the headings met in the layout differ from
those expected, `isSatisfied` says so and `multiBuild` lays the document out again with the real ones.
"""

from __future__ import annotations

from ast import literal_eval
from collections.abc import Iterable, Iterator
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

from app.export.pdf_doc import Heading, bookmark_key

Entry = tuple[int, str, int, Any]  # reportlab's TOC entry: level, markup, page, bookmark key


def headings(story: Iterable[Flowable]) -> Iterator[Heading]:
    """The story's headings in layout order, also those inside a container (a chart kept with its heading)."""
    for f in story:
        if isinstance(f, Heading):
            yield f
        content = getattr(f, "_content", None)  # KeepTogether and reportlab's other containers
        if isinstance(content, list | tuple):
            yield from headings(content)


class OnePassToc(TableOfContents):  # type: ignore[misc]  # reportlab ships no stubs: its classes are Any to mypy
    """A table of contents whose entries are given before layout (`expect`) and whose page numbers are drawn at
    save time; needs a canvas with `defer` (`app.export.pdf_doc.numbered_canvas`)."""

    # TableOfContents's attributes this class reads and sets (declared here: the base class is untyped)
    _entries: list[Entry]
    _lastEntries: list[Entry]

    def __init__(self, level_styles: list[ParagraphStyle], dots_min_level: int = 0) -> None:
        super().__init__(dotsMinLevel=dots_min_level)
        self.levelStyles = level_styles

    def expect(self, story: Iterable[Flowable]) -> None:
        """Lay the entries of `story`'s headings out from the first pass (ReportDoc numbers bookmarks in order)."""
        self._lastEntries = [(h.level, h.markup, 0, bookmark_key(n)) for n, h in enumerate(headings(story))
                             if h.toc]

    def beforeBuild(self) -> None:
        if self._entries:  # a pass met other headings than expected: the next lays those out
            self._lastEntries = self._entries[:]
        self.clearEntries()

    def isSatisfied(self) -> bool:
        # page numbers are drawn at save time and take no room: only the entries themselves shape the layout
        return [_shape(e) for e in self._entries] == [_shape(e) for e in self._lastEntries]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size: tuple[float, float] = super().wrap(availWidth, availHeight)

        def entry_end(canvas: Any, kind: str | None, label: str) -> None:
            _page, level_text, key_text = label.split(",")
            level, key = int(level_text), literal_eval(key_text)
            style = self.getLevelStyle(level)
            dot = " . " if 0 <= self.dotsMinLevel <= level else ""
            canvas.defer(lambda c: drawPageNumbers(c, style, [(self._page_of(key), key)], availWidth, availHeight,
                                                   dot))

        self.canv.setNamedCB("drawTOCEntryEnd", entry_end)  # in place of the parent's, which draws the number now
        return size

    def _page_of(self, key: Any) -> int:
        return next(page for _level, _text, page, k in self._entries if k == key)


def _shape(entry: Entry) -> tuple[int, str, Any]:
    level, text, _page, key = entry
    return level, text, key

"""Fonts for the PDF report: DejaVu Sans for text, a CJK fallback for what DejaVu lacks.

reportlab draws a run of text in one font and has no per-glyph fallback, so user text
goes through `markup` (Paragraphs) or `runs` (canvas and Drawing strings): both split it
into runs the primary font covers and runs left to the fallback font. Fonts come from
`resources/fonts/` first (shipped, so a report prints the same offline on any machine),
then the usual system folders, then the PDF base fonts. The CJK font is parsed only when
some text needs it (it is a 3.4 MB file and most reports never do).
"""

from __future__ import annotations

import bisect
import os
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib.resources import files
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "RefarchSans"
BOLD = "RefarchSans-Bold"
FALLBACK = "RefarchCJK"
BASE_REGULAR = "Helvetica"
BASE_BOLD = "Helvetica-Bold"

_REGULAR_FILES = ("DejaVuSans.ttf",)
_BOLD_FILES = ("DejaVuSans-Bold.ttf",)
# (file name, subfont index): TrueType outlines only, reportlab cannot embed CFF (.otf) CJK fonts
_CJK_FILES: tuple[tuple[str, int], ...] = (
    ("DroidSansFallback.ttf", 0),
    ("DroidSansFallbackFull.ttf", 0),
    ("wqy-microhei.ttc", 0),
    ("msyh.ttc", 0),
    ("Arial Unicode.ttf", 0),
)


def _system_dirs() -> list[Path]:
    dirs = [
        Path("/usr/share/fonts/truetype/dejavu"),
        Path("/usr/share/fonts-droid-fallback/truetype"),
        Path("/usr/share/fonts/truetype/droid"),
        Path("/usr/share/fonts/truetype/wqy"),
        Path("/usr/share/fonts/dejavu"),
        Path("/usr/share/fonts/TTF"),
        Path.home() / ".local/share/fonts",
    ]
    if sys.platform == "darwin":
        dirs += [Path("/Library/Fonts"), Path("/System/Library/Fonts/Supplemental"), Path.home() / "Library/Fonts"]
    if sys.platform == "win32":
        dirs.append(Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts")
    return dirs


def shipped_dir() -> Path:
    return Path(str(files("resources") / "fonts"))


def find_font(names: Iterable[str], dirs: Iterable[Path] | None = None) -> Path | None:
    """The first existing file named in `names`, looking in resources/fonts then the system folders."""
    search = [shipped_dir(), *_system_dirs()] if dirs is None else list(dirs)
    for name in names:
        for d in search:
            p = d / name
            if p.is_file():
                return p
    return None


@dataclass
class ReportFonts:
    """The font names to use in styles; `embedded` is False when only the base fonts were found."""

    regular: str
    bold: str
    embedded: bool
    cjk_path: Path | None
    cjk_index: int = 0
    _coverage: frozenset[int] = field(default_factory=frozenset)
    _cjk_coverage: frozenset[int] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def covers(self, ch: str) -> bool:
        """Whether the primary font draws `ch` (base fonts: Latin-1 only)."""
        cp = ord(ch)
        if self.embedded:
            return cp in self._coverage
        return cp < 256

    def needs_fallback(self, text: str) -> bool:
        if self._drawn.issuperset(text):  # nearly every string: one set operation, not a call per character
            return False
        return any(not self.covers(c) for c in text if not c.isspace())

    @cached_property
    def _drawn(self) -> frozenset[str]:
        """The characters `covers` accepts."""
        return frozenset(map(chr, self._coverage)) if self.embedded else frozenset(map(chr, range(256)))

    def fallback(self) -> str | None:
        """Register the CJK font on first use; None when none is installed."""
        if self.cjk_path is None:
            return None
        with self._lock:
            if self._cjk_coverage is None:
                try:
                    font = TTFont(FALLBACK, str(self.cjk_path), subfontIndex=self.cjk_index)
                except Exception:  # an unreadable font file: print boxes rather than fail the report
                    self.cjk_path = None
                    return None
                pdfmetrics.registerFont(font)
                self._cjk_coverage = frozenset(font.face.charToGlyph)
        return FALLBACK


@cache
def report_fonts() -> ReportFonts:
    """Register the report fonts once per process."""
    regular = find_font(_REGULAR_FILES)
    bold = find_font(_BOLD_FILES)
    cjk = None
    cjk_index = 0
    for name, index in _CJK_FILES:
        cjk = find_font((name,))
        if cjk is not None:
            cjk_index = index
            break
    if regular is None:
        return ReportFonts(BASE_REGULAR, BASE_BOLD, False, cjk, cjk_index)
    reg_font = TTFont(REGULAR, str(regular))
    pdfmetrics.registerFont(reg_font)
    bold_name = REGULAR
    if bold is not None:
        pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
        bold_name = BOLD
    # <b> inside a Paragraph picks the bold face; there is no italic face, so italic maps to upright
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, bold_name)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, bold_name)
    return ReportFonts(REGULAR, bold_name, True, cjk, cjk_index, frozenset(reg_font.face.charToGlyph))


def runs(text: str, font_name: str, fonts: ReportFonts | None = None) -> list[tuple[str, str]]:
    """`text` as (font name, segment) runs: `font_name` where the primary font has the glyph, else the fallback."""
    fonts = fonts or report_fonts()
    if not fonts.needs_fallback(text):
        return [(font_name, text)] if text else []
    fb = fonts.fallback()
    out: list[tuple[str, str]] = []
    for ch in text:
        name = font_name if fb is None or fonts.covers(ch) or ch.isspace() else fb
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + ch)
        else:
            out.append((name, ch))
    return out


def markup(text: object, fonts: ReportFonts | None = None) -> str:
    """User text made safe for a Paragraph: markup escaped, uncovered characters in the fallback font."""
    s = "" if text is None else str(text)
    fonts = fonts or report_fonts()
    if not fonts.needs_fallback(s):
        return escape(s)
    fb = fonts.fallback()
    if fb is None:
        return escape(s)
    parts: list[str] = []
    for name, seg in runs(s, fonts.regular, fonts):
        parts.append(escape(seg) if name != fb else f'<font name="{fb}">{escape(seg)}</font>')
    return "".join(parts)


def string_width(text: str, font_name: str, size: float, fonts: ReportFonts | None = None) -> float:
    """Width in points of `text` drawn with fallback runs."""
    width: float = sum(pdfmetrics.stringWidth(seg, name, size) for name, seg in runs(text, font_name, fonts))
    return width


def fit_text(text: str, font_name: str, size: float, width: float, fonts: ReportFonts | None = None) -> str:
    """`text` cut with an ellipsis so it fits `width` points."""
    if string_width(text, font_name, size, fonts) <= width:
        return text
    # the longest prefix that fits with the ellipsis (a longer prefix is never narrower: bisect, not char by char)
    n = bisect.bisect_left(range(1, len(text) + 1), True,
                           key=lambda n: string_width(text[:n] + "…", font_name, size, fonts) > width)
    cut = text[:n]
    return (cut.rstrip() + "…") if cut else ""

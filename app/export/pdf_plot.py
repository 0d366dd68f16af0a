"""Drawing tools of the PDF's vector charts: a chart flowable, value scales, axes, legends and text on the canvas.

A chart is laid out once, when it is built (scales, ticks, text widths), and its `paint` only emits drawing
operators, on every layout pass the table of contents asks for. Text goes through `draw_text`, so a scenario
name in CJK prints with the fallback font as in the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from app.charts.palette import GRID, GRID_LIGHT, INK, MUTED
from app.export.fonts import ReportFonts, string_width
from app.export.pdf_doc import draw_text

Paint = Callable[[Canvas], None]
TICK = 3.5  # tick mark length, points (matplotlib's default)
SPINE_W = 0.8
GRID_W = 0.8


@cache
def rgb(hex_color: str) -> colors.Color:
    return colors.HexColor(hex_color)


class Chart(Flowable):  # type: ignore[misc]  # reportlab ships no stubs: its classes are Any to mypy
    """A vector chart `width` x `height` points whose `paint` draws it with (0, 0) at its lower left corner;
    shrunk as a whole when it is taller than `max_height`."""

    def __init__(self, width: float, height: float, paint: Paint, max_height: float | None = None) -> None:
        super().__init__()
        self._k = min(1.0, max_height / height) if max_height is not None and height > 0 else 1.0
        self.width, self.height = width * self._k, height * self._k
        self.hAlign = "CENTER"
        self._paint = paint

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canv = self.canv
        canv.saveState()
        if self._k != 1.0:
            canv.scale(self._k, self._k)
        self._paint(canv)
        canv.restoreState()


@dataclass(frozen=True)
class Scale:
    """Data values `lo`..`hi` onto page coordinates `a`..`b` (points)."""

    lo: float
    hi: float
    a: float
    b: float

    def __call__(self, v: float) -> float:
        return self.a + (v - self.lo) * (self.b - self.a) / ((self.hi - self.lo) or 1.0)


@dataclass(frozen=True)
class Pen:
    """Text in the report's fonts: measured and drawn with fallback runs."""

    fonts: ReportFonts

    def font(self, bold: bool) -> str:
        return self.fonts.bold if bold else self.fonts.regular

    def width(self, s: str, size: float, bold: bool = False) -> float:
        return string_width(s, self.font(bold), size, self.fonts)

    def text(self, c: Canvas, x: float, y: float, s: str, size: float, fill: str = INK, bold: bool = False,
             align: str = "left") -> None:
        c.setFillColor(rgb(fill))
        draw_text(c, x, y, s, self.font(bold), size, self.fonts, align)

    def lines(self, c: Canvas, x: float, y: float, texts: Sequence[str], size: float, fill: str = INK,
              bold: bool = False, align: str = "left") -> None:
        """Lines downwards from the baseline `y` of the first, 1.2 x `size` apart."""
        for n, s in enumerate(texts):
            self.text(c, x, y - n * size * 1.2, s, size, fill, bold, align)

    def vertical(self, c: Canvas, x: float, y: float, s: str, size: float, fill: str = MUTED) -> None:
        """`s` read bottom to top, centred on `y`, its baseline at `x`."""
        c.saveState()
        c.translate(x, y)
        c.rotate(90)
        c.setFillColor(rgb(fill))
        draw_text(c, 0, 0, s, self.font(False), size, self.fonts, "center")
        c.restoreState()

    def wrap(self, s: str, size: float, width: float, bold: bool = False) -> list[str]:
        """`s` broken at spaces into lines no wider than `width` (a longer word keeps its own line)."""
        out: list[str] = []
        for word in s.split():
            if out and self.width(f"{out[-1]} {word}", size, bold) <= width:
                out[-1] = f"{out[-1]} {word}"
            else:
                out.append(word)
        return out or [""]


def stroke(c: Canvas, color: str, width: float, dash: Sequence[float] | None = None) -> None:
    c.setStrokeColor(rgb(color))
    c.setLineWidth(width)
    c.setDash(list(dash) if dash else [])


def line(c: Canvas, x0: float, y0: float, x1: float, y1: float, color: str, width: float,
         dash: Sequence[float] | None = None) -> None:
    stroke(c, color, width, dash)
    c.line(x0, y0, x1, y1)


def box(c: Canvas, x: float, y: float, w: float, h: float, fill: str, alpha: float = 1.0) -> None:
    if w <= 0 or h <= 0:
        return
    c.setFillColor(rgb(fill), alpha)
    c.rect(x, y, w, h, stroke=0, fill=1)


def dot(c: Canvas, x: float, y: float, radius: float, fill: str, edge: str | None = None, edge_w: float = 0) -> None:
    c.setFillColor(rgb(fill))
    if edge is not None:
        stroke(c, edge, edge_w)
    c.circle(x, y, radius, stroke=1 if edge is not None else 0, fill=1)


def x_axis(c: Canvas, pen: Pen, xs: Scale, y: float, ticks: Sequence[float], fmt: Callable[[float], str],
           size: float = 8, grid_top: float | None = None) -> None:
    """The bottom spine at `y`, tick marks and labels under it, and grid lines up to `grid_top` if given."""
    if grid_top is not None:
        for t in ticks:
            line(c, xs(t), y, xs(t), grid_top, GRID_LIGHT, GRID_W)
    line(c, xs.a, y, xs.b, y, GRID, SPINE_W)
    for t in ticks:
        line(c, xs(t), y, xs(t), y - TICK, MUTED, SPINE_W)
        pen.text(c, xs(t), y - TICK - 2 - size * 0.8, fmt(t), size, MUTED, align="center")


def y_axis(c: Canvas, pen: Pen, ys: Scale, x: float, ticks: Sequence[float], fmt: Callable[[float], str],
           size: float = 8, grid_right: float | None = None) -> None:
    """The left spine at `x`, tick marks and labels left of it, and grid lines to `grid_right` if given."""
    if grid_right is not None:
        for t in ticks:
            line(c, x, ys(t), grid_right, ys(t), GRID_LIGHT, GRID_W)
    line(c, x, ys.a, x, ys.b, GRID, SPINE_W)
    for t in ticks:
        line(c, x - TICK, ys(t), x, ys(t), MUTED, SPINE_W)
        pen.text(c, x - TICK - 2, ys(t) - size * 0.35, fmt(t), size, MUTED, align="right")


def tick_room(pen: Pen, ticks: Sequence[float], fmt: Callable[[float], str], size: float = 8) -> float:
    """How wide the labels of a left axis are, with the tick marks and their gap."""
    return max((pen.width(fmt(t), size) for t in ticks), default=0.0) + TICK + 3


@dataclass(frozen=True)
class Key:
    """A legend entry: a filled square, a line (dashed or with a dot), as the chart draws the series."""

    label: str
    color: str
    kind: str = "box"  # "box", "line", "dashed", "dotline"
    alpha: float = 1.0


def key_width(pen: Pen, keys: Sequence[Key], size: float) -> float:
    return max((pen.width(k.label, size) for k in keys), default=0.0) + 22


def legend(c: Canvas, pen: Pen, x: float, y_top: float, keys: Sequence[Key], size: float = 7.5,
           title: str | None = None, rows: int | None = None, col_w: float | None = None) -> None:
    """Entries down from `y_top` in columns of `rows` (all in one by default), `col_w` apart."""
    pitch = size * 1.6
    y = y_top - size
    if title:
        pen.text(c, x, y, title, size, INK)
        y -= pitch
    rows = rows or len(keys)
    col_w = col_w or key_width(pen, keys, size)
    for n, k in enumerate(keys):
        kx, ky = x + (n // rows) * col_w, y - (n % rows) * pitch
        mid = ky + size * 0.35
        if k.kind == "box":
            box(c, kx, ky - 0.5, 14, size * 0.9, k.color, k.alpha)
        else:
            line(c, kx, mid, kx + 14, mid, k.color, 1.6 if k.kind != "dashed" else 1.2,
                 (3, 2) if k.kind == "dashed" else None)
            if k.kind == "dotline":
                dot(c, kx + 7, mid, 1.9, k.color)
        pen.text(c, kx + 18, ky, k.label, size, INK)


def legend_height(keys: int, size: float = 7.5, title: bool = False) -> float:
    return (keys + (1 if title else 0)) * size * 1.6

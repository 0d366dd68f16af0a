"""Charts in the PDF: build the shared matplotlib figures from a result and embed them.

Figures embed as an image at `PNG_DPI`. The image is rendered once (Agg straight to pixels, no PNG round trip)
and compressed into its PDF object once: the table of contents makes reportlab lay the document out two
or three times, and re-encoding every chart on every pass cost more than drawing them. Vector charts through
svglib (SVG -> reportlab Drawing) were measured and dropped: a 5-option report took twice the CPU time of this
(the SVG text and its parsing, then reportlab drawing every path), for pages that look the same at 100 %.
CJK names in chart labels need the fallback font, so figures with such text are built and rendered inside
`chart_fonts`.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import logging
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence

from matplotlib.figure import Figure
from reportlab.platypus import Flowable

from app.charts import ComparisonSeries, cost_breakdown, cost_items, scenario_comparison
from app.charts.curve import estimate_vs_hosts
from app.charts.layout import OnePassLayout
from app.charts.report_charts import estimate_ranges, growth_chart
from app.export.fonts import ReportFonts
from app.formatting import is_fraction, unit_text
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.uncertainty import Estimate
from models.vocabulary import lower_is_better, metric_label, target_of_metric
from models.whatif import GrowthYear, compare

# pixels per inch of the chart images: at 150 a page looks as sharp as at 220 at 100 % zoom and only a little
# softer at 220 %, with half the pixels to draw, copy and compress; charts were half a report's CPU time
PNG_DPI = 150
ZLIB_LEVEL = 1
_PDF_INTERNAL_NAME = "__InternalName__"  # where reportlab's PDFDocument notes an object's registration


@contextlib.contextmanager
def chart_fonts(fonts: ReportFonts, texts: Iterable[str]) -> Iterator[None]:
    """Matplotlib with the CJK font as a fallback family when any of `texts` needs it."""
    path = fonts.cjk_path
    if path is None or not any(fonts.needs_fallback(t) for t in texts):
        yield
        return
    from matplotlib import font_manager, rc_context

    font_manager.fontManager.addfont(str(path))
    family = font_manager.FontProperties(fname=str(path)).get_name()
    # the CJK font has no bold face; matplotlib says so on every bold title, which is expected here
    log = logging.getLogger("matplotlib.font_manager")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        with rc_context({"font.family": ["DejaVu Sans", family]}):
            yield
    finally:
        log.setLevel(level)


class ChartImage(Flowable):
    """A rendered chart whose PDF image object is built once and reused by every layout pass."""

    def __init__(self, rgb: bytes, size_px: tuple[int, int], width: float, height: float) -> None:
        super().__init__()
        from reportlab import rl_config
        from reportlab.pdfbase.pdfdoc import PDFImageXObject
        from reportlab.pdfbase.pdfutils import asciiBase85Encode

        self.width, self.height = width, height
        self.hAlign = "CENTER"
        self._size_px = size_px
        # the stream reportlab would build from a PIL image (8-bit DeviceRGB, Flate), compressed here once and at
        # ZLIB_LEVEL: level 6 (reportlab's) took a third of a chart's rendering for a file a fifth smaller
        self._flate = zlib.compress(rgb, ZLIB_LEVEL)
        xobject = PDFImageXObject("chart")
        xobject.width, xobject.height = size_px
        xobject.bitsPerComponent, xobject.colorSpace, xobject.mask = 8, "DeviceRGB", None
        if rl_config.useA85:
            xobject.streamContent, xobject._filters = asciiBase85Encode(self._flate), ("ASCII85Decode", "FlateDecode")
        else:
            xobject.streamContent, xobject._filters = self._flate, ("FlateDecode",)
        self._xobject = xobject
        # named by its compressed bytes (a fiftieth of the pixels' to hash): identical charts share one PDF object
        self._name = "chart-" + hashlib.sha1(self._flate).hexdigest()
        xobject.name = self._name

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canv = self.canv
        try:
            doc = canv._doc
            reg = doc.getXObjectName(self._name)
            if not doc.idToObject.get(reg):
                # each document (layout pass) registers its own shallow copy: same compressed bytes
                xobject = copy.copy(self._xobject)
                xobject.__dict__.pop(_PDF_INTERNAL_NAME, None)
                canv._setXObjects(xobject)
                doc.Reference(xobject, reg)
                doc.addForm(self._name, xobject)
            canv._currentPageHasImages = 1
            canv.saveState()
            canv.scale(self.width, self.height)
            canv._code.append(f"/{reg} Do")
            canv.restoreState()
            canv._formsinuse.append(self._name)
        except AttributeError:  # a reportlab whose canvas internals differ: the public call, re-encoding
            from PIL import Image as PilImage
            from reportlab.lib.utils import ImageReader

            pixels = PilImage.frombytes("RGB", self._size_px, zlib.decompress(self._flate))
            canv.drawImage(ImageReader(pixels), 0, 0, self.width, self.height)


def figure_flowable(fig: Figure, width: float, max_height: float | None = None) -> Flowable:
    """`fig` scaled to `width` points (less when it would be taller than `max_height`), aspect ratio kept."""
    w_in, h_in = fig.get_size_inches()
    height = width * h_in / w_in
    if max_height is not None and height > max_height:
        width, height = width * max_height / height, max_height
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig.set_dpi(PNG_DPI)
    fig.patch.set_facecolor("white")
    fig.set_layout_engine(OnePassLayout())  # drawn once at this size: one measurement of the decorations is enough
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    # the RGB bytes straight from Agg's RGBA buffer (the figure is opaque white): no PIL image, convert or copy
    rgb = np.asarray(canvas.buffer_rgba())[:, :, :3].tobytes()
    return ChartImage(rgb, canvas.get_width_height(), width, height)


def cost_figure(result: SizingResult) -> Figure:
    rows = max(1, len({ln.role for ln in result.bom}))
    return cost_breakdown(cost_items(result.bom), result.totals.currency, size_in=(6.5, 1.0 + 0.55 * rows))


def _target_value(scenario: Scenario, metric: str) -> float | None:
    """The scenario's limit on `metric`, if a target bounds it and is set."""
    target = target_of_metric(metric)
    return getattr(scenario.targets, target.name) if target is not None else None


def estimates_figure(result: SizingResult, scenario: Scenario) -> Figure | None:
    names = [n for n in result.estimates if not is_fraction(result.estimates[n].unit)]
    if result.main_metric in names:  # the main estimate first
        names.remove(result.main_metric)
        names.insert(0, result.main_metric)
    if not names:
        return None
    est = [result.estimates[n] for n in names]
    return estimate_ranges(
        [metric_label(n) for n in names], [e.p10 for e in est], [e.p50 for e in est], [e.p90 for e in est],
        [unit_text(e.unit) for e in est], targets=[_target_value(scenario, n) for n in names],
    )


def curve_figure(result: SizingResult, scenario: Scenario, points: Sequence[tuple[int, Estimate]]) -> Figure:
    ordered = sorted(points, key=lambda p: p[0])
    return estimate_vs_hosts(
        [h for h, _ in ordered], [e.p10 for _, e in ordered], [e.p50 for _, e in ordered],
        [e.p90 for _, e in ordered], metric_label=metric_label(result.main_metric), unit=unit_text(ordered[0][1].unit),
        current_hosts=result.design.worker_hosts, target=_target_value(scenario, result.main_metric),
    )


def growth_figure(years: Sequence[GrowthYear], currency: str) -> Figure:
    return growth_chart([y.year for y in years], [y.hosts for y in years], [y.capex_total for y in years],
                        [y.capex_expansion for y in years], currency)


def comparison_figure(results: Sequence[SizingResult], names: Sequence[str],
                      winners: Mapping[str, int | None] | None = None) -> Figure:
    """Bars per metric; `winners` (row metric -> position in `results`) when the verdict was reached over more
    options than this chart draws, so the green bar is the table's ✓."""
    currency = results[0].totals.currency
    if winners is None:
        winners = {row.metric: row.winner for row in compare(list(results))}
    series = [
        ComparisonSeries(f"Capex ({currency})", [r.totals.capex for r in results], True, winner=winners["capex"]),
        ComparisonSeries("Power (W)", [r.totals.power_w for r in results], True, winner=winners["power"]),
        ComparisonSeries("Rack space (U)", [float(r.totals.rack_u) for r in results], True,
                         winner=winners["rack space"]),
    ]
    metrics: list[str] = []
    for r in results:
        if r.main_metric not in metrics:
            metrics.append(r.main_metric)
    for m in metrics:
        ests = [r.estimates.get(m) for r in results]
        unit = next((e.unit for e in ests if e is not None), "")
        k = 100.0 if is_fraction(unit) else 1.0  # a share is drawn and labelled in percent
        label = f"{metric_label(m)} (%)" if k != 1.0 else f"{metric_label(m)} ({unit_text(unit)})"
        series.append(ComparisonSeries(
            label, [e.p50 * k if e else None for e in ests], lower_is_better(m),
            low=[e.p10 * k if e else None for e in ests], high=[e.p90 * k if e else None for e in ests],
            winner=winners.get(m),
        ))
    return scenario_comparison(list(names), series, columns=2, size_in=None)

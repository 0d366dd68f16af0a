"""Compare tables print every figure on one line (issue 29, item 5): five options of large money figures and small
rates, with their P10-P90 ranges and deltas, fit their columns; where even the smallest font would wrap a figure,
its k / M form (or two significant digits) is printed instead."""

from __future__ import annotations

from collections.abc import Iterator

from reportlab.platypus import Paragraph

from app.export.fonts import report_fonts
from app.export.pdf_blocks import Ctx, Numbering
from app.export.pdf_compare import _table
from app.export.pdf_styles import make_styles
from app.views.compare import CompareRow

TCO = (26_203_602.0, 42_479_280.0, 698_666.0, 127_867_973.0, 208_470_290.0)
RATE = (0.000231, 0.000142, 0.00282, 0.0000469, 0.0000288)


def _row(key: str, currency: str, values: tuple[float, ...], spread: float) -> CompareRow:
    return CompareRow(key, key, None, currency, key, currency or "", values, 0, True,
                      low=tuple(v * (1 - spread) for v in values), high=tuple(v * (1 + spread) for v in values))


def _paragraphs(cell: object) -> Iterator[Paragraph]:
    for item in cell if isinstance(cell, list | tuple) else [cell]:
        if isinstance(item, Paragraph):
            yield item


def test_five_options_of_large_money_and_small_rates_print_each_figure_on_one_line() -> None:
    ctx = Ctx(make_styles(report_fonts()), Numbering())
    rows = [_row("tco", "USD", TCO, 0.21), _row("scans per 1,000 USD TCO", "", RATE, 0.127)]
    table = _table(ctx, rows, list(range(5)), list(range(5)))
    table.wrap(ctx.width, 10_000)
    figures = [p for row in table._cellvalues[1:] for cell in row[1:] for p in _paragraphs(cell)]
    assert len(figures) == 2 * (5 * 2 + 4)  # per row: each option's value and range, a delta for all but the first
    wrapped = [p.text for p in figures if len(p.blPara.lines) != 1]
    assert not wrapped, wrapped
    texts = " ".join(p.text for p in figures)
    assert "M" in texts  # the largest ranges no longer fit whole: their M form

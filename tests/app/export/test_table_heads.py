"""No table of a report breaks a word of its header across lines (the BOM's 'Hosts' read 'Host / s'): every
header word fits its column, in every sample's report and in a comparison of all of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Table

from app.export import render_report
from models.scenario import Scenario
from models.sizing.result import SizingResult
from tests.app.export.conftest import SCENARIO_FILES

Sized = Callable[[str], tuple[Scenario, SizingResult]]
PADDING_PT = 8  # grid_table_style: 4 pt left and right


def _heads_laid_out(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[Any], list[float]]]:
    """The header row and column widths of every table the report lays out."""
    seen: list[tuple[list[Any], list[float]]] = []
    wrap = Table.wrap

    def recorded(self: Table, avail_width: float, avail_height: float) -> tuple[float, float]:
        size = wrap(self, avail_width, avail_height)
        if self._cellvalues:
            seen.append((list(self._cellvalues[0]), list(self._colWidths)))
        return size

    monkeypatch.setattr(Table, "wrap", recorded)
    return seen


def _broken_words(seen: list[tuple[list[Any], list[float]]]) -> set[str]:
    broken = set()
    for head, widths in seen:
        for cell, width in zip(head, widths, strict=False):
            if not isinstance(width, int | float):
                continue
            for para in cell if isinstance(cell, list | tuple) else [cell]:  # reportlab keeps a cell as a tuple
                if not isinstance(para, Paragraph):
                    continue
                for word in para.getPlainText().split():
                    if stringWidth(word, para.style.fontName, para.style.fontSize) > width - PADDING_PT:
                        broken.add(f"{word!r} in {width:.0f} pt")
    return broken


@pytest.mark.parametrize("names", [[p.name] for p in SCENARIO_FILES] + [[p.name for p in SCENARIO_FILES]],
                         ids=[p.stem for p in SCENARIO_FILES] + ["comparison"])
def test_every_header_word_fits_its_column(tmp_path: Path, sized: Sized, monkeypatch: pytest.MonkeyPatch,
                                           names: list[str]) -> None:
    pairs = [sized(n) for n in names]
    seen = _heads_laid_out(monkeypatch)
    render_report([r for _, r in pairs], [s for s, _ in pairs], tmp_path / "r.pdf")
    assert seen, "no table laid out"
    assert not _broken_words(seen)

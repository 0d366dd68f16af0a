"""Chart images in the PDF: each compressed once, and identical charts stored once however often they appear."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pypdf import PdfReader

from app.export import render_report
from models.scenario import Scenario
from models.sizing.result import SizingResult

Sized = Callable[[str], tuple[Scenario, SizingResult]]


def _images(path: Path) -> tuple[int, int]:
    """(placements, distinct image objects) over the pages."""
    placed, distinct = 0, set()
    for page in PdfReader(str(path)).pages:
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        for ref in (xobjects.get_object().values() if xobjects is not None else []):
            if ref.get_object().get("/Subtype") == "/Image":
                placed += 1
                distinct.add(ref.idnum)
    return placed, len(distinct)


def test_identical_charts_are_stored_once(tmp_path: Path, sized: Sized) -> None:
    s, r = sized("retail-dw-gen5.json")
    render_report([r], [s], tmp_path / "one.pdf")
    render_report([r, r], [s, s], tmp_path / "two.pdf")
    one_placed, one_distinct = _images(tmp_path / "one.pdf")
    two_placed, two_distinct = _images(tmp_path / "two.pdf")
    assert one_placed == one_distinct >= 2  # the cost and estimate charts at least
    assert two_placed == 2 * one_placed + 1  # each option's charts, and the comparison chart
    assert two_distinct == one_distinct + 1  # the second option's charts are the first's objects

"""The table of contents, laid out in one pass: its page numbers, the outline and the links agree with the pages
the headings are on, and a wrong guess of the entries costs a pass, never a wrong number."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from app.export import render_report
from app.export.pdf_doc import ReportDoc
from app.export.pdf_toc import OnePassToc
from models.scenario import Scenario
from models.sizing.result import SizingResult

Sized = Callable[[str], tuple[Scenario, SizingResult]]
NAMES = ("retail-dw-gen5.json", "gp-oltp.json", "sap-iq.json")
TOC_LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s+(.*?)[\s.]*\.\s*(\d+)\s*$")


@pytest.fixture()
def passes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times each report was laid out."""
    counts: list[int] = []
    build = ReportDoc.multiBuild

    def counted(self: ReportDoc, *args: Any, **kwargs: Any) -> int:
        n: int = build(self, *args, **kwargs)
        counts.append(n)
        return n

    monkeypatch.setattr(ReportDoc, "multiBuild", counted)
    yield counts


def _render(tmp_path: Path, sized: Sized, name: str = "r.pdf") -> Path:
    pairs = [sized(n) for n in NAMES]
    out = tmp_path / name
    render_report([r for _, r in pairs], [s for s, _ in pairs], out, report_date=date(2026, 3, 14))
    return out


def _toc(reader: PdfReader) -> dict[str, int]:
    """Number -> page of each TOC line ("2.4  Bill of materials . . . 9"), from the layout text of the TOC pages."""
    entries: dict[str, int] = {}
    for page in reader.pages[1:]:
        text = page.extract_text(extraction_mode="layout") or ""
        if "Contents" not in text and entries:
            break
        for line in text.splitlines():
            m = TOC_LINE.match(line)
            if m:
                entries[m.group(1)] = int(m.group(3))
    return entries


def _outline(reader: PdfReader) -> dict[str, int]:
    """Number -> page (1-based) of each outline entry down to the second level."""
    found: dict[str, int] = {}

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found[item.title.split()[0]] = reader.get_destination_page_number(item) + 1

    walk(reader.outline)
    return found


def test_toc_numbers_outline_and_links_name_the_page_each_heading_is_on(
        tmp_path: Path, sized: Sized, passes: list[int]) -> None:
    out = _render(tmp_path, sized)
    assert passes == [1]  # laid out once: the entries were known before layout
    reader = PdfReader(str(out))
    toc, outline = _toc(reader), _outline(reader)
    assert len(toc) >= 3 * 8 + 3  # every option's chapter and sections, the comparison and the back matter
    for number, page in toc.items():
        assert outline[number] == page, number
        heading = " ".join((reader.pages[page - 1].extract_text() or "").split())
        assert f"{number} " in heading, (number, page)
    links = [reader.get_page_number(a.get_object()["/Dest"][0].get_object()) + 1
             for a in reader.pages[1].get("/Annots", [])]
    assert links and set(links) <= set(toc.values())
    assert outline["1"] > 1  # the cover is page 1: a destination taken before the page existed pointed there


def test_a_wrong_guess_of_the_entries_costs_a_pass_not_a_wrong_number(
        tmp_path: Path, sized: Sized, passes: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    right = _render(tmp_path, sized, "right.pdf")
    monkeypatch.setattr(OnePassToc, "expect", lambda self, story: None)  # no entries known before layout
    guessed = _render(tmp_path, sized, "guessed.pdf")
    assert passes[0] == 1 and passes[1] > 1
    a, b = PdfReader(str(right)), PdfReader(str(guessed))
    assert [p.extract_text() for p in a.pages] == [p.extract_text() for p in b.pages]
    assert _outline(a) == _outline(b)

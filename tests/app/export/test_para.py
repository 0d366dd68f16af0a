"""`pdf_doc.Para`: lines broken again only at a new width, always the lines a plain Paragraph would break."""

from __future__ import annotations

from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, Table

from app.export.pdf_doc import Para

TEXT = "Segment hosts hold the primary and mirror segments; " * 6


def _lines(p: Paragraph) -> list[object]:
    """Each line's words as text and font (a line of several fragments holds fragment objects)."""
    if p.blPara.kind == 0:
        return list(p.blPara.lines)
    return [[(w.text, w.fontName) for w in line.words] for line in p.blPara.lines]


def test_same_width_keeps_the_lines_a_new_width_breaks_them_as_a_paragraph_does() -> None:
    style = getSampleStyleSheet()["BodyText"]
    p = Para(TEXT, style)
    first = p.wrap(200, 1000)
    broken = p.blPara
    assert p.wrap(200, 50) == first and p.blPara is broken  # the height available changes nothing
    for width in (120.0, 200.0, 333.5):
        plain = Paragraph(TEXT, style)
        assert p.wrap(width, 1000) == plain.wrap(width, 1000)
        assert _lines(p) == _lines(plain)
    assert p.wrap(120, 1000)[1] > first[1]


def test_a_split_paragraph_wraps_again_and_draws() -> None:
    style = getSampleStyleSheet()["BodyText"]
    p = Para(TEXT, style)
    _, height = p.wrap(150, 1000)
    parts = p.split(150, height / 2)
    assert len(parts) == 2 and all(isinstance(q, Para) for q in parts)
    plain_parts = Paragraph(TEXT, style).split(150, height / 2)
    for q, plain in zip(parts, plain_parts, strict=True):
        assert q.wrap(150, 1000) == plain.wrap(150, 1000)
    assert p.wrap(150, 1000) == (150, height)  # the original, its lines dropped by the split, breaks them again


def test_table_cells_are_measured_once_per_width() -> None:
    style = getSampleStyleSheet()["BodyText"]
    cells = [[Para(TEXT, style), Para("short", style)]]
    t = Table(cells, colWidths=[180, 80])
    t.wrap(260, 1000)
    broken = cells[0][0].blPara
    t.wrap(260, 1000)
    assert cells[0][0].blPara is broken


def test_markup_is_parsed_once_per_text_and_style() -> None:
    sheet = getSampleStyleSheet()
    body, small = sheet["BodyText"], sheet["Code"]
    text = "Capex <b>1,234</b> &amp; more"
    a, b, c = Para(text, body), Para(text, body), Para(text, small)
    assert a.frags is b.frags and c.frags is not a.frags  # a style of its own: parsed with its font
    plain = Paragraph(text, body)
    assert a.text == plain.text and a.style is plain.style and a.bulletText is None
    assert [(f.text, f.fontName, f.fontSize) for f in b.frags] == [(f.text, f.fontName, f.fontSize)
                                                                   for f in plain.frags]
    assert [f.fontName for f in c.frags] != [f.fontName for f in a.frags]
    for p in (a, b):  # sharing fragments changes nothing in either's lines
        assert p.wrap(60, 1000) == plain.wrap(60, 1000) and _lines(p) == _lines(plain)


def test_a_bullet_in_the_markup_is_not_shared() -> None:
    style = getSampleStyleSheet()["BodyText"]
    text = "<bullet>&bull;</bullet>a point"
    a, b = Para(text, style), Para(text, style)
    assert a.bulletText is not None and b.bulletText is not None and a.frags is not b.frags


def test_paragraphs_of_one_text_share_the_lines_broken_at_a_width() -> None:
    style = getSampleStyleSheet()["BodyText"]
    a, b = Para(TEXT, style), Para(TEXT, style)
    assert a.wrap(200, 1000) == b.wrap(200, 1000)
    assert a.blPara is b.blPara  # broken once
    plain = Paragraph(TEXT, style)
    assert b.wrap(200, 1000) == plain.wrap(200, 1000) and _lines(b) == _lines(plain)
    assert b.wrap(150, 1000) == plain.wrap(150, 1000) and _lines(b) == _lines(plain)  # another width: broken anew
    assert a.blPara is not b.blPara  # a keeps its lines at 200

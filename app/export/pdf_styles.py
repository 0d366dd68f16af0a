"""Page geometry, palette, paragraph and table styles of the PDF report.

The palette is the charts' (`app.charts.palette`), so figures and tables read as one document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import TableStyle

from app.export.fonts import ReportFonts

# in points (reportlab's A4 and mm are plain floats; annotated because reportlab ships no stubs)
PAGE: tuple[float, float] = A4
MARGIN_X: float = 18 * mm
MARGIN_TOP: float = 22 * mm
MARGIN_BOTTOM: float = 20 * mm
FRAME_W = PAGE[0] - 2 * MARGIN_X
FRAME_H = PAGE[1] - MARGIN_TOP - MARGIN_BOTTOM

# A TableStyle command: (name, (first col, row), (last col, row), *values), e.g. ("BACKGROUND", (0, 0), (-1, 0),
# colour); the values' types depend on the name, as reportlab documents them
TableCommand: TypeAlias = tuple[Any, ...]

INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#616e7c")
RULE = colors.HexColor("#cbd2d9")
ACCENT = colors.HexColor("#1f6feb")
ACCENT_DARK = colors.HexColor("#0b3d91")
HEAD_FILL = colors.HexColor("#1f2933")
ZEBRA = colors.HexColor("#f5f7fa")
SUB_FILL = colors.HexColor("#e4e7eb")
TOTAL_FILL = colors.HexColor("#d0e2ff")
GOOD = colors.HexColor("#2f9e44")
GOOD_FILL = colors.HexColor("#e6f4ea")
WARN = colors.HexColor("#d9480f")
WARN_FILL = colors.HexColor("#fff4e6")
BAD = colors.HexColor("#c92a2a")

# drawing palette for the host diagram
SOCKET_FILL = colors.HexColor("#f1f3f5")
NUMA_FILL = colors.HexColor("#ffffff")
VM_FILL = colors.HexColor("#dbe8fd")
VM_EDGE = colors.HexColor("#1f6feb")
HOSTOS_FILL = colors.HexColor("#e6f4ea")
HOSTOS_EDGE = colors.HexColor("#2f9e44")
DRIVE_FILL = colors.HexColor("#f08c00")


@dataclass(frozen=True)
class Styles:
    fonts: ReportFonts
    title: ParagraphStyle
    subtitle: ParagraphStyle
    cover_label: ParagraphStyle
    cover_value: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    body: ParagraphStyle
    lead: ParagraphStyle
    small: ParagraphStyle
    muted: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    cell_num: ParagraphStyle
    cell_num_bold: ParagraphStyle
    cell_head: ParagraphStyle
    cell_head_num: ParagraphStyle
    cell_small: ParagraphStyle
    kpi_value: ParagraphStyle
    kpi_label: ParagraphStyle
    toc1: ParagraphStyle
    toc2: ParagraphStyle
    warning: ParagraphStyle
    caption: ParagraphStyle


def make_styles(fonts: ReportFonts) -> Styles:
    r, b = fonts.regular, fonts.bold

    def ps(name: str, font: str = r, size: float = 9.5, leading: float | None = None, **kw: Any) -> ParagraphStyle:
        return ParagraphStyle(name, fontName=font, fontSize=size, leading=leading or size * 1.35,
                              textColor=kw.pop("textColor", INK), **kw)

    return Styles(
        fonts=fonts,
        title=ps("title", b, 26, 31, spaceAfter=6, textColor=INK),
        subtitle=ps("subtitle", r, 13, 17, textColor=MUTED, spaceAfter=4),
        cover_label=ps("cover_label", r, 8.5, 11, textColor=MUTED),
        cover_value=ps("cover_value", b, 11.5, 15),
        h1=ps("h1", b, 17, 21, spaceBefore=14, spaceAfter=8, textColor=ACCENT_DARK, keepWithNext=1),
        h2=ps("h2", b, 12.5, 16, spaceBefore=12, spaceAfter=5, keepWithNext=1),
        h3=ps("h3", b, 10, 13, spaceBefore=8, spaceAfter=3, keepWithNext=1),
        body=ps("body", r, 9.5, 13.5, spaceAfter=5),
        lead=ps("lead", r, 10.5, 15, spaceAfter=8),
        small=ps("small", r, 8, 10.5, spaceAfter=3),
        muted=ps("muted", r, 8, 10.5, textColor=MUTED, spaceAfter=3),
        cell=ps("cell", r, 8, 10),
        cell_bold=ps("cell_bold", b, 8, 10),
        cell_num=ps("cell_num", r, 8, 10, alignment=TA_RIGHT),
        cell_num_bold=ps("cell_num_bold", b, 8, 10, alignment=TA_RIGHT),
        cell_head=ps("cell_head", b, 7.5, 9.5, textColor=colors.white),
        cell_head_num=ps("cell_head_num", b, 7.5, 9.5, textColor=colors.white, alignment=TA_RIGHT),
        cell_small=ps("cell_small", r, 6.8, 8.5, textColor=MUTED),
        kpi_value=ps("kpi_value", b, 14, 17, alignment=TA_LEFT),
        kpi_label=ps("kpi_label", r, 7.5, 9.5, textColor=MUTED),
        toc1=ps("toc1", b, 10, 14, leftIndent=0, spaceBefore=4),
        toc2=ps("toc2", r, 9, 12, leftIndent=14),
        warning=ps("warning", r, 8.8, 12),
        caption=ps("caption", r, 7.5, 10, textColor=MUTED, alignment=TA_CENTER),
    )


def grid_table_style(head_rows: int = 1, zebra: bool = True, rows: int = 0) -> TableStyle:
    """Header row dark, thin rules between rows, optional zebra striping."""
    cmds: list[TableCommand] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("LINEBELOW", (0, head_rows), (-1, -1), 0.25, RULE),
    ]
    if head_rows:
        cmds += [("BACKGROUND", (0, 0), (-1, head_rows - 1), HEAD_FILL), ("VALIGN", (0, 0), (-1, head_rows - 1),
                                                                         "BOTTOM")]
    if zebra:
        for i in range(head_rows, rows):
            if (i - head_rows) % 2 == 1:
                cmds.append(("BACKGROUND", (0, i), (-1, i), ZEBRA))
    return TableStyle(cmds)


def facts_table_style() -> TableStyle:
    """Two-column label/value tables: no header, hairlines."""
    return TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
    ])

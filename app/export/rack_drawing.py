"""Rack elevations: each rack drawn U by U with its servers, switches and PDUs, and its peak kW vs budget.

Everything drawn comes from `RackLayout` (models.sizing.infrastructure placed it); nothing is recomputed.
Racks are drawn side by side, `per_row` to a drawing, so a 12-rack design becomes two rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.graphics.shapes import Drawing, Rect, String
from reportlab.lib import colors

from app.export.fonts import ReportFonts, fit_text, string_width
from app.export.pdf_styles import INK, MUTED, RULE
from app.formatting import label_forms, rack_power
from models.sizing.result import RackLayout

FILLS = {"server": colors.HexColor("#D0E2FF"), "switch": colors.HexColor("#C6F0D8"),
         "pdu": colors.HexColor("#FFE8C2")}
EDGES = {"server": colors.HexColor("#4A6FA5"), "switch": colors.HexColor("#3C8D5A"),
         "pdu": colors.HexColor("#B7791F")}
OVER = colors.HexColor("#C0392B")
U_PT = 6.4  # height of one U
HEAD = 26.0
FOOT = 12.0


LABEL_PT = 5.6  # a slot's label size, shrunk to MIN_LABEL_PT before a word is dropped
MIN_LABEL_PT = 4.4
LINE = 1.12  # line height of a two-line label, in font sizes


def slot_label(role: str, label: str, width: float, height: float, fonts: ReportFonts) -> tuple[list[str], float]:
    """The lines and font size that show a rack slot's role and part within `width` x `height` points: one line,
    shrunk if need be; the role above the part when the slot is tall enough; then the part's label in fewer words;
    an ellipsis only when not even the part number fits."""
    top = min(LABEL_PT, height)
    sizes = [sz for sz in (top, 5.0, 4.7, MIN_LABEL_PT) if sz <= top] or [top]

    def fits(text: str, sz: float) -> bool:
        return string_width(text, fonts.regular, sz, fonts) <= width

    for part in label_forms(label):
        for sz in sizes:
            one = f"{role}: {part}" if role else part
            if fits(one, sz):
                return [one], sz
            if role and 2 * sz * LINE <= height and fits(role, sz) and fits(part, sz):
                return [role, part], sz
    sz = sizes[-1]
    return [fit_text(f"{role}: {label}" if role else label, fonts.regular, sz, width, fonts)], sz


def rack_drawings(racks: Sequence[RackLayout], width: float, fonts: ReportFonts, per_row: int = 4) -> list[Drawing]:
    return [rack_row(racks[i:i + per_row], width, fonts, per_row) for i in range(0, len(racks), per_row)]


def rack_row(racks: Sequence[RackLayout], width: float, fonts: ReportFonts, per_row: int) -> Drawing:
    u_max = max(r.u_total for r in racks)
    height = HEAD + u_max * U_PT + FOOT
    d = Drawing(width, height)
    gap = 10.0
    col_w = (width - gap * (per_row - 1)) / per_row
    label_w = 12.0
    for n, rack in enumerate(racks):
        x0 = n * (col_w + gap)
        body_x, body_w = x0 + label_w, col_w - label_w
        top = height - HEAD
        over = rack.peak_kw > rack.budget_kw
        d.add(String(x0, height - 9, fit_text(f"{rack.name} · {rack.u_used}/{rack.u_total} U", fonts.bold, 7.5,
                                              col_w, fonts), fontName=fonts.bold, fontSize=7.5, fillColor=INK))
        kw = rack_power(rack.peak_kw, rack.budget_kw)
        if rack.zero_u_pdus:
            kw += f" · {rack.zero_u_pdus} 0U PDUs"
        d.add(String(x0, height - 19, fit_text(kw, fonts.regular, 6.4, col_w, fonts), fontName=fonts.regular,
                     fontSize=6.4, fillColor=OVER if over else MUTED))
        d.add(Rect(body_x, top - rack.u_total * U_PT, body_w, rack.u_total * U_PT, fillColor=colors.white,
                   strokeColor=OVER if over else RULE, strokeWidth=1.2 if over else 0.8))
        for u in range(1, rack.u_total + 1, 5):  # U numbers every 5 U, counted from the bottom
            y = top - (rack.u_total - u + 1) * U_PT
            d.add(String(x0, y + 1.2, str(u), fontName=fonts.regular, fontSize=4.8, fillColor=MUTED))
        for slot in rack.slots:
            y = top - (rack.u_total - slot.u_bottom + 1 - (slot.u_height - 1)) * U_PT
            h = slot.u_height * U_PT
            d.add(Rect(body_x + 1, y + 0.4, body_w - 2, h - 0.8, fillColor=FILLS.get(slot.kind, colors.white),
                       strokeColor=EDGES.get(slot.kind, RULE), strokeWidth=0.4))
            lines, size = slot_label(slot.role if slot.kind != "pdu" else "", slot.label, body_w - 6, h - 1.6, fonts)
            step = size * LINE
            base = y + (h - step * len(lines)) / 2 + (step - size) / 2 + 0.6 + step * (len(lines) - 1)
            for i, line in enumerate(lines):
                d.add(String(body_x + 3, base - i * step, line, fontName=fonts.regular, fontSize=size, fillColor=INK))
    d.add(String(0, 2, "Servers blue, switches green, PDUs orange; U counted from the bottom; peak kW is the sum "
                       "of server max draw, drives, NICs and switches.", fontName=fonts.regular, fontSize=6,
                 fillColor=MUTED))
    return d

"""Rack elevations in the GUI: the racks `models.sizing.infrastructure` laid out, U by U, with kW per rack.

Drawn from `RackLayout` only (the PDF draws the same objects in `app.export.rack_drawing`).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from app.formatting import label_forms, rack_power
from models.sizing.result import RackLayout

FILLS = {"server": QColor("#D0E2FF"), "switch": QColor("#C6F0D8"), "pdu": QColor("#FFE8C2")}
EDGES = {"server": QColor("#4A6FA5"), "switch": QColor("#3C8D5A"), "pdu": QColor("#B7791F")}
OVER = QColor("#C0392B")
U_PX = 11
COL_W = 190
GAP = 16
HEAD = 36


class RackElevation(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rackElevation")
        self.racks: tuple[RackLayout, ...] = ()

    def set_racks(self, racks: Sequence[RackLayout]) -> None:
        self.racks = tuple(racks)
        self.setMinimumSize(self.sizeHint())
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        if not self.racks:
            return QSize(300, 60)
        u = max(r.u_total for r in self.racks)
        return QSize(len(self.racks) * (COL_W + GAP) + 30, HEAD + u * U_PX + 20)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("white"))
        if not self.racks:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No racks laid out for this design")
            return
        small = QFont(self.font())
        small.setPointSizeF(7.5)
        bold = QFont(self.font())
        bold.setBold(True)
        for n, rack in enumerate(self.racks):
            x = 24 + n * (COL_W + GAP)
            over = rack.peak_kw > rack.budget_kw
            p.setFont(bold)
            p.setPen(QColor("#1f2933"))
            p.drawText(x, 14, f"{rack.name} · {rack.u_used}/{rack.u_total} U")
            p.setFont(small)
            p.setPen(OVER if over else QColor("#616e7c"))
            extra = f" · {rack.zero_u_pdus} 0U PDUs" if rack.zero_u_pdus else ""
            p.drawText(x, 28, rack_power(rack.peak_kw, rack.budget_kw) + extra)
            top = HEAD
            p.setPen(QPen(OVER if over else QColor("#cbd2d9"), 1.5))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(x, top, COL_W, rack.u_total * U_PX))
            for slot in rack.slots:
                y = top + (rack.u_total - (slot.u_bottom + slot.u_height - 1)) * U_PX
                box = QRectF(x + 2, y + 1, COL_W - 4, slot.u_height * U_PX - 2)
                p.setPen(QPen(EDGES.get(slot.kind, QColor("gray")), 1))
                p.setBrush(FILLS.get(slot.kind, QColor("white")))
                p.drawRect(box)
                p.setPen(QColor("#1f2933"))
                room = int(box.width()) - 6
                # whole words that keep the model number (as the PDF's elevation), an ellipsis only as a last resort
                forms = [f"{slot.role}: {f}" if slot.kind != "pdu" else f for f in label_forms(slot.label)]
                text = next((t for t in forms if p.fontMetrics().horizontalAdvance(t) <= room), forms[-1])
                p.drawText(box.adjusted(4, 0, -2, 0), Qt.AlignmentFlag.AlignVCenter,
                           p.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room))
            p.setPen(QColor("#9aa5b1"))
            for u in range(1, rack.u_total + 1, 5):
                p.drawText(x - 20, int(top + (rack.u_total - u + 1) * U_PX) - 1, str(u))
        p.end()

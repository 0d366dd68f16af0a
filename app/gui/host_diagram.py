"""A drawing of one host per role: sockets, their NUMA nodes, and what runs on each.

vSphere designs pin one or more VMs to each NUMA node (the studies' placement
rule), so the drawing shows each VM inside its node with its vCPU, memory,
segments or databases and data drives. Bare-metal hosts run the segments on the
host itself, drawn as a strip of primary and mirror segments under the sockets.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.formatting import number
from models.release_words import role_label
from models.sizing.result import HostLayout, VmLayout

CARD_BG = QColor("#f8fafc")
CARD_BORDER = QColor("#cbd2d9")
SOCKET_BG = QColor("#eef2f7")
NUMA_BORDER = QColor("#9aa5b1")
VM_FILL = QColor("#dbe8fd")
VM_BORDER = QColor("#1f6feb")
PRIMARY = QColor("#1f6feb")
MIRROR = QColor("#9ec5fe")
DRIVE = QColor("#7b8794")
INK = QColor("#1f2933")
MUTED = QColor("#616e7c")

HEADER_H = 44
SOCKET_TITLE_H = 22
NUMA_TITLE_H = 20
VM_H = 70
VM_GAP = 6
STRIP_H = 62
PAD = 10
LEGEND_H = 26
CORES_H = 18
CORE = QColor("#c3cfe2")


def _font(base: QFont, delta: float = 0, bold: bool = False) -> QFont:
    f = QFont(base)
    f.setPointSizeF(max(6.5, base.pointSizeF() + delta))
    f.setBold(bold)
    return f


class HostDiagram(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("hostDiagram")
        self.hosts: tuple[HostLayout, ...] = ()
        self.deployment = "bare-metal"
        self.describe: Callable[[str], str] = lambda part_id: part_id
        self.message = "No design yet"
        self.version: str | None = None  # the Greenplum release: its word for the coordinator host on the cards
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumHeight(120)

    def set_hosts(
        self,
        hosts: tuple[HostLayout, ...],
        deployment: str,
        describe: Callable[[str], str] | None = None,
        message: str = "",
        version: str | None = None,
    ) -> None:
        self.hosts = hosts
        self.deployment = deployment
        self.version = version
        if describe is not None:
            self.describe = describe
        self.message = message or ("" if hosts else "The engine returned no host layout")
        self.updateGeometry()
        self.update()

    # -- geometry -------------------------------------------------------------------------------------------
    def _vms_by_node(self, host: HostLayout) -> tuple[dict[int, list[VmLayout]], list[VmLayout]]:
        pinned: dict[int, list[VmLayout]] = {}
        whole: list[VmLayout] = []
        for vm in host.vms:
            # bare metal: the OS owns the whole host, even where the layout fits one NUMA node (a SAP IQ node)
            if vm.numa_node is None or self.deployment == "bare-metal":
                whole.append(vm)
            else:
                pinned.setdefault(vm.numa_node, []).append(vm)
        return pinned, whole

    def _card_height(self, host: HostLayout) -> int:
        pinned, whole = self._vms_by_node(host)
        per_node = max((len(v) for v in pinned.values()), default=0)
        if per_node:
            body = SOCKET_TITLE_H + NUMA_TITLE_H + per_node * (VM_H + VM_GAP) + PAD
        else:  # nothing pinned: the nodes only show their cores
            body = SOCKET_TITLE_H + NUMA_TITLE_H + CORES_H + PAD
        strip = STRIP_H if (whole or not pinned) else 0
        return HEADER_H + body + strip + PAD * 2

    def sizeHint(self) -> QSize:
        if not self.hosts:
            return QSize(600, 140)
        return QSize(700, sum(self._card_height(h) + PAD for h in self.hosts) + LEGEND_H)

    def minimumSizeHint(self) -> QSize:
        return QSize(420, 120)

    def heightForWidth(self, _w: int) -> int:
        return self.sizeHint().height()

    # -- painting -------------------------------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), Qt.GlobalColor.white)
        if not self.hosts:
            p.setPen(MUTED)
            p.setFont(_font(self.font(), 1))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.message or "No design yet")
            p.end()
            return
        y = 0.0
        width = float(self.width())
        for host in self.hosts:
            h = self._card_height(host)
            self._draw_card(p, QRectF(1, y + 1, width - 2, h), host)
            y += h + PAD
        self._draw_legend(p, QRectF(PAD, y, width - 2 * PAD, LEGEND_H))
        p.end()

    def _text(self, p: QPainter, rect: QRectF, text: str, font: QFont, color: QColor,
              align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter) -> None:
        p.setFont(font)
        p.setPen(color)
        elided = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, int(rect.width()))
        p.drawText(rect, int(align), elided)

    def _draw_card(self, p: QPainter, rect: QRectF, host: HostLayout) -> None:
        p.setPen(QPen(CARD_BORDER, 1))
        p.setBrush(CARD_BG)
        p.drawRoundedRect(rect, 6, 6)
        base = self.font()
        title = f"{host.count} × {role_label(host.role, self.version)}"
        self._text(p, QRectF(rect.left() + PAD, rect.top() + 4, rect.width() * 0.45, 20), title, _font(base, 1.5, True),
                   INK)
        self._text(p, QRectF(rect.left() + PAD, rect.top() + 22, rect.width() - 2 * PAD, 18),
                   self.describe(host.server_id), _font(base, -0.5), MUTED)
        nic = f"{host.nic_ports} × {number(host.nic_speed_gbps)} GbE" if host.nic_ports else "no add-in NIC"
        drives = (f"{host.data_drives} × {self.describe(host.drive_id)}" if host.drive_id and host.data_drives
                  else "no data drives")
        raid = "" if host.raid in ("", "none") else f" ({host.raid.upper()})"
        facts = f"{number(host.memory_gib)} GiB RAM · {drives}{raid} · {nic}"
        self._text(p, QRectF(rect.left() + rect.width() * 0.35, rect.top() + 4, rect.width() * 0.65 - PAD, 20), facts,
                   _font(base, -0.5), INK, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

        pinned, whole = self._vms_by_node(host)
        body_top = rect.top() + HEADER_H
        strip_h = STRIP_H if (whole or not pinned) else 0
        body = QRectF(rect.left() + PAD, body_top, rect.width() - 2 * PAD, rect.height() - HEADER_H - PAD - strip_h)
        sockets = max(host.sockets, 1)
        gap = 8.0
        sw = (body.width() - gap * (sockets - 1)) / sockets
        for s in range(sockets):
            srect = QRectF(body.left() + s * (sw + gap), body.top(), sw, body.height())
            self._draw_socket(p, srect, s, host, pinned)
        if strip_h:
            strip = QRectF(rect.left() + PAD, rect.bottom() - PAD - strip_h + 4, rect.width() - 2 * PAD, strip_h - 4)
            self._draw_strip(p, strip, host, whole)

    def _draw_socket(
        self, p: QPainter, rect: QRectF, s: int, host: HostLayout, pinned: dict[int, list[VmLayout]]
    ) -> None:
        p.setPen(QPen(CARD_BORDER, 1))
        p.setBrush(SOCKET_BG)
        p.drawRoundedRect(rect, 4, 4)
        nodes = max(host.numa_nodes_per_socket, 1)
        cores = host.cores_per_numa_node * nodes
        self._text(p, QRectF(rect.left() + 8, rect.top() + 2, rect.width() - 16, SOCKET_TITLE_H - 2),
                   f"Socket {s} · {cores} cores", _font(self.font(), -0.5, True), INK)
        inner = rect.adjusted(6, SOCKET_TITLE_H, -6, -6)
        gap = 6.0
        nw = (inner.width() - gap * (nodes - 1)) / nodes
        for n in range(nodes):
            node = s * nodes + n
            nrect = QRectF(inner.left() + n * (nw + gap), inner.top(), nw, inner.height())
            pen = QPen(NUMA_BORDER, 1, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.GlobalColor.white)
            p.drawRoundedRect(nrect, 3, 3)
            self._text(p, QRectF(nrect.left() + 6, nrect.top() + 1, nrect.width() - 12, NUMA_TITLE_H - 2),
                       f"NUMA {node} · {host.cores_per_numa_node} cores", _font(self.font(), -1.5), MUTED)
            vms = pinned.get(node, [])
            for i, vm in enumerate(vms):
                vrect = QRectF(nrect.left() + 5, nrect.top() + NUMA_TITLE_H + i * (VM_H + VM_GAP), nrect.width() - 10,
                               VM_H)
                self._draw_vm(p, vrect, vm)
            if not vms and pinned:
                self._text(p, nrect.adjusted(6, NUMA_TITLE_H, -6, -4), "no VM", _font(self.font(), -1.5), MUTED,
                           Qt.AlignmentFlag.AlignCenter)
            elif not pinned:
                self._cores(p, QRectF(nrect.left() + 6, nrect.top() + NUMA_TITLE_H, nrect.width() - 12, CORES_H - 4),
                            host.cores_per_numa_node)

    def _cores(self, p: QPainter, rect: QRectF, cores: int) -> None:
        if cores <= 0:
            return
        step = min(9.0, rect.width() / cores)
        box = max(1.5, step - 2)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(CORE)
        for i in range(cores):
            p.drawRect(QRectF(rect.left() + i * step, rect.top() + (rect.height() - box) / 2, box, box))

    def _draw_vm(self, p: QPainter, rect: QRectF, vm: VmLayout) -> None:
        p.setPen(QPen(VM_BORDER, 1.2))
        p.setBrush(VM_FILL)
        p.drawRoundedRect(rect, 4, 4)
        small = _font(self.font(), -1.5)
        lines = [(f"VM · {vm.vcpus} vCPU", _font(self.font(), -1, True)), (f"{number(vm.memory_gib)} GiB RAM", small)]
        if vm.primary_segments or vm.mirror_segments:
            lines.append((f"{vm.primary_segments} primary + {vm.mirror_segments} mirror seg.", small))
        if vm.databases:
            lines.append((", ".join(vm.databases), small))
        if vm.data_drives:
            lines.append((f"{vm.data_drives} data drive{'s' if vm.data_drives != 1 else ''}", small))
        y = rect.top() + 3
        for text, font in lines[:4]:
            self._text(p, QRectF(rect.left() + 6, y, rect.width() - 10, 15), text, font, INK)
            y += 15.5
        if vm.primary_segments or vm.mirror_segments:
            self._segments(p, QPointF(rect.right() - 6, rect.bottom() - 8), vm.primary_segments, vm.mirror_segments,
                           size=5.0, max_width=rect.width() * 0.45, right_align=True)

    def _draw_strip(self, p: QPainter, rect: QRectF, host: HostLayout, whole: list[VmLayout]) -> None:
        primaries = sum(v.primary_segments for v in whole)
        mirrors = sum(v.mirror_segments for v in whole)
        dbs = [d for v in whole for d in v.databases]
        p.setPen(QPen(CARD_BORDER, 1))
        p.setBrush(Qt.GlobalColor.white)
        p.drawRoundedRect(rect, 4, 4)
        label = "On the host (bare metal)" if self.deployment == "bare-metal" else "Spanning the host"
        if whole and len(whole) == 1 and self.deployment != "bare-metal":
            v = whole[0]
            label = f"VM · {v.vcpus} vCPU · {number(v.memory_gib)} GiB"
        parts = []
        if primaries or mirrors:
            parts.append(f"{primaries} primary + {mirrors} mirror segments")
        if dbs:
            parts.append(", ".join(dbs))
        parts.append(f"{host.data_drives} data drives" if host.data_drives else "no data drives")
        self._text(p, QRectF(rect.left() + 8, rect.top() + 3, rect.width() - 16, 18),
                   f"{label}: " + " · ".join(parts), _font(self.font(), -0.5, True), INK)
        y = rect.top() + 26
        x_end = self._segments(p, QPointF(rect.left() + 10, y + 6), primaries, mirrors, size=11.0,
                               max_width=rect.width() * 0.6)
        self._drives(p, QPointF(max(x_end + 24, rect.left() + rect.width() * 0.62), y), host.data_drives,
                     rect.right() - 10)

    def _segments(self, p: QPainter, origin: QPointF, primaries: int, mirrors: int, size: float, max_width: float,
                  right_align: bool = False) -> float:
        total = primaries + mirrors
        if not total:
            return origin.x()
        step = min(size + 3, max_width / total) if total else size + 3
        box = max(2.0, step - 2)
        x0 = origin.x() - step * total if right_align else origin.x()
        p.setPen(Qt.PenStyle.NoPen)
        for i in range(total):
            p.setBrush(PRIMARY if i < primaries else MIRROR)
            p.drawRect(QRectF(x0 + i * step, origin.y() - box / 2, box, box))
        return x0 + total * step

    def _drives(self, p: QPainter, origin: QPointF, count: int, right: float) -> None:
        if count <= 0:
            return
        w, h = 9.0, 20.0
        step = min(w + 4, max(3.0, (right - origin.x()) / count))
        p.setPen(QPen(DRIVE.darker(120), 0.8))
        p.setBrush(DRIVE)
        for i in range(count):
            p.drawRoundedRect(QRectF(origin.x() + i * step, origin.y(), min(w, step - 1), h), 1.5, 1.5)

    def _draw_legend(self, p: QPainter, rect: QRectF) -> None:
        x = rect.left()
        y = rect.top() + 8
        font = _font(self.font(), -1.5)
        for color, label, border in (
            (PRIMARY, "primary segment", None),
            (MIRROR, "mirror segment", None),
            (VM_FILL, "VM pinned to a NUMA node", VM_BORDER),
            (DRIVE, "data drive", None),
        ):
            p.setPen(QPen(border, 1) if border else Qt.PenStyle.NoPen)
            p.setBrush(color)
            p.drawRect(QRectF(x, y, 10, 10))
            fm = QFontMetrics(font)
            self._text(p, QRectF(x + 14, y - 3, fm.horizontalAdvance(label) + 4, 16), label, font, MUTED)
            x += 14 + fm.horizontalAdvance(label) + 18

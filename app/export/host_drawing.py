"""One host of a role drawn as the engine laid it out: sockets, their NUMA nodes, the VMs
pinned to each node (vCPU, memory, segments, drives, databases), what spans the whole host
(bare-metal OS or an unpinned VM), the data drives and the network ports.

Everything drawn comes from `HostLayout`; nothing is recomputed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Drawing, Group, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from app.export.fonts import ReportFonts, fit_text, runs, string_width
from app.export.pdf_styles import (
    DRIVE_FILL,
    HOSTOS_EDGE,
    HOSTOS_FILL,
    INK,
    MUTED,
    NUMA_FILL,
    RULE,
    SOCKET_FILL,
    VM_EDGE,
    VM_FILL,
)
from app.formatting import gib
from models.sizing.result import HostLayout, VmLayout
from models.vocabulary import raid_label

PAD = 6.0
GAP = 5.0
LINE = 8.6  # leading of the 6.6 pt text inside VM boxes
TEXT = 6.6
LABEL = 7.2
MAX_VMS_PER_NODE = 8  # more are summarised as "+n more VMs" so the drawing stays one block
MAX_DRIVE_ICONS = 32


@dataclass(frozen=True)
class _Box:
    x: float
    y: float
    w: float
    h: float


def _text(g: Group, x: float, y: float, text: str, size: float, fonts: ReportFonts, *, bold: bool = False,
          color: colors.Color = INK, width: float | None = None, anchor: str = "start") -> None:
    """Add `text` at (x, y) with fallback-font runs, cut to `width` if given."""
    font = fonts.bold if bold else fonts.regular
    if width is not None:
        text = fit_text(text, font, size, width, fonts)
    parts = runs(text, font, fonts)
    if anchor == "end":
        x -= string_width(text, font, size, fonts)
    for name, seg in parts:
        g.add(String(x, y, seg, fontName=name, fontSize=size, fillColor=color))
        x += stringWidth(seg, name, size)


def vm_lines(vm: VmLayout, index: int, width: float, fonts: ReportFonts, unpinned_label: str = "") -> list[str]:
    """The lines inside a VM box, compact when the box is narrow."""
    compact = width < 95
    tight = width < 60  # e.g. 2 sockets x 4 NUMA nodes on a portrait page
    title = unpinned_label or f"VM {index}"
    if vm.databases:
        title += ": " + ", ".join(vm.databases)
    lines = [title]
    if compact:
        lines += [f"{vm.vcpus} vCPU", gib(vm.memory_gib)]
    else:
        lines.append(f"{vm.vcpus} vCPU · {gib(vm.memory_gib)}")
    if vm.primary_segments or vm.mirror_segments:
        if tight:
            lines.append(f"{vm.primary_segments}P + {vm.mirror_segments}M")
        elif compact:
            lines.append(f"{vm.primary_segments} P + {vm.mirror_segments} M seg.")
        else:
            lines.append(f"{vm.primary_segments} primary + {vm.mirror_segments} mirror segments")
    if vm.data_drives:
        s = "s" if vm.data_drives != 1 else ""
        lines.append(f"{vm.data_drives} drive{s}" if tight else f"{vm.data_drives} data drive{s}")
    return lines


def _vm_height(n_lines: int) -> float:
    return n_lines * LINE + 5


def _draw_vm(g: Group, box: _Box, lines: list[str], fonts: ReportFonts, *, fill: colors.Color,
             edge: colors.Color) -> None:
    g.add(Rect(box.x, box.y, box.w, box.h, rx=2, ry=2, fillColor=fill, strokeColor=edge, strokeWidth=0.7))
    y = box.y + box.h - LINE + 1
    for i, line in enumerate(lines):
        _text(g, box.x + 3.5, y, line, TEXT, fonts, bold=i == 0, width=box.w - 7)
        y -= LINE


@dataclass(frozen=True)
class _Grid:
    """Where the socket row goes: the sockets side by side, each holding its NUMA nodes side by side."""

    sockets: int
    sock_w: float
    sock_h: float
    nps: int  # NUMA nodes per socket
    node_w: float
    node_h: float
    top: float  # the socket row's top edge


def _placement(host: HostLayout, deployment: str) -> tuple[dict[int, list[tuple[int, VmLayout]]],
                                                             list[tuple[int, VmLayout]]]:
    """The VMs (numbered from 1) pinned to each NUMA node, and those spanning the host."""
    nodes_total = max(1, host.sockets * host.numa_nodes_per_socket)
    pinned: dict[int, list[tuple[int, VmLayout]]] = {n: [] for n in range(nodes_total)}
    spanning: list[tuple[int, VmLayout]] = []
    for i, vm in enumerate(host.vms, start=1):
        # bare metal: the OS owns the whole host, even where the layout fits one NUMA node (a 1-socket SAP IQ node)
        if deployment == "bare-metal" or vm.numa_node is None or not 0 <= vm.numa_node < nodes_total:
            spanning.append((i, vm))
        else:
            pinned[vm.numa_node].append((i, vm))
    return pinned, spanning


def _node_stacks(pinned: dict[int, list[tuple[int, VmLayout]]], node_w: float,
                 fonts: ReportFonts) -> dict[int, list[tuple[list[str], float]]]:
    """Each NUMA node's VM boxes (lines, height), top down; past MAX_VMS_PER_NODE a "+n more VMs" box."""
    node_stack: dict[int, list[tuple[list[str], float]]] = {}
    for n, vms in pinned.items():
        shown = vms if len(vms) <= MAX_VMS_PER_NODE else vms[: MAX_VMS_PER_NODE - 1]
        stack = [(ls, _vm_height(len(ls))) for ls in (vm_lines(vm, i, node_w - 6, fonts) for i, vm in shown)]
        if len(vms) > len(shown):
            stack.append(([f"+{len(vms) - len(shown)} more VMs"], _vm_height(1)))
        node_stack[n] = stack
    return node_stack


def _span_boxes(spanning: list[tuple[int, VmLayout]], bare: bool, nodes_total: int, inner_w: float,
                fonts: ReportFonts) -> list[tuple[list[str], float]]:
    """The boxes (lines, height) across the whole host: the bare-metal OS, or each unpinned VM."""
    span_boxes: list[tuple[list[str], float]] = []
    for i, vm in spanning:
        label = "Bare-metal OS (whole host)" if bare else f"VM {i} (not pinned: spans {nodes_total} NUMA nodes)"
        if bare and len(spanning) > 1:
            label = f"Bare-metal instance {i}"
        ls = vm_lines(vm, i, inner_w, fonts, unpinned_label=label)
        if bare:
            ls[1] = ls[1].replace(" vCPU", " cores")
        span_boxes.append((ls, _vm_height(len(ls))))
    return span_boxes


def _draw_sockets(g: Group, host: HostLayout, grid: _Grid, node_stack: dict[int, list[tuple[list[str], float]]],
                  any_spanning: bool, fonts: ReportFonts) -> None:
    """Each socket with its cores, and in it each NUMA node with the VMs pinned to it."""
    nps, node_w, node_h, top = grid.nps, grid.node_w, grid.node_h, grid.top
    for s in range(grid.sockets):
        sx = PAD + s * (grid.sock_w + GAP)
        sy = top - grid.sock_h
        g.add(Rect(sx, sy, grid.sock_w, grid.sock_h, rx=3, ry=3, fillColor=SOCKET_FILL, strokeColor=RULE,
                   strokeWidth=0.7))
        _text(g, sx + 4, top - 10, f"Socket {s}", LABEL, fonts, bold=True, width=grid.sock_w / 2)
        per_node = f" ({nps} × {host.cores_per_numa_node})" if nps > 1 else ""
        _text(g, sx + grid.sock_w - 4, top - 10, f"{host.cores_per_numa_node * nps} cores{per_node}", LABEL, fonts,
              color=MUTED, anchor="end")
        for k in range(nps):
            n = s * nps + k
            nx = sx + PAD + k * (node_w + GAP)
            ny = sy + PAD
            g.add(Rect(nx, ny, node_w, node_h, rx=2, ry=2, fillColor=NUMA_FILL, strokeColor=RULE, strokeWidth=0.6))
            numa = (f"NUMA node {n} · {host.cores_per_numa_node} cores" if node_w >= 95
                    else f"NUMA node {n}" if node_w >= 60 else f"NUMA {n}")
            _text(g, nx + 3, ny + node_h - 9.5, numa, TEXT, fonts, color=MUTED, width=node_w - 6)
            y = ny + node_h - 13
            for lines, h in node_stack[n]:
                y -= h
                _draw_vm(g, _Box(nx + 3, y, node_w - 6, h), lines, fonts, fill=VM_FILL, edge=VM_EDGE)
                y -= GAP
            if not node_stack[n] and not any_spanning:
                _text(g, nx + 3, ny + node_h - 22, "no VM pinned", TEXT, fonts, color=MUTED, width=node_w - 6)


def _draw_drives_and_network(g: Group, host: HostLayout, width: float, drive_name: str | None,
                             fonts: ReportFonts) -> None:
    """Along the bottom edge: a drive icon per data drive (up to MAX_DRIVE_ICONS), what they are, the ports."""
    by = PAD + 5
    icons = min(host.data_drives, MAX_DRIVE_ICONS)
    x = PAD
    for _ in range(icons):
        g.add(Rect(x, by, 4.2, 10, rx=0.8, ry=0.8, fillColor=DRIVE_FILL, strokeColor=None))
        x += 6.2
    if host.data_drives > icons:
        _text(g, x + 1, by + 2, f"+{host.data_drives - icons}", TEXT, fonts, color=MUTED)
        x += 16
    drive_text = "no data drives"
    if host.data_drives and host.drive_id:
        drive_text = f"{host.data_drives} × {drive_name or host.drive_id} · {raid_label(host.raid)}"
    nic_text = f"{host.nic_ports} × {host.nic_speed_gbps:g} GbE ports" if host.nic_ports else "no NIC"
    _text(g, width - PAD, by + 2, nic_text, LABEL, fonts, color=INK, anchor="end")
    nic_w = string_width(nic_text, fonts.regular, LABEL, fonts) + 12
    _text(g, x + 4, by + 2, drive_text, LABEL, fonts, width=width - PAD - nic_w - x - 4)


def host_drawing(host: HostLayout, deployment: str, width: float, fonts: ReportFonts,
                 drive_name: str | None = None) -> Drawing:
    """A Drawing `width` points wide of one host of `host.role`."""
    pinned, spanning = _placement(host, deployment)
    inner_w = width - 2 * PAD
    sockets = max(1, host.sockets)
    sock_w = (inner_w - (sockets - 1) * GAP) / sockets
    nps = max(1, host.numa_nodes_per_socket)
    node_w = (sock_w - 2 * PAD - (nps - 1) * GAP) / nps

    # heights: the tallest NUMA node decides the socket row
    node_stack = _node_stacks(pinned, node_w, fonts)
    stack_h = max((sum(h for _, h in st) + GAP * max(0, len(st) - 1) for st in node_stack.values()), default=0)
    node_h = 13 + max(stack_h, 10) + 4
    sock_h = 14 + node_h + PAD

    bare = deployment == "bare-metal"
    span_boxes = _span_boxes(spanning, bare, len(pinned), inner_w, fonts)
    span_h = sum(h + GAP for _, h in span_boxes)
    bottom_h = 22.0
    height = PAD + sock_h + GAP + span_h + bottom_h + PAD

    d = Drawing(width, height)
    g = Group()
    d.add(g)
    g.add(Rect(0, 0, width, height, rx=4, ry=4, fillColor=colors.white, strokeColor=INK, strokeWidth=0.9))

    top = height - PAD
    _draw_sockets(g, host, _Grid(sockets, sock_w, sock_h, nps, node_w, node_h, top), node_stack, bool(spanning),
                  fonts)
    y = top - sock_h - GAP
    for lines, h in span_boxes:
        y -= h
        fill, edge = (HOSTOS_FILL, HOSTOS_EDGE) if bare else (VM_FILL, VM_EDGE)
        _draw_vm(g, _Box(PAD, y, inner_w, h), lines, fonts, fill=fill, edge=edge)
        y -= GAP
    _draw_drives_and_network(g, host, width, drive_name, fonts)
    return d

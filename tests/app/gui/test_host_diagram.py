"""The host diagram draws a hand-built layout: VMs inside NUMA nodes, bare-metal segments on the host."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtGui import QColor

from app.gui.host_diagram import VM_FILL, HostDiagram
from tests.app.gui.fakes import bare_metal_host, vsphere_host


def _has_color(widget: HostDiagram, color: QColor) -> bool:
    img = widget.grab().toImage()
    step = 3
    return any(
        img.pixelColor(x, y).rgb() == color.rgb()
        for x in range(0, img.width(), step)
        for y in range(0, img.height(), step)
    )


def test_vsphere_vms_are_drawn_inside_their_numa_nodes(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = HostDiagram()
    qtbot.addWidget(w)
    w.set_hosts((vsphere_host(),), "vsphere")
    w.resize(900, w.sizeHint().height())
    assert _has_color(w, VM_FILL)


def test_more_vms_per_node_make_a_taller_drawing(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = HostDiagram()
    qtbot.addWidget(w)
    w.set_hosts((vsphere_host(vms_per_node=1),), "vsphere")
    one = w.sizeHint().height()
    w.set_hosts((vsphere_host(vms_per_node=3),), "vsphere")
    assert w.sizeHint().height() > one


@pytest.mark.parametrize("numa_node", [None, 0])  # 0: a SAP IQ node that fits one NUMA node, on a SAN
def test_bare_metal_draws_no_vm_boxes(qtbot, numa_node: int | None) -> None:  # type: ignore[no-untyped-def]
    w = HostDiagram()
    qtbot.addWidget(w)
    host = bare_metal_host()
    host = dataclasses.replace(host, vms=(dataclasses.replace(host.vms[0], numa_node=numa_node),))
    w.set_hosts((host,), "bare-metal")
    w.resize(900, w.sizeHint().height())
    img = w.grab().toImage()
    # the legend has a VM swatch; above the legend no VM fill may appear
    legend_top = img.height() - 30
    assert not any(img.pixelColor(x, y).rgb() == VM_FILL.rgb()
                   for x in range(0, img.width(), 3) for y in range(0, legend_top, 3))


def test_empty_diagram_shows_its_message(qtbot) -> None:  # type: ignore[no-untyped-def]
    w = HostDiagram()
    qtbot.addWidget(w)
    w.set_hosts((), "bare-metal", message="Sizing…")
    assert w.message == "Sizing…"
    w.grab()

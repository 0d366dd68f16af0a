"""The results' Sensitivity tab: the tornado of the design on screen, on request, with its continuous columns from the
same view rows as the PDF and the CLI; another design on screen clears it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.gui.main_window import MainWindow


def _cells(window: MainWindow, row: int) -> list[str]:
    t = window.results.sensitivity.table
    return [t.item(row, c).text() for c in range(t.columnCount())]


def test_the_button_shows_the_tornado_beside_its_continuous_ends_and_another_design_clears_it(
        qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = window.results.sensitivity
    assert tab.view is None and tab.button.isEnabled() and tab.table.rowCount() == 0
    qtbot.mouseClick(tab.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.view is not None, timeout=60_000)
    v = tab.view
    assert v is not None and v.continuous and tab.table.rowCount() == len(v.rows) > 0
    headers = [tab.table.horizontalHeaderItem(c).text() for c in range(tab.table.columnCount())]
    assert headers[5:] == ["Continuous\n−20 %", "Continuous\n+20 %", "Hosts\n(continuous)"]
    for i, r in enumerate(v.rows):  # the view's own strings, nothing formatted by the tab
        assert _cells(window, i) == [r.input + (" *" if r.host_rounding else ""), r.low_capex, r.high_capex,
                                     r.low_main, r.high_main, r.low_continuous, r.high_continuous,
                                     f"{r.hosts}\n{r.hosts_continuous}"]
    assert v.rounding_note in tab.notes.text() and f"on {v.base_hosts_continuous} continuous" in tab.status.text()
    other = next(e.uid for e in window.doc.entries if e.uid != window.current_uid)
    window._select(other)
    assert tab.view is None and tab.table.rowCount() == 0

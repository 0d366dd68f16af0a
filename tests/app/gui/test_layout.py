"""Nothing is cut at 1280x720: KPI cards and the compare table's headers show their whole text."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QTableWidget

from app.gui.field_widgets import LABEL_MAX_PX
from app.gui.main_window import MainWindow
from models.scenario import WORKLOAD_KINDS


def test_kpi_cards_show_their_whole_text_at_1280x720(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.resize(1280, 720)
    for _ in range(3):
        QApplication.processEvents()
    _assert_cards_whole(window)
    cards = window.results.cards  # figures longer than the sample's: a billion in money, thousands of hosts
    cards["capex"].set("1,234.57 M EUR", "1st year 2,345.68 M EUR")
    cards["tco"].set("9,876.54 M EUR", "1,234.57 M EUR/year recurring")
    cards["hosts"].set("12,345", "12,000 seg. + 345 coord.")
    for _ in range(3):
        QApplication.processEvents()
    _assert_cards_whole(window)
    assert window.width() == 1280  # the cards' minimum widths never widen the window


def _assert_cards_whole(window: MainWindow) -> None:
    for name, card in window.results.cards.items():
        v = card.value
        assert v.fontMetrics().horizontalAdvance(v.text()) <= v.contentsRect().width(), (name, v.text())
        for label in (card.title, card.sub):
            if label.text():
                assert label.heightForWidth(label.width()) <= label.height() + 1, (name, label.text())
                assert all(label.fontMetrics().horizontalAdvance(w) <= label.contentsRect().width()
                           for w in label.text().split()), (name, label.text())


def test_compare_headers_are_not_cut(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.resize(1280, 720)
    for n, uid in enumerate(e.uid for e in window.doc.entries):
        # long words, as users name them
        window.doc.rename(uid, f"Greenplum on vSphere 5.5, performance lab test bed, variant {n + 1}")
        window.scenarios._item(uid).setSelected(True)  # type: ignore[union-attr]
    window.show_view("compare")
    qtbot.waitUntil(lambda: all(window.coordinator.results.get(e.uid) for e in window.doc.entries), timeout=60_000)
    window._refresh_compare()
    for _ in range(3):
        QApplication.processEvents()
    table = window.compare.table
    header = table.horizontalHeader()
    bold = QFont(header.font())
    bold.setBold(True)  # the header draws its labels in bold
    metrics = QFontMetrics(bold)
    for col in range(table.columnCount()):
        item = table.horizontalHeaderItem(col)
        assert item is not None
        for line in item.text().splitlines():
            assert metrics.horizontalAdvance(line) <= header.sectionSize(col) - 6, line


def test_compare_chart_titles_wrap_to_their_column(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """Every chart title and label ends inside the figure (a title running off the right edge was cut there)."""
    window.resize(1280, 720)
    for n, uid in enumerate(e.uid for e in window.doc.entries):
        window.doc.rename(uid, f"Retail DW: dual socket, 24 SAS, variant {n + 1}")  # long names: wide y labels
        window.scenarios._item(uid).setSelected(True)  # type: ignore[union-attr]
    window.show_view("compare")
    qtbot.waitUntil(lambda: all(window.coordinator.results.get(e.uid) for e in window.doc.entries), timeout=60_000)
    window._refresh_compare()
    qtbot.waitUntil(lambda: window.compare.chart.figure is not None, timeout=10_000)
    fig = window.compare.chart.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width = fig.bbox.width
    # titles and the notes under them (tick labels outside the axis range exist but are not drawn)
    texts = [t for ax in fig.axes for t in (ax.title, ax._left_title, ax._right_title, *ax.texts)
             if t.get_text().strip()]
    # the panels the PDF draws too (app.views.compare.chart_series): capex, power, rack space, the main estimate
    assert any("Rack space (U)" in t.get_text() for t in texts) and any("Full-scan time" in t.get_text() for t in texts)
    for t in texts:
        box = t.get_window_extent(renderer)
        assert box.x1 <= width + 1, t.get_text()


@pytest.mark.parametrize("kind", WORKLOAD_KINDS)
def test_every_form_field_fits_the_panel_at_1280x720(qtbot, window: MainWindow, kind: str) -> None:  # type: ignore[no-untyped-def]
    """No field is pushed past the form's right edge by a long label (the costs tab lost its values that way)."""
    window.resize(1280, 720)
    window.add_scenario()
    combo = window.form.workload.kind_combo
    combo.activated.emit(combo.findData(kind))
    form = window.form
    for tab in range(form.count()):
        form.setCurrentIndex(tab)
        for _ in range(3):
            QApplication.processEvents()
        area = form.widget(tab)
        assert isinstance(area, QScrollArea)
        view = area.viewport()
        for key, editor in {**form.editors, **form.workload.current_editors()}.items():
            w = editor.widget
            if not w.isVisibleTo(view) or not view.isAncestorOf(w):
                continue
            right = w.mapTo(view, QPoint(w.width(), 0)).x()
            assert right <= view.width(), (kind, key, right, view.width())
        for label in area.findChildren(QLabel):  # every field's label shows all its lines (one was cut in half)
            if label.buddy() is not None and label.isVisibleTo(view) and label.wordWrap():
                assert label.heightForWidth(label.width()) <= label.height() + 1, (kind, label.text())
                natural = label.fontMetrics().horizontalAdvance(label.text())
                assert label.width() >= min(LABEL_MAX_PX, natural), (kind, label.text())  # not a word a line
    form.setCurrentIndex(0)
    for _ in range(3):
        QApplication.processEvents()
    table = form.workload.findChild(QTableWidget, "pgDatabases")
    if kind == "postgres-consolidation":
        assert table is not None and table.isVisibleTo(form)
        header = table.horizontalHeader()
        bold = QFont(header.font())
        bold.setBold(True)
        for col in range(table.columnCount()):
            for line in table.horizontalHeaderItem(col).text().splitlines():
                assert QFontMetrics(bold).horizontalAdvance(line) <= header.sectionSize(col) - 4, line

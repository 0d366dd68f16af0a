"""Nothing is cut at 1280x720: KPI cards and the compare table's headers show their whole text."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.gui.main_window import MainWindow


def test_kpi_cards_show_their_whole_text_at_1280x720(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.resize(1280, 720)
    for _ in range(3):
        QApplication.processEvents()
    for name, card in window.results.cards.items():
        v = card.value
        assert v.fontMetrics().horizontalAdvance(v.text()) <= v.contentsRect().width(), (name, v.text())
        for label in (card.title, card.sub):
            if label.text():
                assert label.heightForWidth(label.width()) <= label.height() + 1, (name, label.text())


def test_compare_headers_are_not_cut(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.resize(1280, 720)
    for uid in (e.uid for e in window.doc.entries):
        window.scenarios._item(uid).setSelected(True)  # type: ignore[union-attr]
    window.show_view("compare")
    for _ in range(3):
        QApplication.processEvents()
    table = window.compare.table
    header = table.horizontalHeader()
    metrics = header.fontMetrics()
    for col in range(table.columnCount()):
        item = table.horizontalHeaderItem(col)
        assert item is not None
        for line in item.text().splitlines():
            assert metrics.horizontalAdvance(line) <= header.sectionSize(col), line

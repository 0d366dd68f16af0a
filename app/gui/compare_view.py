"""Scenarios side by side: one column each, deltas against the first, the best value per row in green."""

from __future__ import annotations

import textwrap

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.charts import ComparisonSeries, scenario_comparison
from app.gui.chart_view import ChartView
from app.services.compare import CompareRow, clear_difference_pct, compare_rows
from models.sizing.result import SizingResult

BEST_BG = QColor("#d3f9d8")
BEST_FG = QColor("#2b8a3e")


class CompareView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareView")
        self.rows: list[CompareRow] = []
        self.names: list[str] = []
        self._wrapped_at = 0
        self.title = QLabel("Compare scenarios")
        self.title.setObjectName("resultHeading")
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)  # holds scenario names from the project file
        self.table = QTableWidget()
        self.table.setObjectName("compareTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        self.chart = ChartView(240)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.chart)
        split.setSizes([400, 360])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 10, 12, 10)
        lay.addWidget(self.title)
        lay.addWidget(self.hint)
        lay.addWidget(split, 1)

    def show_results(self, names: list[str], results: list[SizingResult | None], note: str = "") -> None:
        have = [(n, r) for n, r in zip(names, results, strict=True) if r is not None]
        missing = [n for n, r in zip(names, results, strict=True) if r is None]
        self.names = [n for n, _ in have]
        self.rows = compare_rows([r for _, r in have])
        parts = [note] if note else []
        if missing:
            parts.append("Not sized yet (or cannot be sized): " + ", ".join(missing) + ".")
        if len(have) > 1:
            parts.append(f"Deltas are against {self.names[0]}. Green marks the best value in a row; no option wins when"
                         " the options run different workloads, their P10–P90 ranges overlap, or they differ by"
                         f" {clear_difference_pct():g} % or less.")  # the engine loads only now
        self.hint.setText(" ".join(parts))
        self._fill_table()
        self._fill_chart()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.rows and self._col_chars() != self._wrapped_at:
            self._fill_table()  # re-break the headers for the new column width

    def _col_chars(self) -> int:
        # header text is bold: about 9 px a character at the default size
        return max(10, (self.table.viewport().width() // max(len(self.names) + 1, 1)) // 9 - 1)

    def _fill_table(self) -> None:
        t = self.table
        t.clear()
        n = len(self.names)
        t.setColumnCount(n + 1 if n > 1 else n)
        t.setRowCount(len(self.rows))
        # the header does not wrap by itself: break names to the width a column gets
        col_chars = self._wrapped_at = self._col_chars()
        headers = [textwrap.fill(name, col_chars, max_lines=3, placeholder="…") for name in self.names]
        t.setHorizontalHeaderLabels([*headers, "Best"] if n > 1 else headers)
        t.setVerticalHeaderLabels([r.label for r in self.rows])
        for row, cr in enumerate(self.rows):
            best = cr.best()
            for col in range(len(self.names)):
                delta = cr.delta(col)
                item = QTableWidgetItem(cr.texts[col] + (f"\n{delta}" if delta else ""))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if col == best:
                    item.setBackground(QBrush(BEST_BG))
                    item.setForeground(QBrush(BEST_FG))
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                    item.setToolTip("best " + ("(lowest)" if cr.lower_is_better else "(highest)"))
                t.setItem(row, col, item)
            if len(self.names) > 1:
                verdict = QTableWidgetItem(textwrap.fill(cr.verdict_text(self.names), col_chars + 4))
                verdict.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                verdict.setForeground(QBrush(BEST_FG if best is not None else QColor("#616e7c")))
                t.setItem(row, len(self.names), verdict)
        t.resizeRowsToContents()

    def _fill_chart(self) -> None:
        if len(self.names) < 2:
            self.chart.set_builder(None)
            return
        series = [
            ComparisonSeries(r.label, r.values, r.lower_is_better, r.low, r.high, r.winner) for r in self.rows
            if r.chart
        ]
        names = [n if len(n) <= 24 else n[:23] + "…" for n in self.names]
        self.chart.set_builder(lambda: scenario_comparison(names, series, columns=3))

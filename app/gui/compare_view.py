"""Scenarios side by side: one column each, deltas against the first, the best value per row in green."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QResizeEvent
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


def wrap_to_width(text: str, metrics: QFontMetrics, width: int, max_lines: int = 3) -> str:
    """`text` broken at spaces into lines no wider than `width` pixels in `metrics`' font; a word that is wider
    on its own, or a last line with words left over, ends in an ellipsis instead of being cut at the border."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        if len(lines) == max_lines - 1 and words:
            line = f"{line} {' '.join(words)}"
            words = []
        lines.append(metrics.elidedText(line, Qt.TextElideMode.ElideRight, width))
    return "\n".join(lines)


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
        if self.rows and self._col_px() != self._wrapped_at:
            self._fill_table()  # re-break the headers for the new column width
            self._fill_chart()  # and the chart titles

    def _col_px(self) -> int:
        """The text width a column's header and cells get (the section less its padding).

        Measured from the table, not its viewport: the viewport shrinks only after the row labels are laid out.
        """
        t = self.table
        avail = (t.width() - 2 * t.frameWidth() - t.verticalHeader().sizeHint().width()
                 - t.verticalScrollBar().sizeHint().width())
        return max(60, avail // max(len(self.names) + 1, 1) - 12)

    def _fill_table(self) -> None:
        t = self.table
        t.clear()
        n = len(self.names)
        t.setColumnCount(n + 1 if n > 1 else n)
        t.setRowCount(len(self.rows))
        t.setVerticalHeaderLabels([r.label for r in self.rows])  # before measuring: they take the left of the width
        # the header does not wrap by itself: break names to the width a column gets, measured in its bold font
        col_px = self._wrapped_at = self._col_px()
        bold = QFont(t.horizontalHeader().font())
        bold.setBold(True)
        headers = [wrap_to_width(name, QFontMetrics(bold), col_px) for name in self.names]
        t.setHorizontalHeaderLabels([*headers, "Best"] if n > 1 else headers)
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
                verdict = QTableWidgetItem(wrap_to_width(cr.verdict_text(self.names), t.fontMetrics(), col_px, 4))
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
        # built at the size it is shown at, so titles wrap to the width they get
        self.chart.set_builder(lambda: scenario_comparison(names, series, columns=3,
                                                           size_in=self.chart.shown_size_in()))

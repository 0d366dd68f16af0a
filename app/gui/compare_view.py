"""Scenarios side by side, one table per workload kind: a column each, deltas against the kind's first
scenario, the best value per row in green (only within a kind, only where the difference is real)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.gui.chart_view import ChartView
from app.services.compare import CompareRow, chart_series, clear_difference_pct, compare_rows_by_kind, unranked
from models.sizing.result import SizingResult
from models.vocabulary import kind_label, kind_short_label

if TYPE_CHECKING:
    from matplotlib.figure import Figure

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


def short_kind(kind: str) -> str:
    """A tab title: the kind's label without its explanation ("Greenplum analytics")."""
    return kind_short_label(kind)



def _hint_label() -> QLabel:
    """A wrapped hint line in plain text: it holds scenario names from the project file."""
    label = QLabel()
    label.setObjectName("hint")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label

class KindPanel(QWidget):
    """The options of one workload kind: the table (with a "Best" column from two options on) and the chart."""

    def __init__(self, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.rows: list[CompareRow] = []
        self.names: list[str] = []
        self._wrapped_at = 0
        self.note = _hint_label()
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
        lay.setContentsMargins(0, 6, 0, 0)
        lay.addWidget(self.note)
        lay.addWidget(split, 1)

    def show_rows(self, names: list[str], rows: list[CompareRow]) -> None:
        self.names, self.rows = names, rows
        if len(names) > 1:
            self.note.setText(f"Deltas are against {names[0]}.")
        else:
            self.note.setText(f"{names[0]} is the only selected scenario of this workload: there is nothing to rank"
                              " it against (scenarios of other workloads are never ranked against it).")
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
        t.setVerticalHeaderLabels([r.heading for r in self.rows])  # before measuring: they take the left of the width
        # the header does not wrap by itself: break names to the width a column gets, measured in its bold font
        col_px = self._wrapped_at = self._col_px()
        bold = QFont(t.horizontalHeader().font())
        bold.setBold(True)
        headers = [wrap_to_width(name, QFontMetrics(bold), col_px) for name in self.names]
        t.setHorizontalHeaderLabels([*headers, "Best"] if n > 1 else headers)
        for row, cr in enumerate(self.rows):
            best = cr.best()
            for col in range(n):
                rng, delta = cr.range_text(col), cr.delta_text(col)
                item = QTableWidgetItem("\n".join(x for x in (cr.text(col), rng and f"({rng})", delta) if x))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                tips = [f"{cr.delta(col)} against {self.names[0]}"] if delta else []
                if col == best:
                    item.setBackground(QBrush(BEST_BG))
                    item.setForeground(QBrush(BEST_FG))
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                    tips.insert(0, "best " + ("(lowest)" if cr.lower_is_better else "(highest)"))
                item.setToolTip("; ".join(tips))
                t.setItem(row, col, item)
            if n > 1:
                verdict = QTableWidgetItem(wrap_to_width(cr.verdict_text(self.names), t.fontMetrics(), col_px, 4))
                verdict.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                verdict.setForeground(QBrush(BEST_FG if best is not None else QColor("#616e7c")))
                t.setItem(row, n, verdict)
        t.resizeRowsToContents()

    def _fill_chart(self) -> None:
        if len(self.names) < 2:
            self.chart.set_builder(None)
            self.chart.hide()  # one option: no bars to set side by side
            return
        self.chart.show()
        series = chart_series(self.rows)
        names = [n if len(n) <= 24 else n[:23] + "…" for n in self.names]

        def figure() -> Figure:
            from app.charts import scenario_comparison  # matplotlib: only when the chart is drawn

            # built at the size it is shown at, so titles wrap to the width they get
            return scenario_comparison(names, series, columns=3, size_in=self.chart.shown_size_in())

        self.chart.set_builder(figure)


class CompareView(QWidget):
    """The chosen scenarios, a tab per workload kind when they run more than one (the tab bar hides otherwise):
    scenarios of different workloads answer different questions, so no row ranks them against each other."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareView")
        self.panels: list[KindPanel] = []
        self.title = QLabel("Compare scenarios")
        self.title.setObjectName("resultHeading")
        self.hint = _hint_label()
        self.tabs = QTabWidget()
        self.tabs.setObjectName("compareKinds")
        self.tabs.setTabBarAutoHide(True)  # one workload: just its table
        self.tabs.setDocumentMode(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 10, 12, 10)
        lay.addWidget(self.title)
        lay.addWidget(self.hint)
        lay.addWidget(self.tabs, 1)

    # the first kind's table and chart (the only ones when every option runs one workload)
    @property
    def table(self) -> QTableWidget:
        return self.panels[0].table

    @property
    def chart(self) -> ChartView:
        return self.panels[0].chart

    @property
    def names(self) -> list[str]:
        return [n for p in self.panels for n in p.names]

    def panel(self, kind: str) -> KindPanel | None:
        return next((p for p in self.panels if p.kind == kind), None)

    def show_results(self, names: list[str], results: list[SizingResult | None], note: str = "") -> None:
        have = [(n, r) for n, r in zip(names, results, strict=True) if r is not None]
        missing = [n for n, r in zip(names, results, strict=True) if r is None]
        groups = compare_rows_by_kind([r for _, r in have]) if have else []
        shown = self.tabs.currentWidget()
        keep = shown.kind if isinstance(shown, KindPanel) else None
        kinds = [k for k, _, _ in groups]
        if kinds != [p.kind for p in self.panels]:  # rebuild the tabs only when the kinds change
            self.tabs.clear()
            for p in self.panels:
                p.deleteLater()
            self.panels = [KindPanel(k) for k in kinds]
            for p in self.panels:
                self.tabs.addTab(p, "")
        for i, (kind, idx, rows) in enumerate(groups):
            self.tabs.setTabText(i, f"{short_kind(kind)} ({len(idx)})")
            self.tabs.setTabToolTip(i, kind_label(kind))
            self.panels[i].show_rows([have[j][0] for j in idx], rows)
        if keep in kinds:
            self.tabs.setCurrentIndex(kinds.index(keep))

        parts = [note] if note else []
        if missing:
            parts.append("Not sized yet (or cannot be sized): " + ", ".join(missing) + ".")
        if len(groups) > 1:
            parts.append(f"These scenarios run {len(groups)} different workloads: each has its own tab, and no row"
                         " ranks scenarios of different workloads against each other.")
        if any(len(idx) > 1 for _, idx, _ in groups):
            parts.append("Green marks the best value in a row; no option wins when their P10–P90 ranges overlap or"
                         f" they differ by {clear_difference_pct():g} % or less.")
        # as the PDF says it: an option sized for other work is shown beside the others, never ranked against them
        others = [have[idx[i]][0] for _, idx, _ in groups if len(idx) > 1
                  for i in unranked([have[j][1] for j in idx])]
        if others:
            parts.append("Not ranked: sized for other work (data, concurrency or targets) than the other options of"
                         f" its workload: {', '.join(others)}.")
        self.hint.setText(" ".join(parts))

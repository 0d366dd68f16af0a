"""The results' Sensitivity tab: the tornado of the design on screen (`app.views.sensitivity`), computed on request
(a dozen sizings): each input's capex and main estimate at -20 % / +20 % on whole hosts, beside the estimate on each
end's continuous host count, or the statement that every end is a design of whole nodes or hosts."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.formatting import number
from app.views.sensitivity import SensitivityView

if TYPE_CHECKING:
    from app.gui.workers import Job, JobRunner
    from models.hardware import HardwareCatalog
    from models.problems import Problem
    from models.scenario import Scenario
    from models.sizing.result import SizingResult

DELTA_PCT = 20.0  # as `refarch sensitivity` and the report


class SensitivityTab(QWidget):
    requested = Signal()  # the user asked for the tornado of the design on screen

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: SensitivityView | None = None
        self.job: Job | None = None  # the tornado being computed, for `pending`
        self.pending: SizingResult | None = None  # the design it is computed for
        self.intro = QLabel(
            f"How capex and the main estimate move when each main input is {number(DELTA_PCT)} % lower or higher,"
            " the hardware the same: every end is a whole design, sized again (a dozen sizings).")
        self.intro.setWordWrap(True)
        self.button = QPushButton(f"Vary each input ±{number(DELTA_PCT)} %")
        self.button.setObjectName("sensitivityButton")
        self.button.clicked.connect(self.requested.emit)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.button)
        top.addWidget(self.status, 1)
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.notes = QLabel("")
        self.notes.setWordWrap(True)
        self.notes.setObjectName("muted")
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes)
        self.reset()

    def reset(self, enabled: bool = True) -> None:
        """No tornado shown (a new design, or none): the button asks for one."""
        self.view = None
        if self.job is not None:
            self.job.cancel()
        self.job, self.pending = None, None
        self.table.setRowCount(0)
        self.table.setColumnCount(0)
        self.notes.setText("")
        self.button.setEnabled(enabled)
        self.status.setText("" if enabled else "Size a scenario first.")

    def set_busy(self) -> None:
        self.button.setEnabled(False)
        self.status.setText("Sizing each input's ends…")

    def show_message(self, text: str) -> None:
        self.button.setEnabled(True)
        self.status.setText(text)

    def show_view(self, v: SensitivityView) -> None:
        self.view = v
        self.button.setEnabled(True)
        base = f"{v.base_main} {v.unit} on {v.base_hosts}" + (
            f" ({v.base_continuous} {v.unit} on {v.base_hosts_continuous} continuous)" if v.continuous else "")
        self.status.setText(f"{v.metric_label}, P50 in {v.unit}, on whole hosts and on each end's continuous count;"
                            f" this design {base}." if v.continuous else
                            f"{v.metric_label}, P50 in {v.unit}; this design {base}.")
        d = number(v.delta_pct)
        heads = ["Input", f"Capex\n−{d} %", f"Capex\n+{d} %", f"Whole\n−{d} %", f"Whole\n+{d} %"]
        heads += [f"Continuous\n−{d} %", f"Continuous\n+{d} %", "Hosts\n(continuous)"] if v.continuous else [
            "Hosts"]
        self.table.setColumnCount(len(heads))
        self.table.setHorizontalHeaderLabels(heads)
        self.table.setRowCount(len(v.rows))
        for i, r in enumerate(v.rows):
            cells = [r.input + (" *" if r.host_rounding else ""), r.low_capex, r.high_capex, r.low_main, r.high_main]
            cells += [r.low_continuous, r.high_continuous, f"{r.hosts}\n{r.hosts_continuous}"] if v.continuous else [
                r.hosts]
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if 0 < j < (7 if v.continuous else 5):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, j, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.resizeRowsToContents()
        self.notes.setText("\n".join(n for n in (v.step_note, v.rounding_note) if n))


def start_tornado(tab: SensitivityTab, runner: JobRunner, scenario: Scenario, catalog: HardwareCatalog,
                  result: SizingResult) -> None:
    """Compute the tornado of `result` in the background and show it in `tab`, unless the design on screen changed
    meanwhile (`SensitivityTab.reset` calls it off)."""
    from app.services.whatif import tornado_view

    tab.reset()
    tab.set_busy()
    tab.pending = result

    def work(cancel: threading.Event, _progress: object) -> SensitivityView:
        return tornado_view(scenario, catalog, result, DELTA_PCT / 100.0, cancel.is_set)

    def done(view: object) -> None:
        if tab.pending is result and isinstance(view, SensitivityView):
            tab.job, tab.pending = None, None
            tab.show_view(view)

    def failed(problems: list[Problem]) -> None:
        if tab.pending is result:
            tab.job, tab.pending = None, None
            tab.show_message("Cannot vary the inputs: " + "; ".join(p.message for p in problems[:3]))

    tab.job = runner.start(work, done, failed, on_cancelled=lambda: None)

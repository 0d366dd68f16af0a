"""The optimizer: every server × drive × layout in the catalog against the targets, off the UI thread.

Targets go in (prefilled from the scenario), the search runs in a pool thread
with a progress bar and Cancel, and the Pareto designs come back as a table and
a chart; "Use this design" hands the chosen platform back to the scenario.
"""

from __future__ import annotations

import html
import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.charts import pareto_front
from app.editing.draft import Issues, Path, path_str
from app.editing.fields import TARGET_FIELDS, problem_text
from app.formatting import money, number, power
from app.gui.chart_view import ChartView
from app.gui.field_widgets import FieldEditor, add_rows, new_form_layout
from app.gui.workers import Job, JobRunner
from models.hardware import HardwareCatalog
from models.problems import Problem
from models.scenario import Scenario, Targets
from models.tasks import Progress
from models.vocabulary import deployment_label, metric_label, raid_label, targets_for

if TYPE_CHECKING:
    from app.services.optimize import DesignPoint, OptimizationResult

COLUMNS = ("Server", "Drive", "Drives/host", "Deployment", "RAID", "Hosts", "Capex", "Power", "Rack U", "Main")


def part_name(catalog: HardwareCatalog, part_id: str) -> str:
    """A part as the customer buys it ("Lenovo ThinkSystem SR655 V3 (12x 3.5in)"); the id when it is not there."""
    if part_id not in catalog:
        return part_id
    part = catalog.get(part_id)
    return f"{part.vendor} {part.model}"


def run_optimizer(scenario: Scenario, catalog: HardwareCatalog, cancel: threading.Event,
                  progress: Progress) -> OptimizationResult:
    from app.services.optimize import optimize

    return optimize(scenario, catalog, progress=progress, cancelled=cancel.is_set)


class OptimizerDialog(QDialog):
    designChosen = Signal(dict)  # the platform JSON to put into the scenario

    def __init__(self, scenario: Scenario, catalog: HardwareCatalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Optimize hardware — {scenario.name}")
        self.resize(1100, 720)
        self.scenario = scenario
        self.catalog = catalog
        self.runner = JobRunner(self)
        self.job: Job | None = None
        self.optimization: OptimizationResult | None = None
        self.targets: dict[str, Any] = scenario.targets.model_dump(mode="json")

        form = new_form_layout()
        self.editors: dict[str, FieldEditor] = {}
        # the targets the engine checks for this workload, and any the scenario sets anyway
        used = {t.name for t in targets_for(scenario.workload.kind)}
        specs = tuple(spec for spec in TARGET_FIELDS
                      if spec.path[-1] in used or self.targets.get(str(spec.path[-1])) is not None)
        for editor in add_rows(form, specs, self):
            key = str(editor.path[-1])
            editor.show_value(self.targets.get(key))
            editor.edited.connect(self._target_edited)
            self.editors[path_str(editor.path)] = editor
        targets_box = QWidget()
        targets_box.setLayout(form)
        targets_box.setMaximumWidth(360)

        self.run_btn = QPushButton("Run")
        self.run_btn.setDefault(True)
        self.cancel_btn = QPushButton("Cancel")
        self.cancel_btn.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.summary = QLabel("Set the targets and run: refarch tries every server, drive, drive count, "
                              "deployment and RAID level in the catalog.")
        self.summary.setWordWrap(True)
        self.run_btn.clicked.connect(self.start)
        self.cancel_btn.clicked.connect(self.cancel)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.chart = ChartView(240)

        self.use_btn = QPushButton("Use this design")
        self.use_btn.setEnabled(False)
        self.use_btn.clicked.connect(self._use)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)

        left = QVBoxLayout()
        left.addWidget(QLabel("<b>Targets</b> (empty = no target)"))
        left.addWidget(targets_box)
        left.addStretch(1)
        run_row = QHBoxLayout()
        run_row.addWidget(self.run_btn)
        run_row.addWidget(self.cancel_btn)
        run_row.addWidget(self.progress, 1)
        right = QVBoxLayout()
        right.addLayout(run_row)
        right.addWidget(self.summary)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.chart)
        right.addWidget(split, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.use_btn)
        buttons.addWidget(close)
        right.addLayout(buttons)
        lay = QHBoxLayout(self)
        lay.addLayout(left)
        lay.addLayout(right, 1)

    # -- targets --------------------------------------------------------------------------------------------
    def _target_edited(self, path: Path, value: Any) -> None:
        self.targets[str(path[-1])] = value
        problems = self._target_issues()
        for key, editor in self.editors.items():
            editor.show_error(problems.by_field.get(key))
        self.run_btn.setEnabled(not problems and self.job is None)

    def _target_issues(self) -> Issues:
        from pydantic import ValidationError

        from app.editing.draft import issues_of

        try:
            Targets.model_validate(self.targets)
        except ValidationError as exc:
            found = issues_of(exc)
            return Issues({f"targets.{k}": v for k, v in found.by_field.items()}, found.general)
        return Issues()

    # -- running --------------------------------------------------------------------------------------------
    def start(self) -> None:
        if self.job is not None or self._target_issues():
            return
        scenario = self.scenario.model_copy(update={"targets": Targets.model_validate(self.targets)})
        catalog = self.catalog
        self.run_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        self.progress.setValue(0)
        self.summary.setText("Searching…")
        self.job = self.runner.start(
            lambda cancel, progress: run_optimizer(scenario, catalog, cancel, progress),
            self._done,
            self._failed,
            on_progress=self._progress,
            on_cancelled=self._cancelled,
        )

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.summary.setText("Cancelling…")

    def _progress(self, done: int, total: int) -> None:
        self.progress.setValue(int(done * 100 / max(total, 1)))

    def _finish(self) -> None:
        self.job = None
        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)

    def _cancelled(self) -> None:
        self._finish()
        self.progress.setValue(0)
        self.summary.setText("Cancelled.")

    def _failed(self, problems: list[Problem]) -> None:
        self._finish()
        self.summary.setText("The optimizer cannot run: " + "; ".join(problem_text(p) for p in problems))

    def _done(self, result: OptimizationResult) -> None:
        self._finish()
        self.progress.setValue(100)
        self.optimization = result
        label = metric_label(result.main_metric)
        if result.best is None:
            unmet = "; ".join(result.unmet.values())
            self.summary.setText(f"{result.evaluated:,} designs evaluated, none meets every target. {unmet}")
        else:
            b = result.best
            currency = self.scenario.commercial.currency
            self.summary.setText(
                f"{result.evaluated:,} designs evaluated, {result.feasible:,} meet every target. Cheapest: "
                f"<b>{b.segment_hosts} × {html.escape(part_name(self.catalog, b.server_id))}</b> with "
                f"{b.drives_per_host} × {html.escape(part_name(self.catalog, b.drive_id))}, "
                f"{deployment_label(b.deployment)}, {raid_label(b.raid)}: {money(b.capex, currency, cents=False)}, "
                f"{label} {number(b.main_value)}."
                + "".join(f" {html.escape(t[0].upper() + t[1:])}." for t in result.kept)
            )
        self._fill(result)

    def _fill(self, result: OptimizationResult) -> None:
        points = list(result.pareto)
        self.table.setRowCount(len(points))
        currency = self.scenario.commercial.currency  # every candidate is priced in it, feasible or not
        for row, p in enumerate(points):
            # parts by name; the catalog id stays in the tooltip
            cells = (part_name(self.catalog, p.server_id), part_name(self.catalog, p.drive_id),
                     str(p.drives_per_host), deployment_label(p.deployment), raid_label(p.raid), str(p.segment_hosts),
                     money(p.capex, currency, cents=False), power(p.power_w), f"{p.rack_u:.0f}", number(p.main_value))
            ids = {0: p.server_id, 1: p.drive_id}
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col in ids:
                    item.setToolTip(f"catalog id {ids[col]}")
                if col >= 5:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if result.best is not None and p == result.best:
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                self.table.setItem(row, col, item)
        if points:
            best_row = next((i for i, p in enumerate(points) if p == result.best), 0)
            self.table.selectRow(best_row)
        self._draw(points, result)

    def _draw(self, points: list[DesignPoint], result: OptimizationResult, selected: int | None = None) -> None:
        currency = self.scenario.commercial.currency  # every candidate is priced in it, feasible or not
        label = metric_label(result.main_metric)
        self.chart.set_builder(lambda: pareto_front(
            [p.capex for p in points], [p.main_value for p in points], [p.feasible for p in points],
            currency=currency, perf_label=label, selected=selected, higher_is_better=result.higher_is_better,
            title="Designs on the Pareto front (capex, power, main estimate)",
        ))

    def _selection_changed(self) -> None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        self.use_btn.setEnabled(bool(rows) and self.optimization is not None)
        if self.optimization is not None and rows:
            self._draw(list(self.optimization.pareto), self.optimization, min(rows))

    def selected_point(self) -> DesignPoint | None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        if not rows or self.optimization is None:
            return None
        return list(self.optimization.pareto)[rows[0]]

    def _use(self) -> None:
        point = self.selected_point()
        if point is None:
            return
        self.designChosen.emit(point.platform(self.scenario))
        self.accept()

    def done(self, r: int) -> None:  # closing the dialog stops a search still running
        if self.job is not None:
            self.job.cancel()
        super().done(r)

"""File > Export: the PDF report and the BOM (CSV / XLSX), rendered off the UI thread with progress.

The exports are `app.export`'s; this module picks the scenarios (the ones selected
in the list, else the current one), asks for a file name, and runs the export in a
pool thread behind a progress dialog with Cancel.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QProgressDialog

from app.gui import files, sizing_service
from app.gui.sizing_service import SizingFailure
from app.gui.workers import Cancelled, Job, JobRunner
from models.hardware import HardwareCatalog
from models.scenario import Scenario

if TYPE_CHECKING:
    from app.gui.main_window import MainWindow

ExportKind = Literal["pdf", "csv", "xlsx"]
FILTERS: dict[str, str] = {"pdf": "PDF (*.pdf)", "csv": "CSV (*.csv)", "xlsx": "Excel workbook (*.xlsx)"}
TITLES: dict[str, str] = {
    "pdf": "Export the PDF report",
    "csv": "Export the BOM as CSV",
    "xlsx": "Export the BOM as Excel",
}


def run_export(kind: ExportKind, scenarios: list[Scenario], catalog: HardwareCatalog, path: Path,
               cancel: threading.Event, progress: Callable[[int, int], None]) -> Path:
    """Size each scenario (the engine's numbers, not a cached screen state), then write the file."""
    from app.export import ExportError, ReportCancelled, bom_table, render_report, write_bom_csv, write_bom_xlsx

    results = []
    for s in scenarios:
        if cancel.is_set():
            raise Cancelled()
        results.append(sizing_service.size(s, catalog))
    try:
        if kind == "pdf":
            from models.whatif import growth

            plans = []
            for s, r in zip(scenarios, results, strict=True):
                try:
                    plans.append(growth(s, catalog, r))
                except Exception:  # the growth plan is an extra section: a report without it still helps
                    plans.append(None)
            from models.sizing.curves import host_counts, main_metric_curve

            curves = [main_metric_curve(s, catalog, host_counts(r.design.segment_hosts), r)
                      for s, r in zip(scenarios, results, strict=True)]
            render_report(results, scenarios, path, progress, cancel.is_set, growth=plans, curves=curves)
        else:
            tables = [bom_table(r, s.customer) for r, s in zip(results, scenarios, strict=True)]
            (write_bom_csv if kind == "csv" else write_bom_xlsx)(tables, path)
    except ReportCancelled:
        raise Cancelled() from None
    except (ExportError, OSError) as exc:
        raise SizingFailure([f"cannot write {path}: {exc}"]) from None
    return path


class Exporter(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.runner = JobRunner(self)
        self.job: Job | None = None
        self.dialog: QProgressDialog | None = None
        self.last_path: Path | None = None
        self.ask_path: Callable[[ExportKind, str], Path | None] = self._dialog_path

    def _dialog_path(self, kind: ExportKind, suggested: str) -> Path | None:
        start = Path(suggested)
        if not start.is_absolute():
            start = files.start_folder(self.window.settings) / suggested
        name, _ = QFileDialog.getSaveFileName(self.window, TITLES[kind], str(start), FILTERS[kind])
        if not name:
            return None
        path = Path(name)
        files.remember_folder(self.window.settings, path)
        return path if path.suffix.lower() == f".{kind}" else path.with_name(path.name + f".{kind}")

    def scenarios(self) -> list[Scenario]:
        w = self.window
        uids = [u for u in w.scenarios.selected_uids() if w.doc.has(u)]
        if len(uids) < 2:
            uids = [w.current_uid] if w.current_uid else []
        return [w.doc.entry(u).scenario for u in uids]

    def export(self, kind: ExportKind) -> bool:
        w = self.window
        if self.job is not None or w.source is None:
            return False
        scenarios = self.scenarios()
        if not scenarios:
            return False
        stem = scenarios[0].name if len(scenarios) == 1 else (w.doc.name or "design options")
        suggested = f"{stem}{' BOM' if kind != 'pdf' else ''}.{kind}".replace("/", "-")
        path = self.ask_path(kind, str((w.doc.path.parent if w.doc.path else Path.home()) / suggested))
        if path is None:
            return False
        catalog = w.source.snapshot
        self.dialog = QProgressDialog(f"{TITLES[kind]} ({len(scenarios)} scenario{'s' * (len(scenarios) > 1)})…",
                                      "Cancel", 0, 100, w)
        self.dialog.setWindowTitle("Exporting")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(300)  # quick BOM exports finish before it would flash up
        self.dialog.setValue(0)
        self.dialog.canceled.connect(self.cancel)
        self.job = self.runner.start(
            lambda cancel, progress: run_export(kind, scenarios, catalog, path, cancel, progress),
            self._done, self._failed, on_progress=self._progress, on_cancelled=self._cancelled,
        )
        return True

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def busy(self) -> bool:
        return self.job is not None

    def _progress(self, done: int, total: int) -> None:
        if self.dialog is not None:
            self.dialog.setValue(int(done * 100 / max(total, 1)))

    def _finish(self) -> None:
        self.job = None
        if self.dialog is not None:
            self.dialog.canceled.disconnect(self.cancel)
            self.dialog.close()
            self.dialog.deleteLater()
            self.dialog = None

    def _done(self, path: object) -> None:
        self._finish()
        assert isinstance(path, Path)
        self.last_path = path
        self.window.statusBar().showMessage(f"Exported {path}", 8000)

    def _failed(self, problems: list[str]) -> None:
        self._finish()
        self.window.show_error("Export failed", "\n".join(problems))

    def _cancelled(self) -> None:
        self._finish()
        self.window.statusBar().showMessage("Export cancelled; nothing was written", 5000)


def add_menu(window: MainWindow, file_menu: QMenu) -> Exporter:
    exporter = Exporter(window)
    window.exporter = exporter
    menu = file_menu.addMenu("&Export")
    for kind, text, shortcut in (
        ("pdf", "PDF &report…", "Ctrl+E"),
        ("csv", "BOM as &CSV…", None),
        ("xlsx", "BOM as &Excel (XLSX)…", None),
    ):
        action = menu.addAction(text)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip("Exports the scenarios selected in the list, or the current one")
        action.triggered.connect(lambda _c=False, k=kind: exporter.export(k))  # type: ignore[misc]
        window.actions[f"export_{kind}"] = action
    return exporter

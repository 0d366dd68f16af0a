"""File > Export: the PDF report, the BOM (CSV / XLSX) and the configuration files, off the UI thread.

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
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QProgressDialog

from app.gui import files, sizing_service
from app.gui.sizing_service import SizingFailure
from app.gui.workers import Job, JobRunner
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.tasks import check_cancelled

if TYPE_CHECKING:
    from app.gui.main_window import MainWindow

ExportKind = Literal["pdf", "csv", "xlsx", "config"]
FILTERS: dict[str, str] = {"pdf": "PDF (*.pdf)", "csv": "CSV (*.csv)", "xlsx": "Excel workbook (*.xlsx)"}
TITLES: dict[str, str] = {
    "pdf": "Export the PDF report",
    "csv": "Export the BOM as CSV",
    "xlsx": "Export the BOM as Excel",
    "config": "Export the configuration files",
}


def run_export(kind: ExportKind, scenarios: list[Scenario], catalog: HardwareCatalog, path: Path,
               cancel: threading.Event, progress: Callable[[int, int], None]) -> Path:
    """Size each scenario (the engine's numbers, not a cached screen state), then write the file."""
    from app.export import ExportError, bom_table, render_report, write_bom_csv, write_bom_xlsx

    if kind == "config":
        return run_config_export(scenarios[0], catalog, path, cancel)

    results = []
    for s in scenarios:
        check_cancelled(cancel.is_set)
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
    except (ExportError, OSError) as exc:
        raise SizingFailure([f"cannot write {path}: {exc}"]) from None
    return path


def run_config_export(scenario: Scenario, catalog: HardwareCatalog, folder: Path, cancel: threading.Event) -> Path:
    """`refarch config` for one scenario: the folder was checked (and confirmed if not empty) by the caller."""
    from app.export import ExportError
    from app.export.config import NamingError, export_configuration

    result = sizing_service.size(scenario, catalog)
    check_cancelled(cancel.is_set)
    try:
        export_configuration(result, folder, force=True, cancelled=cancel.is_set)
    except NamingError as exc:
        raise SizingFailure(exc.problems) from None
    except (ExportError, OSError) as exc:
        raise SizingFailure([f"cannot write {folder}: {exc}"]) from None
    check_cancelled(cancel.is_set)
    return folder


class Exporter(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.runner = JobRunner(self)
        self.job: Job | None = None
        self.dialog: QProgressDialog | None = None
        self.last_path: Path | None = None
        self.ask_path: Callable[[ExportKind, str], Path | None] = self._dialog_path
        self.confirm_overwrite: Callable[[Path], bool] = self._confirm_overwrite

    def _dialog_path(self, kind: ExportKind, suggested: str) -> Path | None:
        start = Path(suggested)
        if not start.is_absolute():
            start = files.start_folder(self.window.settings) / suggested
        if kind == "config":
            name = QFileDialog.getExistingDirectory(self.window, TITLES[kind], str(start.parent))
            if not name:
                return None
            files.remember_folder(self.window.settings, Path(name) / "x")
            return Path(name)
        name, _ = QFileDialog.getSaveFileName(self.window, TITLES[kind], str(start), FILTERS[kind])
        if not name:
            return None
        path = Path(name)
        files.remember_folder(self.window.settings, path)
        return path if path.suffix.lower() == f".{kind}" else path.with_name(path.name + f".{kind}")

    def _confirm_overwrite(self, folder: Path) -> bool:
        answer = QMessageBox.question(
            self.window, TITLES["config"],
            f"{folder} is not empty. Write the configuration files into it, replacing files of the same name?",
        )
        return answer == QMessageBox.StandardButton.Yes

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
        if kind == "config":
            scenarios = [w.doc.entry(w.current_uid).scenario] if w.current_uid else scenarios[:1]
        stem = scenarios[0].name if len(scenarios) == 1 else (w.doc.name or "design options")
        suggested = f"{stem}{' BOM' if kind != 'pdf' else ''}.{kind}".replace("/", "-")
        if kind == "config":
            suggested = f"{stem} configuration".replace("/", "-")
        path = self.ask_path(kind, str((w.doc.path.parent if w.doc.path else Path.home()) / suggested))
        if path is None:
            return False
        if kind == "config" and not self._folder_ok(path):
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

    def _folder_ok(self, folder: Path) -> bool:
        """An existing file is refused; a non-empty folder only after the user confirms."""
        if folder.exists() and not folder.is_dir():
            self.window.show_error("Export failed", f"{folder} exists and is not a folder")
            return False
        if folder.is_dir() and any(folder.iterdir()):
            return self.confirm_overwrite(folder)
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
        ("config", "&Configuration files…", None),
    ):
        action = menu.addAction(text)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(
            "Writes gpinitsystem_config, gpconfig, sysctl, VM specs, postgresql.conf or SAP IQ parameters of the"
            " current scenario into a folder" if kind == "config"
            else "Exports the scenarios selected in the list, or the current one")
        action.triggered.connect(lambda _c=False, k=kind: exporter.export(k))  # type: ignore[misc]
        window.actions[f"export_{kind}"] = action
    return exporter

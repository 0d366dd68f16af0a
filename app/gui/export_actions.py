"""File > Export: the PDF report, the editable report (DOCX) and deck (PPTX), the BOM (CSV / XLSX) and the
configuration files, off the UI thread.

The export use cases are `app.services`' (the ones `refarch report` and `refarch config` call); this
module picks the scenarios (the ones selected in the list, else the current one), asks for a file name,
and runs the export in a pool thread behind a progress dialog with Cancel.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QActionGroup, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QProgressDialog

from app.editing.fields import problem_text
from app.gui.workers import Job, JobRunner
from app.services import project_files as files
from app.views.edition import Audience
from models.hardware import HardwareCatalog
from models.problems import Problem
from models.scenario import Scenario
from models.tasks import Progress

if TYPE_CHECKING:
    from app.gui.main_window import MainWindow

ExportKind = Literal["pdf", "docx", "pptx", "csv", "xlsx", "config"]
FILTERS: dict[str, str] = {"pdf": "PDF (*.pdf)", "docx": "Word document (*.docx)", "pptx": "PowerPoint deck (*.pptx)",
                           "csv": "CSV (*.csv)", "xlsx": "Excel workbook (*.xlsx)"}
TITLES: dict[str, str] = {
    "pdf": "Export the PDF report",
    "docx": "Export the report as Word",
    "pptx": "Export the deck as PowerPoint",
    "csv": "Export the BOM as CSV",
    "xlsx": "Export the BOM as Excel",
    "config": "Export the configuration files",
}


def run_export(kind: ExportKind, scenarios: list[Scenario], catalog: HardwareCatalog, path: Path,
               cancel: threading.Event, progress: Progress, audience: Audience = "customer") -> tuple[Path, list[str]]:
    """The export use case of `app.services` (the same as `refarch report` / `refarch config`): the path
    written and the notes (what the report left out and why). `audience`: the edition of a report (PDF, DOCX,
    PPTX), as `refarch report --audience`."""
    from app.services import config_export, report

    if kind == "config":  # the folder was checked (and confirmed if not empty) by the caller
        config_export.export_config(scenarios[0], catalog, path, force=True, cancelled=cancel.is_set)
        return path, []
    if kind == "pdf":
        _, notes = report.export_report(scenarios, catalog, path, audience=audience, progress=progress,
                                        cancelled=cancel.is_set)
        return path, notes
    if kind == "docx" or kind == "pptx":
        return report.export_editable(scenarios, catalog, path, kind, progress=progress, cancelled=cancel.is_set,
                                      audience=audience), []
    return report.export_bom(scenarios, catalog, path, kind, progress=progress, cancelled=cancel.is_set), []


class Exporter(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.runner = JobRunner(self)
        self.job: Job | None = None
        self.dialog: QProgressDialog | None = None
        self.last_path: Path | None = None
        self.last_notes: list[str] = []  # what the last report left out and why (the growth plan)
        self.target: Path | None = None  # what the running export writes
        self.target_existed = False
        self.audience: Audience = "customer"  # File > Export > Edition: who the reports are for
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
        suggested = f"{stem}{' BOM' if kind in ('csv', 'xlsx') else ''}.{kind}".replace("/", "-")
        if kind == "config":
            suggested = f"{stem} configuration".replace("/", "-")
        path = self.ask_path(kind, str((w.doc.path.parent if w.doc.path else Path.home()) / suggested))
        if path is None:
            return False
        if kind == "config" and not self._folder_ok(path):
            return False
        catalog = w.source.snapshot
        self.target, self.target_existed = path, path.exists()
        self.dialog = QProgressDialog(f"{TITLES[kind]} ({len(scenarios)} scenario{'s' * (len(scenarios) > 1)})…",
                                      "Cancel", 0, 100, w)
        self.dialog.setWindowTitle("Exporting")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(300)  # quick BOM exports finish before it would flash up
        self.dialog.setValue(0)
        self.dialog.canceled.connect(self.cancel)
        audience = self.audience
        self.job = self.runner.start(
            lambda cancel, progress: run_export(kind, scenarios, catalog, path, cancel, progress, audience),
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

    def _done(self, outcome: tuple[Path, list[str]]) -> None:
        late = self.job is not None and self.job.cancel_event.is_set()
        self._finish()
        path, notes = outcome
        self.last_path = path
        self.last_notes = list(notes)
        said = [f"Exported {path}" + (" (it was written before Cancel took effect)." if late else "."), *notes]
        self.window.statusBar().showMessage(" ".join(said), 8000)

    def _failed(self, problems: list[Problem]) -> None:
        self._finish()
        self.window.show_error("Export failed", "\n".join(problem_text(p) for p in problems))

    def _cancelled(self) -> None:
        self._finish()
        target = self.target
        if target is None or not self.target_existed:
            text = "Export cancelled; nothing was written."
        elif target.is_dir():
            text = f"Export cancelled; nothing was written to {target}."
        else:
            text = f"Export cancelled; {target} was not changed."
        self.window.statusBar().showMessage(text, 8000)


def add_menu(window: MainWindow, file_menu: QMenu) -> Exporter:
    exporter = Exporter(window)
    window.exporter = exporter
    menu = file_menu.addMenu("&Export")
    for kind, text, shortcut in (
        ("pdf", "PDF &report…", "Ctrl+E"),
        ("docx", "Report as &Word (DOCX)…", None),
        ("pptx", "&Deck as PowerPoint (PPTX)…", None),
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
        action.triggered.connect(lambda _c=False, k=kind: exporter.export(k))
        window.menu_actions[f"export_{kind}"] = action
    _edition_menu(window, menu, exporter)
    return exporter


def _edition_menu(window: MainWindow, menu: QMenu, exporter: Exporter) -> None:
    """File > Export > Edition: the customer's (no catalog or model ids, no instructions to the team, only the
    models the designs use) or the internal one (everything), for the PDF, Word and PowerPoint exports."""
    editions = menu.addMenu("E&dition of reports")
    group = QActionGroup(editions)
    group.setExclusive(True)
    for audience, text in (("customer", "&Customer (no ids, no internal notes)"),
                           ("internal", "&Internal (everything)")):
        action = editions.addAction(text)
        action.setCheckable(True)
        action.setChecked(audience == exporter.audience)
        group.addAction(action)
        action.triggered.connect(lambda _c=False, a=audience: setattr(exporter, "audience", a))
        window.menu_actions[f"edition_{audience}"] = action

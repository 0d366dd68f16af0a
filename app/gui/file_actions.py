"""Project files from the window: new, open, save, save as, autosave and crash recovery, recent files.

A mixin of `MainWindow`, kept apart so the window module stays about wiring views.
Every question to the user goes through an `ask_*` attribute of the window, so
tests and `--screenshot` answer without a dialog.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QStatusBar, QWidget

from app.editing.fields import new_scenario_json
from app.export.atomic import resolved_path
from app.gui.plain_text import plain_tooltip
from app.gui.project_model import ProjectDocument
from app.services import project_files as files
from models.file_input import FileInputError
from models.scenario import Project, Scenario, ScenarioFileError

if TYPE_CHECKING:
    from app.gui.workers import SizingCoordinator

SaveChoice = Literal["save", "discard", "cancel"]


def _plain_box(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str, *, yes_no: bool = False) -> bool:
    """A message box that shows `text` as text: names and problems from files never render as rich text."""
    box = QMessageBox(parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setIcon(icon)
    box.setWindowTitle(title)
    box.setText(text)
    if yes_no:
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    return box.exec() == QMessageBox.StandardButton.Yes


def ask_save_changes_dialog(parent: QWidget, name: str) -> SaveChoice:
    box = QMessageBox(parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the name comes from the project file
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Unsaved changes")
    box.setText(f"Save the changes to {name}?")
    box.setInformativeText("Your changes are lost if you don't save them.")
    box.setStandardButtons(
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel
    )
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    answer = box.exec()
    if answer == QMessageBox.StandardButton.Save:
        return "save"
    if answer == QMessageBox.StandardButton.Discard:
        return "discard"
    return "cancel"


class ProjectFileActions:
    """What `MainWindow` does with files; it provides the attributes annotated here."""

    doc: ProjectDocument
    coordinator: SizingCoordinator
    settings: QSettings
    data_dir: Path | None
    interactive: bool
    recent_menu: QMenu
    ask_save_changes: Callable[[], SaveChoice]
    ask_open_path: Callable[[], Path | None]
    ask_save_path: Callable[[], Path | None]
    ask_recover: Callable[[Path, Path | None], bool]
    show_error: Callable[[str, str], None]

    if TYPE_CHECKING:  # provided by MainWindow / QMainWindow; declared for type checkers only

        def statusBar(self) -> QStatusBar: ...

        def _update_title(self, *_why: object) -> None: ...

    def _doc_title(self) -> str:
        return self.doc.path.name if self.doc.path else self.doc.name

    def _load(self, project: Project, path: Path | None) -> None:
        self.coordinator.cancel_all()
        self.doc.load(project, path)

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; True when it is fine to drop the current project."""
        if not self.doc.dirty:
            return True
        choice = self.ask_save_changes()
        if choice == "save":
            return self.save()
        return choice == "discard"

    def new_project(self) -> None:
        if not self.maybe_save():
            return
        files.discard_autosave(self.doc.path, self.data_dir)
        first = Scenario.model_validate(new_scenario_json("Scenario"))
        self._load(Project(name="Untitled project", scenarios=[first]), None)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.ask_open_path()
        if path is not None:
            self.open_path(path)

    def open_path(self, path: Path) -> bool:
        path = Path(path)
        source = path
        recovered = False
        autosave = files.recoverable_autosave(path, self.data_dir)
        if autosave is not None and self.interactive and self.ask_recover(path, autosave):
            source, recovered = autosave, True
        try:
            project = files.open_project(source)
        except ScenarioFileError as exc:
            self.show_error("Cannot open the project", "\n".join([str(path), *(str(p) for p in exc.problems)]))
            return False
        self._load(project, path)
        if recovered:
            self.doc.mark_recovered()
            self.statusBar().showMessage(f"Recovered unsaved changes from {autosave}", 8000)
        elif autosave is not None:
            files.discard_autosave(path, self.data_dir)
        self._add_recent(path)
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        path = self.ask_save_path()
        if path is None:
            return False
        return self._save_to(files.with_suffix(path))

    def _save_to(self, path: Path) -> bool:
        project, stale = self.doc.to_project()
        if self.doc.name == "Untitled project":
            self.doc.name = path.name.removesuffix(files.PROJECT_SUFFIX).removesuffix(".json")
            project = project.model_copy(update={"name": self.doc.name})
        try:
            files.save_project(project, path)
        except FileInputError as exc:
            self.show_error("Cannot save the project", "\n".join([str(path), *exc.lines()]))
            return False
        except OSError as exc:
            self.show_error("Cannot save the project", str(exc) if exc.strerror is None else f"{path}: {exc.strerror}")
            return False
        old_path = self.doc.path
        files.discard_autosave(old_path, self.data_dir)
        if stale:
            # invalid fields are not written: the file holds the last valid values, and the window stays dirty
            self.doc.path = path
            self.statusBar().showMessage(
                f"Saved {path.name}; invalid fields in {', '.join(stale)} were saved with their last valid values",
                10000,
            )
        else:
            self.doc.mark_saved(path)
            self.statusBar().showMessage(f"Saved {path}", 5000)
        self._add_recent(path)
        self._update_title()
        return True

    def autosave(self) -> Path | None:
        if not self.doc.dirty:
            return None
        project, _ = self.doc.to_project()
        try:
            return files.write_autosave(project, self.doc.path, self.data_dir)
        except (OSError, FileInputError) as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 8000)
            return None

    def _offer_untitled_recovery(self) -> None:
        orphans = files.orphan_untitled_autosaves(self.data_dir)
        if not orphans:
            return
        newest = max(orphans, key=lambda p: p.stat().st_mtime)
        if self.ask_recover(newest, None):
            try:
                project = files.open_project(newest)
            except ScenarioFileError:
                project = None
            if project is not None:
                self._load(project, None)
                self.doc.mark_recovered()
        for p in orphans:
            with contextlib.suppress(OSError):
                p.unlink()

    # -- recent files ---------------------------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):  # QSettings reads a one-item list back as its item
            return [value]
        return [str(v) for v in value] if isinstance(value, list | tuple) else []

    def _add_recent(self, path: Path) -> None:
        p = str(resolved_path(path))
        recent = [p] + [r for r in self.recent_files() if r != p]
        self.settings.setValue("recentFiles", recent[: files.MAX_RECENT])
        files.remember_folder(self.settings, Path(p))
        self._refresh_recent_menu()

    def _refresh_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for i, p in enumerate(recent):
            a = self.recent_menu.addAction(f"&{i + 1} {Path(p).name}")
            a.setToolTip(plain_tooltip(p))  # a file name may look like markup
            a.triggered.connect(lambda _c=False, p=p: self._open_recent(Path(p)))
        self.recent_menu.setEnabled(bool(recent))

    def _open_recent(self, path: Path) -> None:
        if self.maybe_save():
            self.open_path(path)

    # -- dialogs (replaced in tests) ------------------------------------------------------------------------
    def _dialog_open_path(self) -> Path | None:
        start = str(files.start_folder(self.settings))
        name, _ = QFileDialog.getOpenFileName(self._widget(), "Open project", start, files.PROJECT_FILTER)
        return Path(name) if name else None

    def _dialog_save_path(self) -> Path | None:
        start = str(self.doc.path or files.start_folder(self.settings) / (self.doc.name + files.PROJECT_SUFFIX))
        name, _ = QFileDialog.getSaveFileName(self._widget(), "Save project", start, files.PROJECT_FILTER)
        return Path(name) if name else None

    def _dialog_recover(self, path: Path, autosave: Path | None) -> bool:
        what = f"{path.name} has unsaved changes from a session that ended unexpectedly." if autosave else \
            "An unsaved project from a session that ended unexpectedly was found."
        return _plain_box(self._widget(), QMessageBox.Icon.Question, "Recover unsaved changes?",
                          f"{what}\n\nRecover them?", yes_no=True)

    def _dialog_error(self, title: str, text: str) -> None:
        _plain_box(self._widget(), QMessageBox.Icon.Warning, title, text)  # problems quote the file's text

    def _widget(self) -> QWidget:
        assert isinstance(self, QWidget)
        return self

"""The Measurements page: profiles of the customer's own hardware (gpcheckperf, pgbench, HammerDB) in the catalog.

Import reads every chosen file, detects the tool from its content and stores them under a profile name, all or
none (a refused file is named with its line); the profile's measured rates, links and sweeps with their USL fits
are shown as `refarch measure show` prints them. A scenario uses a profile by naming it in
`platform.measurements`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.gui.plain_text import plain_tooltip
from app.services.catalog_source import CatalogSource
from app.services.errors import ServiceError
from app.services.measurements import profile_document, read_files
from app.views.measurements import profile_lines
from catalog.errors import CatalogError

FILE_FILTER = "Tool output (*.txt *.log *.out *.csv);;All files (*)"
# (paths, profile name, server id or None[, (data drives per host, drive id or None) or None]), or None when the
# user cancels; tests replace it
Drives = tuple[int, str | None]
Asked = tuple[list[str], str, str | None] | tuple[list[str], str, str | None, Drives | None]
AskImport = Callable[[QWidget, Sequence[str], str], Asked | None]


class ImportDialog(QDialog):
    """The profile name and the catalog server the measured hosts are, for the files chosen."""

    def __init__(self, parent: QWidget | None, files: Sequence[str], servers: Sequence[tuple[str, str]],
                 name: str, drives: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import measurements")
        form = QFormLayout(self)
        shown = ", ".join(Path(f).name for f in files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4 else "")
        form.addRow("Files", QLabel(html.escape(shown)))
        self.name = QLineEdit(name)
        self.name.setPlaceholderText("e.g. lab-gen5")
        form.addRow("Profile name", self.name)
        self.server = QComboBox()
        self.server.addItem("(not said)", None)
        for sid, label in servers:
            self.server.addItem(label, sid)
        form.addRow("Measured on server", self.server)
        self.drives = QSpinBox()
        self.drives.setRange(0, 1000)
        self.drives.setSpecialValueText("(not said)")
        self.drives.setToolTip(plain_tooltip("Data drives per measured host: the measured disk rates are compared "
                                             "with the model of this many drives. Not said: the first design's."))
        form.addRow("Data drives per host", self.drives)
        self.drive = QComboBox()
        self.drive.addItem("(not said)", None)
        for did, label in drives:
            self.drive.addItem(label, did)
        form.addRow("Data drive", self.drive)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class MeasurementsPage(QWidget):
    profilesChanged = Signal()

    def __init__(self, source: CatalogSource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.ask_import: AskImport = self._dialog_import
        layout = QVBoxLayout(self)
        intro = QLabel("<b>Measurement profiles</b> — gpcheckperf, pgbench and HammerDB output from the customer's "
                       "own hosts. A scenario sized on a profile (Platform: measurement profiles) uses its measured "
                       "disk, network and throughput in place of the modelled rates.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.profiles = QListWidget()
        self.profiles.setObjectName("measurementProfiles")
        lv.addWidget(self.profiles)
        buttons = QHBoxLayout()
        self.import_button = QPushButton("Import files…")
        self.delete_button = QPushButton("Delete")
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.delete_button)
        lv.addLayout(buttons)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        split.addWidget(left)
        split.addWidget(self.details)
        split.setSizes([220, 760])
        layout.addWidget(split, 1)
        self.import_button.clicked.connect(self._import_clicked)
        self.delete_button.clicked.connect(self._delete_clicked)
        self.profiles.currentTextChanged.connect(self.show_profile)
        self.refresh()

    # -- reading ----------------------------------------------------------------------------------------------
    def refresh(self, select: str | None = None) -> None:
        store = self.source.store
        if store is None:
            self._say("error", f"The catalog cannot be opened: {self.source.open_error or 'it is in memory'}")
            self.import_button.setEnabled(False)
            return
        try:
            names = store.measurement_profile_names()
        except CatalogError as exc:
            self._say("error", str(exc))
            return
        item = self.profiles.currentItem()
        current = select or (item.text() if item is not None else None)
        self.profiles.clear()
        self.profiles.addItems(names)
        self.delete_button.setEnabled(bool(names))
        if names:
            self.profiles.setCurrentRow(names.index(current) if current in names else 0)
        else:
            self.details.setPlainText("No profiles yet: import gpcheckperf, pgbench or HammerDB output.")

    def show_profile(self, name: str) -> None:
        store = self.source.store
        if not name or store is None:
            return
        try:
            doc = profile_document(store.measurement_profile(name))
        except CatalogError as exc:
            self._say("error", str(exc))
            return
        self.details.setPlainText("\n".join(profile_lines(doc)))

    # -- writing ----------------------------------------------------------------------------------------------
    def import_files(self, paths: Sequence[str], name: str, server: str | None, drives: Drives | None = None) -> bool:
        """Read and store `paths` under `name` (all or none), with the measured hosts' data drives when said; True
        when stored, the problems shown when not."""
        from catalog.measurements import MeasuredDrives

        store = self.source.store
        if store is None:
            return False
        try:
            files = read_files(paths)
            report = store.import_measurements(name, files, server,
                                               MeasuredDrives(*drives) if drives is not None else None)
        except ServiceError as exc:
            self._say("error", "\n".join([exc.message, *(str(p) for p in exc.problems)]))
            return False
        except CatalogError as exc:
            self._say("error", str(exc))
            return False
        kinds = ", ".join(f"{f.file_name} ({f.measurement.kind})" for f in files)
        self._say("info", f"{'Created' if report.created else 'Updated'} {report.name}: {kinds}")
        self.refresh(select=report.name)
        self.profilesChanged.emit()
        return True

    def delete_selected(self) -> None:
        item = self.profiles.currentItem()
        store = self.source.store
        if item is None or store is None:
            return
        try:
            store.delete_measurement_profile(item.text())
        except CatalogError as exc:
            self._say("error", str(exc))
            return
        self._say("info", f"Deleted {item.text()}")
        self.refresh()
        self.profilesChanged.emit()

    def _import_clicked(self) -> None:
        item = self.profiles.currentItem()
        asked = self.ask_import(self, [], item.text() if item else "")
        if asked is not None:
            self.import_files(*asked)

    def _delete_clicked(self) -> None:
        self.delete_selected()

    def _dialog_import(self, parent: QWidget, _files: Sequence[str], name: str) -> Asked | None:
        files, _ = QFileDialog.getOpenFileNames(parent, "Import measurements", "", FILE_FILTER)
        if not files:
            return None
        snap = self.source.snapshot
        servers = [(s.id, f"{s.vendor} {s.model}") for s in snap.servers]
        drives = [(d.id, f"{d.vendor} {d.model}") for d in snap.drives]
        dialog = ImportDialog(parent, files, servers, name or Path(files[0]).stem, drives)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        n = dialog.drives.value()  # 0: not said
        said: Drives | None = (n, dialog.drive.currentData()) if n else None
        return list(files), dialog.name.text(), dialog.server.currentData(), said

    def _say(self, kind: str, text: str) -> None:
        """A message above the list (plain text: each line on its own)."""
        color = {"error": "#b00020", "info": "#1b5e20"}.get(kind, "#444")
        shown = "<br>".join(html.escape(line) for line in text.splitlines())
        self.message.setText(f"<span style='color:{color}'>{shown}</span>" if text else "")

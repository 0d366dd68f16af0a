"""The window's "Import VMs": an RVTools or Live Optics export as the databases to consolidate, asking what
`refarch new postgres-consolidation --rvtools/--liveoptics` takes as options (the file, the statistic each VM is
sized on, the comfort factor over it)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.editing.estate_import import COMFORT_DEFAULT, COMFORT_MAX, COMFORT_MIN, SOURCES, STATISTICS, Source
from app.editing.liveoptics import Statistic
from app.formatting import significant
from app.gui.plain_text import plain_tooltip

STATISTIC_LABELS: dict[Statistic, str] = {"peak": "Peak over the collection", "average": "Average over the collection"}
WHAT = {
    "rvtools": "One database per powered-on VM (templates and powered-off VMs left out), sized from what it used when"
               " the export was taken: In Use MiB, CPU MHz and active memory, times the comfort factor.",
    "liveoptics": "One database per powered-on VM (templates and powered-off VMs left out), sized from its CPU,"
                  " memory and IOPS over the collection, times the comfort factor.",
}


class EstateDialog(QDialog):
    """The export file and the sizing options; `accepted` only with a file named."""

    def __init__(self, source: Source, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.setWindowTitle(f"Import VMs from an {SOURCES[source]}" if source == "rvtools"
                            else f"Import VMs from a {SOURCES[source]}")
        what = QLabel(WHAT[source])
        what.setWordWrap(True)
        what.setTextFormat(Qt.TextFormat.PlainText)
        self.path = QLineEdit()
        self.path.setPlaceholderText("RVTools_export_all.xlsx" if source == "rvtools" else "LiveOptics_VMWARE.xlsx")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path, 1)
        file_row.addWidget(browse)
        self.statistic = QComboBox()
        for key in STATISTICS:
            self.statistic.addItem(STATISTIC_LABELS[key], key)
        self.statistic.setToolTip(plain_tooltip("The figure of each VM's CPU, memory and IOPS it is sized on."))
        self.comfort = QDoubleSpinBox()
        self.comfort.setRange(COMFORT_MIN, COMFORT_MAX)
        self.comfort.setSingleStep(0.05)
        self.comfort.setDecimals(2)
        self.comfort.setValue(COMFORT_DEFAULT)
        self.comfort.setSuffix(" x")
        self.comfort.setToolTip(plain_tooltip(
            f"Headroom over the observed use, {significant(COMFORT_MIN)} to {significant(COMFORT_MAX)}: each VM gets"
            " this many times what it used."))
        form = QFormLayout()
        form.addRow("Export file", file_row)
        if source == "liveoptics":  # RVTools holds one snapshot: there is no statistic to choose
            form.addRow("Size each VM on", self.statistic)
        form.addRow("Comfort factor", self.comfort)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.path.textChanged.connect(self._enable)
        lay = QVBoxLayout(self)
        lay.addWidget(what)
        lay.addLayout(form)
        lay.addWidget(self.buttons)
        self._enable()
        self.resize(460, self.sizeHint().height())

    def chosen_statistic(self) -> Statistic:
        key: Statistic = self.statistic.currentData()
        return key

    def _enable(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(self.path.text().strip()))

    def _browse(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, self.windowTitle(), "", "Excel workbooks (*.xlsx);;All files (*)")
        if name:
            self.path.setText(name)

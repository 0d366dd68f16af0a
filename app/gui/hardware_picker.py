"""Pick the server, data drive and NIC from the catalog, or leave the choice to refarch.

Each picker shows the part's key specs and price so an architect can choose in
front of a customer without opening the catalog. "Recommend" stores null: the
engine then picks the part and says why in the rationale.
"""

from __future__ import annotations

import html
import weakref
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QLineEdit, QWidget

from app.editing.draft import Issues, Path, get_in, path_str
from app.editing.fields import PART_FIELDS
from app.formatting import compact, money, number
from app.gui.eliding_combo import ElidingCombo
from app.gui.field_widgets import set_invalid
from app.gui.plain_text import plain_tooltip
from models.hardware import Drive, HardwareCatalog, Nic, Part, PartKind, Server
from models.problems import Problem

RECOMMEND = "Recommend"


def part_title(part: Part) -> str:
    return f"{part.vendor} {part.model}"


def part_specs(part: Part) -> str:
    """One line of the specs that drive a sizing decision, and the list price."""
    price = money(part.price, part.currency, cents=False)
    if isinstance(part, Server):
        return (
            f"{part.sockets} × {part.cpu.model} ({part.cores_total} cores, {part.numa_nodes} NUMA) · "
            f"{part.memory_gib} GiB · {part.data_bays} × {part.data_bay_form_factor} bays · "
            f"{part.rack_u}U · {number(part.max_w)} W max · {price}"
        )
    if isinstance(part, Drive):
        return (
            f"{part.interface} {part.form_factor} · {number(part.capacity_tb)} TB · "
            f"{number(part.seq_read_mb_s)}/{number(part.seq_write_mb_s)} MB/s · "
            f"{compact(part.random_read_iops)} IOPS read · {number(part.watts)} W · {price}"
        )
    if isinstance(part, Nic):
        return f"{part.ports} × {number(part.speed_gbps)} Gb/s · {number(part.watts)} W · {price}"
    return price


class Ordered:
    """The parts of one kind by vendor and model, and where each id sits in that list."""

    def __init__(self, parts: list[Part]) -> None:
        self.parts = sorted(parts, key=lambda p: (p.vendor, p.model))
        self.index = {p.id: i for i, p in enumerate(self.parts)}

    def get(self, part_id: str | None) -> Part | None:
        at = self.index.get(part_id) if part_id is not None else None
        return self.parts[at] if at is not None else None


EMPTY = Ordered([])
_ordered: tuple[weakref.ref[HardwareCatalog], dict[PartKind, Ordered]] | None = None


def parts_in_order(catalog: HardwareCatalog) -> dict[PartKind, Ordered]:
    """The parts of each picker's kind as the pickers list them, for the latest catalog only.

    A worker thread that reads a new catalog calls this before handing it over, so the UI thread does not sort and
    index 100,000 NICs when it shows it; a catalog read elsewhere is sorted on first use.
    """
    global _ordered
    cached = _ordered
    if cached is not None and cached[0]() is catalog:
        return cached[1]
    kinds = {kind for _path, kind, _label in PART_FIELDS}
    lists = {kind: Ordered(catalog.of_kind(kind)) for kind in kinds}
    _ordered = (weakref.ref(catalog), lists)
    return lists


class PartChoices(QAbstractListModel):
    """The combo's entries: Recommend, the parts, and a chosen id the catalog lacks. Each entry's text is made when
    Qt asks for it, so a catalog of 100,000 NICs costs the UI thread a list swap, not 100,000 formatted items."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parts: list[Part] = []
        self.missing: str | None = None
        self._rows: dict[str, int] = {}  # id -> index in parts

    def set_choices(self, parts: list[Part], index: dict[str, int] | None, missing: str | None) -> None:
        """`index`: where each id sits in `parts` when it is known already (None: indexed here)."""
        self.beginResetModel()
        self.parts, self.missing = parts, missing
        self._rows = index if index is not None else {p.id: i for i, p in enumerate(parts)}
        self.endResetModel()

    def row_of(self, part_id: str | None) -> int:
        """The row showing `part_id` (0, Recommend, for None or an id not shown)."""
        if part_id is None:
            return 0
        if part_id == self.missing:
            return len(self.parts) + 1
        at = self._rows.get(part_id)
        return at + 1 if at is not None else 0

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 1 + len(self.parts) + (self.missing is not None)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = index.row()
        if not index.isValid() or not 0 <= row < self.rowCount():
            return None
        if row == 0:
            return RECOMMEND if role == Qt.ItemDataRole.DisplayRole else None
        if row > len(self.parts):
            if role == Qt.ItemDataRole.DisplayRole:
                return f"'{self.missing}' (not in the catalog)"
            return self.missing if role == Qt.ItemDataRole.UserRole else None
        part = self.parts[row - 1]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{part_title(part)}  ·  {money(part.price, part.currency, cents=False)}"
        if role == Qt.ItemDataRole.UserRole:
            return part.id
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(f"{part.id}\n{part_specs(part)}")
        return None


class PartPicker(QWidget):
    """Filter box + combo for one kind; emits the chosen id (None = recommend)."""

    chosen = Signal(tuple, object)

    def __init__(self, path: Path, kind: PartKind, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.kind = kind
        self.ordered = EMPTY
        self._value: str | None = None
        self._picked: str | None = None  # what the engine chose while the field says Recommend
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("filter by vendor, model, specs…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(lambda _t: self._repopulate())
        self.combo = ElidingCombo()  # a long part name ends in "…", whole in the tooltip
        self.choices = PartChoices(self)
        self.combo.setModel(self.choices)
        self.combo.setObjectName("field:" + path_str(path))
        self.combo.setMinimumContentsLength(16)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.activated.connect(self._activated)
        self.specs = QLabel()
        self.specs.setObjectName("partSpecs")
        self.specs.setWordWrap(True)
        self.specs.setTextFormat(Qt.TextFormat.RichText)
        self.error_label = QLabel()
        self.error_label.setObjectName("fieldError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote ids from files
        self.error_label.hide()
        self.combo.shownTextChanged.connect(self._whole_name_in_tooltip)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(3)
        # the filter sits on the title row (HardwarePicker places it); the combo gets the full width
        grid.addWidget(self.combo, 0, 0)
        grid.addWidget(self.specs, 1, 0)
        grid.addWidget(self.error_label, 2, 0)
        self.filter.setMaximumWidth(170)

    def set_catalog(self, catalog: HardwareCatalog | None) -> None:
        self.ordered = parts_in_order(catalog)[self.kind] if catalog else EMPTY
        self._repopulate()

    def _matches(self, part: Part, needle: str) -> bool:
        hay = f"{part.id} {part_title(part)} {part_specs(part)}".lower()
        return all(word in hay for word in needle.lower().split())

    def _repopulate(self) -> None:
        needle = self.filter.text().strip()
        self.combo.blockSignals(True)
        parts = self.ordered.parts
        missing = self._value if self._value is not None and self._value not in self.ordered.index else None
        if needle:
            self.choices.set_choices([p for p in parts if self._matches(p, needle) or p.id == self._value], None,
                                     missing)
        else:
            self.choices.set_choices(parts, self.ordered.index, missing)
        self.combo.setCurrentIndex(self.choices.row_of(self._value))
        self.combo.blockSignals(False)
        self._show_specs()

    def _activated(self, index: int) -> None:
        value = self.combo.itemData(index)
        if value != self._value:
            self._value = value
            self._show_specs()
            self.chosen.emit(self.path, value)

    def _show_specs(self) -> None:
        part, picked = self.ordered.get(self._value), self.ordered.get(self._picked)
        if self._value is None and picked is not None:
            self.specs.setText(f"refarch picked <b>{html.escape(part_title(picked))}</b> · "
                               f"{html.escape(part_specs(picked))}")
        elif self._value is None:
            self.specs.setText("refarch picks the part that meets the targets at the lowest cost")
        elif part is None:
            self.specs.setText(f"id '{html.escape(self._value)}' is not in the open catalog")
        else:
            self.specs.setText(f"{html.escape(part.id)} · {html.escape(part_specs(part))}")

    def show_value(self, value: Any) -> None:
        value = value if isinstance(value, str) and value else None
        if value != self._value or self.combo.currentData() != value:
            self._value = value
            self._repopulate()

    def value(self) -> str | None:
        return self._value

    def show_picked(self, part_id: str | None) -> None:
        self._picked = part_id
        self._show_specs()

    def _whole_name_in_tooltip(self) -> None:
        whole = self.combo.currentText() if self.combo.is_elided() else ""
        self.combo.setProperty("helpText", whole)
        if not self.error_label.text():
            self.combo.setToolTip(plain_tooltip(whole) if whole else "")

    def show_error(self, message: str | None) -> None:
        set_invalid(self.combo, message)
        self.error_label.setText(message or "")
        self.error_label.setVisible(bool(message))


class HardwarePicker(QWidget):
    edited = Signal(tuple, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(10)
        self.pickers: dict[str, PartPicker] = {}
        for row, (path, kind, label) in enumerate(PART_FIELDS):
            picker = PartPicker(path, kind, self)
            picker.chosen.connect(self.edited)
            self.pickers[path_str(path)] = picker
            title = QLabel(label)
            title.setObjectName("pickerLabel")
            grid.addWidget(title, row * 2, 0)
            grid.addWidget(picker.filter, row * 2, 1)
            grid.addWidget(picker, row * 2 + 1, 0, 1, 2)

    def set_catalog(self, catalog: HardwareCatalog | None) -> None:
        for picker in self.pickers.values():
            picker.set_catalog(catalog)

    def show_draft(self, draft: dict[str, Any]) -> None:
        for picker in self.pickers.values():
            picker.show_value(get_in(draft, picker.path))

    def show_picked(self, picked: dict[str, str | None]) -> None:
        for key, picker in self.pickers.items():
            picker.show_picked(picked.get(key))

    def show_issues(self, issues: Issues, sizing_problems: list[Problem] | None = None) -> None:
        for key, picker in self.pickers.items():
            msg = issues.by_field.get(key)
            if msg is None and sizing_problems:
                msg = "; ".join(p.message for p in sizing_problems if p.path == key) or None
            picker.show_error(msg)

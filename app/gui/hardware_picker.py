"""Pick the server, data drive and NIC from the catalog, or leave the choice to refarch.

Each picker shows the part's key specs and price so an architect can choose in
front of a customer without opening the catalog. "Recommend" stores null: the
engine then picks the part and says why in the rationale.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QLineEdit, QWidget

from app.formatting import compact, money, number
from app.gui.draft import Issues, Path, get_in, path_str
from app.gui.field_widgets import set_invalid
from app.gui.fields import PART_FIELDS
from app.gui.plain_text import plain_tooltip
from models.hardware import Drive, HardwareCatalog, Nic, Part, Server
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


class PartPicker(QWidget):
    """Filter box + combo for one kind; emits the chosen id (None = recommend)."""

    chosen = Signal(tuple, object)

    def __init__(self, path: Path, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.kind = kind
        self.parts: list[Part] = []
        self._value: str | None = None
        self._picked: str | None = None  # what the engine chose while the field says Recommend
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("filter by vendor, model, specs…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(lambda _t: self._repopulate())
        self.combo = QComboBox()
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
        self.parts = sorted(catalog.of_kind(self.kind), key=lambda p: (p.vendor, p.model)) if catalog else []  # type: ignore[arg-type]
        self._repopulate()

    def _matches(self, part: Part, needle: str) -> bool:
        hay = f"{part.id} {part_title(part)} {part_specs(part)}".lower()
        return all(word in hay for word in needle.lower().split())

    def _repopulate(self) -> None:
        needle = self.filter.text().strip()
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(RECOMMEND, None)
        shown = [p for p in self.parts if not needle or self._matches(p, needle) or p.id == self._value]
        for part in shown:
            self.combo.addItem(f"{part_title(part)}  ·  {money(part.price, part.currency, cents=False)}", part.id)
            self.combo.setItemData(self.combo.count() - 1, plain_tooltip(f"{part.id}\n{part_specs(part)}"),
                                   Qt.ItemDataRole.ToolTipRole)
        if self._value is not None and all(p.id != self._value for p in self.parts):
            self.combo.addItem(f"'{self._value}' (not in the catalog)", self._value)
        self.combo.setCurrentIndex(max(0, self.combo.findData(self._value)))
        self.combo.blockSignals(False)
        self._show_specs()

    def _activated(self, index: int) -> None:
        value = self.combo.itemData(index)
        if value != self._value:
            self._value = value
            self._show_specs()
            self.chosen.emit(self.path, value)

    def _show_specs(self) -> None:
        part = next((p for p in self.parts if p.id == self._value), None)
        picked = next((p for p in self.parts if p.id == self._picked), None)
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

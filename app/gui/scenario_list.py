"""The project's scenarios on the side: pick one to edit, select several to compare.

The list shows each scenario's name, its workload and (once sized) its headline
numbers, so an architect can see the options at a glance.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

UID_ROLE = Qt.ItemDataRole.UserRole
SUBTITLE_ROLE = Qt.ItemDataRole.UserRole + 1
INVALID_ROLE = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex


class _ScenarioDelegate(QStyledItemDelegate):
    """Name in bold, a grey line of headline numbers under it, a red mark when the input is invalid."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(option.rect.width(), 46)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        rect = option.rect
        if selected:
            painter.fillRect(rect, QColor("#dbe8fd"))
        elif option.state & QStyle.StateFlag.State_MouseOver:
            painter.fillRect(rect, QColor("#f1f5fb"))
        if index.data(INVALID_ROLE):
            painter.setBrush(QColor("#e03131"))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawEllipse(rect.right() - 16, rect.top() + 10, 8, 8)
        title_font = QFont(option.font)
        title_font.setBold(True)
        painter.setFont(title_font)
        painter.setPen(QColor("#1f2933"))
        inner = rect.adjusted(10, 5, -22, -4)
        name = painter.fontMetrics().elidedText(str(index.data(Qt.ItemDataRole.DisplayRole) or ""),
                                                Qt.TextElideMode.ElideRight, inner.width())
        painter.drawText(QRect(inner.left(), inner.top(), inner.width(), 18), Qt.AlignmentFlag.AlignVCenter, name)
        sub_font = QFont(option.font)
        sub_font.setPointSizeF(max(7.0, option.font.pointSizeF() - 1))
        painter.setFont(sub_font)
        painter.setPen(QColor("#616e7c"))
        sub = painter.fontMetrics().elidedText(str(index.data(SUBTITLE_ROLE) or ""), Qt.TextElideMode.ElideRight,
                                               inner.width())
        painter.drawText(QRect(inner.left(), inner.top() + 19, inner.width(), 16), Qt.AlignmentFlag.AlignVCenter, sub)
        painter.setPen(QColor("#e4e7eb"))
        painter.drawLine(rect.left() + 6, rect.bottom(), rect.right() - 6, rect.bottom())
        painter.restore()


class ScenarioList(QWidget):
    currentChanged = Signal(str)
    selectionChanged = Signal(list)
    addRequested = Signal()
    duplicateRequested = Signal(str)
    renameRequested = Signal(str, str)
    deleteRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._filling = False
        title = QLabel("Scenarios")
        title.setObjectName("paneTitle")
        self.list = QListWidget()
        self.list.setObjectName("scenarioList")
        self.list.setItemDelegate(_ScenarioDelegate(self.list))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.list.setMouseTracking(True)
        self.list.currentItemChanged.connect(self._current_changed)
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.list.itemChanged.connect(self._item_changed)
        buttons = QGridLayout()
        buttons.setSpacing(4)
        self.buttons: dict[str, QToolButton] = {}
        for key, text, tip in (
            ("add", "Add", "Add a scenario"),
            ("duplicate", "Duplicate", "Copy the current scenario to try a variant"),
            ("rename", "Rename", "Rename the current scenario (or double-click it)"),
            ("delete", "Delete", "Delete the current scenario (undo brings it back)"),
        ):
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            buttons.addWidget(b, len(self.buttons) // 2, len(self.buttons) % 2)
            self.buttons[key] = b
        self.buttons["add"].clicked.connect(self.addRequested)
        self.buttons["duplicate"].clicked.connect(lambda: self._with_current(self.duplicateRequested.emit))
        self.buttons["rename"].clicked.connect(self.start_rename)
        self.buttons["delete"].clicked.connect(lambda: self._with_current(self.deleteRequested.emit))
        hint = QLabel("Ctrl+click to select scenarios to compare")
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 8, 4, 8)
        lay.addWidget(title)
        lay.addWidget(self.list, 1)
        lay.addLayout(buttons)
        lay.addWidget(hint)

    # -- filling ----------------------------------------------------------------------------------------
    def set_entries(self, rows: list[tuple[str, str, str, bool]]) -> None:
        """(uid, name, subtitle, invalid) per scenario, in project order; keeps the current one if it stays."""
        current = self.current_uid()
        selected = set(self.selected_uids())
        self._filling = True
        try:
            self.list.clear()
            for uid, name, subtitle, invalid in rows:
                item = QListWidgetItem(name)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                item.setData(UID_ROLE, uid)
                item.setData(SUBTITLE_ROLE, subtitle)
                item.setData(INVALID_ROLE, invalid)
                self.list.addItem(item)
                if uid in selected:
                    item.setSelected(True)
        finally:
            self._filling = False
        if current and self._item(current) is not None:
            self.select(current, emit=False)

    def update_entry(self, uid: str, name: str, subtitle: str, invalid: bool) -> None:
        item = self._item(uid)
        if item is None:
            return
        self._filling = True
        try:
            if item.text() != name:
                item.setText(name)
            item.setData(SUBTITLE_ROLE, subtitle)
            item.setData(INVALID_ROLE, invalid)
        finally:
            self._filling = False

    def select(self, uid: str, emit: bool = True) -> None:
        item = self._item(uid)
        if item is None:
            return
        was = self._filling
        self._filling = not emit
        try:
            if self.list.currentItem() is not item:
                self.list.setCurrentItem(item)
        finally:
            self._filling = was

    def select_only(self, uid: str) -> None:
        """Make `uid` current and the only selected scenario (clearing a Ctrl+click multi-selection)."""
        item = self._item(uid)
        if item is None:
            return
        was = self._filling
        self._filling = True
        try:
            self.list.clearSelection()
            self.list.setCurrentItem(item)
            item.setSelected(True)
        finally:
            self._filling = was
        self.selectionChanged.emit(self.selected_uids())

    # -- reading ----------------------------------------------------------------------------------------
    def current_uid(self) -> str | None:
        item = self.list.currentItem()
        return item.data(UID_ROLE) if item else None

    def selected_uids(self) -> list[str]:
        items = sorted(self.list.selectedItems(), key=self.list.row)
        return [i.data(UID_ROLE) for i in items]

    def _item(self, uid: str) -> QListWidgetItem | None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(UID_ROLE) == uid:
                return item
        return None

    def _with_current(self, fn: object) -> None:
        uid = self.current_uid()
        if uid is not None and callable(fn):
            fn(uid)

    def start_rename(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.list.editItem(item)

    # -- events -----------------------------------------------------------------------------------------
    def _current_changed(self, current: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        if not self._filling and current is not None:
            self.currentChanged.emit(current.data(UID_ROLE))

    def _selection_changed(self) -> None:
        if not self._filling:
            self.selectionChanged.emit(self.selected_uids())

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        name = item.text().strip()
        self.renameRequested.emit(item.data(UID_ROLE), name)

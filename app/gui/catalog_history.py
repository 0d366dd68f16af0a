"""The catalog's history in the window: who changed what, when and from which file, and reverting one change.

A table of change sets (newest first; or the changes of one part), the selected change's rows with their fields
before and after, and "Revert this change", which the store refuses (naming the rows) when any of them changed
since.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from catalog.errors import CatalogError, InvalidRowsError

if TYPE_CHECKING:
    from catalog.history import ChangeSet, RowChange
    from catalog.store import CatalogStore

COLUMNS = ("Change", "When", "Who", "Action", "Rows", "Source", "Note")


def change_text(changes: list[RowChange]) -> str:
    """The rows of one change as HTML: each row added, deleted or changed, with its fields before -> after."""
    if not changes:
        return "<i>No rows.</i>"
    out = []
    for c in changes:
        what = "added" if c.before is None else "deleted" if c.after is None else "changed"
        fields = "".join(f"<li>{html.escape(n)}: {html.escape(repr(b))} → {html.escape(repr(a))}</li>"
                         for n, b, a in c.fields()) if what == "changed" else ""
        out.append(f"<p><b>{html.escape(c.kind)} {html.escape(c.row_id)}</b> {what}</p>"
                   + (f"<ul>{fields}</ul>" if fields else ""))
    return "".join(out)


class CatalogHistoryDialog(QDialog):
    """The history of the catalog (or of one part), with a revert of the selected change."""

    reverted = Signal()

    def __init__(self, store: CatalogStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("catalogHistory")
        self.setWindowTitle("Catalog history")
        self.store = store
        self.sets: list[ChangeSet] = []
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("historyTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._show_selected)
        self.details = QTextBrowser()
        self.details.setObjectName("historyDetails")
        self.message = QLabel()
        self.message.setObjectName("historyMessage")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.RichText)
        self.revert_btn = QPushButton("Revert this change")
        self.revert_btn.setObjectName("historyRevert")
        self.revert_btn.setEnabled(False)
        self.revert_btn.clicked.connect(self.revert_selected)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.revert_btn)
        row.addStretch(1)
        row.addWidget(buttons)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table, 2)
        lay.addWidget(self.details, 1)
        lay.addWidget(self.message)
        lay.addLayout(row)
        self.resize(900, 560)
        self.reload()

    def reload(self) -> None:
        try:
            self.sets = self.store.change_sets()
        except CatalogError as exc:
            self.message.setText(html.escape(str(exc)))
            self.sets = []
        self.table.setRowCount(len(self.sets))
        for i, s in enumerate(self.sets):
            note = f"reverted by {s.reverted_by}" if s.reverted_by else f"reverts {s.reverts}" if s.reverts else ""
            cells = (str(s.id), f"{s.at:%Y-%m-%d %H:%M:%S}", s.who, s.action, str(s.rows), s.source or "", note)
            for col, text in enumerate(cells):
                self.table.setItem(i, col, QTableWidgetItem(text))
        if self.sets:
            self.table.selectRow(0)
        else:
            self.details.setHtml("<i>No recorded change yet.</i>")

    def selected(self) -> ChangeSet | None:
        rows = self.table.selectionModel().selectedRows()
        return self.sets[rows[0].row()] if rows else None

    def _show_selected(self) -> None:
        change = self.selected()
        self.revert_btn.setEnabled(change is not None and change.reverted_by is None)
        if change is None:
            return
        try:
            self.details.setHtml(change_text(self.store.changes_of(change.id)))
        except CatalogError as exc:
            self.details.setHtml(html.escape(str(exc)))

    def revert_selected(self) -> bool:
        """Revert the selected change; True when it was reverted (the message says why not otherwise)."""
        change = self.selected()
        if change is None:
            return False
        try:
            done = self.store.revert(change.id)
        except InvalidRowsError as exc:
            lines = "<br>".join(html.escape(x) for x in exc.lines()[:12])
            self.message.setText(f"<b>{html.escape(str(exc))}</b><br>{lines}")
            return False
        except CatalogError as exc:
            self.message.setText(html.escape(str(exc)))
            return False
        self.message.setText(f"Reverted change {done.change_set}: {done.rows} row(s) back as they were.")
        self.reload()
        self.reverted.emit()
        return True

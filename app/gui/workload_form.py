"""The workload part of the form: a kind selector and the fields of that kind."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QKeyEvent, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.editing.draft import Issues, path_str, shown_value
from app.editing.estate_import import SOURCES
from app.editing.fields import NEW_PG_DATABASE, PG_DATABASE_COLUMNS, PG_DATABASE_OPTIONAL, WORKLOAD_FIELDS
from app.gui.field_widgets import FieldEditor, add_rows, format_value, new_form_layout, parse_number
from app.gui.plain_text import plain_tooltip
from models.field_words import FIELDS
from models.vocabulary import WORKLOAD_KINDS, kind_label

if TYPE_CHECKING:
    from app.editing.estate_import import Source
    from app.editing.liveoptics import Statistic
    from models.sizing.result import UsedValue

INVALID_CELL = QColor("#ffe3e3")
# what the engine used in an empty optional cell: the number only, the header gives the unit
PLACEHOLDER_ROLE = Qt.ItemDataRole.UserRole + 1


class _PlaceholderDelegate(QStyledItemDelegate):
    """Draws an empty cell's placeholder in the placeholder grey, as a line edit does, and gives it to the
    cell's editor: the cell says what the engine used until the user types a value."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        hint = index.data(PLACEHOLDER_ROLE)
        if hint and not option.text:
            option.text = str(hint)
            grey = option.palette.color(QPalette.ColorRole.PlaceholderText)
            option.palette.setColor(QPalette.ColorRole.Text, grey)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        editor = super().createEditor(parent, option, index)
        if isinstance(editor, QLineEdit):
            editor.setPlaceholderText(str(index.data(PLACEHOLDER_ROLE) or ""))
        return editor


class _PastingTable(QTableWidget):
    """A table that hands Ctrl+V (the platform's paste keys) to its owner; a cell being edited pastes into its own
    editor, which has the keyboard then."""

    pasteRequested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Paste):
            self.pasteRequested.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class DatabasesTable(QWidget):
    """The PostgreSQL databases to consolidate: one row each, edited in place, imported or pasted."""

    edited = Signal(tuple, object)
    replaced = Signal(tuple, object, str)  # an import or a paste: one undo step of its own

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._showing = False
        self._rows: list[dict[str, Any]] = []
        self._used: dict[str, UsedValue] = {}  # "workload.databases[0].peak_tps" -> what the engine used
        self._errors: dict[str, str] = {}
        self.table = _PastingTable(0, len(PG_DATABASE_COLUMNS))
        self.table.setObjectName("pgDatabases")
        self.table.setItemDelegate(_PlaceholderDelegate(self.table))
        for c, (key, header, _) in enumerate(PG_DATABASE_COLUMNS):
            item = QTableWidgetItem(header)
            info = FIELDS[f"workload.databases[].{key}"]
            empty = "; left empty: the engine's estimate, in grey" if key in PG_DATABASE_OPTIONAL else ""
            item.setToolTip(plain_tooltip(f"{info.text}{': ' + info.help if info.help else ''}{empty}"))
            self.table.setHorizontalHeaderItem(c, item)
        # the numbers take what their headers need, the names the rest
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setMinimumHeight(150)
        self.table.itemChanged.connect(self._item_changed)
        add = QPushButton("Add database")
        remove = QPushButton("Remove selected")
        add.clicked.connect(self._add)
        remove.clicked.connect(self._remove)
        self.import_button = QPushButton("Import databases…")
        self.import_button.setToolTip(plain_tooltip(
            "Replace the databases with an inventory (CSV or XLSX, one row each): the header names the columns"
            " name, size, peak clients, working set (sizes with their unit, as 'Size (GB)'), and optionally peak"
            " TPS and busy hours (as 9-17). Ctrl+V in the table pastes rows copied from a spreadsheet from the"
            " current row down, or, right of the Database column, cells into the cells from the current one. A bad"
            " row is named and nothing is imported; Undo takes an import back."))
        self.import_button.clicked.connect(self._import_dialog)
        self.estate_button = QPushButton("Import VMs…")
        self.estate_button.setToolTip(plain_tooltip(
            "Replace the databases with the VMs of the current estate: an RVTools or Live Optics export, one database"
            " per powered-on VM, right-sized from what it used times a comfort factor. A bad sheet, row or column is"
            " named and nothing is imported; Undo takes an import back."))
        estate_menu = QMenu(self.estate_button)
        self.estate_actions = {
            source: estate_menu.addAction(f"From {'an' if source == 'rvtools' else 'a'} {label}…")
            for source, label in SOURCES.items()}
        for source, action in self.estate_actions.items():
            action.triggered.connect(lambda _=False, s=source: self._estate_dialog(s))
        self.estate_button.setMenu(estate_menu)
        self.table.pasteRequested.connect(lambda: self.paste_text(QGuiApplication.clipboard().text()))
        self.import_message = QLabel()
        self.import_message.setWordWrap(True)
        self.import_message.setTextFormat(Qt.TextFormat.PlainText)
        self.import_message.hide()
        self.message = QLabel()
        self.message.setObjectName("fieldError")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # messages quote values from files
        self.message.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        importing = QHBoxLayout()  # a row of its own: the form panel is about 310 pixels wide
        importing.addWidget(self.import_button)
        importing.addWidget(self.estate_button)
        importing.addStretch(1)
        paste_hint = QLabel("or paste rows copied from a spreadsheet (Ctrl+V)")
        paste_hint.setObjectName("hint")
        paste_hint.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Databases to consolidate"))
        lay.addWidget(self.table)
        lay.addLayout(buttons)
        lay.addLayout(importing)
        lay.addWidget(paste_hint)
        lay.addWidget(self.message)
        lay.addWidget(self.import_message)

    def show_rows(self, rows: list[dict[str, Any]]) -> None:
        self._rows = [dict(r) for r in rows] if isinstance(rows, list) else []
        self._showing = True
        try:
            self.table.setRowCount(len(self._rows))
            for r, row in enumerate(self._rows):
                for c, (key, _, _) in enumerate(PG_DATABASE_COLUMNS):
                    item = self.table.item(r, c)
                    text = format_value(row.get(key))
                    if item is None:
                        self.table.setItem(r, c, QTableWidgetItem(text))
                    elif item.text() != text:
                        item.setText(text)
            self._mark_cells()
        finally:
            self._showing = False

    def show_used(self, used: dict[str, UsedValue]) -> None:
        """What the engine used for the empty optional cells (`app.export.engine_values.used_values`)."""
        self._used = {k: v for k, v in used.items() if k.startswith("workload.databases[")}
        self._showing = True
        try:
            self._mark_cells()
        finally:
            self._showing = False

    def show_issues(self, issues: Issues) -> None:
        self._errors = {k: v for k, v in issues.by_field.items() if k.startswith("workload.databases[")}
        self._showing = True
        try:
            self._mark_cells()
        finally:
            self._showing = False
        own = [m for p, m in issues.by_field.items() if p == "workload.databases"]
        self.message.setText("; ".join(own))
        self.message.setVisible(bool(own))

    def _mark_cells(self) -> None:
        """Each cell's error (red, in its tooltip) or, empty, what the engine used (grey, in its tooltip)."""
        for r in range(self.table.rowCount()):
            for c, (key, _, _) in enumerate(PG_DATABASE_COLUMNS):
                item = self.table.item(r, c)
                if item is None:
                    continue
                path = f"workload.databases[{r}].{key}"
                msg = self._errors.get(path)
                used = self._used.get(path) if key in PG_DATABASE_OPTIONAL else None
                item.setBackground(QBrush(INVALID_CELL) if msg else QBrush())
                item.setData(PLACEHOLDER_ROLE, self._figure(used) if used else None)
                item.setToolTip(plain_tooltip(msg or (self._left_empty(used) if used and not item.text() else "")))

    @staticmethod
    def _figure(used: UsedValue) -> str:
        from app.export.engine_values import used_figure  # loaded with the first result already

        return used_figure(used)

    @staticmethod
    def _left_empty(used: UsedValue) -> str:
        from app.export.engine_values import estimated_tps_source, used_text  # loaded with the first result already

        return f"Left empty: {used_text(used)}, at {estimated_tps_source()}"

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if self._showing:
            return
        key, _, kind = PG_DATABASE_COLUMNS[item.column()]
        value = item.text() if kind == "text" else parse_number(item.text(), kind, key in PG_DATABASE_OPTIONAL)
        self.edited.emit(("workload", "databases", item.row(), key), value)

    def _add(self) -> None:
        names = {str(r.get("name")) for r in self._rows}
        n = len(self._rows) + 1
        while f"db{n}" in names:
            n += 1
        self.edited.emit(("workload", "databases"), [*self._rows, dict(NEW_PG_DATABASE, name=f"db{n}")])

    def _import_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Import databases", "", "Inventories (*.csv *.xlsx);;All files (*)")
        if name:
            self.import_file(name)

    def import_file(self, name: str) -> bool:
        """Replace the databases with an inventory file's; False, with every bad row named, when nothing is."""
        from pathlib import Path

        from app.editing.inventory import InventoryError, read_inventory

        try:
            rows = read_inventory(Path(name))
        except InventoryError as exc:
            return self._refused(f"Nothing imported from {Path(name).name}", exc.lines())
        said = f"Imported {len(rows)} database{'s' if len(rows) != 1 else ''} from {Path(name).name}"
        self.replaced.emit(("workload", "databases"), rows, said)
        return self._said(said + ".")

    def _estate_dialog(self, source: Source) -> None:
        from app.gui.estate_dialog import EstateDialog

        dialog = EstateDialog(source, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.import_estate(dialog.path.text().strip(), source, dialog.comfort.value(), dialog.chosen_statistic())

    def import_estate(self, name: str, source: Source, comfort: float, statistic: Statistic = "peak") -> bool:
        """Replace the databases with an RVTools or Live Optics export's VMs, right-sized at `comfort` x their use
        (`statistic`: Live Optics' peak or average); False, with every bad sheet, row and column named, when nothing
        is imported."""
        from pathlib import Path

        from app.editing.estate_import import import_estate
        from app.editing.table_files import RowsError

        try:
            done = import_estate(Path(name), source, comfort, statistic)
        except RowsError as exc:
            return self._refused(f"Nothing imported from {Path(name).name}", exc.lines())
        except OSError as exc:
            return self._refused(f"Nothing imported from {Path(name).name}", [exc.strerror or str(exc)])
        n = len(done.databases)
        said = f"Imported {n} VM{'s' if n != 1 else ''} as databases from {Path(name).name}"
        self.replaced.emit(("workload", "databases"), done.databases, said)
        more = f" And {len(done.notes) - 3} more." if len(done.notes) > 3 else ""
        return self._said(" ".join([done.summary, *(f"{n}." for n in done.notes[:3])]) + more)

    def paste_text(self, text: str) -> bool:
        """Rows copied from a spreadsheet replace the rows from the current one down (a copied header row says
        which columns they are; without one they are the table's, sizes in GB); cells without a header pasted right
        of the Database column replace the cells they land on, as a spreadsheet pastes."""
        from app.editing.inventory import InventoryError, databases_from_text, has_header, paste_cells, paste_into

        at = self.table.currentRow() if self.table.currentRow() >= 0 else None
        keys = [key for key, _, _ in PG_DATABASE_COLUMNS]
        try:
            if at is not None and self.table.currentColumn() > 0 and not has_header(text):
                rows = paste_cells(self._rows, text, (at, self.table.currentColumn()), keys)
                self.replaced.emit(("workload", "databases"), rows, "Pasted cells")
                return self._said("Pasted cells.")
            pasted = databases_from_text(text, keys)
            rows = paste_into(self._rows, pasted, at)
        except InventoryError as exc:
            return self._refused("Nothing pasted", exc.lines())
        said = f"Pasted {len(pasted)} database{'s' if len(pasted) != 1 else ''}"
        self.replaced.emit(("workload", "databases"), rows, said)
        return self._said(said + ".")

    def _refused(self, what: str, lines: list[str]) -> bool:
        shown = lines[:8] + ([f"and {len(lines) - 8} more"] if len(lines) > 8 else [])
        self.import_message.setObjectName("fieldError")
        self.import_message.setText(f"{what}:\n" + "\n".join(shown))
        self._restyle()
        return False

    def _said(self, text: str) -> bool:
        self.import_message.setObjectName("")
        self.import_message.setText(text)
        self._restyle()
        return True

    def _restyle(self) -> None:
        self.import_message.style().unpolish(self.import_message)
        self.import_message.style().polish(self.import_message)
        self.import_message.show()

    def _remove(self) -> None:
        doomed = {i.row() for i in self.table.selectedIndexes()}
        if doomed:
            self.edited.emit(("workload", "databases"), [r for i, r in enumerate(self._rows) if i not in doomed])


class WorkloadForm(QWidget):
    edited = Signal(tuple, object)
    replaced = Signal(tuple, object, str)
    kindChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("field:workload.kind")
        self.kind_combo.setMinimumContentsLength(14)
        self.kind_combo.setToolTip("The kind of workload; switching keeps data volume, growth and horizon")
        self.kind_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.kind_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        for kind in WORKLOAD_KINDS:
            self.kind_combo.addItem(kind_label(kind), kind)
        self.kind_combo.activated.connect(lambda i: self.kindChosen.emit(self.kind_combo.itemData(i)))
        self.kind_error = QLabel()
        self.kind_error.setObjectName("fieldError")
        self.kind_error.setTextFormat(Qt.TextFormat.PlainText)
        self.kind_error.hide()
        self.pages = QStackedWidget()
        self.editors: dict[str, dict[str, FieldEditor]] = {}
        self.databases = DatabasesTable()
        self.databases.edited.connect(self.edited)
        self.databases.replaced.connect(self.replaced)
        for kind in WORKLOAD_KINDS:
            page = QWidget()
            form = new_form_layout()
            form.setContentsMargins(0, 0, 0, 0)
            editors = add_rows(form, WORKLOAD_FIELDS[kind], page)
            for e in editors:
                e.edited.connect(self.edited)
            self.editors[kind] = {path_str(e.path): e for e in editors}
            box = QVBoxLayout(page)
            box.setContentsMargins(0, 0, 0, 0)
            if kind == "postgres-consolidation":
                box.addWidget(self.databases)
            box.addLayout(form)
            box.addStretch(1)
            self.pages.addWidget(page)
        top = new_form_layout()
        top.setContentsMargins(0, 0, 0, 0)
        # the kind names are long ("Greenplum analytics (MPP data warehouse)"): the choice gets the whole row
        kind_label_widget = QLabel("Workload")
        kind_label_widget.setBuddy(self.kind_combo)
        top.addRow(kind_label_widget)
        top.addRow(self.kind_combo)
        top.addRow("", self.kind_error)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.pages)
        self._kind = WORKLOAD_KINDS[0]
        self._show_page(0)

    def _show_page(self, index: int) -> None:
        # a stacked widget is as tall as its tallest page; ignoring hidden pages' size removes the gap
        for i in range(self.pages.count()):
            policy = QSizePolicy.Policy.Preferred if i == index else QSizePolicy.Policy.Ignored
            page = self.pages.widget(i)
            assert page is not None  # i < count()
            page.setSizePolicy(policy, policy)
        self.pages.setCurrentIndex(index)
        self.pages.updateGeometry()

    @property
    def kind(self) -> str:
        return self._kind

    def current_editors(self) -> dict[str, FieldEditor]:
        return self.editors.get(self._kind, {})

    def show_draft(self, draft: dict[str, Any]) -> None:
        workload = draft.get("workload") if isinstance(draft.get("workload"), dict) else {}
        assert isinstance(workload, dict)
        kind = workload.get("kind")
        if kind in self.editors:
            page = WORKLOAD_KINDS.index(kind)
            self._kind = WORKLOAD_KINDS[page]
            self.kind_combo.setCurrentIndex(self.kind_combo.findData(kind))
            self._show_page(page)
        for editor in self.current_editors().values():
            editor.show_value(shown_value(draft, editor.path))
        if self._kind == "postgres-consolidation":
            self.databases.show_rows(workload.get("databases") or [])

    def show_issues(self, issues: Issues) -> None:
        for key, editor in self.current_editors().items():
            editor.show_error(issues.by_field.get(key))
        kind_msg = issues.by_field.get("workload.kind") or issues.by_field.get("workload")
        self.kind_error.setText(kind_msg or "")
        self.kind_error.setVisible(bool(kind_msg))
        if self._kind == "postgres-consolidation":
            self.databases.show_issues(issues)


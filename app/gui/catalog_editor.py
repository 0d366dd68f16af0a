"""The catalog editor: a table per part kind, add/edit/delete, import and export through the store.

Every write (cell edits, deletes, imports) and every export runs on a worker thread: a 30,000-part import or a
write queued behind another program's import must not freeze the window. Imports and exports show progress and
can be cancelled; a cancelled import writes nothing, a cancelled export leaves the old file as it was.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.editing.fields import problem_text
from app.export.atomic import atomic_write_text
from app.gui.catalog_history import CatalogHistoryDialog
from app.gui.catalog_models import CatalogTableModel, RowState, SortSpec, SourceSortedProxy, row_states
from app.gui.hardware_picker import parts_in_order
from app.gui.workers import Job, JobRunner
from app.services.catalog_source import CatalogSource
from catalog.errors import CatalogError, InvalidRowsError, OutlierRowsError, UndecidedSeparatorError
from catalog.files import FileFormat, render
from catalog.numbers import Separator
from catalog.rows import part_to_row
from catalog.store import ImportReport
from catalog.streaming import csv_file_separator, is_json_file, iter_csv_rows, iter_json_rows
from catalog.validation import SourceRow
from models.hardware import PART_KINDS, HardwareCatalog, PartKind
from models.problems import Problem
from models.tasks import Cancelled, Progress

KIND_TITLES = {"server": "Servers", "cpu": "CPUs", "drive": "Drives", "nic": "NICs", "dimm": "DIMMs",
               "switch": "Switches", "cable": "Cables/optics", "rack": "Racks", "pdu": "PDUs",
               "licence": "Licences", "support": "Support", "controller": "Controllers",
               "accessory": "Accessories"}
TAB_ORDER: tuple[PartKind, ...] = ("server", "drive", "nic", "cpu", "dimm", "controller", "switch", "cable", "rack",
                                   "pdu", "accessory", "licence", "support")

# Where the editor asks for file names; tests replace these to run without dialogs.
OpenFileFn = Callable[[QWidget], str | None]
SaveFileFn = Callable[[QWidget], str | None]


@dataclass(frozen=True)
class _Imported:
    """What an import's worker read back for the UI thread to swap in."""

    report: ImportReport
    states: dict[PartKind, tuple[list[RowState], SortSpec | None]]  # each table's rows and sort order
    snapshot: HardwareCatalog


def _ask_open(parent: QWidget) -> str | None:
    name, _ = QFileDialog.getOpenFileName(parent, "Import catalog rows", "", "Catalog files (*.csv *.json)")
    return name or None


def _ask_separator(parent: QWidget, name: str, why: str) -> Separator | None:
    """Which decimal separator a file whose cells do not tell it uses (None: do not import)."""
    box = QMessageBox(QMessageBox.Icon.Question, "Decimal separator",
                      f"{Path(name).name}: {why}\n\nWhich decimal separator does the file use?", parent=parent)
    point = box.addButton("Decimal point (1,234.5)", QMessageBox.ButtonRole.AcceptRole)
    comma = box.addButton("Decimal comma (1.234,5)", QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return "." if box.clickedButton() is point else "," if box.clickedButton() is comma else None


def _ask_save(parent: QWidget) -> str | None:
    name, _ = QFileDialog.getSaveFileName(parent, "Export the catalog", "catalog.csv", "CSV (*.csv);;JSON (*.json)")
    return name or None


class CatalogEditor(QWidget):
    catalogChanged = Signal()
    importFinished = Signal(bool)  # True: rows were written
    exportFinished = Signal(bool)

    def __init__(self, source: CatalogSource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("catalogEditor")
        self.source = source
        self.ask_open: OpenFileFn = _ask_open
        self.ask_save: SaveFileFn = _ask_save
        self.ask_separator: Callable[[QWidget, str, str], Separator | None] = _ask_separator
        self.models: dict[PartKind, CatalogTableModel] = {}
        self.views: dict[PartKind, QTableView] = {}
        self.proxies: dict[PartKind, QSortFilterProxyModel] = {}
        self.jobs = JobRunner(self)
        self.job: Job | None = None  # the running import or export

        self.where = QLabel()
        self.where.setObjectName("catalogWhere")
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        bar = self._build_toolbar()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for kind in TAB_ORDER:
            self._add_table(kind)
        self._build_busy_row()

        self.message = QLabel()
        self.message.setObjectName("banner")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.RichText)
        self.message.hide()

        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 10, 12, 10)
        lay.addWidget(self.where)
        lay.addLayout(bar)
        lay.addWidget(self.busy_row)
        lay.addWidget(self.message)
        lay.addWidget(self.tabs, 1)
        self._update_where()
        writable = source.store is not None
        controls: tuple[QWidget, ...] = (self.add_btn, self.delete_btn, self.import_btn, self.replace_box,
                                         self.history_btn)
        for control in controls:
            control.setEnabled(writable)
        assert set(TAB_ORDER) == set(PART_KINDS)

    # -- building -------------------------------------------------------------------------------------------
    def _build_toolbar(self) -> QHBoxLayout:
        """The actions (add, delete, import, export, history) and the filter, in one row."""
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("filter parts…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.add_btn = QPushButton("Add part")
        self.delete_btn = QPushButton("Delete selected")
        self.import_btn = QPushButton("Import CSV/JSON…")
        self.export_btn = QPushButton("Export…")
        self.history_btn = QPushButton("History…")
        self.history_btn.setObjectName("catalogHistoryButton")
        self.history_btn.setToolTip("who changed what, when and from which file; revert one import or quote")
        self.history_btn.clicked.connect(lambda: self.show_history())
        self.replace_box = QCheckBox("Import replaces parts with the same id")
        self.add_btn.clicked.connect(self.add_part)
        self.delete_btn.clicked.connect(self.delete_selected)
        self.import_btn.clicked.connect(lambda: self.import_file())
        self.export_btn.clicked.connect(lambda: self.export_file())

        bar = QHBoxLayout()
        for w in (self.add_btn, self.delete_btn):
            bar.addWidget(w)
        bar.addSpacing(16)
        bar.addWidget(self.import_btn)
        bar.addWidget(self.replace_box)
        bar.addWidget(self.export_btn)
        bar.addWidget(self.history_btn)
        bar.addStretch(1)
        bar.addWidget(self.filter)
        return bar

    def _add_table(self, kind: PartKind) -> None:
        """The tab of one kind: its model (the store's rows, or the read-only catalog's parts), a filtering and
        sorting proxy, and the table view."""
        model = CatalogTableModel(self.source.store, kind, self)
        if self.source.store is None:
            model.set_parts([part_to_row(p) for p in self.source.snapshot.of_kind(kind)])
        model.changed.connect(lambda: self._changed())
        model.problem.connect(self._show_problem)
        model.busyChanged.connect(self._model_busy)
        model.dataChanged.connect(lambda *_a: self._show_row_problems())
        proxy = SourceSortedProxy(self)
        proxy.setSourceModel(model)
        proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        proxy.setFilterKeyColumn(-1)
        view = QTableView()
        view.setObjectName(f"catalog:{kind}")
        view.setModel(proxy)
        view.setSortingEnabled(True)
        view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        view.setAlternatingRowColors(True)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.verticalHeader().setVisible(False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        view.horizontalHeader().setStretchLastSection(True)
        view.resizeColumnsToContents()
        for col, name in enumerate(model.columns):
            if name == "source" or view.columnWidth(col) > 260:
                view.setColumnWidth(col, 260)
        self.models[kind], self.views[kind], self.proxies[kind] = model, view, proxy
        self.tabs.addTab(view, f"{KIND_TITLES[kind]} ({model.rowCount()})")

    def _build_busy_row(self) -> None:
        """The progress bar and Cancel button shown while an import or export runs."""
        self.progress = QProgressBar()
        self.progress.setObjectName("catalogProgress")
        self.progress.setTextVisible(True)
        self.cancel_btn = QPushButton("Cancel")
        self.cancel_btn.setObjectName("catalogCancel")
        self.cancel_btn.clicked.connect(self.cancel)
        self.busy_row = QWidget()
        busy_lay = QHBoxLayout(self.busy_row)
        busy_lay.setContentsMargins(0, 0, 0, 0)
        busy_lay.addWidget(self.progress, 1)
        busy_lay.addWidget(self.cancel_btn)
        self.busy_row.hide()

    # -- helpers --------------------------------------------------------------------------------------------
    def current_kind(self) -> PartKind:
        return TAB_ORDER[self.tabs.currentIndex()]

    def _update_where(self) -> None:
        src = self.source
        if src.store is None:
            text = f"Catalog: <b>{html.escape(src.label)}</b>"
        elif src.store.is_shared:
            text = (f"Catalog: <b>shared database</b> {html.escape(src.store.url_display)} — changes are seen by "
                    "everyone who uses it")
        else:
            text = f"Catalog: <b>local SQLite file</b> {html.escape(src.store.url_display.removeprefix('sqlite:///'))}"
        self.where.setText(text)

    def _refresh_tab_titles(self) -> None:
        for i, kind in enumerate(TAB_ORDER):
            self.tabs.setTabText(i, f"{KIND_TITLES[kind]} ({self.models[kind].rowCount()})")

    def _say(self, kind: str, text: str) -> None:
        self.message.setProperty("kind", kind)
        self.message.setText(text)
        self.message.setVisible(bool(text))
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)

    def _show_problem(self, text: str) -> None:
        self._say("error", html.escape(text))

    def _show_row_problems(self) -> None:
        problems = self.models[self.current_kind()].problems()
        if problems:
            shown = "<br>".join(html.escape(p) for p in problems[:6])
            more = f"<br>… and {len(problems) - 6} more" if len(problems) > 6 else ""
            self._say("warn", f"<b>Not saved yet — fix the red cells:</b><br>{shown}{more}")
        elif self.message.property("kind") == "warn":
            self._say("info", "")

    def _changed(self, snapshot: HardwareCatalog | None = None) -> None:
        fresh = snapshot or next((m.fresh_snapshot for m in self.models.values() if m.fresh_snapshot), None)
        for model in self.models.values():
            model.fresh_snapshot = None
        if fresh is not None:
            self.source.snapshot = fresh  # read by the worker that wrote
        else:
            self.source.refresh()  # a read: WAL means it never waits for a writer
        self._refresh_tab_titles()
        self._show_row_problems()
        self.catalogChanged.emit()

    def show_history(self) -> CatalogHistoryDialog | None:
        """Open the catalog's history (non-modal); a revert there reloads the tables."""
        store = self.source.store
        if store is None:
            return None
        dialog = CatalogHistoryDialog(store, self)
        dialog.reverted.connect(self.reload)
        dialog.show()
        return dialog

    def reload(self) -> None:
        """Every table read again from the store (after a change made outside the tables, such as a revert)."""
        store = self.source.store
        if store is None:
            return
        try:
            for kind, model in self.models.items():
                model.set_states(row_states(store.versioned_rows(kind), model.columns, model.sort_order),
                                 model.sort_order)
            snapshot = store.snapshot()
        except CatalogError as exc:
            self._say("error", html.escape(str(exc)))
            return
        self._changed(snapshot)

    def _apply_filter(self, text: str) -> None:
        for proxy in self.proxies.values():
            proxy.setFilterFixedString(text)

    # -- actions --------------------------------------------------------------------------------------------
    def add_part(self) -> None:
        kind = self.current_kind()
        row = self.models[kind].add_row()
        view = self.views[kind]
        index = self.proxies[kind].mapFromSource(self.models[kind].index(row, 0))
        view.scrollTo(index)
        view.setCurrentIndex(index)
        view.edit(index)
        self._refresh_tab_titles()
        self._show_row_problems()

    def delete_selected(self) -> None:
        kind = self.current_kind()
        view, proxy, model = self.views[kind], self.proxies[kind], self.models[kind]
        rows = sorted({proxy.mapToSource(i).row() for i in view.selectionModel().selectedRows()}, reverse=True)
        for row in rows:
            model.delete_row(row)  # on a worker thread; a refusal arrives through model.problem
        self._refresh_tab_titles()

    def busy(self) -> bool:
        """An import, export or cell write is still running on a worker thread."""
        return self.jobs.busy() or any(m.busy() for m in self.models.values())

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.progress.setFormat("Cancelling…")

    def _model_busy(self, busy: bool) -> None:
        if self.job is None:
            self.where.setToolTip("saving…" if busy else "")

    def _begin(self, text: str) -> None:
        for w in (self.import_btn, self.export_btn):
            w.setEnabled(False)
        self.progress.setRange(0, 0)  # busy until the first count arrives
        self.progress.setFormat(text)
        self.busy_row.show()

    def _end(self) -> None:
        self.job = None
        self.busy_row.hide()
        self.export_btn.setEnabled(True)
        self.import_btn.setEnabled(self.source.store is not None)

    def _confirm_outliers(self, name: str, refused: OutlierRowsError) -> bool:
        """Ask whether prices far from the catalog's are meant (a decimal comma read as a thousands separator gives
        100-1000x): True writes them as they are."""
        lines = refused.lines()
        shown = "\n".join(lines[:12]) + (f"\n… and {len(lines) - 12} more" if len(lines) > 12 else "")
        answer = QMessageBox.question(
            self, "Prices far from the catalog's",
            f"{Path(name).name}: {len(lines)} price(s) are far from the parts' prices now:\n\n{shown}\n\n"
            "Check the file's decimal separator. Import them as they are?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _on_progress(self, text: str) -> Callable[[int, int], None]:
        def show(done: int, total: int) -> None:
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)
            self.progress.setFormat(f"{text} %v of %m")
        return show

    def import_file(self, path: str | None = None, *, confirm_outliers: bool = False,
                    decimal: Separator | None = None) -> bool:
        """Start importing a file on a worker thread; True when it started (the result shows in the banner). Prices
        far from the catalog's are refused first and written only once the user confirms them, and a file whose
        cells do not tell their decimal separator is read again with the one the user names (`_imported`)."""
        if self.source.store is None or self.job is not None:
            return False
        name = path or self.ask_open(self)
        if not name:
            return False
        store, replace = self.source.store, self.replace_box.isChecked()
        tables = {kind: (model.columns, model.sort_order) for kind, model in self.models.items()}

        def work(cancel: threading.Event, progress: Progress) -> _Imported | CatalogError:
            try:
                # read a part at a time, several passes over the file (catalog.streaming), so a big file's import
                # does not hold it whole; the file's own problems come first, before the catalog is touched
                path = Path(name)
                if is_json_file(path):
                    next(iter_json_rows(path), None)
                    rows: Callable[[], Iterator[SourceRow]] = lambda: iter_json_rows(path)  # noqa: E731
                else:
                    sep = csv_file_separator(path, decimal)
                    rows = lambda: iter_csv_rows(path, sep)  # noqa: E731
                if cancel.is_set():
                    raise Cancelled()
                report = store.import_stream(rows, replace=replace, progress=progress, cancelled=cancel.is_set,
                                             source=str(name), confirm_outliers=confirm_outliers)
                # the tables' rows and the sizing snapshot are read and built here too: the UI thread only swaps
                # them in (100,000 rows built there stalled it for half a second)
                states = {kind: (row_states(store.versioned_rows(kind), columns, order), order)
                          for kind, (columns, order) in tables.items()}
                snapshot = store.snapshot()
                parts_in_order(snapshot)  # the pickers' lists, sorted here rather than on the UI thread
                return _Imported(report, states, snapshot)
            except Cancelled:
                raise  # catalog.errors.ImportCancelled is a CatalogError too, but a stop, not a failure
            except CatalogError as exc:
                return exc

        self._begin(f"Importing {Path(name).name}…")
        self.job = self.jobs.start(work, lambda result: self._imported(name, result, decimal), bulk=True,
                                   on_failed=lambda problems: self._failed("Import failed", problems,
                                                                           self.importFinished),
                                   on_progress=self._on_progress(f"Importing {Path(name).name}:"),
                                   on_cancelled=lambda: self._stopped(f"Import of {Path(name).name} cancelled; "
                                                                      "nothing was imported.", self.importFinished))
        return True

    def _imported(self, name: str, result: _Imported | CatalogError, decimal: Separator | None = None) -> None:
        self._end()
        if isinstance(result, OutlierRowsError) and self._confirm_outliers(name, result):
            self.import_file(name, confirm_outliers=True, decimal=decimal)
            return
        if isinstance(result, UndecidedSeparatorError) and decimal is None:
            chosen = self.ask_separator(self, name, result.why)
            if chosen is not None:
                self.import_file(name, decimal=chosen)
                return
            self._say("error", html.escape(f"{Path(name).name}: the decimal separator cannot be told: {result.why}; "
                                           "nothing was imported."))
            self.importFinished.emit(False)
            return
        if isinstance(result, InvalidRowsError):
            lines = result.lines()
            shown = "<br>".join(html.escape(x) for x in lines[:12])
            more = f"<br>… and {len(lines) - 12} more" if len(lines) > 12 else ""
            self._say("error", f"<b>{html.escape(Path(name).name)}: {html.escape(str(result))}</b><br>{shown}{more}")
            self.importFinished.emit(False)
            return
        if isinstance(result, CatalogError):
            self._say("error", html.escape(str(result)))
            self.importFinished.emit(False)
            return
        for kind, model in self.models.items():
            model.set_states(*result.states[kind])
        self._changed(result.snapshot)
        total = result.report.total
        self._say("info", f"Imported {total} part{'s' if total != 1 else ''} from {html.escape(Path(name).name)}.")
        self.importFinished.emit(True)

    def export_file(self, path: str | None = None) -> bool:
        """Start exporting on a worker thread; True when it started (the result shows in the banner)."""
        if self.job is not None:
            return False
        name = path or self.ask_save(self)
        if not name:
            return False
        target = Path(name)
        store, snapshot = self.source.store, self.source.snapshot
        fmt: FileFormat = "json" if target.suffix.lower() == ".json" else "csv"
        untouched = f"{target.name} was not changed." if target.exists() else "nothing was written."

        def work(cancel: threading.Event, progress: Progress) -> object:
            try:
                rows = store.export_rows() if store is not None else [part_to_row(p) for p in snapshot]
                progress(1, 3)
                if cancel.is_set():
                    raise Cancelled()
                text = render(rows, fmt)
                progress(2, 3)
                if cancel.is_set():
                    raise Cancelled()
                atomic_write_text(target, text)  # all or nothing: the old file stays if anything fails
                progress(3, 3)
                return len(rows)
            except (OSError, CatalogError) as exc:
                return exc

        self._begin(f"Exporting to {target.name}…")
        self.job = self.jobs.start(work, lambda result: self._exported(target, result), bulk=True,
                                   on_failed=lambda problems: self._failed("Export failed", problems,
                                                                           self.exportFinished),
                                   on_progress=self._on_progress(f"Exporting to {target.name}: step"),
                                   on_cancelled=lambda: self._stopped(f"Export cancelled; {untouched}",
                                                                      self.exportFinished))
        return True

    def _exported(self, target: Path, result: object) -> None:
        self._end()
        if isinstance(result, Exception):
            self._say("error", html.escape(f"Cannot export to {target}: {result}"))
            self.exportFinished.emit(False)
            return
        self._say("info", f"Exported {result} parts to {html.escape(str(target))}.")
        self.exportFinished.emit(True)

    def _failed(self, what: str, problems: list[Problem], finished: SignalInstance) -> None:
        self._end()
        self._say("error", html.escape(f"{what}: {'; '.join(problem_text(p) for p in problems)}"))
        finished.emit(False)

    def _stopped(self, text: str, finished: SignalInstance) -> None:
        self._end()
        self._say("info", html.escape(text))
        finished.emit(False)

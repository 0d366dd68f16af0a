"""Table models over the catalog store: one per part kind, edited in place, validated by the store.

An edit is written at once, on a worker thread (a write may wait for another
program's import; the window must not), as one transaction in the store. Each row
remembers the version it was read at and the store writes only if the part still
has it: when someone else changed the part meanwhile the row is reloaded with their
values and the cells that differ show both ("yours" and "now"); a part deleted
elsewhere is not re-created. When the store refuses an edit, the typed value stays
in the cell, the cell turns red and its tooltip carries the reason; fixing the cell
writes the row. New rows live only in the model until they validate.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from app.editing.fields import problem_text
from app.formatting import money_figure
from app.gui.hardware_picker import parts_in_order
from app.gui.plain_text import plain_tooltip
from app.gui.workers import JobRunner
from catalog.errors import CatalogError, EditConflictError, InvalidRowsError
from catalog.rows import COMMON_FIELDS, KIND_FIELDS
from catalog.store import CatalogStore
from models.hardware import HardwareCatalog, PartKind
from models.problems import Problem
from models.tasks import Progress

T = TypeVar("T")

ERROR_BG = QColor("#ffe3e3")
NEW_BG = QColor("#fff9db")
CONFLICT_BG = QColor("#ffd8a8")
Index = QModelIndex | QPersistentModelIndex

_UNITS = {"tb": "TB", "gib": "GiB", "gbps": "Gb/s", "w": "W", "mb_s": "MB/s", "ghz": "GHz", "mt_s": "MT/s", "u": "U"}
_NUMERIC = {
    "price", "cores", "threads", "base_ghz", "tdp_w", "rack_u", "sockets", "numa_nodes_per_socket", "memory_gib",
    "dimm_slots", "data_bays", "os_drives", "psu_w", "idle_w", "max_w", "capacity_tb", "seq_read_mb_s",
    "seq_write_mb_s", "random_read_iops", "random_write_iops", "watts", "ports", "speed_gbps", "size_gib",
    "speed_mt_s", "uplink_ports", "uplink_speed_gbps", "reach_m", "max_kw", "outlets", "min_cores_per_cpu",
    "min_units", "pct_of_hardware", "pcie_slots", "vsan_gib_per_core", "pcie_gen", "pcie_lanes", "drive_link_gbps",
    "link_gbps",
}


def columns_of(kind: PartKind) -> list[str]:
    """id, what the part is and its price, its specs, then where the price comes from."""
    head = ["id", "vendor", "model", "part_number", "price", "currency"]
    tail = [c for c in COMMON_FIELDS if c not in head]
    return head + list(KIND_FIELDS[kind]) + tail


def conflict_message(exc: EditConflictError, *, action: str = "save") -> str:
    """The banner for a conflict in the editor, where the row has already been reloaded: both values of each cell
    that differs, and what to do (the store's own message says "reload", which the editor has done)."""
    what = f"{exc.kind} '{exc.part_id}'" if exc.kind else f"part '{exc.part_id}'"
    if exc.was_deleted:
        return str(exc)
    diffs = exc.differences()
    shown = "; ".join(f"{header_of(name)}: yours {_plain(mine)}, now {_plain(now)}"
                      for name, (mine, now) in diffs.items())
    return (f"Could not {action} {what}: it was changed elsewhere since you opened it, and nothing was overwritten. "
            f"The row now shows the stored values" + (f" ({shown})" if shown else "") + ", the changed cells marked; "
            + ("type yours again to keep it." if action == "save" else "delete it again if you still want it gone."))


def _plain(value: object) -> str:
    return "(empty)" if value in (None, "") else str(value)


def header_of(column: str) -> str:
    for suffix, unit in sorted(_UNITS.items(), key=lambda kv: -len(kv[0])):
        if column.endswith("_" + suffix):
            base = column[: -len(suffix) - 1]
            return f"{base.replace('_', ' ').capitalize()} ({unit})"
    special = {"id": "Id", "price_as_of": "Price as of", "cpu_id": "CPU id", "numa_nodes_per_socket": "NUMA/socket",
               "random_read_iops": "Random read IOPS", "random_write_iops": "Random write IOPS",
               "pcie_slots": "PCIe slots", "vsan_gib_per_core": "vSAN GiB per core", "pcie_gen": "PCIe generation",
               "pcie_lanes": "PCIe lanes", "drive_link_gbps": "Drive link (Gb/s)", "link_gbps": "Link (Gb/s)"}
    return special.get(column, column.replace("_", " ").capitalize())


class SourceSortedProxy(QSortFilterProxyModel):
    """Filters like any proxy, but leaves sorting to the source model's fast Python sort (see `sort`)."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        source = self.sourceModel()
        if source is not None:
            source.sort(column, order)


def read_snapshot(store: CatalogStore) -> HardwareCatalog:
    """The catalog after a write, read on the worker thread that wrote, with the pickers' lists sorted there too."""
    snapshot = store.snapshot()
    parts_in_order(snapshot)
    return snapshot


SortSpec = tuple[int, Qt.SortOrder]  # (column, order)


def sort_key(name: str) -> Any:
    """The key that orders rows by column `name`: numbers as numbers, text without case, empty cells last."""
    numeric = name in _NUMERIC

    def key(state: RowState) -> tuple[int, Any]:
        value = state.values.get(name)
        if value is None or value == "":
            return (1, 0 if numeric else "")
        if numeric:
            try:
                return (0, float(value))
            except (TypeError, ValueError):
                return (2, 0.0)
        return (0, str(value).lower())

    return key


def row_states(rows: list[tuple[dict[str, Any], int]], columns: list[str],
               sorted_by: SortSpec | None) -> list[RowState]:
    """The table rows of (values, version) pairs read from the store, in the table's order. Thread-free, so the
    worker that read 100,000 rows builds them too (half a second the UI thread would otherwise stall for)."""
    states = [RowState(v, True, version=version) for v, version in rows]  # the store's fresh dicts, not copied
    if sorted_by is not None:
        states.sort(key=sort_key(columns[sorted_by[0]]), reverse=sorted_by[1] == Qt.SortOrder.DescendingOrder)
    return states


@dataclass(eq=False)  # rows are told apart by identity: two rows may hold equal values
class RowState:
    values: dict[str, Any]
    saved: bool  # in the database (False: a new row still being filled in)
    errors: dict[str, str] = field(default_factory=dict)
    general: str = ""  # problems no column owns
    version: int | None = None  # the version the row was read at (None: not in the database)
    conflicts: dict[str, str] = field(default_factory=dict)  # column -> "yours ..., now ..." after a conflict
    writing: bool = False  # a write of this row is running
    dirty_again: bool = False  # edited again while it ran: write once more when it ends


class CatalogTableModel(QAbstractTableModel):
    """The parts of one kind. `changed` fires after every successful write."""

    changed = Signal()
    problem = Signal(str)
    busyChanged = Signal(bool)

    def __init__(self, store: CatalogStore | None, kind: PartKind, parent: Any = None) -> None:
        super().__init__(parent)
        self.store = store
        self.kind = kind
        self.columns = columns_of(kind)
        self.rows: list[RowState] = []
        self.jobs = JobRunner(self)
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self.fresh_snapshot: HardwareCatalog | None = None  # the catalog after the last write, read off the UI thread
        self.reload()

    def busy(self) -> bool:
        """A write is still running on a worker thread."""
        return self.jobs.busy()

    # -- reading --------------------------------------------------------------------------------------------
    def reload(self) -> None:
        self.set_versioned(self.store.versioned_rows(self.kind) if self.store else [])

    def set_versioned(self, rows: list[tuple[dict[str, Any], int]]) -> None:
        """Show rows read from the store, keeping new rows."""
        self.set_states(row_states(rows, self.columns, self._sort), self._sort)

    @property
    def sort_order(self) -> SortSpec | None:
        """The column and order the rows are kept in (None: as the store returned them)."""
        return self._sort

    def set_states(self, states: list[RowState], sorted_by: SortSpec | None) -> None:
        """Show rows built by `row_states` (on the worker thread that read them), keeping new rows; this only swaps
        the list, unless the user re-sorted the table meanwhile."""
        pending = [r for r in self.rows if not r.saved]
        self.beginResetModel()
        self.rows = states + pending
        if sorted_by != self._sort and self._sort is not None:
            self.rows.sort(key=sort_key(self.columns[self._sort[0]]),
                           reverse=self._sort[1] == Qt.SortOrder.DescendingOrder)
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in Python with a key (milliseconds for 30,000 rows); a proxy's C++ sort would call `data()` for
        every comparison, hundreds of thousands of calls into Python on the UI thread."""
        if not 0 <= column < len(self.columns):
            return
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        before = {id(state): i for i, state in enumerate(self.rows)}
        old = self.rows[:]
        self.rows.sort(key=self._sort_key(column), reverse=order == Qt.SortOrder.DescendingOrder)
        moved = {before[id(state)]: i for i, state in enumerate(self.rows)}
        for index in self.persistentIndexList():
            if index.isValid() and index.row() < len(old):
                self.changePersistentIndex(index, self.index(moved[index.row()], index.column()))
        self.layoutChanged.emit()

    def _sort_key(self, column: int) -> Any:
        return sort_key(self.columns[column])

    def set_parts(self, rows: list[dict[str, Any]]) -> None:
        """Show rows without a store (read-only view of an in-memory catalog)."""
        self.beginResetModel()
        self.rows = [RowState(dict(v), True) for v in rows]
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return header_of(self.columns[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        state = self.rows[index.row()]
        column = self.columns[index.column()]
        value = state.values.get(column)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if value is None:
                return ""
            if role == Qt.ItemDataRole.DisplayRole and column == "price" and isinstance(value, int | float):
                return money_figure(value)
            return str(value)
        if role == Qt.ItemDataRole.BackgroundRole:
            if column in state.errors or (column == "id" and state.general):
                return QBrush(ERROR_BG)
            if column in state.conflicts:
                return QBrush(CONFLICT_BG)
            if not state.saved:
                return QBrush(NEW_BG)
        if role == Qt.ItemDataRole.ToolTipRole:
            msg = state.errors.get(column) or state.conflicts.get(column) or (state.general if column == "id" else "")
            if msg:
                return plain_tooltip(msg)
            if not state.saved:
                return "new part: not saved until every cell is valid"
            return plain_tooltip(str(value)) if column == "source" else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if not index.isValid() or self.store is None:
            return base
        state = self.rows[index.row()]
        if self.columns[index.column()] == "id" and state.saved:
            return base  # the id is the part's identity: scenarios refer to it
        return base | Qt.ItemFlag.ItemIsEditable

    def part_id(self, row: int) -> str:
        return str(self.rows[row].values.get("id") or "")

    def problems(self) -> list[str]:
        out = []
        for state in [r for r in self.rows if r.errors or r.general or r.conflicts]:  # read after every import
            pid = state.values.get("id") or "(new part)"
            out += [f"{pid}, {f}: {m}" for f, m in state.errors.items()]
            if state.general:
                out.append(f"{pid}: {state.general}")
            out += [f"{pid}, {f}: {m}" for f, m in state.conflicts.items()]
        return out

    # -- writing --------------------------------------------------------------------------------------------
    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or self.store is None:
            return False
        state = self.rows[index.row()]
        column = self.columns[index.column()]
        text = value.strip() if isinstance(value, str) else value
        if str(state.values.get(column) if state.values.get(column) is not None else "") == str(text):
            return False
        state.values[column] = text if text != "" else None
        state.conflicts.pop(column, None)  # the user has decided this cell
        self._commit(index.row())
        self._emit_row(index.row())
        return True

    def add_row(self) -> int:
        template: dict[str, Any] = {c: None for c in self.columns}
        n = sum(1 for r in self.rows if not r.saved) + 1
        template.update(id=f"new-{self.kind}-{n}", currency="USD")
        row = len(self.rows)
        self.beginInsertRows(QModelIndex(), row, row)
        self.rows.append(RowState(template, saved=False))
        self.endInsertRows()
        self._check_only(row)
        return row

    def delete_row(self, row: int) -> str | None:
        """Delete a part on a worker thread; a refusal comes back through `problem`. Returns None."""
        state = self.rows[row]
        if not state.saved or self.store is None:
            self._remove(state)
            return None
        store, part_id, version = self.store, str(state.values["id"]), state.version

        def work(_cancel: threading.Event, _progress: Progress) -> CatalogError | None:
            try:
                store.delete(part_id, version)
            except EditConflictError as exc:
                if exc.was_deleted:  # gone already: the row goes too, and the sizing needs the catalog without it
                    self.fresh_snapshot = read_snapshot(store)
                return exc
            except CatalogError as exc:
                return exc
            self.fresh_snapshot = read_snapshot(store)  # read here, not on the UI thread, for the sizing
            return None

        def done(result: object) -> None:
            if isinstance(result, EditConflictError) and result.was_deleted:
                self._remove(state)  # gone already: what the user wanted
                self.changed.emit()
            elif isinstance(result, CatalogError):
                if isinstance(result, EditConflictError):
                    self._apply_conflict(state, result)
                    self.problem.emit(conflict_message(result, action="delete"))
                else:
                    self.problem.emit(str(result))
            else:
                self._remove(state)
                self.changed.emit()

        self._start(work, done)
        return None

    def _remove(self, state: RowState) -> None:
        row = self._row_of(state)
        if row is None:
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self.rows[row]
        self.endRemoveRows()

    def _row_of(self, state: RowState) -> int | None:
        return next((i for i, r in enumerate(self.rows) if r is state), None)

    def _row_for_store(self, state: RowState) -> dict[str, Any]:
        return {"kind": self.kind, **{k: v for k, v in state.values.items() if k in self.columns}}

    def _start(self, work: Callable[[threading.Event, Progress], T], done: Callable[[T], None]) -> None:
        was_busy = self.busy()

        def finished(result: T) -> None:
            if shiboken6.isValid(self):  # the editor may have closed while the write ran
                done(result)
                self._notify_busy()

        def failed(problems: list[Problem]) -> None:
            if shiboken6.isValid(self):
                self.problem.emit("; ".join(problem_text(p) for p in problems))
                self._notify_busy()

        self.jobs.start(work, finished, on_failed=failed, bulk=True)  # each write reads the whole catalog back
        if not was_busy:
            self.busyChanged.emit(True)

    def _notify_busy(self) -> None:
        if not self.busy():
            self.busyChanged.emit(False)

    def _commit(self, row: int) -> None:
        """Write the row (a new part, or the version it was read at) on a worker thread."""
        state = self.rows[row]
        assert self.store is not None
        if state.writing:
            state.dirty_again = True
            return
        store, values, version = self.store, self._row_for_store(state), state.version if state.saved else None
        state.writing = True

        def work(_cancel: threading.Event, _progress: Progress) -> tuple[dict[str, Any], int] | CatalogError:
            try:
                saved = store.save_row(values, version)
                self.fresh_snapshot = read_snapshot(store)  # read here, not on the UI thread, for the sizing
                return saved
            except CatalogError as exc:
                return exc

        self._start(work, lambda result: self._committed(state, result))

    def _committed(self, state: RowState, result: tuple[dict[str, Any], int] | CatalogError) -> None:
        state.writing = False
        row = self._row_of(state)
        if row is None:
            return
        if isinstance(result, InvalidRowsError):
            self._set_problems(state, result)
        elif isinstance(result, EditConflictError):
            self._apply_conflict(state, result)
            self.problem.emit(conflict_message(result))
        elif isinstance(result, CatalogError):
            state.general = str(result)
            self.problem.emit(str(result))
        else:
            stored, version = result
            state.errors, state.general, state.conflicts = {}, "", {}
            state.saved, state.version = True, version
            if not state.dirty_again:
                state.values = dict(stored)  # the store's normalised values (dates, rounding)
            self.changed.emit()
        self._emit_row(row)
        if state.dirty_again:  # edited again while the first write ran: write the newest values
            state.dirty_again = False
            self._commit(row)

    def _apply_conflict(self, state: RowState, exc: EditConflictError) -> None:
        """Someone else changed or deleted the part: show their values, and yours beside them."""
        state.errors, state.general = {}, ""
        if exc.was_deleted:
            state.saved, state.version = False, None
            state.general = ("deleted elsewhere since you opened it: it is not re-created. Your values stay in this "
                             "row; edit a cell to add it again as a new part, or delete the row")
            return
        yours = {k: v for k, v in state.values.items() if k in self.columns}
        state.values = {k: v for k, v in (exc.theirs or {}).items() if k in self.columns}
        state.version = exc.version
        state.conflicts = {
            name: f"changed elsewhere: yours {yours.get(name)!r}, now {theirs!r}; type yours again to keep it"
            for name, theirs in state.values.items()
            if name in yours and str(yours.get(name) if yours.get(name) is not None else "") != str(theirs)
        }

    def _check_only(self, row: int) -> None:
        """Validate a new row without writing it, so the cells to fill in show red at once."""
        from catalog.validation import validate_rows

        state = self.rows[row]
        existing = {str(r.values.get("id")): self.kind for r in self.rows if r.saved}
        result = validate_rows([self._row_for_store(state)], existing, replace=False)
        state.errors = {}
        state.general = ""
        for p in result.problems:
            self._add_problem(state, p.field, p.message)
        self._emit_row(row)

    def _set_problems(self, state: RowState, exc: InvalidRowsError) -> None:
        state.errors, state.general = {}, ""
        for p in exc.problems:
            self._add_problem(state, p.field, p.message)

    def _add_problem(self, state: RowState, column: str, message: str) -> None:
        if column in self.columns:
            state.errors[column] = f"{state.errors[column]}; {message}" if column in state.errors else message
        else:
            state.general = f"{state.general}; {column}: {message}" if state.general else f"{column}: {message}"

    def _emit_row(self, row: int) -> None:
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.columns) - 1))

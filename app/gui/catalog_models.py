"""Table models over the catalog store: one per part kind, edited in place, validated by the store.

An edit is written at once (each write is one transaction in the store). When
the store refuses it, the typed value stays in the cell, the cell turns red and
its tooltip carries the store's reason; fixing the cell writes the row. New rows
live only in the model until they validate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from catalog.errors import CatalogError, InvalidRowsError
from catalog.rows import COMMON_FIELDS, KIND_FIELDS
from catalog.store import CatalogStore
from models.hardware import PartKind

ERROR_BG = QColor("#ffe3e3")
NEW_BG = QColor("#fff9db")
Index = QModelIndex | QPersistentModelIndex

_UNITS = {"tb": "TB", "gib": "GiB", "gbps": "Gb/s", "w": "W", "mb_s": "MB/s", "ghz": "GHz", "mt_s": "MT/s", "u": "U"}
_NUMERIC = {
    "price", "cores", "threads", "base_ghz", "tdp_w", "rack_u", "sockets", "numa_nodes_per_socket", "memory_gib",
    "dimm_slots", "data_bays", "os_drives", "psu_w", "idle_w", "max_w", "capacity_tb", "seq_read_mb_s",
    "seq_write_mb_s", "random_read_iops", "random_write_iops", "watts", "ports", "speed_gbps", "size_gib",
    "speed_mt_s", "uplink_ports", "uplink_speed_gbps", "reach_m", "max_kw", "outlets", "min_cores_per_cpu",
    "min_units", "pct_of_hardware",
}


def columns_of(kind: PartKind) -> list[str]:
    """id, what the part is and its price, its specs, then where the price comes from."""
    head = ["id", "vendor", "model", "price", "currency"]
    tail = [c for c in COMMON_FIELDS if c not in head]
    return head + list(KIND_FIELDS[kind]) + tail


def header_of(column: str) -> str:
    for suffix, unit in sorted(_UNITS.items(), key=lambda kv: -len(kv[0])):
        if column.endswith("_" + suffix):
            base = column[: -len(suffix) - 1]
            return f"{base.replace('_', ' ').capitalize()} ({unit})"
    special = {"id": "Id", "price_as_of": "Price as of", "cpu_id": "CPU id", "numa_nodes_per_socket": "NUMA/socket",
               "random_read_iops": "Random read IOPS", "random_write_iops": "Random write IOPS"}
    return special.get(column, column.replace("_", " ").capitalize())


@dataclass
class RowState:
    values: dict[str, Any]
    saved: bool  # in the database (False: a new row still being filled in)
    errors: dict[str, str] = field(default_factory=dict)
    general: str = ""  # problems no column owns


class CatalogTableModel(QAbstractTableModel):
    """The parts of one kind. `changed` fires after every successful write."""

    changed = Signal()
    problem = Signal(str)

    def __init__(self, store: CatalogStore | None, kind: PartKind, parent: Any = None) -> None:
        super().__init__(parent)
        self.store = store
        self.kind = kind
        self.columns = columns_of(kind)
        self.rows: list[RowState] = []
        self.reload()

    # -- reading --------------------------------------------------------------------------------------------
    def reload(self) -> None:
        pending = [r for r in self.rows if not r.saved]
        self.beginResetModel()
        saved = [RowState(dict(v), True) for v in self.store.export_rows(self.kind)] if self.store else []
        self.rows = saved + pending
        self.endResetModel()

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
                return f"{value:,.2f}"
            return str(value)
        if role == Qt.ItemDataRole.BackgroundRole:
            if column in state.errors or (column == "id" and state.general):
                return QBrush(ERROR_BG)
            if not state.saved:
                return QBrush(NEW_BG)
        if role == Qt.ItemDataRole.ToolTipRole:
            msg = state.errors.get(column) or (state.general if column == "id" else "")
            if msg:
                return msg
            if not state.saved:
                return "new part: not saved until every cell is valid"
            return str(value) if column == "source" else None
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
        for state in self.rows:
            pid = state.values.get("id") or "(new part)"
            out += [f"{pid}, {f}: {m}" for f, m in state.errors.items()]
            if state.general:
                out.append(f"{pid}: {state.general}")
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
        """Delete a part; returns the store's reason when it refuses."""
        state = self.rows[row]
        if state.saved and self.store is not None:
            try:
                self.store.delete(str(state.values["id"]))
            except CatalogError as exc:
                return str(exc)
        self.beginRemoveRows(QModelIndex(), row, row)
        del self.rows[row]
        self.endRemoveRows()
        if state.saved:
            self.changed.emit()
        return None

    def _row_for_store(self, state: RowState) -> dict[str, Any]:
        return {"kind": self.kind, **{k: v for k, v in state.values.items() if k in self.columns}}

    def _commit(self, row: int) -> None:
        state = self.rows[row]
        assert self.store is not None
        try:
            self.store.import_rows([self._row_for_store(state)], replace=state.saved)
        except InvalidRowsError as exc:
            self._set_problems(state, exc)
            return
        except CatalogError as exc:
            state.general = str(exc)
            self.problem.emit(str(exc))
            return
        state.errors, state.general = {}, ""
        was_new = not state.saved
        state.saved = True
        saved_id = state.values.get("id")
        fresh = {str(v["id"]): v for v in self.store.export_rows(self.kind)}
        if saved_id in fresh:
            state.values = dict(fresh[str(saved_id)])  # the store's normalised values (dates, rounding)
        if was_new:
            self._emit_row(row)
        self.changed.emit()

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

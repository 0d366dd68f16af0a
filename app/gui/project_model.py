"""The open project as the GUI edits it: scenario drafts, their validity, and undo.

Every change goes through a `QUndoCommand` on `undo_stack`, so undo/redo, the
dirty flag (the stack's clean state) and live re-sizing all follow from one
place. Widgets call `edit`/`add_scenario`/...; they never mutate a draft.
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from app.editing.draft import Issues, Path, get_in, path_str, set_in, validate
from app.editing.fields import new_scenario_json
from models.field_words import field_label
from models.scenario import Project, Scenario, scenario_to_json


@dataclass
class ScenarioEntry:
    uid: str  # stable while the project is open; results are cached under it
    draft: dict[str, Any]
    scenario: Scenario  # the last valid version of the draft: what is sized and saved
    issues: Issues

    @property
    def name(self) -> str:
        name = self.draft.get("name")
        return name if isinstance(name, str) and name.strip() else self.scenario.name

    @property
    def valid(self) -> bool:
        return not self.issues


def _value_words(value: Any) -> str:
    if value is None:
        return "automatic"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    if isinstance(value, int | float):
        return f"{value:,}"
    if isinstance(value, dict | list):
        return ""
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def edit_text(path: Path, value: Any) -> str:
    """The undo entry for one edit, in the form's words: "Set Data (TB, before compression) to 60"."""
    label = field_label(path_str(path))
    words = _value_words(value)
    if value == "" or value is None:
        return f"Clear {label}" if value == "" else f"Set {label} to {words}"
    return f"Set {label} to {words}" if words else f"Change {label}"


def _new_uid() -> str:
    return uuid.uuid4().hex[:12]


class ProjectDocument(QObject):
    entryInserted = Signal(int)  # index
    entryRemoved = Signal(int, str)  # index, uid
    entryChanged = Signal(str, list)  # uid, paths (as strings) that changed
    reset = Signal()
    focusRequested = Signal(str)  # uid: undo/redo touched a scenario the user should see

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.entries: list[ScenarioEntry] = []
        self.path: FsPath | None = None
        self.name = "Untitled project"
        self.recovered = False  # opened from an autosave: differs from the file although nothing was undone

    # -- reading ------------------------------------------------------------------------------------------
    def index_of(self, uid: str) -> int:
        for i, e in enumerate(self.entries):
            if e.uid == uid:
                return i
        raise KeyError(uid)

    def entry(self, uid: str) -> ScenarioEntry:
        return self.entries[self.index_of(uid)]

    def has(self, uid: str) -> bool:
        return any(e.uid == uid for e in self.entries)

    @property
    def dirty(self) -> bool:
        return self.recovered or not self.undo_stack.isClean()

    def to_project(self) -> tuple[Project, list[str]]:
        """The project to save, and the names of scenarios saved with their last valid values."""
        stale = [e.name for e in self.entries if not e.valid]
        return Project(name=self.name, scenarios=[e.scenario for e in self.entries]), stale

    def unique_name(self, base: str) -> str:
        names = {e.name for e in self.entries}
        if base not in names:
            return base
        n = 2
        while f"{base} ({n})" in names:
            n += 1
        return f"{base} ({n})"

    # -- loading ------------------------------------------------------------------------------------------
    def load(self, project: Project, path: FsPath | None) -> None:
        self.undo_stack.clear()
        self.entries = [
            ScenarioEntry(_new_uid(), scenario_to_json(s), s, Issues()) for s in project.scenarios
        ]
        self.path = path
        self.name = project.name
        self.recovered = False
        self.undo_stack.setClean()
        self.reset.emit()

    def mark_saved(self, path: FsPath) -> None:
        self.path = path
        self.recovered = False
        self.undo_stack.setClean()

    def mark_recovered(self) -> None:
        self.recovered = True
        self.undo_stack.cleanChanged.emit(False)

    # -- edits (each one an undoable command) -------------------------------------------------------------
    def edit(self, uid: str, path: Path, value: Any, text: str | None = None) -> None:
        old = copy.deepcopy(get_in(self.entry(uid).draft, path))
        if old == value and type(old) is type(value):
            return
        label = text or edit_text(path, value)
        self.undo_stack.push(SetFieldsCommand(self, uid, [(path, old, value)], label, mergeable=True))

    def edit_many(self, uid: str, changes: list[tuple[Path, Any]], text: str) -> None:
        draft = self.entry(uid).draft
        triples = [(p, copy.deepcopy(get_in(draft, p)), v) for p, v in changes]
        self.undo_stack.push(SetFieldsCommand(self, uid, triples, text, mergeable=False))

    def rename(self, uid: str, name: str) -> None:
        old = self.entry(uid).draft.get("name")
        if old != name:
            self.undo_stack.push(SetFieldsCommand(self, uid, [(("name",), old, name)], f"Rename to {name!r}"))

    def add_scenario(self, draft: dict[str, Any] | None = None, index: int | None = None) -> str:
        data = copy.deepcopy(draft) if draft is not None else new_scenario_json(self.unique_name("Scenario"))
        uid = _new_uid()
        at = len(self.entries) if index is None else index
        self.undo_stack.push(InsertScenarioCommand(self, at, uid, data, f"Add scenario {data.get('name')!r}"))
        return uid

    def duplicate(self, uid: str) -> str:
        src = self.entry(uid)
        data = copy.deepcopy(src.draft)
        data["name"] = self.unique_name(f"{src.name} (copy)")
        new_uid = _new_uid()
        at = self.index_of(uid) + 1
        self.undo_stack.push(InsertScenarioCommand(self, at, new_uid, data, f"Duplicate {src.name!r}"))
        return new_uid

    def delete(self, uid: str) -> None:
        self.undo_stack.push(RemoveScenarioCommand(self, uid, f"Delete {self.entry(uid).name!r}"))

    # -- the mutators the commands use -----------------------------------------------------------------------
    def _apply(self, uid: str, changes: list[tuple[Path, Any]]) -> None:
        entry = self.entry(uid)
        for path, value in changes:
            set_in(entry.draft, path, value)
        self._revalidate(entry)
        self.entryChanged.emit(uid, [path_str(p) for p, _ in changes])

    def _revalidate(self, entry: ScenarioEntry) -> None:
        scenario, issues = validate(entry.draft)
        entry.issues = issues
        if scenario is not None:
            entry.scenario = scenario

    def _insert(self, index: int, uid: str, draft: dict[str, Any]) -> None:
        scenario, issues = validate(draft)
        if scenario is None:
            # only valid drafts are inserted (new, duplicated from a valid one, or restored after delete)
            raise ValueError("cannot insert an invalid scenario: " + "; ".join(issues.lines()))
        self.entries.insert(index, ScenarioEntry(uid, copy.deepcopy(draft), scenario, issues))
        self.entryInserted.emit(index)

    def _insert_entry(self, index: int, entry: ScenarioEntry) -> None:
        self.entries.insert(index, entry)
        self.entryInserted.emit(index)

    def _remove(self, uid: str) -> tuple[int, ScenarioEntry]:
        index = self.index_of(uid)
        entry = self.entries.pop(index)
        self.entryRemoved.emit(index, uid)
        return index, entry


class SetFieldsCommand(QUndoCommand):
    """Set one or more fields of one scenario; consecutive edits of the same field merge into one step."""

    MERGE_ID = 0x5E7

    def __init__(
        self,
        doc: ProjectDocument,
        uid: str,
        changes: list[tuple[Path, Any, Any]],
        text: str,
        mergeable: bool = False,
    ) -> None:
        super().__init__(text)
        self.doc = doc
        self.uid = uid
        self.changes = changes
        self.mergeable = mergeable and len(changes) == 1
        self._first = True

    def id(self) -> int:
        return self.MERGE_ID if self.mergeable else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not (isinstance(other, SetFieldsCommand) and other.mergeable and other.uid == self.uid):
            return False
        (path, old, _), (other_path, _, new) = self.changes[0], other.changes[0]
        if path != other_path:
            return False
        self.changes = [(path, old, new)]
        self.setText(other.text())  # "Set Data to 600", not the first keystroke's "Set Data to 6"
        self.setObsolete(old == new and type(old) is type(new))  # typed and typed back: nothing to undo
        return True

    def redo(self) -> None:
        self.doc._apply(self.uid, [(p, new) for p, _, new in self.changes])
        if not self._first:
            self.doc.focusRequested.emit(self.uid)
        self._first = False

    def undo(self) -> None:
        self.doc._apply(self.uid, [(p, old) for p, old, _ in reversed(self.changes)])
        self.doc.focusRequested.emit(self.uid)


class InsertScenarioCommand(QUndoCommand):
    def __init__(self, doc: ProjectDocument, index: int, uid: str, draft: dict[str, Any], text: str) -> None:
        super().__init__(text)
        self.doc, self.index, self.uid, self.draft = doc, index, uid, draft

    def redo(self) -> None:
        self.doc._insert(self.index, self.uid, self.draft)
        self.doc.focusRequested.emit(self.uid)

    def undo(self) -> None:
        self.doc._remove(self.uid)


class RemoveScenarioCommand(QUndoCommand):
    def __init__(self, doc: ProjectDocument, uid: str, text: str) -> None:
        super().__init__(text)
        self.doc, self.uid = doc, uid
        self.index = 0
        self.entry: ScenarioEntry | None = None

    def redo(self) -> None:
        self.index, self.entry = self.doc._remove(self.uid)

    def undo(self) -> None:
        assert self.entry is not None
        self.doc._insert_entry(self.index, self.entry)  # with its draft as it was, invalid fields included
        self.doc.focusRequested.emit(self.uid)

"""Everything about one scenario the user can edit, in four tabs; errors shown where they belong.

The form only shows a draft and reports edits (`edited(path, value)`,
`kindChosen(kind)`); the main window turns them into undoable document edits.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.editing.draft import Issues, path_str, shown_value
from app.editing.fields import ASSUMPTION_FIELDS, PLATFORM_FIELDS, SCENARIO_FIELDS, TARGET_FIELDS, FieldSpec
from app.gui.field_widgets import UNDO_KEYS, FieldEditor, add_rows, new_form_layout
from app.gui.hardware_picker import HardwarePicker
from app.gui.workload_form import WorkloadForm
from models.hardware import HardwareCatalog
from models.problems import Problem
from models.sizing.result import Design, UsedValue
from models.vocabulary import targets_for

_ERROR_COLOR = QColor("#c92a2a")


def problems_by_field(problems: list[Problem]) -> dict[str, str]:
    """Sizing problems keyed by the JSON path of the field they concern."""
    out: dict[str, str] = {}
    for p in problems:
        out[p.path] = f"{out[p.path]}; {p.message}" if p.path in out else p.message
    return out


def _group(title: str, content: QWidget | QFormLayout) -> QGroupBox:
    box = QGroupBox(title)
    if isinstance(content, QFormLayout):
        box.setLayout(content)
    else:
        lay = QVBoxLayout(box)
        lay.addWidget(content)
    return box


def _scroll_page(*groups: QWidget) -> QScrollArea:
    inner = QWidget()
    inner.setObjectName("formPage")
    lay = QVBoxLayout(inner)
    lay.setContentsMargins(8, 8, 8, 8)
    lay.setSpacing(10)
    for g in groups:
        lay.addWidget(g)
    lay.addStretch(1)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(inner)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    return area


class ScenarioForm(QTabWidget):
    edited = Signal(tuple, object)
    replaced = Signal(tuple, object, str)  # a whole value set at once (an import): its own undo step, named
    kindChosen = Signal(str)

    TAB_TITLES = ("Workload", "Hardware", "Platform", "Targets && costs")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scenarioForm")
        self.setDocumentMode(True)
        self.editors: dict[str, FieldEditor] = {}
        self._tab_of: dict[str, int] = {}

        meta = new_form_layout()
        self._add(meta, SCENARIO_FIELDS, tab=0)
        self.workload = WorkloadForm()
        self.workload.edited.connect(self.edited)
        self.workload.replaced.connect(self.replaced)
        self.workload.kindChosen.connect(self.kindChosen)
        self.addTab(_scroll_page(_group("Scenario", meta), _group("Workload", self.workload)), "")

        self.hardware = HardwarePicker()
        self.hardware.edited.connect(self.edited)
        hw_note = QLabel("Leave a part on Recommend and refarch picks it; the rationale says why.")
        hw_note.setObjectName("hint")
        hw_note.setWordWrap(True)
        self.addTab(_scroll_page(_group("Parts from the catalog", self.hardware), hw_note), "")

        platform = new_form_layout()
        self._add(platform, PLATFORM_FIELDS, tab=2)
        self.addTab(_scroll_page(_group("Platform", platform)), "")

        targets = self.targets_form = new_form_layout()
        self._add(targets, TARGET_FIELDS, tab=3)
        costs = new_form_layout()
        self._add(costs, ASSUMPTION_FIELDS, tab=3)
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("field:notes")
        self.notes.setPlaceholderText("Notes for the report: assumptions agreed with the customer, open questions…")
        self.notes.setMaximumHeight(110)
        self.notes.textChanged.connect(self._notes_changed)
        self.notes.installEventFilter(UNDO_KEYS)
        self._showing_notes = False
        self.addTab(
            _scroll_page(_group("Targets (empty = no target)", targets), _group("Energy and costs", costs),
                         _group("Notes", self.notes)),
            "",
        )
        self.show_issues(Issues())

    def _add(self, form: QFormLayout, specs: tuple[FieldSpec, ...], tab: int) -> None:
        for editor in add_rows(form, specs, self):
            editor.edited.connect(self.edited)
            key = path_str(editor.path)
            self.editors[key] = editor
            self._tab_of[key] = tab

    def _notes_changed(self) -> None:
        if not self._showing_notes:
            self.edited.emit(("notes",), self.notes.toPlainText())

    # -- lookups (tests and error routing) ----------------------------------------------------------------
    def editor(self, key: str) -> FieldEditor:
        """The editor of a field by its JSON path ("workload.data_tb"), for the kind shown."""
        found = self.workload.current_editors().get(key) or self.editors.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def set_catalog(self, catalog: HardwareCatalog | None) -> None:
        self.hardware.set_catalog(catalog)

    def show_draft(self, draft: dict[str, Any]) -> None:
        for editor in self.editors.values():
            editor.show_value(shown_value(draft, editor.path))
        self._show_targets_of(draft)
        self.workload.show_draft(draft)
        self.hardware.show_draft(draft)
        notes = str(draft.get("notes") or "")
        if notes != self.notes.toPlainText():
            self._showing_notes = True
            self.notes.setPlainText(notes)
            self._showing_notes = False

    def _show_targets_of(self, draft: dict[str, Any]) -> None:
        """Only the targets the engine checks for this workload (a TPS target on a warehouse is not used); one
        set anyway stays visible, so it can be cleared where the warning about it points."""
        workload = draft.get("workload")
        kind = workload.get("kind") if isinstance(workload, dict) else None
        used = {t.name for t in targets_for(str(kind))} if kind else None
        for spec in TARGET_FIELDS:
            editor = self.editors[path_str(spec.path)]
            visible = used is None or spec.path[-1] in used or shown_value(draft, spec.path) is not None
            self.targets_form.setRowVisible(editor.container, visible)

    def show_design(self, design: Design | None, used: dict[str, UsedValue] | None = None) -> None:
        """What the engine used for the fields left empty or on "Recommend" (`used`, from
        `app.export.engine_values`), shown where the user would set them."""
        chosen = used or {}
        editors = {**self.editors, **self.workload.current_editors()}
        for key, editor in editors.items():
            editor.show_recommended(chosen.get(key))
        self.workload.databases.show_used(chosen)
        self.hardware.show_picked({
            "platform.server_id": design.server_id if design else None,
            "platform.drive_id": design.drive_id if design else None,
            "platform.nic_id": design.nic_id if design else None,
        })

    def show_issues(self, issues: Issues, sizing_problems: list[Problem] | None = None) -> None:
        from_sizing = problems_by_field(sizing_problems or [])
        merged = Issues({**from_sizing, **issues.by_field}, issues.general)
        counts = [0, 0, 0, 0]
        for key, editor in self.editors.items():
            msg = merged.by_field.get(key)
            editor.show_error(msg)
            counts[self._tab_of[key]] += bool(msg)
        self.workload.show_issues(merged)
        counts[0] += sum(1 for k in merged.by_field if k.startswith("workload"))
        self.hardware.show_issues(merged, sizing_problems)
        counts[1] += sum(1 for k in merged.by_field if k in self.hardware.pickers)
        for i, title in enumerate(self.TAB_TITLES):
            self.setTabText(i, f"{title} ({counts[i]})" if counts[i] else title)
            self.tabBar().setTabTextColor(i, self.palette().color(self.foregroundRole()) if not counts[i]
                                          else _ERROR_COLOR)

"""The main window: scenarios on the side, the selected one's form and live result, compare, catalog.

The window wires widgets to the project document and the sizing coordinator;
it holds no sizing logic. Everything that would block (file dialogs, the
dirty-state prompt, crash recovery) goes through an `ask_*` attribute so tests
and `--screenshot` can answer without a dialog.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMenu,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.editing.draft import Path as FieldPath
from app.editing.fields import problem_text, workload_for_kind
from app.editing.templates import default_name, project_defaults, scenario_template
from app.formatting import money_short
from app.gui.compare_view import CompareView
from app.gui.file_actions import ProjectFileActions, SaveChoice, ask_save_changes_dialog
from app.gui.project_model import ProjectDocument, ScenarioEntry
from app.gui.results_view import ResultsView, Status
from app.gui.scenario_form import ScenarioForm
from app.gui.scenario_list import ScenarioList
from app.gui.style import STYLESHEET
from app.gui.workers import SizingCoordinator
from app.services import project_files as files
from app.services.catalog_source import CatalogSource, CatalogUnavailable
from models.hardware import HardwareCatalog

if TYPE_CHECKING:
    from app.gui.catalog_editor import CatalogEditor
    from app.gui.export_actions import Exporter
    from app.gui.help import HelpDialog
    from app.gui.measurements_page import MeasurementsPage

from models.field_words import field_label
from models.scenario import Project, ScenarioFileError
from models.vocabulary import WORKLOAD_KINDS, kind_label, kind_short_label

VIEWS = ("main", "compare", "catalog")
AUTOSAVE_MS = 60_000


def sample_project() -> Project:
    """The bundled sample, or a small one built here when the resources are not installed."""
    from importlib.resources import files as resource_files

    with contextlib.suppress(FileNotFoundError, ModuleNotFoundError, ScenarioFileError, OSError):
        ref = resource_files("resources") / "samples" / "sample.refarch.json"
        if ref.is_file():
            return files.open_project(Path(str(ref)))
    from models.scenario import GreenplumAnalytics, Scenario

    return Project(
        name="Sample project",
        scenarios=[
            Scenario(name="Analytics, 50 TB", workload=GreenplumAnalytics(data_tb=50, concurrent_queries=20)),
            Scenario(name="Analytics, 100 TB", workload=GreenplumAnalytics(data_tb=100, concurrent_queries=20)),
        ],
    )


class MainWindow(ProjectFileActions, QMainWindow):
    def __init__(
        self,
        db_url: str | None = None,
        project_path: Path | None = None,
        *,
        catalog: HardwareCatalog | CatalogSource | None = None,
        settings: QSettings | None = None,
        data_dir: Path | None = None,
        interactive: bool = True,
    ) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setStyleSheet(STYLESHEET)
        self.interactive = interactive
        self.data_dir = data_dir
        self.settings = settings or QSettings("refarch", "refarch")
        # Injectable prompts: tests and --screenshot answer these without a dialog.
        self.ask_save_changes: Callable[[], SaveChoice] = lambda: ask_save_changes_dialog(self, self._doc_title())
        self.ask_open_path: Callable[[], Path | None] = self._dialog_open_path
        self.ask_save_path: Callable[[], Path | None] = self._dialog_save_path
        self.ask_recover: Callable[[Path, Path | None], bool] = self._dialog_recover
        self.show_error: Callable[[str, str], None] = self._dialog_error

        self.catalog_error: str | None = None
        self._owns_source = not isinstance(catalog, CatalogSource)
        self.source = self._open_catalog(db_url, catalog)
        self._register_measurements()
        self.doc = ProjectDocument(self)
        self.coordinator = SizingCoordinator(lambda: self.source.snapshot if self.source else None, self)
        self.current_uid: str | None = None
        self._compare_uids: list[str] = []
        self._shut_down = False
        self._help_dialogs: dict[str, Any] = {}

        self._build_widgets()
        self._build_menus()
        self._connect()

        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()

        if project_path is not None:
            if not self.open_path(Path(project_path)):
                self._load(sample_project(), None)
        else:
            self._load(sample_project(), None)
            if self.interactive:
                self._offer_untitled_recovery()

    # -- construction ---------------------------------------------------------------------------------------
    def _open_catalog(
        self, db_url: str | None, catalog: HardwareCatalog | CatalogSource | None
    ) -> CatalogSource | None:
        if isinstance(catalog, CatalogSource):
            return catalog
        if isinstance(catalog, HardwareCatalog):
            return CatalogSource.in_memory(catalog)
        try:
            return CatalogSource.open(db_url)
        except CatalogUnavailable as exc:
            self.catalog_error = exc.message
            return None

    def _build_widgets(self) -> None:
        self.scenarios = ScenarioList()
        self.form = ScenarioForm()
        self.form.set_catalog(self.source.snapshot if self.source else None)
        self.results = ResultsView()
        self.results.set_describe(self._describe)
        self.compare = CompareView()

        design = QSplitter(Qt.Orientation.Horizontal)
        design.setObjectName("designSplit")
        design.addWidget(self.form)
        design.addWidget(self.results)
        design.setStretchFactor(0, 0)
        design.setStretchFactor(1, 1)
        design.setSizes([380, 780])
        self.form.setMinimumWidth(320)
        self.results.setMinimumWidth(540)

        self.views = QTabWidget()
        self.views.setObjectName("views")
        self.views.addTab(design, "Design")
        self.views.addTab(self.compare, "Compare")
        self.catalog_editor: CatalogEditor | None = None
        if self.source is not None:
            # the editor (SQLAlchemy, the catalog store, a table per kind) is built when the tab is first shown
            self.catalog_tab = QWidget()
            QVBoxLayout(self.catalog_tab).setContentsMargins(0, 0, 0, 0)
            self.views.addTab(self.catalog_tab, "Catalog")
            self.measurements_page: MeasurementsPage | None = None  # built when first shown, like the editor
            self.measurements_tab = QWidget()
            QVBoxLayout(self.measurements_tab).setContentsMargins(0, 0, 0, 0)
            self.views.addTab(self.measurements_tab, "Measurements")
        else:
            msg = QLabel(f"<h3>The hardware catalog cannot be opened</h3><p>{html.escape(self.catalog_error or '')}</p>"
                         "<p>Start refarch with <code>--db URL</code> or set <code>REFARCH_DB</code>.</p>")
            msg.setWordWrap(True)
            msg.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            msg.setContentsMargins(20, 20, 20, 20)
            self.views.addTab(msg, "Catalog")

        outer = QSplitter(Qt.Orientation.Horizontal)
        outer.addWidget(self.scenarios)
        outer.addWidget(self.views)
        outer.setStretchFactor(0, 0)
        outer.setStretchFactor(1, 1)
        outer.setSizes([240, 1160])
        self.scenarios.setMinimumWidth(130)
        self.setCentralWidget(outer)

        self.catalog_label = QLabel()
        self.catalog_label.setObjectName("catalogLabel")
        self.busy_label = QLabel()
        self.statusBar().addPermanentWidget(self.busy_label)
        self.statusBar().addPermanentWidget(self.catalog_label)
        self._update_catalog_label()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.menu_actions: dict[str, QAction] = {}

        def act(key: str, text: str, slot: Callable[[], Any],
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                menu: QMenu = file_menu) -> QAction:
            a = QAction(text, self)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            a.triggered.connect(lambda _checked=False: slot())
            menu.addAction(a)
            self.menu_actions[key] = a
            return a

        act("new", "&New project", self.new_project, QKeySequence.StandardKey.New)
        act("open", "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = file_menu.addMenu("Open &recent")
        file_menu.addSeparator()
        act("save", "&Save", self.save, QKeySequence.StandardKey.Save)
        act("save_as", "Save &as…", self.save_as, "Ctrl+Shift+S")
        self._build_export_menu(file_menu)
        file_menu.addSeparator()
        act("quit", "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit_menu = bar.addMenu("&Edit")
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence(QKeySequence.StandardKey.Redo)])
        edit_menu.addAction(undo)
        edit_menu.addAction(redo)
        self.menu_actions["undo"], self.menu_actions["redo"] = undo, redo
        edit_menu.addSeparator()
        act("add", "&Add scenario", self.add_scenario, "Ctrl+T", menu=edit_menu)
        templates = edit_menu.addMenu("Add scenario &from template")
        for kind in WORKLOAD_KINDS:  # the templates `refarch new KIND` writes
            act(f"add_{kind}", kind_label(kind), partial(self.add_scenario, kind), menu=templates)
        act("duplicate", "&Duplicate scenario", self.duplicate_scenario, "Ctrl+D", menu=edit_menu)
        act("rename", "Re&name scenario", self.scenarios.start_rename, "F2", menu=edit_menu)
        act("delete", "De&lete scenario", self.delete_scenario, None, menu=edit_menu)

        view_menu = bar.addMenu("&View")
        for i, (key, title) in enumerate((("main", "&Design"), ("compare", "&Compare"), ("catalog", "C&atalog"))):
            act(f"view_{key}", title, partial(self.views.setCurrentIndex, i), f"Ctrl+{i + 1}", menu=view_menu)

        tools = bar.addMenu("&Tools")
        act("optimizer", "&Optimize hardware…", self.open_optimizer, "Ctrl+Shift+O", menu=tools)

        help_menu = bar.addMenu("&Help")
        act("user_guide", "&User guide", lambda: self.show_help("guide"), QKeySequence.StandardKey.HelpContents,
            menu=help_menu)
        act("model_card", "&Model card (how far to trust the estimates)", lambda: self.show_help("models"),
            menu=help_menu)
        help_menu.addSeparator()
        act("about", "&About refarch", lambda: self.show_help("about"), menu=help_menu)
        self._refresh_recent_menu()

    def show_help(self, which: str) -> HelpDialog:
        """Open (or raise) the help text `which`: "guide", "models" or "about"."""
        from app.gui import help as help_texts

        if which == "guide":
            dialog = help_texts.HelpDialog("refarch user guide", help_texts.user_guide_markdown(), True, self)
        elif which == "models":
            dialog = help_texts.HelpDialog("Model card", help_texts.model_card_html(), parent=self)
        else:
            label = self.catalog_label.text() if hasattr(self, "catalog_label") else ""
            dialog = help_texts.HelpDialog("About refarch", help_texts.about_html(label), parent=self)
            dialog.resize(520, 460)
        self._help_dialogs[which] = dialog
        dialog.show()
        return dialog

    def _build_export_menu(self, file_menu: QMenu) -> None:
        from app.gui import export_actions

        file_menu.addSeparator()
        self.exporter: Exporter = export_actions.add_menu(self, file_menu)

    def _connect(self) -> None:
        doc = self.doc
        doc.reset.connect(self._on_reset)
        doc.entryInserted.connect(self._on_inserted)
        doc.entryRemoved.connect(self._on_removed)
        doc.entryChanged.connect(self._on_entry_changed)
        doc.focusRequested.connect(self._focus)
        doc.undo_stack.cleanChanged.connect(self._update_title)
        doc.undo_stack.indexChanged.connect(self._update_title)

        self.scenarios.currentChanged.connect(self._select)
        self.scenarios.selectionChanged.connect(self._refresh_compare)
        self.scenarios.addRequested.connect(self.add_scenario)
        self.scenarios.duplicateRequested.connect(self._duplicate_uid)
        self.scenarios.renameRequested.connect(self._rename)
        self.scenarios.deleteRequested.connect(self._delete_uid)

        self.form.edited.connect(self._field_edited)
        self.form.replaced.connect(self._field_replaced)
        self.form.kindChosen.connect(self._kind_chosen)

        self.coordinator.resultReady.connect(self._on_result)
        self.coordinator.sizingFailed.connect(self._on_failed)
        self.coordinator.curveReady.connect(self._on_curve)
        self.results.sensitivity.requested.connect(self.run_tornado)
        self.coordinator.busyChanged.connect(self._on_busy)
        self.views.currentChanged.connect(self._refresh_compare)
        self.views.currentChanged.connect(self._build_catalog_editor_when_shown)
        self.views.currentChanged.connect(self._build_measurements_when_shown)

    # -- document events ------------------------------------------------------------------------------------
    def _on_reset(self) -> None:
        for uid in list(self.coordinator.results):
            self.coordinator.forget(uid)
        self._refill_list()
        first = self.doc.entries[0].uid if self.doc.entries else None
        self.current_uid = None
        if first:
            self.scenarios.select(first)
            self._select(first)
        else:
            self._show_current()
        for e in self.doc.entries:  # the scenario on screen first, alone: it shows sooner
            self.coordinator.request(e.uid, e.scenario, immediate=True, background=e.uid != first)
        self._update_title()

    def _on_inserted(self, index: int) -> None:
        entry = self.doc.entries[index]
        self._refill_list()
        self.coordinator.request(entry.uid, entry.scenario, immediate=True)

    def _on_removed(self, _index: int, uid: str) -> None:
        self.coordinator.forget(uid)
        if self.current_uid == uid:
            self.current_uid = None
        self._refill_list()
        if self.current_uid is None and self.doc.entries:
            i = min(_index, len(self.doc.entries) - 1)
            self._select(self.doc.entries[i].uid)
        elif not self.doc.entries:
            self._show_current()
        self._refresh_compare()

    def _on_entry_changed(self, uid: str, _paths: list[str]) -> None:
        entry = self.doc.entry(uid)
        if entry.valid:
            self.coordinator.request(uid, entry.scenario)
        self._update_list_entry(entry)
        if uid == self.current_uid:
            self.form.show_draft(entry.draft)
            self._show_issues(entry)
            self._show_result()

    def _focus(self, uid: str) -> None:
        if uid != self.current_uid and self.doc.has(uid):
            self.scenarios.select(uid)
            self._select(uid)

    # -- list -----------------------------------------------------------------------------------------------
    def _subtitle(self, entry: ScenarioEntry) -> str:
        kind = kind_short_label(str(entry.scenario.workload.kind))
        result = self.coordinator.results.get(entry.uid)
        if not entry.valid:
            return f"{kind} · input needs fixing"
        if self.coordinator.problems.get(entry.uid):
            return f"{kind} · cannot size"
        if result is None:
            return f"{kind} · sizing…" if self.coordinator.busy() else kind
        hosts = result.design.total_hosts
        capex = money_short(result.totals.capex, result.totals.currency)
        return f"{hosts} host{'s' if hosts != 1 else ''} · {capex} · {kind}"

    def _refill_list(self) -> None:
        self.scenarios.set_entries([(e.uid, e.name, self._subtitle(e), not e.valid) for e in self.doc.entries])

    def _update_list_entry(self, entry: ScenarioEntry) -> None:
        failed = bool(self.coordinator.problems.get(entry.uid))
        self.scenarios.update_entry(entry.uid, entry.name, self._subtitle(entry), not entry.valid or failed)

    def _select(self, uid: str) -> None:
        if not self.doc.has(uid):
            return
        self.current_uid = uid
        self.coordinator.want_curve(uid)
        self._show_current()

    def _show_current(self) -> None:
        uid = self.current_uid
        if uid is None or not self.doc.has(uid):
            self.results.show_result(None, None, Status())
            return
        entry = self.doc.entry(uid)
        self.form.show_draft(entry.draft)
        self._show_issues(entry)
        self._show_result()

    def _show_issues(self, entry: ScenarioEntry) -> None:
        self.form.show_issues(entry.issues, self.coordinator.problems.get(entry.uid))

    def _show_result(self) -> None:
        uid = self.current_uid
        if uid is None or not self.doc.has(uid):
            return
        entry = self.doc.entry(uid)
        c = self.coordinator
        result = c.results.get(uid)
        status = Status(
            computing=c.sizing(uid),
            input_problems=entry.issues.lines(field_label),
            sizing_problems=[problem_text(p) for p in c.problems.get(uid, [])] if entry.valid else [],
            stale=result is not None and c.result_inputs.get(uid) != entry.scenario,
        )
        if self.source is None:
            status.engine_missing = f"No hardware catalog: {self.catalog_error}"
        self.results.show_result(result, c.result_inputs.get(uid, entry.scenario), status, c.curves.get(uid))
        from app.export.engine_values import used_values  # the engine's modules: loaded with the first result

        self.form.show_design(result.design if result is not None else None,
                              used_values(result) if result is not None else None)

    # -- edits ----------------------------------------------------------------------------------------------
    def _field_edited(self, path: FieldPath, value: object) -> None:
        if self.current_uid is not None:
            self.doc.edit(self.current_uid, path, value)

    def _field_replaced(self, path: FieldPath, value: object, text: str) -> None:
        if self.current_uid is not None:
            self.doc.edit_many(self.current_uid, [(path, value)], text)

    def _kind_chosen(self, kind: str) -> None:
        uid = self.current_uid
        if uid is None:
            return
        draft = self.doc.entry(uid).draft
        previous = draft.get("workload") if isinstance(draft.get("workload"), dict) else None
        if previous is not None and previous.get("kind") == kind:
            return
        changes: list[tuple[FieldPath, object]] = [(("workload",), workload_for_kind(kind, previous))]
        if kind == "postgres-consolidation":
            changes.append((("platform", "deployment"), "vsphere"))  # the schema requires VMs for this kind
        self.doc.edit_many(uid, changes, f"Change workload to {kind_label(kind)}")

    def add_scenario(self, kind: str = "greenplum-analytics") -> None:
        """Add the template of `kind` (`refarch new`'s), with the customer and currency the project's scenarios
        agree on."""
        customer, currency = project_defaults(e.draft for e in self.doc.entries)
        draft = scenario_template(kind, self.doc.unique_name(default_name(kind)), customer=customer,
                                  currency=currency)
        self._select_only(self.doc.add_scenario(draft))

    def duplicate_scenario(self) -> None:
        if self.current_uid is not None:
            self._duplicate_uid(self.current_uid)

    def _duplicate_uid(self, uid: str) -> None:
        if self.doc.has(uid):
            self._select_only(self.doc.duplicate(uid))

    def _select_only(self, uid: str) -> None:
        """A new scenario is the one the user works on next: Compare and Export must not still act on the others."""
        self.scenarios.select_only(uid)
        self._select(uid)
        self._refresh_compare()

    def delete_scenario(self) -> None:
        if self.current_uid is not None:
            self._delete_uid(self.current_uid)

    def _delete_uid(self, uid: str) -> None:
        if len(self.doc.entries) <= 1:
            self.statusBar().showMessage("A project keeps at least one scenario", 4000)
            return
        self.doc.delete(uid)
        self.statusBar().showMessage("Scenario deleted — Ctrl+Z brings it back", 5000)

    def _rename(self, uid: str, name: str) -> None:
        if not self.doc.has(uid):
            return
        self.doc.rename(uid, name)
        self._update_list_entry(self.doc.entry(uid))

    # -- sizing events --------------------------------------------------------------------------------------
    def _on_result(self, uid: str) -> None:
        if self.doc.has(uid):
            self._update_list_entry(self.doc.entry(uid))
        if uid == self.current_uid:
            self._show_issues(self.doc.entry(uid))
            self._show_result()
        if uid in self._compare_uids:
            self._refresh_compare()

    def _on_failed(self, uid: str, _problems: list[str]) -> None:
        self._on_result(uid)

    def run_tornado(self) -> None:
        """The Sensitivity tab's tornado of the design on screen (as it was sized), in the background."""
        from app.gui.sensitivity_tab import start_tornado

        uid, c = self.current_uid, self.coordinator
        if uid is None or uid not in c.results or self.source is None:
            return
        start_tornado(self.results.sensitivity, c.runner, c.result_inputs[uid], self.source.snapshot, c.results[uid])

    def _on_curve(self, uid: str) -> None:
        if uid == self.current_uid:
            self.results.set_curve(self.coordinator.curves.get(uid))

    def _on_busy(self, busy: bool) -> None:
        self.busy_label.setText("Sizing…" if busy else "")
        if not busy and self.current_uid is not None:
            self._show_result()

    def _catalog_changed(self) -> None:
        if self.source is None:
            return
        self.form.set_catalog(self.source.snapshot)
        for e in self.doc.entries:
            if e.valid:
                self.coordinator.request(e.uid, e.scenario, background=e.uid != self.current_uid)
        if self.current_uid is not None:
            self.form.show_draft(self.doc.entry(self.current_uid).draft)
        self._update_catalog_label()

    def _refresh_compare(self, *_why: object) -> None:
        selected = [u for u in self.scenarios.selected_uids() if self.doc.has(u)]
        note = ""
        if len(selected) >= 2:
            uids = selected
        else:
            # nothing picked: the scenarios that answer the same question as the current one (same workload)
            kind = self.doc.entry(self.current_uid).scenario.workload.kind if self.current_uid else None
            same = [e.uid for e in self.doc.entries if e.scenario.workload.kind == kind]
            uids = same if len(same) >= 2 else [e.uid for e in self.doc.entries]
            what = f"every {kind_label(str(kind))} scenario" if len(same) >= 2 else "every scenario"
            note = f"Comparing {what}; Ctrl+click scenarios on the left to choose others."
        self._compare_uids = uids
        if self.views.currentWidget() is not self.compare:
            return
        names = [self.doc.entry(u).name for u in uids]
        self.compare.show_results(names, [self.coordinator.results.get(u) for u in uids], note)

    def _build_catalog_editor_when_shown(self, *_why: object) -> None:
        if self.catalog_editor is not None or self.source is None or self.views.currentWidget() is not self.catalog_tab:
            return
        from app.gui.catalog_editor import CatalogEditor

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)  # opening the store takes a moment
        try:
            editor = CatalogEditor(self.source)
        finally:
            QApplication.restoreOverrideCursor()
        self.catalog_editor = editor
        layout = self.catalog_tab.layout()
        assert layout is not None
        layout.addWidget(editor)
        editor.catalogChanged.connect(self._catalog_changed)
        if self.source.open_error:
            editor._show_problem(f"The catalog is shown read-only: {self.source.open_error}")

    def _register_measurements(self) -> None:
        """Sizings read the profiles a scenario names from this window's catalog."""
        from app.services import measurement_source

        url = self.source.url if self.source is not None else None
        measurement_source.register(measurement_source.store_loader(url) if url is not None else None)

    def _build_measurements_when_shown(self, *_why: object) -> None:
        if (self.source is None or getattr(self, "measurements_page", None) is not None
                or self.views.currentWidget() is not self.measurements_tab):
            return
        from app.gui.measurements_page import MeasurementsPage

        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)  # opening the store takes a moment
        try:
            page = MeasurementsPage(self.source)
        finally:
            QApplication.restoreOverrideCursor()
        self.measurements_page = page
        layout = self.measurements_tab.layout()
        assert layout is not None
        layout.addWidget(page)
        page.profilesChanged.connect(self._measurements_changed)

    def _measurements_changed(self) -> None:
        """Size again the scenarios that name measurement profiles (their profiles may have changed)."""
        for e in self.doc.entries:
            if e.valid and e.scenario.platform.measurements:
                self.coordinator.request(e.uid, e.scenario, background=e.uid != self.current_uid)

    # -- describing parts -----------------------------------------------------------------------------------
    def _describe(self, part_id: str | None) -> str:
        return self.source.describe(part_id) if self.source else (part_id or "—")

    def _update_catalog_label(self) -> None:
        if self.source is None:
            self.catalog_label.setText("No catalog")
            return
        n = len(self.source.snapshot)
        self.catalog_label.setText(f"{self.source.label} · {n} parts")

    # -- files ----------------------------------------------------------------------------------------------
    def _update_title(self, *_why: object) -> None:
        if self._shut_down:
            return
        self.setWindowModified(self.doc.dirty)
        self.setWindowTitle(f"{self._doc_title()}[*] — refarch")

    # -- tools ----------------------------------------------------------------------------------------------
    def open_optimizer(self) -> None:
        from app.gui.optimizer_dialog import OptimizerDialog

        uid = self.current_uid
        if uid is None or self.source is None:
            return
        entry = self.doc.entry(uid)
        dialog = OptimizerDialog(entry.scenario, self.source.snapshot, self)
        dialog.designChosen.connect(lambda platform: self.doc.edit(uid, ("platform",), platform,
                                                                   "Use the optimizer's design"))
        dialog.open()

    # -- view switching and shutdown ------------------------------------------------------------------------
    def show_view(self, view: str) -> None:
        self.views.setCurrentIndex(VIEWS.index(view))

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        files.discard_autosave(self.doc.path, self.data_dir)
        if self.interactive:
            from app.gui.window_geometry import remember

            remember(self, self.settings)
        self.shut_down()
        event.accept()

    def shut_down(self) -> None:
        """Stop timers and workers and silence the document: Qt deletes children after this, and their
        last signals must not reach a half-destroyed window."""
        if self._shut_down:
            return
        self._shut_down = True
        self.autosave_timer.stop()
        self.coordinator.cancel_all()
        self.exporter.cancel()
        for obj in (self.doc, self.doc.undo_stack, self.coordinator, self.scenarios, self.scenarios.list, self.views):
            obj.blockSignals(True)
        if self.source is not None and self._owns_source:
            self.source.close()


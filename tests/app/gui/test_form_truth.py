"""What the form shows is what is sized: values, defaults, recommendations, and the selection after Add."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit

from app.formatting import is_fraction
from app.gui.draft import get_in, shown_value
from app.gui.main_window import MainWindow
from app.gui.project_model import edit_text
from models.scenario import WORKLOAD_KINDS, scenario_to_json
from models.vocabulary import raid_label


def _sized(qtbot, window: MainWindow, uid: str):  # type: ignore[no-untyped-def]
    c = window.coordinator
    qtbot.waitUntil(lambda: uid in c.results and not c.busy()
                    and c.result_inputs.get(uid) == window.doc.entry(uid).scenario, timeout=60_000)
    return c.result_inputs[uid], c.results[uid]


@pytest.mark.parametrize("kind", WORKLOAD_KINDS)
def test_every_field_shows_the_value_the_engine_sized(qtbot, window: MainWindow, kind: str) -> None:  # type: ignore[no-untyped-def]
    window.add_scenario()
    uid = window.current_uid
    assert uid is not None
    combo = window.form.workload.kind_combo
    combo.activated.emit(combo.findData(kind))
    scenario, result = _sized(qtbot, window, uid)
    window._show_result()
    sized = scenario_to_json(scenario)
    form = window.form
    checked = 0
    for key, editor in {**form.editors, **form.workload.current_editors()}.items():
        expected = get_in(sized, editor.path)
        w = editor.widget
        if isinstance(w, QCheckBox):
            assert w.isChecked() == bool(expected), key
        elif isinstance(w, QComboBox):
            assert w.currentData() == expected, key
        elif isinstance(w, QLineEdit) and editor.spec.kind != "text":
            if expected is None:  # left to refarch or no target: the placeholder says which
                assert editor.spec.optional and w.text() == "" and w.placeholderText(), key
            else:
                assert editor.value() == expected, key
        checked += 1
    assert checked >= 15
    d = result.design
    assert form.editor("platform.deployment").value() == d.deployment
    if kind.startswith("greenplum"):
        assert form.editor("workload.mirrors").value() == scenario.workload.mirrors  # type: ignore[union-attr]
        assert (d.mirror_segments_per_host or 0) > 0 if scenario.workload.mirrors else True  # type: ignore[union-attr]
    memory = form.editor("platform.memory_gib").widget
    assert isinstance(memory, QLineEdit)
    if scenario.platform.memory_gib is None:
        assert memory.placeholderText().endswith(f": {d.memory_gib_per_host:g}")  # what was recommended
    editors = form.workload.current_editors()
    storage = editors.get("workload.shared_storage")
    if storage is not None and get_in(sized, storage.path) is None:  # left to refarch: the choice says what it took
        assert isinstance(storage.widget, QComboBox) and storage.widget.currentText().startswith("Recommend: ")
    writers = editors.get("workload.writer_nodes")
    if writers is not None and result.iq is not None and get_in(sized, writers.path) is None:
        assert isinstance(writers.widget, QLineEdit)
        assert writers.widget.placeholderText().endswith(f": {result.iq.writers}")
    main = result.estimates[result.main_metric]
    card = window.results.cards["metric"].value.text()
    if is_fraction(main.unit):  # a share is shown as a percentage, never as "1"
        assert card == f"{main.p50 * 100:,.0f} %" or card.endswith(" %"), card
    table = window.results.estimates
    for row in range(table.rowCount()):  # and so in the estimates table
        unit = table.item(row, 3).text()
        assert not unit.startswith("fraction"), unit


def test_recommend_raid_says_what_it_picked(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    uid = window.current_uid
    assert uid is not None
    window.doc.edit(uid, ("platform", "raid"), None)
    _, result = _sized(qtbot, window, uid)
    window._show_result()
    combo = window.form.editor("platform.raid").widget
    assert isinstance(combo, QComboBox) and combo.currentData() is None
    assert combo.currentText().startswith("Recommend: ")
    assert combo.currentText() == f"Recommend: {raid_label(result.design.raid)}"


def test_a_new_scenario_starts_from_explicit_defaults(window: MainWindow) -> None:
    window.add_scenario()
    draft = window.doc.entry(window.current_uid).draft  # type: ignore[arg-type]
    for key in ("mirrors", "compression_ratio", "growth_pct_per_year", "horizon_years", "scan_fraction_pct"):
        assert key in draft["workload"], key
    assert draft["platform"]["deployment"] == "bare-metal" and draft["platform"]["raid"] == "none"
    assert window.form.editor("workload.mirrors").value() is True


def test_greenplum_inputs_are_on_the_form_with_the_vocabularys_words(window: MainWindow) -> None:
    """Mirror placement, block size, the backup/load landing area and the confidence the targets are sized on are
    form fields, labelled and offered as models.vocabulary declares them."""
    from models.vocabulary import FIELDS

    window.add_scenario()
    form = window.form
    for key in ("workload.mirroring", "workload.mirror_block_hosts", "workload.landing_pct", "targets.confidence"):
        assert form.editor(key).spec.label == FIELDS[key].text, key
    mirroring = form.editor("workload.mirroring").widget
    confidence = form.editor("targets.confidence").widget
    assert isinstance(mirroring, QComboBox) and isinstance(confidence, QComboBox)
    assert [mirroring.itemData(i) for i in range(mirroring.count())] == ["group", "spread", "block"]
    assert mirroring.currentData() == "group" and confidence.currentData() == "P50"
    assert form.editor("workload.landing_pct").value() == 0.0


def test_a_field_the_draft_leaves_out_shows_the_schema_default() -> None:
    draft = {"name": "x", "workload": {"kind": "greenplum-oltp", "clients": 10, "data_tb": 1}}
    assert shown_value(draft, ("workload", "mirrors")) is True
    assert shown_value(draft, ("workload", "horizon_years")) == 3
    assert shown_value(draft, ("platform", "deployment")) == "bare-metal"
    assert shown_value(draft, ("platform", "raid")) == "none"


@pytest.mark.parametrize("action", ["add", "duplicate"])
def test_add_and_duplicate_select_only_the_new_scenario(qtbot, window: MainWindow, action: str) -> None:  # type: ignore[no-untyped-def]
    first, second = (e.uid for e in window.doc.entries)
    for uid in (first, second):
        window.scenarios._item(uid).setSelected(True)  # type: ignore[union-attr]
    assert len(window.scenarios.selected_uids()) == 2
    (window.add_scenario if action == "add" else window.duplicate_scenario)()
    new = window.current_uid
    assert new not in (first, second)
    assert window.scenarios.selected_uids() == [new]
    assert window.scenarios.current_uid() == new


def test_undo_entries_are_in_words(window: MainWindow) -> None:
    uid = window.current_uid
    assert uid is not None
    window.doc.edit(uid, ("workload", "data_tb"), 60.0)
    assert window.doc.undo_stack.undoText() == "Set Data before compression (TB) to 60"  # the vocabulary's label
    assert edit_text(("workload", "mirrors"), False) == "Set Mirror segments (HA) to off"
    assert edit_text(("platform", "raid"), None) == "Set RAID to automatic"
    assert "." not in edit_text(("targets", "max_capex"), 1000.0).removeprefix("Set ")


@pytest.mark.parametrize("kind", WORKLOAD_KINDS)
def test_the_form_offers_only_the_targets_the_engine_checks(window: MainWindow, kind: str) -> None:
    """A TPS target on a warehouse is not used: the form hides it, unless the scenario sets it (then it stays, so
    the warning about it can be acted on). The optimizer dialog offers the same targets."""
    from app.gui.optimizer_dialog import OptimizerDialog
    from models.vocabulary import TARGETS, targets_for

    window.add_scenario()
    uid = window.current_uid
    assert uid is not None
    combo = window.form.workload.kind_combo
    combo.activated.emit(combo.findData(kind))
    used = {t.name for t in targets_for(kind)}
    form = window.form
    for name in TARGETS:
        editor = form.editor(f"targets.{name}")
        assert form.targets_form.isRowVisible(editor.container) == (name in used), name
    unused = next((n for n in TARGETS if n not in used), None)
    if unused is not None:
        window.doc.edit(uid, ("targets", unused), 1.0)
        assert form.targets_form.isRowVisible(form.editor(f"targets.{unused}").container)
        window.doc.undo_stack.undo()
    dialog = OptimizerDialog(window.doc.entry(uid).scenario, window.source.snapshot, window)  # type: ignore[union-attr]
    offered = {k.removeprefix("targets.") for k in dialog.editors}
    assert used <= offered and not (offered - used) & set(TARGETS)  # plus settings that are not targets (confidence)
    dialog.deleteLater()

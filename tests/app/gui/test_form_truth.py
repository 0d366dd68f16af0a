"""What the form shows is what is sized: values, defaults, recommendations, and the selection after Add."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit

from app.editing.draft import get_in, shown_value
from app.formatting import dqp_mode, is_fraction
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
        assert memory.placeholderText() == f"Recommend: {d.memory_gib_per_host:,g} GiB"  # what was recommended
    editors = form.workload.current_editors()
    storage = editors.get("workload.shared_storage")
    if storage is not None and get_in(sized, storage.path) is None:  # left to refarch: the choice says what it took
        assert isinstance(storage.widget, QComboBox) and storage.widget.currentText().startswith("Recommend: ")
    writers = editors.get("workload.writer_nodes")
    if writers is not None and result.iq is not None and get_in(sized, writers.path) is None:
        assert isinstance(writers.widget, QLineEdit)
        assert writers.widget.placeholderText() == f"Recommend: {result.iq.writers}"
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
    from models.field_words import FIELDS

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


_NUMBER = re.compile(r"-?[\d,]+(?:\.\d+)?")


def _numbers(text: str) -> list[float]:
    return [float(m.replace(",", "")) for m in _NUMBER.findall(text)]


@pytest.mark.parametrize("deployment", ["bare-metal", "vsphere"])
@pytest.mark.parametrize("kind", WORKLOAD_KINDS)
def test_every_empty_field_names_the_value_the_engine_used(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow, kind: str, deployment: str) -> None:
    """A field left empty shows what the sizing used in its place ("Recommend: 434 GiB (...)"), with the source by
    title, never a file name, a study number or a bare "recommend"."""
    from models.sizing.rules import hypervisor_reserve_gib

    window.add_scenario()
    uid = window.current_uid
    assert uid is not None
    combo = window.form.workload.kind_combo
    combo.activated.emit(combo.findData(kind))
    window.doc.edit(uid, ("platform", "deployment"), deployment)
    for path in (("platform", "memory_gib"), ("platform", "drives_per_host"), ("platform", "nics_per_host")):
        window.doc.edit(uid, path, None)  # left to refarch
    scenario, result = _sized(qtbot, window, uid)
    if scenario.platform.deployment != deployment:
        pytest.skip(f"{kind} is not sized on {deployment}")
    window._show_result()
    d = result.design
    host = d.memory_gib_per_host
    reserve = hypervisor_reserve_gib(host) if d.deployment == "vsphere" else 0.0
    expected: dict[str, list[float]] = {
        # hosts without data drives (SAP IQ on a SAN) say "not used: dbspaces on the external SAN"
        "platform.drives_per_host": [d.data_drives_per_host] if d.data_drives_per_host else [],
        "platform.memory_gib": [host],
        "platform.nics_per_host": [d.nics_per_host],
        "platform.hypervisor_reserve_gib": [reserve] if d.deployment == "vsphere" else [],
        "workload.nodes": [d.segment_hosts],
        "workload.host_memory_available_gib": [host - reserve],
    }
    if result.vms:  # PostgreSQL: every VM as sized, smallest to largest
        expected["workload.vm_vcpus"] = sorted({min(v.vcpus for v in result.vms), max(v.vcpus for v in result.vms)})
        mems = [v.memory_gib for v in result.vms]
        expected["workload.vm_memory_gib"] = sorted({min(mems), max(mems)})
        for h in {v.host for v in result.vms}:  # the VMs were packed into the memory the field names
            assert sum(v.memory_gib for v in result.vms if v.host == h) <= host - reserve + 1e-6
    if d.deployment == "vsphere" and d.vm is not None and kind.startswith("greenplum"):
        # the segment VMs split what the reserve leaves (rounded down to 0.1 GiB each)
        assert 0 <= host - reserve - d.vm.memory_gib * d.vms_per_host <= 0.1 * d.vms_per_host + 1e-6
    if result.iq is not None:
        expected["workload.writer_nodes"] = [result.iq.writers]
        expected["workload.temp_to_main_ratio"] = [result.iq.temp_dbspace_tb / result.iq.main_dbspace_tb]
    form = window.form
    seen = set()
    for key, editor in {**form.editors, **form.workload.current_editors()}.items():
        w = editor.widget
        if not isinstance(w, QLineEdit) or not editor.spec.optional or w.text():
            continue
        text = w.placeholderText()
        assert text and text != "Recommend", (key, text)
        assert not re.search(r"\.txt|\.json|\bstudy \d|\b00[0-4]\b", text, re.IGNORECASE), (key, text)
        if key.startswith("targets.") or key == "workload.target_tps":  # a target, not a value the engine sizes
            assert text == "no target", key
            continue
        if editor.spec.kind == "names":  # a restriction (server vendors), not a value the engine sizes
            assert text == editor.spec.placeholder == "any vendor", key
            continue
        seen.add(key)
        if expected.get(key):
            assert text.startswith("Recommend: "), (key, text)
            shown = _numbers(text.removeprefix("Recommend: ").split(" (")[0])
            assert len(shown) == len(expected[key]), (key, text, expected[key])
            for got, want in zip(shown, expected[key], strict=True):
                assert got == pytest.approx(want, rel=0.006, abs=0.051), (key, text, want)
        else:
            assert text.startswith(("not used", "not priced", "Recommend: ")), (key, text)
        if key == "workload.temp_to_main_ratio":  # a study figure: named by its title
            assert "(from Distributed Query Processing in SAP IQ" in text, text
        if key == "platform.hypervisor_reserve_gib" and d.deployment == "vsphere":
            assert "(from Greenplum Database Performance on VMware vSphere" in text, text
    assert "platform.memory_gib" in seen and "platform.drives_per_host" in seen


def test_a_databases_peak_tps_is_typed_in_its_cell_or_shows_the_estimate(qtbot, window: MainWindow, seed) -> None:  # type: ignore[no-untyped-def]
    """The databases table has the peak TPS the engine sizes each VM's vCPUs from: empty, the cell shows in grey
    the rate the engine estimated; typed, the scenario carries it and the VM grows; cleared, the estimate is back."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTableWidget

    from app.editing.fields import PG_DATABASE_COLUMNS
    from app.gui.workload_form import PLACEHOLDER_ROLE
    from models.sizing.postgres import clients_tps, host_cpu

    window.add_scenario()
    uid = window.current_uid
    assert uid is not None
    combo = window.form.workload.kind_combo
    combo.activated.emit(combo.findData("postgres-consolidation"))
    scenario, result = _sized(qtbot, window, uid)
    window._show_result()
    table = window.form.workload.findChild(QTableWidget, "pgDatabases")
    assert table is not None
    col = [key for key, _, _ in PG_DATABASE_COLUMNS].index("peak_tps")
    db = scenario.workload.databases[0]  # type: ignore[union-attr]
    assert db.peak_tps is None
    estimate = clients_tps(db.peak_clients, host_cpu(seed.server(result.design.server_id), "P50"))
    cell = table.item(0, col)
    assert cell.text() == "" and _numbers(cell.data(PLACEHOLDER_ROLE)) == [pytest.approx(estimate, abs=0.5)]
    assert "Left empty" in cell.toolTip() and "VMware vFabric Postgres" in cell.toolTip()  # the source, by title
    vcpus_before = result.vms[0].vcpus

    table.editItem(cell)  # typed as a user would: the editor shows the estimate as its placeholder
    editor = next(e for e in table.viewport().findChildren(QLineEdit) if e.isVisible())
    assert _numbers(editor.placeholderText()) == _numbers(cell.data(PLACEHOLDER_ROLE))
    stated = 20 * estimate  # well above what the clients alone ask for
    qtbot.keyClicks(editor, f"{stated:.0f}")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.doc.entry(uid).scenario != scenario)  # the delegate commits on the next loop
    scenario, result = _sized(qtbot, window, uid)
    assert scenario.workload.databases[0].peak_tps == pytest.approx(round(stated))  # type: ignore[union-attr]
    assert result.vms[0].vcpus > vcpus_before
    window._show_result()
    cell = table.item(0, col)
    assert cell.text() == f"{stated:.0f}" and cell.data(PLACEHOLDER_ROLE) is None  # a typed value: no estimate

    cell.setText("")  # cleared: left to the engine again
    scenario, result = _sized(qtbot, window, uid)
    assert scenario.workload.databases[0].peak_tps is None  # type: ignore[union-attr]
    assert result.vms[0].vcpus == vcpus_before
    window._show_result()
    cell = table.item(0, col)
    assert cell.text() == "" and _numbers(cell.data(PLACEHOLDER_ROLE)) == [pytest.approx(estimate, abs=0.5)]


def test_the_dqp_mode_is_a_choice_whose_empty_entry_names_the_recommended_mode(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow) -> None:
    """SAP IQ's DQP mode is on the form from the vocabulary: empty, its entry says the mode the engine picked for the
    streams; chosen, the design runs that mode and its rationale says it was specified."""
    window.add_scenario()
    uid = window.current_uid
    assert uid is not None
    combo = window.form.workload.kind_combo
    combo.activated.emit(combo.findData("sap-iq-multiplex"))
    _, result = _sized(qtbot, window, uid)
    window._show_result()
    mode = window.form.workload.current_editors()["workload.dqp_mode"].widget
    assert isinstance(mode, QComboBox) and mode.currentData() is None
    streams = window.doc.entry(uid).scenario.workload.query_streams  # type: ignore[union-attr]
    assert mode.currentText() == f"Recommend: {dqp_mode(result.design.dqp_mode)}, for {streams} query streams"
    assert {mode.itemData(i) for i in range(mode.count())} == {None, "network-transfer", "storage-transfer"}
    other = "storage-transfer" if result.design.dqp_mode == "network-transfer" else "network-transfer"
    mode.activated.emit(mode.findData(other))
    scenario, forced = _sized(qtbot, window, uid)
    assert scenario.workload.dqp_mode == other and forced.design.dqp_mode == other  # type: ignore[union-attr]
    assert "as specified in the scenario" in next(r.text for r in forced.rationale if r.decision == "DQP mode")

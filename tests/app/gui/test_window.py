"""The main window on real widgets: live sizing, validation, undo, files, the dirty-state prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit

from app.gui.main_window import MainWindow
from models.scenario import load_project


def _type(qtbot, window: MainWindow, key: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """Replace a field's text the way a user does: select all, type."""
    widget = window.form.editor(key).widget
    assert isinstance(widget, QLineEdit)
    widget.setFocus()
    widget.selectAll()
    qtbot.keyClicks(widget, text)


def _result(window: MainWindow):  # type: ignore[no-untyped-def]
    assert window.current_uid is not None
    return window.coordinator.results.get(window.current_uid)


def test_the_window_opens_with_results_for_every_scenario(window: MainWindow) -> None:
    assert [e.name for e in window.doc.entries] == ["Small DW", "Big DW"]
    assert all(e.uid in window.coordinator.results for e in window.doc.entries)
    assert window.results.result is _result(window)
    assert window.results.cards["hosts"].value.text() != "–"


def test_editing_a_field_changes_the_design(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    before = _result(window)
    _type(qtbot, window, "workload.data_tb", "2000")
    qtbot.waitUntil(lambda: _result(window) is not before and not window.coordinator.busy(), timeout=20_000)
    after = _result(window)
    assert window.doc.entry(window.current_uid).scenario.workload.data_tb == 2000  # type: ignore[arg-type]
    assert after.design.segment_hosts > before.design.segment_hosts
    assert window.results.result is after
    assert window.results.cards["hosts"].value.text() == str(
        after.design.segment_hosts + after.design.coordinator_hosts + after.design.etl_hosts
    )


def test_an_invalid_value_marks_the_field_and_keeps_the_last_result(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    before = _result(window)
    _type(qtbot, window, "workload.data_tb", "-5")
    editor = window.form.editor("workload.data_tb")
    assert editor.widget.property("invalid") is True
    assert "greater than 0" in (editor.error or "")
    assert "greater than 0" in editor.widget.toolTip()
    qtbot.wait(300)  # longer than the debounce: nothing may be re-sized from an invalid draft
    assert _result(window) is before
    assert window.results.result is before
    assert window.results.banner.isVisible()
    assert "last good result" in window.results.banner.text()
    _type(qtbot, window, "workload.data_tb", "20")
    assert editor.widget.property("invalid") is False
    assert not window.results.banner.text() or "input" not in window.results.banner.text()


def test_undo_restores_the_value_and_the_design(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    before = _result(window)
    _type(qtbot, window, "workload.data_tb", "900")
    qtbot.waitUntil(lambda: _result(window) is not before and not window.coordinator.busy(), timeout=20_000)
    assert window.doc.undo_stack.count() == 1  # one step for the whole typed value
    window.menu_actions["undo"].trigger()
    assert window.form.editor("workload.data_tb").widget.text() == "20"  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: not window.coordinator.busy(), timeout=20_000)
    assert _result(window).design.segment_hosts == before.design.segment_hosts
    assert not window.doc.dirty
    window.menu_actions["redo"].trigger()
    assert window.form.editor("workload.data_tb").widget.text() == "900"  # type: ignore[attr-defined]


def test_undo_of_an_edit_in_another_scenario_brings_it_into_view(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    first, second = (e.uid for e in window.doc.entries)
    _type(qtbot, window, "workload.concurrent_queries", "33")
    window.scenarios.select(second)
    assert window.current_uid == second
    window.doc.undo_stack.undo()
    assert window.current_uid == first
    assert window.form.editor("workload.concurrent_queries").widget.text() == "10"  # type: ignore[attr-defined]


def test_switching_to_postgres_makes_a_valid_vsphere_scenario(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    combo = window.form.workload.kind_combo
    combo.activated.emit(combo.findData("postgres-consolidation"))
    entry = window.doc.entry(window.current_uid)  # type: ignore[arg-type]
    assert entry.valid
    assert entry.scenario.platform.deployment == "vsphere"
    qtbot.waitUntil(lambda: not window.coordinator.busy(), timeout=20_000)
    assert window.form.workload.databases.table.rowCount() == 1
    window.doc.undo_stack.undo()
    assert window.doc.entry(window.current_uid).scenario.workload.kind == "greenplum-analytics"  # type: ignore[arg-type]


def test_add_duplicate_delete_and_undo(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    window.duplicate_scenario()
    assert [e.name for e in window.doc.entries] == ["Small DW", "Small DW (copy)", "Big DW"]
    assert window.current_uid == window.doc.entries[1].uid  # the copy is selected to be edited
    window.delete_scenario()
    assert len(window.doc.entries) == 2
    window.doc.undo_stack.undo()
    assert window.scenarios.list.count() == 3
    qtbot.waitUntil(lambda: not window.coordinator.busy(), timeout=20_000)
    assert all(e.uid in window.coordinator.results for e in window.doc.entries)


def test_rename_from_the_list_is_undoable(window: MainWindow) -> None:
    uid = window.doc.entries[0].uid
    item = window.scenarios.list.item(0)
    item.setText("Renamed")  # what an inline edit of the list item does
    assert window.doc.entry(uid).name == "Renamed"
    window.doc.undo_stack.undo()
    assert window.doc.entry(uid).name == "Small DW"
    assert window.scenarios.list.item(0).text() == "Small DW"


def test_save_and_open_round_trip(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _type(qtbot, window, "workload.data_tb", "77")
    target = tmp_path / "saved"
    window.ask_save_path = lambda: target
    assert window.save_as()
    saved = tmp_path / "saved.refarch.json"
    assert saved.exists() and not window.doc.dirty
    assert load_project(saved).scenarios[0].workload.data_tb == 77
    assert str(saved.resolve()) in window.recent_files()
    _type(qtbot, window, "workload.data_tb", "88")
    window.ask_save_changes = lambda: "discard"
    window.ask_open_path = lambda: saved
    window.open_dialog()
    assert window.doc.path == saved
    assert window.doc.entries[0].scenario.workload.data_tb == 77
    assert not window.doc.dirty


def test_save_with_an_invalid_field_keeps_the_last_valid_value_and_stays_dirty(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                                                             tmp_path: Path) -> None:
    _type(qtbot, window, "workload.data_tb", "abc")
    path = tmp_path / "p.refarch.json"
    window.ask_save_path = lambda: path
    assert window.save_as()
    assert json.loads(path.read_text())["scenarios"][0]["workload"]["data_tb"] == 20
    assert window.doc.dirty


def test_closing_with_changes_asks_and_respects_the_answer(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    asked: list[str] = []

    def answer(choice: str):  # type: ignore[no-untyped-def]
        def ask() -> str:
            asked.append(choice)
            return choice
        return ask

    assert window.maybe_save()  # clean: no question
    assert asked == []
    _type(qtbot, window, "workload.data_tb", "30")
    window.ask_save_changes = answer("cancel")
    assert not window.close()
    assert window.isVisible() and asked == ["cancel"]
    path = window.doc.path
    assert path is not None
    window.ask_save_changes = answer("save")
    assert window.maybe_save()
    assert path.exists() and not window.doc.dirty
    _type(qtbot, window, "workload.data_tb", "31")
    window.ask_save_changes = answer("discard")
    assert window.close()
    assert asked == ["cancel", "save", "discard"]
    assert load_project(path).scenarios[0].workload.data_tb == 30


def test_autosave_is_offered_back_after_a_crash(qtbot, window: MainWindow, project_file: Path) -> None:  # type: ignore[no-untyped-def]
    _type(qtbot, window, "workload.data_tb", "55")
    auto = window.autosave()
    assert auto is not None and auto.exists()
    # a new session after a crash: the autosave is newer than the file
    window.interactive = True
    offered: list[Path | None] = []
    window.ask_recover = lambda path, autosave: offered.append(autosave) or True
    window.ask_save_changes = lambda: "discard"
    assert window.open_path(project_file)
    assert offered == [auto]
    assert window.doc.entries[0].scenario.workload.data_tb == 55
    assert window.doc.dirty  # recovered changes are not in the file yet


def test_ctrl_z_in_a_field_undoes_the_project_edit(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    window.activateWindow()
    _type(qtbot, window, "workload.data_tb", "45")
    widget = window.form.editor("workload.data_tb").widget
    qtbot.keyClick(widget, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.undo_stack.index() == 0
    assert widget.text() == "20"  # type: ignore[attr-defined]
    qtbot.keyClick(widget, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert widget.text() == "45"  # type: ignore[attr-defined]


def test_the_bom_tab_and_design_show_parts_by_name_and_part_number(window: MainWindow) -> None:
    """What procurement orders by is on screen: name and vendor part number; the catalog id only in the tooltip."""
    r = _result(window)
    table = window.results.bom
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    name_col, number_col = headers.index("Part"), headers.index("Part number")
    shown = {(table.item(i, name_col).text(), table.item(i, number_col).text()) for i in range(table.rowCount())
             if table.item(i, number_col) is not None and table.item(i, number_col).text()}
    lines = [ln for ln in r.bom if ln.part_number]
    assert lines
    assert {(ln.description, ln.part_number) for ln in lines} <= shown
    cells = {table.item(i, c).text() for i in range(table.rowCount()) for c in range(table.columnCount())
             if table.item(i, c) is not None}
    assert not {ln.part_id for ln in r.bom} & cells  # ids are not what the table shows
    # the design's server, drive and NIC carry their number where the catalog has one (Small DW's E3.S drive has
    # none since its design moved to that server: the NIC's is the one shown)
    design_ids = {r.design.server_id, r.design.drive_id, r.design.nic_id}
    numbered = {ln.part_id: ln.part_number for ln in lines if ln.part_id in design_ids}
    assert numbered
    facts = window.results.facts.text()
    assert all(f"(P/N {number})" in facts for number in numbered.values())


@pytest.mark.parametrize("kind", ["postgres-consolidation", "sap-iq-multiplex"])
def test_add_from_template_uses_the_template_and_the_projects_customer_and_currency(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow, kind: str) -> None:
    from app.editing.templates import scenario_template

    for entry in window.doc.entries:  # a project for one customer, priced in euros
        window.doc.edit_many(entry.uid, [(("customer",), "Acme"), (("commercial", "currency"), "EUR")], "set")
    window.menu_actions[f"add_{kind}"].trigger()
    draft = window.doc.entry(window.current_uid).draft  # type: ignore[arg-type]
    expected = scenario_template(kind, draft["name"], customer="Acme", currency="EUR")
    assert draft == expected and draft["workload"]["kind"] == kind
    assert window.doc.entry(window.current_uid).valid  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: not window.coordinator.busy(), timeout=60_000)
    assert window.current_uid in window.coordinator.results


def test_databases_pasted_or_imported_into_the_table_all_or_nothing(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow, tmp_path: Path) -> None:
    from PySide6.QtGui import QGuiApplication, QKeySequence
    from PySide6.QtTest import QTest

    window.menu_actions["add_postgres-consolidation"].trigger()
    uid = window.current_uid
    table = window.form.workload.databases
    assert table.isVisible() and len(window.doc.entry(uid).draft["workload"]["databases"]) == 3  # type: ignore[arg-type]
    table.table.setCurrentCell(1, 0)
    QGuiApplication.clipboard().setText("crm\t60\t60\t12\t\nerp\t500\t150\t90\t2500\n")
    table.table.setFocus()
    QTest.keySequence(table.table, QKeySequence(QKeySequence.StandardKey.Paste))
    draft = window.doc.entry(uid).draft  # type: ignore[arg-type]
    assert [d["name"] for d in draft["workload"]["databases"]] == ["orders", "crm", "erp"]
    assert window.doc.entry(uid).valid and table.table.rowCount() == 3  # type: ignore[arg-type]
    assert table.table.item(2, 1).text() == "500"
    before = [dict(d) for d in draft["workload"]["databases"]]
    assert not table.paste_text("x1\t10\t10\t2\nx2\t10\t-5\t2\n")  # one bad row: nothing pasted
    assert window.doc.entry(uid).draft["workload"]["databases"] == before  # type: ignore[arg-type]
    assert "pasted row 2, 'peak clients': must be greater than or equal to 1" in table.import_message.text()
    inventory = tmp_path / "inventory.csv"
    inventory.write_text("Database,Size (TB),Peak clients,Working set (GB)\n"
                         + "".join(f"db{i},0.{i + 1},{10 + i},{i + 2}\n" for i in range(30)), encoding="utf-8")
    assert table.import_file(str(inventory))
    dbs = window.doc.entry(uid).draft["workload"]["databases"]  # type: ignore[arg-type]
    assert len(dbs) == 30 and dbs[4]["size_gb"] == 500.0 and table.table.rowCount() == 30
    assert "Imported 30 databases" in table.import_message.text()
    qtbot.waitUntil(lambda: not window.coordinator.busy(), timeout=60_000)
    assert len(window.coordinator.results[uid].vms) == 30  # type: ignore[index]
    window.doc.undo_stack.undo()  # an import is one step back
    assert [d["name"] for d in window.doc.entry(uid).draft["workload"]["databases"]] == ["orders", "crm", "erp"]  # type: ignore[arg-type]


def test_a_value_pasted_into_a_cell_of_the_databases_table_sets_that_cell(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow) -> None:
    from PySide6.QtGui import QGuiApplication, QKeySequence
    from PySide6.QtTest import QTest

    window.menu_actions["add_postgres-consolidation"].trigger()
    uid = window.current_uid
    table = window.form.workload.databases
    before = [dict(d) for d in window.doc.entry(uid).draft["workload"]["databases"]]  # type: ignore[arg-type]
    table.table.setCurrentCell(2, 2)  # the third database's Peak clients
    QGuiApplication.clipboard().setText("42\n")
    table.table.setFocus()
    QTest.keySequence(table.table, QKeySequence(QKeySequence.StandardKey.Paste))
    after = window.doc.entry(uid).draft["workload"]["databases"]  # type: ignore[arg-type]
    assert after == [*before[:2], {**before[2], "peak_clients": 42}] and table.table.item(2, 2).text() == "42"
    assert window.doc.entry(uid).valid  # type: ignore[arg-type]
    window.doc.undo_stack.undo()
    assert window.doc.entry(uid).draft["workload"]["databases"] == before  # type: ignore[arg-type]


def test_a_result_kept_while_an_input_is_invalid_is_marked_on_every_card(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    cards = window.results.cards.values()
    assert not any(c.property("stale") for c in cards) and not any(c.stale_tag.isVisible() for c in cards)
    _type(qtbot, window, "workload.data_tb", "-5")
    assert window.results.result is not None
    assert all(c.property("stale") is True and c.stale_tag.isVisible() for c in cards)
    assert all(c.stale_tag.text() == "Not current" for c in cards)
    assert "last good result" in window.results.banner.text()
    _type(qtbot, window, "workload.data_tb", "20")
    qtbot.waitUntil(lambda: not window.coordinator.busy(), timeout=60_000)
    assert not any(c.property("stale") for c in cards) and not any(c.stale_tag.isVisible() for c in cards)


def test_the_cards_give_capex_the_first_year_and_the_cost_of_ownership(window: MainWindow) -> None:
    """The window's headline says what the design costs to own over the stated horizon, not its price alone."""
    from app.formatting import money_short
    from app.views.ownership import ownership

    r = _result(window)
    t = r.totals
    capex, tco = window.results.cards["capex"], window.results.cards["tco"]
    assert capex.value.text() == money_short(t.capex, t.currency)
    assert capex.sub.text() == f"1st year {money_short(r.tco[0].total, t.currency)}"
    assert tco.title.text() == f"{t.tco_years}-YEAR TCO"
    assert tco.value.text() == money_short(t.tco, t.currency)
    assert money_short(t.recurring_per_year, t.currency) in tco.sub.text()
    quote = ownership(r).quote_clause  # the parts with no price yet, which the capex leaves out
    assert quote and f"({quote})" in capex.toolTip()

"""The window imports the current estate (RVTools, Live Optics) into the databases table: options asked, a bad file
named by sheet, row and column, nothing half-imported, one undo step."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from app.gui.estate_dialog import EstateDialog
from app.gui.main_window import MainWindow
from tests.app.editing.rvtools_fixture import Vm, write_rvtools
from tests.app.editing.test_liveoptics import _export as live_optics_export
from tests.app.editing.test_rvtools import _twelve

SHOTS = os.environ.get("REFARCH_TEST_SCREENSHOTS")  # a folder: the test saves what it shows there, to look at


def _shoot(widget: object, name: str) -> None:
    if SHOTS:
        widget.grab().save(str(Path(SHOTS) / name))  # type: ignore[attr-defined]


def _databases(window: MainWindow) -> list[dict[str, object]]:
    return window.doc.entry(window.current_uid).draft["workload"]["databases"]  # type: ignore[arg-type,index,no-any-return]


def test_an_rvtools_export_replaces_the_databases_and_a_bad_one_changes_nothing(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window.menu_actions["add_postgres-consolidation"].trigger()
    table = window.form.workload.databases
    before = [dict(d) for d in _databases(window)]
    bad = write_rvtools(tmp_path / "bad.xlsx", [Vm("a"), Vm("b", cpus=0), Vm("c", in_use_mib=-5)])
    assert not table.import_estate(str(bad), "rvtools", 1.2)
    assert _databases(window) == before  # nothing half-imported
    shown = table.import_message.text()
    assert shown.startswith("Nothing imported from bad.xlsx")
    assert "sheet vInfo, row 4, 'In Use MiB': must be a number of 0 or more (got -5)" in shown
    assert "sheet vInfo, row 3: b: needs CPUs and Memory above 0" in shown

    export = write_rvtools(tmp_path / "RVTools_export_all.xlsx", _twelve())

    def accept(dialog: EstateDialog) -> int:  # the user picks the file and a comfort factor of 1.5
        dialog.path.setText(str(export))
        dialog.comfort.setValue(1.5)
        return QDialog.DialogCode.Accepted.value

    monkeypatch.setattr(EstateDialog, "exec", accept)
    table.estate_actions["rvtools"].trigger()  # the menu of "Import VMs…"
    names = [d["name"] for d in _databases(window)]
    assert sorted(names) == sorted([f"pg{i:02d}" for i in range(9)] + ["quiet"])  # powered off, template out
    assert table.table.rowCount() == 10
    pg03 = next(d for d in _databases(window) if d["name"] == "pg03")
    assert pg03["current"]["vcpus"] == 8  # type: ignore[index]  # the VM as it is, for the report
    assert "right-sized at 1.5 x" in table.import_message.text()
    assert "1 VM not powered on and 1 template left out" in table.import_message.text()
    qtbot.waitUntil(lambda: not window.coordinator.busy(), timeout=60_000)
    assert len(window.coordinator.results[window.current_uid].vms) == 10  # type: ignore[index]
    _shoot(window, "estate-imported.png")
    window.doc.undo_stack.undo()  # one step back
    assert _databases(window) == before


def test_a_live_optics_export_is_sized_on_the_statistic_asked(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow, tmp_path: Path) -> None:
    window.menu_actions["add_postgres-consolidation"].trigger()
    table = window.form.workload.databases
    export = live_optics_export(tmp_path / "LiveOptics_VMWARE.xlsx")
    assert table.import_estate(str(export), "liveoptics", 1.0, "average")
    average = {d["name"]: d for d in _databases(window)}
    assert table.import_estate(str(export), "liveoptics", 1.0, "peak")
    peak = {d["name"]: d for d in _databases(window)}
    assert sorted(peak) == ["pg-a", "pg-b"]
    assert peak["pg-a"]["working_set_gb"] > average["pg-a"]["working_set_gb"]  # type: ignore[operator]
    assert "each VM's peak over the collection" in table.import_message.text()
    assert not table.import_estate(str(export), "liveoptics", 7.0)  # out of range: refused, named
    assert "the comfort factor must be 1 to 5 (got 7)" in table.import_message.text()


def test_the_dialog_asks_what_each_export_has(qtbot) -> None:  # type: ignore[no-untyped-def]
    live, rv = EstateDialog("liveoptics"), EstateDialog("rvtools")
    for d in (live, rv):
        qtbot.addWidget(d)
        d.show()
    ok = live.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()  # no file yet
    live.path.setText("/data/LiveOptics_VMWARE.xlsx")
    assert ok.isEnabled()
    assert live.statistic.isVisible() and not rv.statistic.isVisible()  # RVTools holds one snapshot
    live.statistic.setCurrentIndex(1)
    assert live.chosen_statistic() == "average" and live.comfort.value() == 1.2
    _shoot(live, "estate-dialog.png")

"""The catalog editor over a temporary SQLite catalog: import, edit with the store's validation, export."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.gui.catalog_editor import CatalogEditor
from app.gui.catalog_models import CONFLICT_BG, ERROR_BG
from app.services.catalog_source import CatalogSource

NEW_NIC = {
    "id": "acme-4x25", "kind": "nic", "vendor": "Acme", "model": "Quad 25", "price": "900", "currency": "USD",
    "price_as_of": "2024-01-01", "source": "test, estimate", "ports": "4", "speed_gbps": "25", "watts": "15",
}


def _write_nic(path: Path, row: dict[str, str]) -> None:
    """A catalog CSV of one NIC row, as a spreadsheet writes it."""
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(NEW_NIC))
        writer.writeheader()
        writer.writerow(row)


@pytest.fixture
def source(tmp_path: Path):  # type: ignore[no-untyped-def]
    src = CatalogSource.open(f"sqlite:///{tmp_path / 'catalog.sqlite'}")
    yield src
    src.close()


@pytest.fixture
def editor(qtbot, source: CatalogSource) -> CatalogEditor:  # type: ignore[no-untyped-def]
    ed = CatalogEditor(source)
    qtbot.addWidget(ed)
    return ed


def _row_of(editor: CatalogEditor, kind: str, part_id: str) -> int:
    model = editor.models[kind]
    return next(i for i in range(model.rowCount()) if model.part_id(i) == part_id)


def test_the_label_says_which_database_is_in_use(editor: CatalogEditor, tmp_path: Path) -> None:
    assert "local SQLite file" in editor.where.text()
    assert "catalog.sqlite" in editor.where.text()


def test_an_imported_row_shows_in_its_table(editor: CatalogEditor, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "nics.csv"
    _write_nic(path, NEW_NIC)
    with qtbot.waitSignal(editor.importFinished, timeout=30_000) as finished:
        assert editor.import_file(str(path))  # returns at once: the import runs on a worker thread
    assert finished.args == [True]
    model = editor.models["nic"]
    row = _row_of(editor, "nic", "acme-4x25")
    assert model.data(model.index(row, model.columns.index("ports"))) == "4"
    assert "acme-4x25" in editor.source.snapshot  # the window sizes against the new part


def test_an_import_with_problems_writes_nothing_and_lists_them(editor: CatalogEditor, tmp_path: Path,
                                                                qtbot) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.json"
    path.write_text('[{"id": "x-nic", "kind": "nic", "vendor": "A", "model": "B", "price": -1, "currency": "usd",'
                    ' "price_as_of": "2024-01-01", "source": "s", "ports": 0, "speed_gbps": 25, "watts": 1}]')
    before = editor.models["nic"].rowCount()
    with qtbot.waitSignal(editor.importFinished, timeout=30_000) as finished:
        editor.import_file(str(path))
    assert finished.args == [False]
    assert editor.models["nic"].rowCount() == before
    text = editor.message.text()
    assert "price" in text and "currency" in text and "ports" in text


def test_an_invalid_edit_marks_the_cell_and_keeps_the_stored_value(editor: CatalogEditor, source: CatalogSource,
                                                                   qtbot) -> None:  # type: ignore[no-untyped-def]
    model = editor.models["drive"]
    part_id = model.part_id(0)
    col = model.columns.index("capacity_tb")
    index = model.index(0, col)
    stored = source.store.get(part_id).capacity_tb  # type: ignore[union-attr]
    model.setData(index, "-3")
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert model.data(index, Qt.ItemDataRole.BackgroundRole).color() == ERROR_BG
    assert "greater than 0" in model.data(index, Qt.ItemDataRole.ToolTipRole)
    assert source.store.get(part_id).capacity_tb == stored  # type: ignore[union-attr]
    model.setData(index, "7.68")  # fixing the cell writes the row
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert source.store.get(part_id).capacity_tb == 7.68  # type: ignore[union-attr]
    assert model.data(index, Qt.ItemDataRole.BackgroundRole) is None


def test_a_new_part_is_saved_once_every_cell_is_valid(editor: CatalogEditor, source: CatalogSource,
                                                      qtbot) -> None:  # type: ignore[no-untyped-def]
    editor.tabs.setCurrentIndex(2)  # NICs
    assert editor.current_kind() == "nic"
    model = editor.models["nic"]
    row = model.add_row()
    assert model.rows[row].errors  # empty required cells are red at once
    for key, value in NEW_NIC.items():
        if key in model.columns:
            model.setData(model.index(row, model.columns.index(key)), value)
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert model.rows[row].saved and not model.rows[row].errors
    assert source.store.get("acme-4x25").ports == 4  # type: ignore[union-attr]


def test_deleting_a_cpu_in_use_is_refused_with_the_reason(editor: CatalogEditor,
                                                         qtbot) -> None:  # type: ignore[no-untyped-def]
    model = editor.models["cpu"]
    used = next(i for i in range(model.rowCount())
                if any(s.cpu.id == model.part_id(i) for s in editor.source.snapshot.of_kind("server")))
    before = model.rowCount()
    with qtbot.waitSignal(model.problem, timeout=30_000) as refused:
        model.delete_row(used)
    assert "used by" in refused.args[0]
    assert model.rowCount() == before


def test_export_writes_every_part(editor: CatalogEditor, source: CatalogSource, tmp_path: Path,
                                  qtbot) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out.csv"
    with qtbot.waitSignal(editor.exportFinished, timeout=30_000) as finished:
        assert editor.export_file(str(out))
    assert finished.args == [True]
    with out.open() as fh:
        ids = {row["id"] for row in csv.DictReader(fh)}
    assert ids == {p.id for p in source.snapshot}


def test_an_edit_over_a_change_made_elsewhere_is_a_conflict_showing_both(editor: CatalogEditor,
                                                                         source: CatalogSource,
                                                                         qtbot) -> None:  # type: ignore[no-untyped-def]
    model = editor.models["nic"]
    part_id = model.part_id(0)
    col = model.columns.index("price")
    store = source.store
    assert store is not None
    elsewhere = store.get_versioned(part_id)  # the CLI, or a colleague on the shared catalog
    store.update(dataclasses.replace(elsewhere.part, price=1234.0), elsewhere.version)
    with qtbot.waitSignal(model.problem, timeout=30_000) as told:
        model.setData(model.index(0, col), "999")
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert part_id in told.args[0] and "changed elsewhere" in told.args[0]
    assert "Price: yours 999, now 1234" in editor.message.text()  # the banner shows both values
    assert store.get(part_id).price == 1234.0  # nothing overwritten
    tip = model.data(model.index(0, col), Qt.ItemDataRole.ToolTipRole)
    assert "999" in tip and "1234" in tip  # both values shown
    assert model.data(model.index(0, col), Qt.ItemDataRole.BackgroundRole).color() == CONFLICT_BG
    assert model.data(model.index(0, col)) == "1,234.00"  # the row was reloaded with the stored value
    model.setData(model.index(0, col), "999")  # typing yours again applies it on top of theirs
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert store.get(part_id).price == 999.0


def test_an_edit_of_a_part_deleted_elsewhere_does_not_bring_it_back(editor: CatalogEditor, source: CatalogSource,
                                                                     qtbot) -> None:  # type: ignore[no-untyped-def]
    model = editor.models["nic"]
    part_id = model.part_id(0)
    store = source.store
    assert store is not None
    store.delete(part_id)
    with qtbot.waitSignal(model.problem, timeout=30_000) as told:
        model.setData(model.index(0, model.columns.index("price")), "5")
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert "not re-created" in told.args[0]
    assert part_id not in {p.id for p in store.list("nic")}
    assert not model.rows[0].saved


def test_a_cancelled_import_writes_nothing(editor: CatalogEditor, source: CatalogSource, tmp_path: Path,
                                           qtbot) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "many.json"
    base = {k: v for k, v in NEW_NIC.items()}
    path.write_text(json.dumps([dict(base, id=f"many-{i}") for i in range(12_000)]))
    before = len(source.store.list("nic"))  # type: ignore[union-attr]
    with qtbot.waitSignal(editor.importFinished, timeout=60_000) as finished:
        assert editor.import_file(str(path))
        assert editor.busy_row.isVisibleTo(editor) and editor.import_btn.isEnabled() is False
        editor.cancel()
    assert finished.args == [False]
    assert "cancelled" in editor.message.text()
    assert len(source.store.list("nic")) == before  # type: ignore[union-attr]


def test_sorting_a_column_sorts_numbers_as_numbers(editor: CatalogEditor) -> None:
    kind = "drive"
    view, proxy, model = editor.views[kind], editor.proxies[kind], editor.models[kind]
    col = model.columns.index("price")
    view.sortByColumn(col, Qt.SortOrder.DescendingOrder)
    prices = [float(str(model.rows[proxy.mapToSource(proxy.index(r, col)).row()].values["price"]))
              for r in range(proxy.rowCount())]
    assert prices == sorted(prices, reverse=True) and len(prices) > 3
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    ids = [model.part_id(proxy.mapToSource(proxy.index(r, 0)).row()) for r in range(proxy.rowCount())]
    assert ids == sorted(ids, key=str.lower)


def test_the_editor_shows_pcie_slots_and_memory_generations() -> None:
    """Revision 0005's columns are editable like any other: servers show their PCIe slots and DRAM generation,
    DIMMs their generation; an unknown value is an empty cell."""
    from app.gui.catalog_models import columns_of, header_of

    assert {"pcie_slots", "memory_type"} <= set(columns_of("server"))
    assert "memory_type" in columns_of("dimm")
    assert header_of("pcie_slots") == "PCIe slots" and header_of("memory_type") == "Memory type"


def test_the_history_view_shows_an_import_and_reverts_it(editor: CatalogEditor, source: CatalogSource,
                                                          tmp_path: Path, qtbot,  # type: ignore[no-untyped-def]
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFARCH_USER", "dana")
    path = tmp_path / "nics.csv"
    _write_nic(path, NEW_NIC)
    with qtbot.waitSignal(editor.importFinished, timeout=20_000):
        assert editor.import_file(str(path))
    before = editor.models["nic"].rowCount()
    dialog = editor.show_history()
    assert dialog is not None
    qtbot.addWidget(dialog)
    first = [dialog.table.item(0, c).text() for c in range(dialog.table.columnCount())]
    assert first[2:6] == ["dana", "import", "1", str(path)]
    assert "acme-4x25" in dialog.details.toPlainText() and "added" in dialog.details.toPlainText()
    assert dialog.revert_selected()
    assert editor.models["nic"].rowCount() == before - 1
    assert "acme-4x25" not in {p.id for p in source.snapshot.of_kind("nic")}
    assert dialog.table.item(0, 3).text() == "revert" and dialog.revert_btn.isEnabled()  # a revert reverts too
    dialog.table.selectRow(1)  # the import, reverted already
    assert not dialog.revert_btn.isEnabled()


def test_an_import_that_fails_on_a_bug_says_so_and_ends(editor: CatalogEditor, source: CatalogSource,
                                                        tmp_path: Path, qtbot,  # type: ignore[no-untyped-def]
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # an error that is not a CatalogError reaches the editor as the job's problems (Problem objects, not strings)
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("disk gone")

    monkeypatch.setattr(source.store, "import_stream", broken)  # the window's import streams the file
    path = tmp_path / "nics.json"
    path.write_text(json.dumps([NEW_NIC]))
    with qtbot.waitSignal(editor.importFinished, timeout=30_000) as finished:
        assert editor.import_file(str(path))
    assert finished.args == [False]
    assert "Import failed: internal error: RuntimeError: disk gone" in editor.message.text()  # no "(root)"
    assert editor.job is None  # the editor takes the next import


def test_a_row_write_that_fails_on_a_bug_names_the_error(editor: CatalogEditor, source: CatalogSource,
                                                         qtbot,  # type: ignore[no-untyped-def]
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("disk gone")

    monkeypatch.setattr(source.store, "save_row", broken)
    model = editor.models["drive"]
    with qtbot.waitSignal(model.problem, timeout=30_000) as said:
        model.setData(model.index(0, model.columns.index("capacity_tb")), "7.68")
    assert said.args == ["internal error: RuntimeError: disk gone"]
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)


@pytest.mark.parametrize("confirm", [False, True])
def test_a_price_far_from_the_catalogs_is_written_only_once_confirmed(  # type: ignore[no-untyped-def]
        editor: CatalogEditor, source: CatalogSource, tmp_path: Path, qtbot, monkeypatch: pytest.MonkeyPatch,
        confirm: bool) -> None:
    """A replacement price 1,000x the part's (a European '1.234,56' read as 123456) is not taken silently: the
    window asks, and writes it only on yes (the CLI's --confirm-outliers)."""
    from PySide6.QtWidgets import QMessageBox

    path = tmp_path / "nics.csv"
    _write_nic(path, NEW_NIC)
    with qtbot.waitSignal(editor.importFinished, timeout=20_000):
        assert editor.import_file(str(path))
    _write_nic(path, {**NEW_NIC, "price": "900000"})
    asked: list[str] = []

    def answer(*args: object) -> QMessageBox.StandardButton:
        asked.append(str(args[2]))
        return QMessageBox.StandardButton.Yes if confirm else QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", answer)
    editor.replace_box.setChecked(True)
    with qtbot.waitSignal(editor.importFinished, timeout=20_000) as finished:
        assert editor.import_file(str(path))
    assert len(asked) == 1 and "acme-4x25" in asked[0]
    assert finished.args == [confirm]
    price = next(p.price for p in source.snapshot.of_kind("nic") if p.id == "acme-4x25")
    assert price == (900_000 if confirm else 900)


@pytest.mark.parametrize(("chosen", "price"), [(",", 1234.0), (".", 1.234), (None, None)])
def test_a_file_that_does_not_tell_its_decimal_separator_is_read_with_the_one_the_user_names(  # type: ignore[no-untyped-def]
        editor: CatalogEditor, source: CatalogSource, tmp_path: Path, qtbot, chosen: str | None,
        price: float | None) -> None:
    """'1.234' reads as 1234 with a decimal comma and 1.234 with a point, and nothing else in the file tells: the
    window asks (the CLI's --decimal) and imports with the answer; cancelled, nothing is imported and it says why."""
    path = tmp_path / "nics.csv"
    _write_nic(path, {**NEW_NIC, "price": "1.234"})
    asked: list[str] = []

    def ask(parent: object, name: str, why: str) -> str | None:
        asked.append(why)
        return chosen

    editor.ask_separator = ask  # type: ignore[assignment]
    with qtbot.waitSignal(editor.importFinished, timeout=20_000) as finished:
        assert editor.import_file(str(path))
    assert len(asked) == 1 and "'1.234' reads as" in asked[0]
    assert finished.args == [chosen is not None]
    stored = [p.price for p in source.snapshot.of_kind("nic") if p.id == "acme-4x25"]
    assert stored == ([] if price is None else [pytest.approx(price)])
    if chosen is None:
        assert "decimal separator cannot be told" in editor.message.text()

"""A big catalog import leaves the UI thread only list swaps: the rows, the pickers' order and their entries are
built on the worker thread or when Qt shows them, never per part on the UI thread (a 100,000-part import stalled
the window for seconds doing that)."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from app.gui import catalog_models, hardware_picker
from app.services.catalog_source import CatalogSource
from app.services.project_files import save_project
from catalog.rows import part_to_row
from tests.app.projects import small_project

PARTS = 3_000


def _on_ui_thread(counts: Counter[str], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            counts[name] += 1
        return fn(*args, **kwargs)
    return counted


def test_a_big_import_builds_rows_and_picker_lists_off_the_ui_thread(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from app.gui.main_window import MainWindow

    source = CatalogSource.open(f"sqlite:///{tmp_path / 'catalog.sqlite'}")
    nic = part_to_row(source.snapshot.of_kind("nic")[0])
    big = tmp_path / "nics.json"
    big.write_text(json.dumps([dict(nic, id=f"load-{i:05d}") for i in range(PARTS)], default=str))
    project = tmp_path / "p.refarch.json"
    save_project(small_project(), project)
    win = MainWindow(project_path=project, catalog=source, settings=QSettings(str(tmp_path / "s.ini"),
                     QSettings.Format.IniFormat), data_dir=tmp_path / "userdata", interactive=False)
    win.ask_save_changes = lambda: "discard"
    qtbot.addWidget(win)
    win.show()
    win.views.setCurrentWidget(win.catalog_tab)  # the editor is built when its tab is first shown
    editor = win.catalog_editor
    assert editor is not None
    qtbot.waitUntil(lambda: not win.coordinator.busy(), timeout=60_000)

    counts: Counter[str] = Counter()

    @dataclasses.dataclass(eq=False)
    class CountedRow(catalog_models.RowState):
        def __post_init__(self) -> None:
            if threading.current_thread() is threading.main_thread():
                counts["table row"] += 1

    monkeypatch.setattr(catalog_models, "RowState", CountedRow)
    monkeypatch.setattr(hardware_picker.Ordered, "__init__",
                        _on_ui_thread(counts, "picker sort", hardware_picker.Ordered.__init__))
    for name in ("part_specs", "money"):  # what formatting a picker entry costs
        monkeypatch.setattr(hardware_picker, name, _on_ui_thread(counts, "entry", getattr(hardware_picker, name)))

    with qtbot.waitSignal(editor.importFinished, timeout=120_000) as finished:
        assert editor.import_file(str(big))
    assert finished.args == [True]
    qtbot.waitUntil(lambda: not win.coordinator.busy(), timeout=60_000)

    assert editor.models["nic"].rowCount() >= PARTS
    picker = win.form.hardware.pickers["platform.nic_id"]
    assert picker.combo.count() >= PARTS + 1  # the new NICs are offered
    assert counts["table row"] == 0 and counts["picker sort"] == 0
    assert counts["entry"] < 50  # only the entries Qt shows (the current one), not one per part
    win.coordinator.cancel_all()

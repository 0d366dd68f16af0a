"""Cancel during each GUI export: the target is the old file byte for byte (or still absent), never part of a new
one, no temporary file is left, and the window is idle again and says what happened.

Each export is held at a point inside its work (the PDF while it is laid out into its temporary file, the others
once the design is sized, just before they write) until the test presses Cancel, so the cancel lands mid-way every run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QPushButton

from app.export.atomic import TEMP_SUFFIX
from app.gui import catalog_editor, export_actions
from app.gui.catalog_editor import CatalogEditor
from app.gui.main_window import MainWindow
from app.services import sizing
from app.services.catalog_source import CatalogSource

OLD = b"the previous export, which a cancelled one must leave alone\n"


class HeldCancel:
    """Stands in for the job's cancel flag: the first time the work checks it once `ready()` holds, it waits for
    the user's Cancel (the real flag), so the cancel arrives in the middle of the work."""

    def __init__(self, real: threading.Event, ready: Callable[[], bool]) -> None:
        self.real, self.ready = real, ready
        self.reached = threading.Event()

    def is_set(self) -> bool:
        if not self.reached.is_set() and self.ready():
            self.reached.set()
            self.real.wait(60)
        return self.real.is_set()


def _temps(folder: Path) -> list[Path]:
    return [p for p in folder.rglob(f"*{TEMP_SUFFIX}")]


def _hold(monkeypatch: pytest.MonkeyPatch, ready: Callable[[], bool]) -> list[HeldCancel]:
    held: list[HeldCancel] = []
    real_run = export_actions.run_export

    def run_export(kind: Any, scenarios: Any, catalog: Any, path: Path, cancel: threading.Event,
                   progress: Any, audience: Any = "customer") -> Any:
        held.append(HeldCancel(cancel, ready))
        return real_run(kind, scenarios, catalog, path, held[-1], progress, audience)  # type: ignore[arg-type]

    monkeypatch.setattr(export_actions, "run_export", run_export)
    return held


def _sized_on_this_thread(monkeypatch: pytest.MonkeyPatch) -> Callable[[], bool]:
    """True on a thread that has finished sizing a design (the export's own sizing, not the window's)."""
    done: set[int] = set()
    real_size = sizing.size

    def size(*args: Any, **kwargs: Any) -> Any:
        result = real_size(*args, **kwargs)
        done.add(threading.get_ident())
        return result

    monkeypatch.setattr(sizing, "size", size)
    return lambda: threading.get_ident() in done


def _press_cancel_when_held(qtbot, exporter: export_actions.Exporter, held: list[HeldCancel]) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: bool(held) and held[0].reached.is_set(), timeout=120_000)
    assert exporter.busy() and exporter.dialog is not None
    button = exporter.dialog.findChild(QPushButton)
    assert button is not None and button.text() == "Cancel"
    button.click()
    qtbot.waitUntil(lambda: not exporter.busy(), timeout=60_000)
    assert QThreadPool.globalInstance().waitForDone(60_000)


@pytest.mark.parametrize("kind", ["pdf", "csv", "xlsx"])
@pytest.mark.parametrize("old_file", [True, False], ids=["over-an-old-file", "new-file"])
def test_cancelling_a_file_export_leaves_the_old_file_or_none(qtbot, window: MainWindow, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                             monkeypatch: pytest.MonkeyPatch, kind: str,
                                                             old_file: bool) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    target = folder / f"design.{kind}"
    if old_file:
        target.write_bytes(OLD)
    # the PDF is held while it is laid out into its temporary file (on disk); the others once the design is
    # sized, just before they write
    ready = (lambda: bool(_temps(folder))) if kind == "pdf" else _sized_on_this_thread(monkeypatch)
    held = _hold(monkeypatch, ready)
    exporter = window.exporter
    assert exporter is not None
    exporter.ask_path = lambda _k, _s: target
    assert exporter.export(kind)  # type: ignore[arg-type]
    _press_cancel_when_held(qtbot, exporter, held)

    if old_file:
        assert target.read_bytes() == OLD
    else:
        assert not target.exists()
    assert _temps(folder) == []
    assert exporter.dialog is None and not exporter.busy()  # idle: a new export can start
    assert window.menu_actions[f"export_{kind}"].isEnabled()
    status = window.statusBar().currentMessage()
    assert status == (f"Export cancelled; {target} was not changed." if old_file
                      else "Export cancelled; nothing was written.")
    assert exporter.last_path is None


def test_cancelling_a_configuration_export_leaves_the_folder_as_it_was(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                                                      tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "config"
    exporter = window.exporter
    assert exporter is not None
    exporter.ask_path = lambda _k, _s: folder
    exporter.confirm_overwrite = lambda _folder: True
    assert exporter.export("config")  # a first, complete export: the files a second one would replace
    qtbot.waitUntil(lambda: not exporter.busy(), timeout=120_000)
    old = {p: OLD + p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert old, "the first export wrote nothing"
    for path, data in old.items():
        path.write_bytes(data)

    held = _hold(monkeypatch, _sized_on_this_thread(monkeypatch))
    assert exporter.export("config")
    _press_cancel_when_held(qtbot, exporter, held)

    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == old  # nothing added or changed
    assert exporter.dialog is None and not exporter.busy()
    assert window.statusBar().currentMessage() == f"Export cancelled; nothing was written to {folder}."


@pytest.mark.parametrize("old_file", [True, False], ids=["over-an-old-file", "new-file"])
def test_cancelling_a_catalog_export_leaves_the_old_file_or_none(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                old_file: bool) -> None:
    source = CatalogSource.open(f"sqlite:///{tmp_path / 'catalog.sqlite'}")
    editor = CatalogEditor(source)
    qtbot.addWidget(editor)
    folder = tmp_path / "exports"
    folder.mkdir()
    target = folder / "catalog.csv"
    if old_file:
        target.write_bytes(OLD)
    reached = threading.Event()
    real_render = catalog_editor.render

    def render(rows: Any, fmt: Any) -> str:  # the file's text is made: hold until Cancel, then go on
        text = real_render(rows, fmt)
        reached.set()
        job = editor.job
        assert job is not None
        job.cancel_event.wait(60)
        return text

    monkeypatch.setattr(catalog_editor, "render", render)
    try:
        with qtbot.waitSignal(editor.exportFinished, timeout=120_000) as finished:
            assert editor.export_file(str(target))
            qtbot.waitUntil(reached.is_set, timeout=120_000)
            assert editor.busy_row.isVisibleTo(editor) and not editor.export_btn.isEnabled()
            editor.cancel_btn.click()
        assert finished.args == [False]
        if old_file:
            assert target.read_bytes() == OLD
        else:
            assert not target.exists()
        assert _temps(folder) == []
        assert editor.job is None and not editor.busy_row.isVisibleTo(editor) and editor.export_btn.isEnabled()
        assert editor.message.text() == ("Export cancelled; catalog.csv was not changed." if old_file
                                         else "Export cancelled; nothing was written.")
    finally:
        QThreadPool.globalInstance().waitForDone(60_000)
        source.close()

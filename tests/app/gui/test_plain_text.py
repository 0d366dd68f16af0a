"""Text from files is shown as text: markup in a project or catalog never becomes rich text (or loads images)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt, QThreadPool
from PySide6.QtGui import Qt as QtGui
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from app.services.project_files import save_project
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, Platform, Project, Scenario
from tests.app.gui.conftest import open_window

MARK = "<b>MARK</b>"
HOSTILE = f'{MARK}<img src="/etc/hostname">'


def _rendered_as_markup(widget: QWidget) -> list[str]:
    found: list[str] = []
    for label in widget.findChildren(QLabel):
        text = label.text()
        if MARK in text and label.textFormat() != Qt.TextFormat.PlainText and QtGui.mightBeRichText(text):
            found.append(f"QLabel {label.objectName() or '?'}: {text[:80]}")
    return found


def test_markup_in_a_project_is_shown_as_text(qtbot, seed: HardwareCatalog, tmp_path: Path,  # type: ignore[no-untyped-def]
                                              settings: QSettings) -> None:

    server = seed.of_kind("server")[0].id
    project = Project(name=f"Deal {HOSTILE}", scenarios=[
        Scenario(name=f"DW {HOSTILE}", customer=f"ACME {HOSTILE}", prepared_by=HOSTILE, notes=HOSTILE,
                 workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10),
                 platform=Platform(server_id=f"{server}{HOSTILE}")),
        Scenario(name=f"Other {HOSTILE}", workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10),
                 platform=Platform(server_id=server)),
    ])
    path = tmp_path / "hostile.refarch.json"
    save_project(project, path)
    win = open_window(qtbot, path, seed, settings, tmp_path)
    qtbot.waitUntil(lambda: not win.coordinator.busy(), timeout=30_000)
    try:
        tabs = win.findChildren(QTabWidget)
        for tab_widget in tabs:  # visit every tab so lazily filled pages show their text
            for i in range(tab_widget.count()):
                tab_widget.setCurrentIndex(i)
                qtbot.wait(1)
        found = _rendered_as_markup(win)
        assert found == [], "\n".join(found)
        # the text is there, shown as written (so the check above looked at something)
        assert any(MARK in label.text() for label in win.findChildren(QLabel))
    finally:
        win.coordinator.cancel_all()
        QThreadPool.globalInstance().waitForDone(30_000)


def _tooltips(widget: QWidget) -> list[tuple[str, str]]:
    """(where, tooltip) for every widget and every cell of every item view under `widget`."""
    from PySide6.QtWidgets import QAbstractItemView, QComboBox

    found = [(type(w).__name__ + " " + (w.objectName() or "?"), w.toolTip()) for w in widget.findChildren(QWidget)]
    models = [(type(v).__name__ + " " + (v.objectName() or "?"), v.model())
              for v in widget.findChildren(QAbstractItemView) if v.model() is not None]
    models += [("QComboBox " + (c.objectName() or "?"), c.model()) for c in widget.findChildren(QComboBox)]
    for where, model in models:
        from PySide6.QtCore import QModelIndex

        try:
            columns = model.columnCount(QModelIndex())
        except TypeError:  # a list widget's internal model hides columnCount: it has one
            columns = 1
        for r in range(model.rowCount(QModelIndex())):
            for c in range(columns):
                tip = model.data(model.index(r, c), Qt.ItemDataRole.ToolTipRole)
                if isinstance(tip, str):
                    found.append((f"{where} cell {r},{c}", tip))
    return found


def test_markup_from_files_in_tooltips_is_shown_as_text(qtbot, seed: HardwareCatalog, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                       settings: QSettings) -> None:
    """Qt shows a tooltip that looks like markup as rich text (an <img> loads a local file): tooltips that carry
    text from a project or a catalog are escaped, in the results, the forms, the pickers and the warnings."""
    import dataclasses


    server = seed.of_kind("server")[0]
    evil_server = dataclasses.replace(server, id=f"{server.id}-x", model=f"{server.model} {HOSTILE}",
                                      vendor=f"{server.vendor} {HOSTILE}")
    catalog = HardwareCatalog.of([*seed.parts, evil_server], seed.rates)
    project = Project(name=f"Deal {HOSTILE}", scenarios=[
        Scenario(name=f"DW {HOSTILE}", customer=f"ACME {HOSTILE}", notes=HOSTILE,
                 workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10),
                 platform=Platform(server_id=evil_server.id)),
        Scenario(name="Unknown server", workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10),
                 platform=Platform(server_id=f"nope{HOSTILE}")),
    ])
    path = tmp_path / "hostile.refarch.json"
    save_project(project, path)
    win = open_window(qtbot, path, catalog, settings, tmp_path)
    try:
        seen: list[tuple[str, str]] = []
        for row in range(2):  # each scenario: a sized design, then one refused for its unknown server
            win.scenarios.list.setCurrentRow(row)
            qtbot.waitUntil(lambda: not win.coordinator.busy(), timeout=60_000)
            for tab_widget in win.findChildren(QTabWidget):
                for i in range(tab_widget.count()):
                    tab_widget.setCurrentIndex(i)
                    qtbot.wait(1)
            seen += _tooltips(win)
        rich = [f"{where}: {tip[:100]}" for where, tip in seen if MARK in tip and QtGui.mightBeRichText(tip)]
        assert rich == [], "\n".join(rich)
        assert any("MARK" in tip for _, tip in seen)  # the text is there (escaped), so the check saw something
    finally:
        win.coordinator.cancel_all()
        QThreadPool.globalInstance().waitForDone(30_000)


def _all_text(win: QWidget) -> str:
    from PySide6.QtWidgets import QMainWindow

    texts = [label.text() for label in win.findChildren(QLabel)] + [tip for _, tip in _tooltips(win)]
    if isinstance(win, QMainWindow):
        texts += [win.windowTitle(), win.statusBar().currentMessage()]
    return "\n".join(texts)


@pytest.mark.parametrize("password", ["p@ss-W0rd!", "a:b/c%d@e", "%zz@:/x"])
def test_a_catalog_that_cannot_be_opened_shows_no_part_of_its_password(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                        settings: QSettings, password: str) -> None:
    from app.gui.main_window import MainWindow

    url = f"postgresql+psycopg://refarch:{password}@127.0.0.1:1/refarch"  # port 1: refused at once
    win = MainWindow(db_url=url, settings=settings, data_dir=tmp_path / "userdata", interactive=False)
    win.ask_save_changes = lambda: "discard"
    qtbot.addWidget(win)
    win.show()
    try:
        assert win.catalog_error and "***" in win.catalog_error
        shown = "\n".join([win.catalog_error, _all_text(win)])
        for piece in {password, *password.replace("@", " ").replace(":", " ").replace("/", " ").split()}:
            if len(piece) >= 2:
                assert piece not in shown.replace("refarch", "").replace("127.0.0.1", "")
    finally:
        win.coordinator.cancel_all()
        QThreadPool.globalInstance().waitForDone(30_000)


def test_markup_in_a_catalog_path_is_shown_as_text(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                  settings: QSettings) -> None:
    from app.gui.main_window import MainWindow

    folder = "<u>PATHMARK<img src=x>"  # a path cannot hold the "/" of </b>
    win = MainWindow(db_url=f"sqlite:///{tmp_path}/{folder}/missing/c.db", settings=settings,
                     data_dir=tmp_path / "userdata", interactive=False)
    win.ask_save_changes = lambda: "discard"
    qtbot.addWidget(win)
    win.show()
    try:
        assert win.catalog_error and folder in win.catalog_error
        labels = [label for label in win.findChildren(QLabel) if "PATHMARK" in label.text()]
        assert labels  # the path is shown...
        assert [lb.text() for lb in labels if folder in lb.text() and lb.textFormat() != Qt.TextFormat.PlainText
                and QtGui.mightBeRichText(lb.text())] == []  # ...as text
    finally:
        win.coordinator.cancel_all()
        QThreadPool.globalInstance().waitForDone(30_000)

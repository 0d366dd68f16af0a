"""Text from files is shown as text: markup in a project or catalog never becomes rich text (or loads images)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QThreadPool
from PySide6.QtGui import Qt as QtGui
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from app.gui.files import save_project
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, Platform, Project, Scenario

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
    from app.gui.main_window import MainWindow

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
    win = MainWindow(project_path=path, catalog=seed, settings=settings, data_dir=tmp_path / "userdata",
                     interactive=False)
    win.ask_save_changes = lambda: "discard"
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
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

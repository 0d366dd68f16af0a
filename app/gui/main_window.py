"""The main window: the shell every view plugs into."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow


class MainWindow(QMainWindow):
    def __init__(self, db_url: str | None = None, project_path: Path | None = None) -> None:
        super().__init__()
        self.db_url = db_url
        self.project_path = project_path
        self.setWindowTitle("refarch: reference architecture planner")
        label = QLabel("refarch")
        self.setCentralWidget(label)
        file_menu = self.menuBar().addMenu("&File")
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        self.statusBar().showMessage("Ready")

"""Start the Qt application and the main window (or render it to a PNG and exit)."""

from __future__ import annotations

import sys
from pathlib import Path


def launch(db_url: str | None = None, project: str | None = None, screenshot: str | None = None) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("refarch")
    app.setOrganizationName("refarch")
    window = MainWindow(db_url=db_url, project_path=Path(project) if project else None)
    window.resize(1400, 900)
    window.show()
    if screenshot:
        def grab() -> None:
            window.grab().save(screenshot, "PNG")
            app.quit()

        QTimer.singleShot(300, grab)
        app.exec()
        return 0
    return app.exec()

"""Start the Qt application and the main window (or render it to a PNG and exit)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

SCREENSHOT_SIZE = (1400, 900)
SCREENSHOT_TIMEOUT_S = 60.0
_quieted = False


class LaunchError(Exception):
    """The window cannot show anything useful (no catalog); the message says why."""


def launch(
    db_url: str | None = None,
    project: str | None = None,
    screenshot: str | None = None,
    view: str = "main",
) -> int:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.gui.main_window import MainWindow

    if screenshot:
        quiet_offscreen_warnings()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("refarch")
    app.setOrganizationName("refarch")
    window = MainWindow(
        db_url=db_url, project_path=Path(project) if project else None, interactive=screenshot is None
    )
    if screenshot:
        if window.catalog_error:
            window.doc.undo_stack.setClean()
            window.close()
            raise LaunchError(window.catalog_error)
        try:
            render_screenshot(window, Path(screenshot), view)
        finally:
            window.doc.recovered = False
            window.doc.undo_stack.setClean()  # a screenshot never asks to save
            window.close()
        return 0
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    if view != "main":
        window.show_view(view)
    if window.catalog_error:
        QMessageBox.warning(window, "Hardware catalog unavailable", window.catalog_error)
    return app.exec()


def quiet_offscreen_warnings() -> None:
    """The offscreen platform warns about window hints it cannot honour; that is noise for --screenshot."""
    global _quieted
    if _quieted:
        return
    _quieted = True
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    previous = None

    def handler(mode: QtMsgType, context: object, message: str) -> None:
        if "propagateSizeHints" in message:
            return
        if previous is not None:
            previous(mode, context, message)
        else:
            print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)


def wait_until_idle(window: object, timeout_s: float = SCREENSHOT_TIMEOUT_S) -> bool:
    """Process events until the sizing workers are done (results on screen) or the timeout passes."""
    from PySide6.QtCore import QThreadPool
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        QApplication.processEvents()
        if not window.coordinator.busy():
            QApplication.processEvents()
            return True
        QThreadPool.globalInstance().waitForDone(20)
    return False


def render_screenshot(window: object, out: Path, view: str = "main") -> None:
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    window.show_view(view)
    wait_until_idle(window)
    window._refresh_compare()
    for _ in range(5):  # let charts and layouts settle after the last result
        QApplication.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out), "PNG"):
        raise LaunchError(f"cannot write {out}")

"""Start the Qt application and the main window (or render it to a PNG and exit)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCREENSHOT_SIZE = (1400, 900)
SCREENSHOT_TIMEOUT_S = 60.0
SWITCH_INTERVAL_S = 0.0002
_quieted = False


class LaunchError(Exception):
    """The window cannot show anything useful (no catalog); the message says why."""


def display_problem(env: dict[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why a window cannot open here (a Linux session with no display), or None.

    Qt would otherwise abort the process with a message about the xcb plugin, which reads like a broken install.

    >>> display_problem({}, "linux").startswith("No display")
    True
    >>> display_problem({"DISPLAY": ":0"}, "linux") is None
    True
    """
    env = dict(os.environ) if env is None else env
    platform = platform or sys.platform
    if not platform.startswith("linux") or env.get("QT_QPA_PLATFORM"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("No display to open the window on: neither DISPLAY nor WAYLAND_DISPLAY is set (an SSH session without"
            " X forwarding, a container, a CI job). Run refarch in a desktop session, use `ssh -X`, or start it"
            " under a virtual display (`xvfb-run refarch`). Without a display, `refarch gui --screenshot OUT.png`"
            " renders the window to a file, and every other command (size, report, compare…) works as is.")


def launch(
    db_url: str | None = None,
    project: str | None = None,
    screenshot: str | None = None,
    view: str = "main",
    size: tuple[int, int] = SCREENSHOT_SIZE,
) -> int:
    from app.gui.qt_start import collector_held, starting_process

    with collector_held(starting_process()):  # until the window is on screen (see app.gui.qt_start)
        app, window = _open_window(db_url, project, screenshot)
        if not screenshot:
            from app.gui.window_geometry import place

            place(window, window.settings)  # the screen's room, or where the user left it
            window.show()
            if view != "main":
                window.show_view(view)
    if screenshot:
        if window.catalog_error:
            window.doc.undo_stack.setClean()
            window.close()
            raise LaunchError(window.catalog_error)
        try:
            render_screenshot(window, Path(screenshot), view, size)
        finally:
            window.doc.recovered = False
            window.doc.undo_stack.setClean()  # a screenshot never asks to save
            window.close()
        return 0
    from app.gui.error_handler import ErrorHandler, dialog

    handler = ErrorHandler(dialog, app)  # an uncaught error is shown and logged, never lost on stderr
    handler.install()
    try:
        if window.catalog_error:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(window, "Hardware catalog unavailable", window.catalog_error)
        return int(app.exec())
    finally:
        handler.uninstall()


def _open_window(db_url: str | None, project: str | None, screenshot: str | None) -> tuple[Any, Any]:
    """The application and the main window (not shown yet)."""
    from app.gui.qt_start import import_qt

    import_qt()
    from PySide6.QtWidgets import QApplication

    if screenshot:
        if QApplication.instance() is None:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a file needs no display, and must not wait for one
        quiet_offscreen_warnings()
    elif QApplication.instance() is None and (problem := display_problem()):
        raise LaunchError(problem)

    from app.gui.main_window import MainWindow

    # Sizing runs on pool threads while this thread lays out and paints. Qt calls give up the GIL and a
    # busy worker then keeps it for the whole switch interval (5 ms by default) each time: widget work slowed
    # 3-4x while a worker ran. A short interval hands it back within a fraction of a millisecond.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("refarch")
    app.setOrganizationName("refarch")
    window = MainWindow(
        db_url=db_url, project_path=Path(project) if project else None, interactive=screenshot is None
    )
    return app, window


def quiet_offscreen_warnings() -> None:
    """The offscreen platform warns about window hints it cannot honour; that is noise for --screenshot."""
    global _quieted
    if _quieted:
        return
    _quieted = True
    from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

    previous: Callable[[QtMsgType, QMessageLogContext, str], object] | None = None

    def handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
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


def _show_tornado(window: object, timeout_s: float = SCREENSHOT_TIMEOUT_S) -> None:
    """The Sensitivity tab of the scenario on screen, its tornado computed (for `--view sensitivity`)."""
    from PySide6.QtCore import QThreadPool
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    tab = window.results.sensitivity
    window.results.tabs.setCurrentWidget(tab)
    window.run_tornado()
    deadline = time.monotonic() + timeout_s
    while tab.job is not None and time.monotonic() < deadline:
        QApplication.processEvents()
        QThreadPool.globalInstance().waitForDone(20)
    QApplication.processEvents()


def render_screenshot(window: object, out: Path, view: str = "main",
                      size: tuple[int, int] = SCREENSHOT_SIZE) -> None:
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    window.resize(*size)
    window.show()
    window.show_view("main" if view == "sensitivity" else view)
    wait_until_idle(window)
    if view == "sensitivity":
        _show_tornado(window)
    window._refresh_compare()
    for _ in range(5):  # let charts and layouts settle after the last result
        QApplication.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out), "PNG"):
        raise LaunchError(f"cannot write {out}")

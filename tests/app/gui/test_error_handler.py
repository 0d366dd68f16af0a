"""The window never swallows an error: an uncaught exception is shown with the log's place and written to the log;
opening a symlink loop says so by name."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton

from app.gui.error_handler import ErrorHandler, log_path
from app.gui.main_window import MainWindow


@pytest.fixture
def handler(qtbot):  # type: ignore[no-untyped-def]
    shown: list[tuple[str, str]] = []
    installed = ErrorHandler(lambda title, text: shown.append((title, text)))
    installed.install()
    yield installed, shown
    installed.uninstall()


@pytest.mark.qt_no_exception_capture
def test_an_error_in_a_slot_is_shown_and_logged(qtbot, handler) -> None:  # type: ignore[no-untyped-def]
    installed, shown = handler
    button = QPushButton("go")
    qtbot.addWidget(button)

    def broken() -> None:
        raise ValueError("cannot reach postgresql://ana:hunter2@db/catalog")

    button.clicked.connect(broken)
    button.click()
    assert len(shown) == 1
    title, text = shown[0]
    assert title == "refarch: unexpected error"
    assert "ValueError: cannot reach postgresql://ana:***@db/catalog" in text and str(log_path()) in text
    log = log_path().read_text(encoding="utf-8")
    assert "Traceback" in log and "in broken" in log and "hunter2" not in log
    assert sys.excepthook == installed.handle


def test_an_error_in_a_worker_thread_reaches_the_window(qtbot, handler) -> None:  # type: ignore[no-untyped-def]
    _installed, shown = handler

    def work() -> None:
        raise OSError("disk on fire")

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: bool(shown), timeout=5_000)
    assert "OSError: disk on fire" in shown[0][1]
    assert "uncaught in the background thread" in log_path().read_text(encoding="utf-8")


def test_opening_a_symlink_loop_names_it(window: MainWindow, tmp_path: Path) -> None:
    """The tester's case: opening a symlink loop raised an uncaught RuntimeError and the user saw nothing."""
    loop_a, loop_b = tmp_path / "a.refarch.json", tmp_path / "b.refarch.json"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    errors: list[tuple[str, str]] = []
    window.show_error = lambda title, text: errors.append((title, text))
    assert window.open_path(loop_a) is False
    assert errors and str(loop_a) in errors[0][1] and "symbolic links" in errors[0][1]

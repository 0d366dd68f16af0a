"""The window never swallows an error: an exception no code caught (in a slot, a timer, a worker thread) is
written to a log with its traceback and shown to the user with the log's place, and the window keeps running.

Without this, PySide prints an exception raised in a slot to stderr, which a desktop user never sees: the click
seems to do nothing. Passwords in a message or traceback are masked (`catalog.location.mask_secrets`).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, Signal

from app.export.atomic import data_dir
from catalog.location import mask_secrets

LOG_NAME = "refarch.log"
MAX_LOG_BYTES = 1_000_000  # then the log moves to refarch.log.1 (one old log kept)
ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]
ShowFn = Callable[[str, str], None]
_ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]  # sys.excepthook
_ThreadHook = Callable[[threading.ExceptHookArgs], object]  # threading.excepthook


def log_path() -> Path:
    return data_dir() / "logs" / LOG_NAME


def write_log(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None,
              where: str = "window") -> Path | None:
    """Append the exception and its traceback (passwords masked) to the log; its path, or None if unwritable."""
    path = log_path()
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    entry = f"--- {datetime.now(UTC).isoformat(timespec='seconds')} uncaught in the {where}\n{mask_secrets(text)}\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > MAX_LOG_BYTES:
            path.replace(path.with_name(LOG_NAME + ".1"))
        with path.open("a", encoding="utf-8") as fh:
            fh.write(entry)
    except OSError:
        return None
    return path


def message_for(exc: BaseException, logged: Path | None) -> str:
    """What the user reads: the error itself, where the details are, and that the window goes on."""
    text = mask_secrets(str(exc).strip()) or type(exc).__name__
    if isinstance(exc, RecursionError | RuntimeError) and "ymlink loop" in text:
        text = f"a symbolic link loops back on itself: {text}"
    where = f"The details are in {logged}." if logged else "The details could not be written to a log."
    return (f"{type(exc).__name__}: {text}\n\n{where}\nrefarch keeps running; save your work if the window "
            "seems wrong, and please report the log.")


class ErrorHandler(QObject):
    """Installed once per application: `sys.excepthook` and `threading.excepthook` lead here."""

    _from_thread = Signal(str, str)

    def __init__(self, show: ShowFn, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.show = show
        self.shown: list[str] = []
        self._showing = False
        self._previous: tuple[_ExceptHook, _ThreadHook] | None = None
        self._from_thread.connect(self._show)

    def install(self) -> None:
        self._previous = (sys.excepthook, threading.excepthook)
        sys.excepthook = self.handle
        threading.excepthook = self._thread_hook

    def uninstall(self) -> None:
        if self._previous is not None:
            sys.excepthook, threading.excepthook = self._previous
            self._previous = None

    def handle(self, exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        logged = write_log(exc_type, exc, tb)
        self._show("refarch: unexpected error", message_for(exc, logged))

    def _thread_hook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None or issubclass(args.exc_type, SystemExit):
            return
        logged = write_log(args.exc_type, args.exc_value, args.exc_traceback, where="background thread")
        self._from_thread.emit("refarch: unexpected error", message_for(args.exc_value, logged))  # to the UI thread

    def _show(self, title: str, text: str) -> None:
        self.shown.append(text)
        if self._showing:  # an error while the dialog is up: logged and kept, not stacked
            return
        self._showing = True
        try:
            self.show(title, text)
        except Exception:  # the dialog itself failed: the terminal is all that is left
            with contextlib.suppress(OSError, ValueError):
                print(f"{title}\n{text}", file=sys.stderr)
        finally:
            self._showing = False


def dialog(title: str, text: str) -> None:
    from PySide6.QtWidgets import QApplication, QMessageBox

    QMessageBox.critical(QApplication.activeWindow(), title, text)

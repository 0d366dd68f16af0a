"""Where the main window opens: on the screen it opens on, at most the size that screen has room for.

A fixed 1400x900 put the warnings card, the right of every table and the scenario buttons off a 1280x800 screen.
The window now takes its default size from the screen's available geometry (less the title bar and borders the
window manager adds), and reopens where the user left it, brought back inside the screen if that changed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

Rect = tuple[int, int, int, int]  # x, y, width, height
WANTED = (1400, 900)
FRAME = (16, 48)  # room left for a window manager's borders and title bar
RECT_KEY = "window/rect"
MAXIMIZED_KEY = "window/maximized"


def fitted(available: Rect, saved: Rect | None, wanted: tuple[int, int] = WANTED,
           frame: tuple[int, int] = FRAME) -> Rect:
    """The window's place: x, y of its frame (as `QWidget.move` takes them) and the width and height inside it.
    The saved place brought inside the available area, else the wanted size (at most the area less the frame)
    centred in it.

    >>> fitted((0, 0, 1280, 770), None)
    (0, 0, 1264, 722)
    >>> fitted((0, 0, 1920, 1050), (200, 100, 1500, 900))
    (200, 100, 1500, 900)
    >>> fitted((0, 0, 1280, 770), (600, 300, 1500, 900))  # from a larger screen: shrunk and moved back in
    (0, 0, 1264, 722)
    """
    ax, ay, aw, ah = available
    fw, fh = frame
    room_w, room_h = max(aw - fw, 1), max(ah - fh, 1)
    if saved is None:
        w, h = min(wanted[0], room_w), min(wanted[1], room_h)
        return ax + (aw - w - fw) // 2, ay + (ah - h - fh) // 2, w, h
    x, y, w, h = saved
    w, h = min(w, room_w), min(h, room_h)
    return min(max(x, ax), ax + aw - w - fw), min(max(y, ay), ay + ah - h - fh), w, h


def _saved(settings: QSettings) -> Rect | None:
    value: Any = settings.value(RECT_KEY)
    try:
        x, y, w, h = (int(v) for v in value)
    except (TypeError, ValueError):
        return None
    return (x, y, w, h) if w > 0 and h > 0 else None


def place(window: QWidget, settings: QSettings) -> None:
    """Size and place `window` for the screen it is on (the primary one before it is shown)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    g = screen.availableGeometry()
    x, y, w, h = fitted((g.x(), g.y(), g.width(), g.height()), _saved(settings))
    window.resize(w, h)
    window.move(x, y)
    if str(settings.value(MAXIMIZED_KEY, "false")).lower() == "true":
        window.showMaximized()


def remember(window: QWidget, settings: QSettings) -> None:
    """Keep where the window is (its normal geometry when maximized) for the next start."""
    g = window.normalGeometry() if window.isMaximized() else window.geometry()
    settings.setValue(RECT_KEY, [g.x(), g.y(), g.width(), g.height()])
    settings.setValue(MAXIMIZED_KEY, window.isMaximized())

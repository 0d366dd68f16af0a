"""Starting the window: a machine without a display is told why, not shown a traceback."""

from __future__ import annotations


def test_no_display_is_explained_not_aborted() -> None:
    import doctest

    import app.gui.launch

    assert doctest.testmod(app.gui.launch).failed == 0
    from app.gui.launch import display_problem

    message = display_problem({}, "linux")
    assert message is not None and "DISPLAY" in message and "--screenshot" in message
    assert display_problem({}, "win32") is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None

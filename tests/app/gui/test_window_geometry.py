"""The window opens within the screen it is on and reopens where the user left it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from app.gui.main_window import MainWindow
from app.gui.window_geometry import FRAME, RECT_KEY, fitted, place, remember


@pytest.mark.parametrize("available", [(0, 0, 1280, 800), (0, 30, 1280, 770), (1920, 0, 1366, 728),
                                       (0, 0, 3840, 2120)])
def test_the_default_size_fits_the_available_area_with_its_frame(available: tuple[int, int, int, int]) -> None:
    ax, ay, aw, ah = available
    x, y, w, h = fitted(available, None)
    assert w <= min(1400, aw - FRAME[0]) and h <= min(900, ah - FRAME[1])
    assert ax <= x and x + w + FRAME[0] <= ax + aw and ay <= y and y + h + FRAME[1] <= ay + ah  # frame included
    if aw >= 1400 + FRAME[0] and ah >= 900 + FRAME[1]:
        assert (w, h) == (1400, 900)  # a large screen keeps the size the window was designed at


def test_a_saved_place_is_kept_when_it_fits_and_brought_back_inside_when_not() -> None:
    assert fitted((0, 0, 2560, 1400), (300, 200, 1600, 1000)) == (300, 200, 1600, 1000)
    x, y, w, h = fitted((0, 0, 1280, 800), (2000, 900, 1800, 1100))  # left on a larger second screen
    assert (x, y) == (0, 0) and (w, h) == (1280 - FRAME[0], 800 - FRAME[1])


def test_remember_then_place_reopens_the_window_where_it_was(window: MainWindow, settings: QSettings) -> None:
    g = window.screen().availableGeometry()
    window.resize(g.width() + 600, g.height() + 400)  # larger than the screen, as a 1400x900 default on a laptop
    remember(window, settings)
    assert [int(v) for v in settings.value(RECT_KEY)][2:] == [window.width(), window.height()]
    place(window, settings)
    expected = fitted((g.x(), g.y(), g.width(), g.height()), (window.x(), window.y(), g.width() + 600,
                                                               g.height() + 400))
    floor = window.minimumSizeHint()
    assert window.width() == max(expected[2], floor.width()) and window.height() == max(expected[3], floor.height())



def test_the_window_fits_a_1024_pixel_screen(window: MainWindow) -> None:
    # the three panes' minimums summed to 1,122 pixels: ~100 pixels of the window off a 1024x768 screen
    assert window.minimumSizeHint().width() <= 1024 - FRAME[0]


def test_the_design_facts_are_never_narrower_than_their_longest_words(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont, QFontMetrics
    from PySide6.QtWidgets import QScrollArea

    from app.gui.results_view import facts_min_width
    from app.views.design import FactRow, design_rows

    facts = window.results.facts
    rows = design_rows(window.results.result)  # type: ignore[arg-type]
    assert facts.minimumWidth() == facts_min_width(rows, facts.font()) > 0
    part_number = "MZ3LO3T8HCJR-00A07-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"  # one word: it cannot wrap
    bold = QFont(facts.font())
    bold.setBold(True)
    with_it = facts_min_width([*rows, FactRow("drive", "Drive", f"2 x {part_number}")], facts.font())
    assert with_it >= QFontMetrics(bold).horizontalAdvance(part_number) and with_it > facts.minimumWidth()
    area = facts.parentWidget()
    while not isinstance(area, QScrollArea):
        area = area.parentWidget()
    assert area.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAsNeeded  # below it, the tab scrolls

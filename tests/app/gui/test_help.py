"""The Help menu: the user guide rendered, the model card honest about its fit, About with versions."""

from __future__ import annotations

import re

from app.gui import help as help_texts
from app.gui.main_window import MainWindow


def test_help_menu_opens_the_guide_the_model_card_and_about(window: MainWindow) -> None:
    for key in ("user_guide", "model_card", "about"):
        assert key in window.menu_actions
    guide = window.show_help("guide")
    assert "Compare options" in guide.browser.toPlainText()  # the markdown rendered, not shown raw
    assert "## " not in guide.browser.toPlainText()
    about = window.show_help("about").browser.toPlainText()
    for name in ("refarch", "Python", "Qt", "numpy", "reportlab"):
        assert name in about
    assert re.search(r"Python\s+\d+\.\d+", about)


def test_the_model_card_never_sells_an_in_sample_fit_as_accuracy() -> None:
    text = re.sub(r"<[^>]+>", " ", help_texts.model_card_html())
    assert "0.00 %" not in text
    assert "in-sample" in text.lower() and "nothing outside the fit" in text
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt|\.json\b", text)
    assert "[1]" in text and "References" in text

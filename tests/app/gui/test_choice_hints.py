"""A choice field whose entry is wider than its box ("Recommend: Network transfer (...), for 6 query streams")
ends in "…" and spells the whole entry out under the box and in its tooltip; the drop-down fits every entry."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.editing.fields import FieldSpec
from app.gui.eliding_combo import ElidingCombo
from app.gui.field_widgets import FieldEditor
from models.sizing.result import UsedValue

DQP = FieldSpec(("workload", "dqp_mode"), "choice", optional=True, recommend_choice=True)
RECOMMENDED = "Network transfer (private interconnect), for 6 query streams"
USED = UsedValue("workload.dqp_mode", "network-transfer", basis="for 6 query streams")  # what the engine records


_KEEP: list[QWidget] = []  # the host outlives the helper (Qt deletes a child with a collected parent)


def _editor(qtbot, width: int) -> FieldEditor:  # type: ignore[no-untyped-def]
    host = QWidget()
    _KEEP.append(host)
    qtbot.addWidget(host)
    editor = FieldEditor(DQP, host)
    editor.container.setParent(host)
    editor.container.setFixedWidth(width)
    host.show()
    qtbot.waitExposed(host)
    editor.show_value(None)
    editor.show_recommended(USED)
    return editor


def test_a_long_recommended_choice_is_elided_and_shown_whole_under_the_box(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot, 150)
    combo = editor.widget
    assert isinstance(combo, ElidingCombo)
    whole = f"Recommend: {RECOMMENDED}"
    assert combo.currentText() == whole and combo.is_elided()
    assert editor.hint_label.isVisibleTo(editor.container) and editor.hint_label.text() == whole
    assert whole in combo.toolTip() and DQP.help in combo.toolTip()
    widest = max(combo.fontMetrics().horizontalAdvance(combo.itemText(i)) for i in range(combo.count()))
    assert combo.view().minimumWidth() >= widest  # the list shows every entry whole


def test_a_choice_that_fits_shows_no_note(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot, 900)
    combo = editor.widget
    assert isinstance(combo, ElidingCombo) and not combo.is_elided()
    assert not editor.hint_label.isVisibleTo(editor.container) and editor.hint_label.text() == ""
    assert DQP.help in combo.toolTip() and "Recommend" not in combo.toolTip()

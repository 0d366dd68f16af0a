"""A names field (server vendors, excluded parts): typed comma-separated in one line, a JSON list in the scenario."""

from __future__ import annotations

from app.editing.fields import PLATFORM_FIELDS
from app.gui.field_widgets import FieldEditor
from app.gui.main_window import MainWindow


def test_typed_names_become_a_list_and_a_list_shows_as_names(qtbot) -> None:  # type: ignore[no-untyped-def]
    spec = next(s for s in PLATFORM_FIELDS if s.path == ("platform", "vendors"))
    editor = FieldEditor(spec)
    qtbot.addWidget(editor.container)
    with qtbot.waitSignal(editor.edited) as sig:
        editor.widget.textEdited.emit(" Dell,  HPE ,")  # type: ignore[attr-defined]
    assert sig.args == [("platform", "vendors"), ["Dell", "HPE"]]
    with qtbot.waitSignal(editor.edited) as sig:
        editor.widget.textEdited.emit("  ")  # type: ignore[attr-defined]
    assert sig.args[1] is None  # empty: any vendor
    editor.show_value(["Lenovo", "Dell"])
    assert editor.widget.text() == "Lenovo, Dell" and editor.value() == ["Lenovo", "Dell"]  # type: ignore[attr-defined]


def test_the_platform_form_offers_vendors_and_exclusions(window: MainWindow) -> None:
    names = {w.objectName() for w in window.findChildren(object) if hasattr(w, "objectName")}
    assert {"field:platform.vendors", "field:platform.excluded_parts"} <= names

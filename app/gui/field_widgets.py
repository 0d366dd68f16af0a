"""One editor per scenario field: shows a JSON value, reports user edits, shows why a value is refused.

User edits are read from the signals Qt emits for the user only (`textEdited`,
`activated`, `clicked`), so showing a value (after undo, or a scenario switch)
never records a new edit.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QRect, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.editing.draft import Path
from app.editing.fields import FieldSpec, names_of
from app.gui.eliding_combo import ElidingCombo
from app.gui.plain_text import plain_tooltip

if TYPE_CHECKING:
    from models.sizing.result import UsedValue


def format_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    return str(value)


def parse_number(text: str, kind: str, optional: bool) -> Any:
    """The JSON value for what was typed; text that is not a number is kept so pydantic can say why."""
    t = text.strip().replace("_", "").replace(" ", "")
    if not t:
        return None
    try:
        if kind == "int":
            return int(t)
        return float(t)
    except ValueError:
        pass
    if kind == "int":
        try:
            f = float(t)
        except ValueError:
            return text.strip()
        return int(f) if f.is_integer() else f  # 3.5 goes through, and pydantic explains integers
    return text.strip()


class _ProjectUndoKeys(QObject):
    """Lets Ctrl+Z / Ctrl+Shift+Z reach the window's undo stack from inside a text field.

    A text field has its own undo and claims those keys first; the project's undo stack
    already records every keystroke, and two undo histories would disagree.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        redo_alias = event.key() == Qt.Key.Key_Z and event.modifiers() == (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        if event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo) or redo_alias:
            event.ignore()
            return True
        return False


UNDO_KEYS = _ProjectUndoKeys()


def set_invalid(widget: QWidget, message: str | None) -> None:
    widget.setToolTip(plain_tooltip(message) if message else widget.property("helpText") or "")  # quotes file values
    invalid = bool(message)
    if widget.property("invalid") == invalid:
        return  # the style sheet's [invalid] rule already applies: a form showing its issues passes every field
    widget.setProperty("invalid", invalid)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


class FieldEditor(QObject):
    """The widget for one `FieldSpec`, with an inline message under it for a refused value."""

    edited = Signal(tuple, object)  # path, JSON value

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.container = QWidget(parent)
        lay = QVBoxLayout(self.container)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.widget: QWidget
        if spec.kind in ("float", "int", "text", "names"):
            edit = QLineEdit()
            edit.setPlaceholderText(spec.placeholder)
            edit.textEdited.connect(self._text_edited)
            edit.installEventFilter(UNDO_KEYS)
            self.widget = edit
        elif spec.kind == "bool":
            box = QCheckBox()
            box.clicked.connect(lambda checked: self.edited.emit(self.spec.path, bool(checked)))
            self.widget = box
        else:
            combo = ElidingCombo()
            combo.setMinimumContentsLength(10)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            for label, value in spec.choices:
                combo.addItem(label, value)
            combo.fit_popup()
            combo.activated.connect(lambda i: self.edited.emit(self.spec.path, combo.itemData(i)))
            combo.shownTextChanged.connect(self._show_whole_choice)
            self.widget = combo
        self.widget.setObjectName("field:" + ".".join(str(p) for p in spec.path))
        self.widget.setProperty("helpText", spec.help)
        self.widget.setToolTip(spec.help)
        self.error_label = QLabel()
        self.error_label.setObjectName("fieldError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote values from files
        self.error_label.hide()
        # a choice too long for its box ("Recommend: Network transfer (...), for 6 query streams"), in full
        self.hint_label = QLabel()
        self.hint_label.setObjectName("fieldHint")
        self.hint_label.setWordWrap(True)
        self.hint_label.setTextFormat(Qt.TextFormat.PlainText)
        self.hint_label.hide()
        lay.addWidget(self.widget)
        lay.addWidget(self.hint_label)
        lay.addWidget(self.error_label)

    @property
    def path(self) -> Path:
        return self.spec.path

    def _names(self, text: str) -> list[str] | None:
        """A names field's list; nothing typed in an optional one is None ("any vendor": no restriction)."""
        names = names_of(text)
        return None if not names and self.spec.optional else names

    def _text_edited(self, text: str) -> None:
        if self.spec.kind == "text":
            self.edited.emit(self.spec.path, text)
        elif self.spec.kind == "names":
            self.edited.emit(self.spec.path, self._names(text))
        else:
            self.edited.emit(self.spec.path, parse_number(text, self.spec.kind, self.spec.optional))

    def value(self) -> Any:
        w = self.widget
        if isinstance(w, QLineEdit):
            if self.spec.kind == "text":
                return w.text()
            if self.spec.kind == "names":
                return self._names(w.text())
            return parse_number(w.text(), self.spec.kind, self.spec.optional)
        if isinstance(w, QCheckBox):
            return w.isChecked()
        assert isinstance(w, QComboBox)
        return w.currentData()

    def show_value(self, value: Any) -> None:
        w = self.widget
        if isinstance(w, QLineEdit):
            # leave "12." alone while the user types: it already means 12.0
            if self.value() != value or type(self.value()) is not type(value):
                w.setText(", ".join(map(str, value)) if self.spec.kind == "names" and isinstance(value, list)
                          else format_value(value))
                if not w.hasFocus():
                    w.setCursorPosition(0)  # show the start of a long name, not its end
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        else:
            assert isinstance(w, QComboBox)
            i = w.findData(value)
            if i < 0:  # a value the form does not list (hand-edited file): show it rather than hide it
                w.addItem(format_value(value), value)
                i = w.count() - 1
            w.setCurrentIndex(i)

    def show_recommended(self, used: UsedValue | None) -> None:
        """For a field left to refarch: what it used (`SizingResult.values_used`), in the placeholder ("Recommend:
        8", "not used with group mirroring": a field the design has no use for is not recommended) or in the choice
        that stands for it ("Recommend: RAID 5"); the tooltip holds the whole text."""
        text = ""
        if used is not None:
            from app.export.engine_values import used_text  # a result is on screen: the engine is loaded

            text = used_text(used)
        if isinstance(self.widget, QLineEdit) and self.spec.optional:
            p = self.spec.placeholder
            recommend = p == "Recommend" and used is not None and used.used
            shown = (f"{p}: {text}" if recommend else text) if text else p
            self.widget.setPlaceholderText(shown)
            help_text = self.spec.help
            tip = f"Left empty: {shown}" if text else ""
            self.widget.setProperty("helpText", f"{help_text}\n{tip}".strip() if tip else help_text)
            if not self.error:
                self.widget.setToolTip(self.widget.property("helpText") or "")
        elif isinstance(self.widget, QComboBox):
            i = self.widget.findData(None)
            label = next((lbl for lbl, v in self.spec.choices if v is None), None)
            if i >= 0 and label is not None:
                self.widget.setItemText(i, f"{label}: {text}" if text and self.widget.currentIndex() == i else label)

    def _show_whole_choice(self) -> None:
        """The whole current choice under the box and in its tooltip when the box shows it cut ("…")."""
        combo = self.widget
        assert isinstance(combo, ElidingCombo)
        whole = combo.currentText() if combo.is_elided() else ""
        if whole != self.hint_label.text():
            self.hint_label.setText(whole)
            self.hint_label.setVisible(bool(whole))
        help_text = "\n".join(t for t in (whole, self.spec.help) if t)
        combo.setProperty("helpText", help_text)
        if not self.error:
            combo.setToolTip(plain_tooltip(help_text) if help_text else "")

    def show_error(self, message: str | None) -> None:
        set_invalid(self.widget, message)
        self.error_label.setText(message or "")
        self.error_label.setVisible(bool(message))

    @property
    def error(self) -> str | None:
        return self.error_label.text() or None


LABEL_MAX_PX = 150  # the label column's width at most: the fields keep room for "Recommend: 368 GiB (...)"


def wrapped_label(text: str) -> QLabel:
    """A form label broken over as many lines as it needs at `LABEL_MAX_PX`, and as tall as those lines: a form
    row is only as tall as its field, so a two-line label next to a check box was cut in half."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setMaximumWidth(LABEL_MAX_PX)
    # a wrapping label asks for little width; without a floor the column shrank and labels took four lines
    label.setMinimumWidth(min(LABEL_MAX_PX, label.fontMetrics().horizontalAdvance(text) + 2))
    box = label.fontMetrics().boundingRect(QRect(0, 0, LABEL_MAX_PX, 10_000), Qt.TextFlag.TextWordWrap, text)
    label.setMinimumHeight(box.height() + 2)
    return label


def add_rows(form: QFormLayout, specs: tuple[FieldSpec, ...], parent: QWidget) -> list[FieldEditor]:
    editors: list[FieldEditor] = []
    for spec in specs:
        editor = FieldEditor(spec, parent)
        label = wrapped_label(spec.label)
        label.setToolTip(spec.help)
        label.setBuddy(editor.widget)
        form.addRow(label, editor.container)
        editors.append(editor)
    return editors


def new_form_layout() -> QFormLayout:
    form = QFormLayout()
    form.setLabelAlignment(form.labelAlignment())
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
    form.setHorizontalSpacing(12)
    form.setVerticalSpacing(6)
    return form

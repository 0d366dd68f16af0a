"""A combo box that ends its shown text in "…" when the text is wider than the box, and says so.

Qt clips a long entry at the box's edge ("Recommend: Networ"), which reads as a different word. This box
elides it instead and tells its owner (`shownTextChanged`), so a form field can spell the whole text out under
it and in its tooltip; the drop-down list is as wide as its longest entry.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QWidget

_POPUP_MARGIN_PX = 24  # the list's scroll bar and frame


class ElidingCombo(QComboBox):
    shownTextChanged = Signal()  # the current text, or whether it fits, may have changed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentIndexChanged.connect(lambda _i: self.shownTextChanged.emit())

    def _text_rect_width(self) -> int:
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        rect = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                           QStyle.SubControl.SC_ComboBoxEditField, self)
        return rect.width()

    def is_elided(self) -> bool:
        """The current text is wider than the box shows."""
        return self.fontMetrics().horizontalAdvance(self.currentText()) > self._text_rect_width()

    def setItemText(self, index: int, text: str) -> None:
        super().setItemText(index, text)
        self.fit_popup()
        self.shownTextChanged.emit()

    def fit_popup(self) -> None:
        """The drop-down list as wide as its longest entry, so no choice is cut there either."""
        widest = max((self.fontMetrics().horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        self.view().setMinimumWidth(widest + _POPUP_MARGIN_PX)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        opt.currentText = self.fontMetrics().elidedText(opt.currentText, Qt.TextElideMode.ElideRight,
                                                        self._text_rect_width())
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.shownTextChanged.emit()

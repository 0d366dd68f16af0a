"""A matplotlib Figure inside Qt, rebuilt lazily: only when the chart is on screen.

matplotlib itself is imported when the first chart is drawn, not when the window starts (0.5-1 s of
start-up for charts that sit on tabs the user has not opened yet).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QSizePolicy, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
    from matplotlib.figure import Figure

FigureBuilder = Callable[[], "Figure"]


class ChartView(QWidget):
    """Holds a builder, not a figure: drawing a figure costs tens of ms, so hidden charts wait."""

    def __init__(self, min_height: int = 220, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._builder: FigureBuilder | None = None
        self._stale = False
        self._built_at: tuple[int, int] = (0, 0)  # the widget size the figure was built for
        self.canvas: FigureCanvasQTAgg | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.setMinimumHeight(min_height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_builder(self, builder: FigureBuilder | None) -> None:
        self._builder = builder
        self._stale = True
        if self.isVisible():
            self.render_now()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.render_now()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # a builder fits titles and legends to the size it is given: build again once the size settles far from it
        w, h = self._built_at
        if self._builder is not None and self.isVisible() and (
                abs(self.width() - w) > 0.15 * max(w, 1) or abs(self.height() - h) > 0.15 * max(h, 1)):
            self._stale = True
            QTimer.singleShot(0, self._render_if_stale)

    def _render_if_stale(self) -> None:
        if self._stale and self.isVisible():
            self.render_now()

    def render_now(self) -> None:
        self._stale = False
        self._built_at = (self.width(), self.height())
        if self._builder is None:
            if self.canvas is not None:
                self.canvas.setParent(None)
                self.canvas.deleteLater()
                self.canvas = None
            return
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg

        fig = self._builder()
        # matplotlib's Qt backend has no annotations (no .pyi): its constructor and draw_idle are untyped calls
        canvas = FigureCanvasQTAgg(fig)  # type: ignore[no-untyped-call]
        canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        if self.canvas is not None:
            self._layout.replaceWidget(self.canvas, canvas)
            self.canvas.setParent(None)
            self.canvas.deleteLater()
        else:
            self._layout.addWidget(canvas)
        self.canvas = canvas
        canvas.draw_idle()  # type: ignore[no-untyped-call]

    def shown_size_in(self) -> tuple[float, float] | None:
        """The size the chart is shown at, in inches at 100 dpi (None before it is laid out), for a builder that
        fits labels and legends to the space they get."""
        w, h = self.width(), self.height()
        return (w / 100, h / 100) if w > 300 and h > 100 else None

    @property
    def figure(self) -> Figure | None:
        return self.canvas.figure if self.canvas is not None else None

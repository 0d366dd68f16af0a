"""A one-pass grid layout for figures drawn once (the PDF report): constrained layout's margins, measured once.

Constrained layout measures every axes' decorations (tick labels, titles, legends) twice per draw, because moving
the axes may change their tick labels; that was a third of a report chart's drawing. A chart drawn once at its
final size gets its margins from one measurement: each grid column as wide as the next, each row as tall, every
axes' decorations inside the figure with constrained layout's pad around them.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.layout_engine import LayoutEngine

PAD_PT = 3.0  # between decorations and the figure's edge or the next axes: constrained layout's w_pad / h_pad


class OnePassLayout(LayoutEngine):
    """Axes of one subplot grid placed from a single measurement of their decorations (and the suptitle)."""

    _adjust_compatible = False  # as constrained layout's: the figure can switch between the two
    _colorbar_gridspec = False

    def execute(self, fig: Figure) -> None:
        axes = [ax for ax in fig.axes if ax.get_subplotspec() is not None and ax.get_visible()]
        if not axes:
            return
        renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg's, the one that draws it
        nrows, ncols = axes[0].get_subplotspec().get_gridspec().get_geometry()
        w, h = fig.bbox.width, fig.bbox.height
        pad = PAD_PT / 72 * fig.dpi
        # how far each column's / row's decorations reach out of its axes, in pixels
        left, right, top, bottom = [0.0] * ncols, [0.0] * ncols, [0.0] * nrows, [0.0] * nrows
        for ax in axes:
            ss = ax.get_subplotspec()
            pos = ax.get_window_extent(renderer)
            tight = ax.get_tightbbox(renderer, for_layout_only=True)
            if tight is None:
                continue
            left[ss.colspan.start] = max(left[ss.colspan.start], pos.x0 - tight.x0)
            right[ss.colspan.stop - 1] = max(right[ss.colspan.stop - 1], tight.x1 - pos.x1)
            top[ss.rowspan.start] = max(top[ss.rowspan.start], tight.y1 - pos.y1)
            bottom[ss.rowspan.stop - 1] = max(bottom[ss.rowspan.stop - 1], pos.y0 - tight.y0)
        head = 0.0
        sup = fig._suptitle
        if sup is not None and sup.get_visible() and sup.get_text():
            head = sup.get_window_extent(renderer).height + pad
            sup.set_y(1 - pad / h)
        col_w = (w - sum(left) - sum(right) - 2 * pad * ncols) / ncols
        row_h = (h - head - sum(top) - sum(bottom) - 2 * pad * nrows) / nrows
        if col_w <= 0 or row_h <= 0:
            return  # decorations larger than the figure: leave the default grid rather than collapse an axes
        x0s, x = [], pad
        for c in range(ncols):
            x0s.append(x + left[c])
            x += left[c] + col_w + right[c] + 2 * pad
        y0s, y = [], h - head - pad
        for r in range(nrows):
            y0s.append(y - top[r] - row_h)
            y -= top[r] + row_h + bottom[r] + 2 * pad
        for ax in axes:
            ss = ax.get_subplotspec()
            x0, x1 = x0s[ss.colspan.start], x0s[ss.colspan.stop - 1] + col_w
            y0, y1 = y0s[ss.rowspan.stop - 1], y0s[ss.rowspan.start] + row_h
            ax.set_position((x0 / w, y0 / h, (x1 - x0) / w, (y1 - y0) / h))
            ax.set_in_layout(True)  # set_position takes an axes out of layouts; this one placed it

"""The live result of the selected scenario: headline numbers, the hosts, estimates, BOM, reasons, warnings.

It only displays a `SizingResult` (and the estimate curve); when the input is
invalid or the engine refuses it, the last good result stays on screen under a
banner saying why it is not current.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.export.bom import bom_table
from app.formatting import (
    bare,
    converted_from,
    estimate_p50,
    estimate_range,
    is_fraction,
    money,
    money_figure,
    money_short,
    number,
    power,
    priced_amount,
    unit_text,
)
from app.gui.chart_view import ChartView
from app.gui.host_diagram import HostDiagram
from app.gui.plain_text import plain_tooltip
from app.gui.rack_view import RackElevation
from app.gui.sensitivity_tab import SensitivityTab
from app.services.sizing import Curve
from app.views.design import DATABASE_COLUMNS, FactRow, database_rows, design_rows
from app.views.ownership import ownership
from app.views.summary import bom_as_shown, headline, headline_metric, racks_as_shown
from models.field_words import field_label
from models.references import ReferenceList, readable
from models.release_words import role_label
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import KINDS, metric_label, target_of_metric

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def worker_role(kind: str, count: int) -> str:
    if kind not in KINDS:
        return "worker host" if count == 1 else "worker hosts"
    return KINDS[kind].workers(count)


@dataclass
class Status:
    """What the banner says about the result on screen."""

    computing: bool = False
    input_problems: list[str] = field(default_factory=list)  # the draft does not validate
    sizing_problems: list[str] = field(default_factory=list)  # the engine refused the scenario
    stale: bool = False  # the result shown was computed from an older version of the inputs
    engine_missing: str | None = None


FIT_PT = (14.0, 13.0, 12.0, 11.0, 10.0, 9.0)  # a card's figure: the stylesheet's size, down to the smallest


class KpiCard(QFrame):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("kpi")
        self._lay = lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 8, 8, 8)  # six cards share the results' width: 8 px a side, not 12, for the figure
        lay.setSpacing(1)
        self.title = QLabel(title.upper())
        self.title.setObjectName("kpiTitle")
        self.value = QLabel("–")
        self.value.setObjectName("kpiValue")
        self.sub = QLabel("")
        self.sub.setObjectName("kpiSub")
        for w in (self.title, self.value, self.sub):
            # cards share the row; a long title or note wraps onto a second line instead of being cut
            # ("627k EUR/US"), and the window never widens for it
            w.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            w.setWordWrap(w is not self.value)
            lay.addWidget(w)
        self.stale_tag = QLabel("Not current")
        self.stale_tag.setObjectName("kpiStale")
        self.stale_tag.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.stale_tag.setWordWrap(True)
        self.stale_tag.hide()
        lay.addWidget(self.stale_tag)
        lay.addStretch(1)
        # room for a title and a note of two lines each at the stylesheet's sizes (7.5, 14 and 8 pt): a wrapped
        # line must not be clipped at the bottom
        self.setMinimumHeight(104)

    def set_stale(self, stale: bool) -> None:
        """Mark the figure as the last good result while the inputs cannot be sized (greyed, dashed, tagged)."""
        if bool(self.property("stale")) == stale:
            return
        self.setProperty("stale", stale)
        self.stale_tag.setVisible(stale)
        for w in (self, self.value):
            w.style().unpolish(w)
            w.style().polish(w)

    def set(self, value: str, sub: str = "", tooltip: str = "") -> None:
        self.value.setText(value)
        self.sub.setText(sub)
        self.setToolTip(plain_tooltip(tooltip))  # part names and ids come from the catalog
        self.hold_whole_text()
        self._fit_value()

    def hold_whole_text(self) -> None:
        """The card no narrower than its figure at the smallest size `_fit_value` takes and the longest word of
        its title and note (they wrap only at spaces): the row gives it that much before sharing out the rest by
        stretch, so a long figure ("1.21 M USD", "24.07 M EUR") is never cut, whatever the value."""
        self.ensurePolished()
        font = QFont(self.value.font())
        font.setPointSizeF(FIT_PT[-1])
        need = QFontMetrics(font).horizontalAdvance(self.value.text())
        for label in (self.title, self.sub):
            label.ensurePolished()
            need = max([need, *(label.fontMetrics().horizontalAdvance(w) for w in label.text().split())])
        m = self._lay.contentsMargins()
        self.setMinimumWidth(need + m.left() + m.right() + 2 * self.frameWidth() + 2)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_value()

    def _fit_value(self) -> None:
        """The headline number in the largest size (14 pt down to 9 pt) that shows all of it: never "627k EUR/US"."""
        width = self.value.contentsRect().width()
        if width <= 0:
            return
        font = QFont(self.value.font())
        for pt in FIT_PT:
            font.setPointSizeF(pt)
            if QFontMetrics(font).horizontalAdvance(self.value.text()) <= width:
                break
        if self.value.property("fittedPt") != pt:
            self.value.setProperty("fittedPt", pt)
            self.value.setStyleSheet(f"font-size: {pt:g}pt;")


BOM_PART_PX = 210  # the BOM's part column: a server's name in two or three lines


def _table(headers: list[str], stretch: int | None = None) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setAlternatingRowColors(True)
    t.setWordWrap(True)
    header = t.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    if stretch is not None:
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return t


def _cell(text: str, right: bool = False, bold: bool = False, tooltip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if bold:
        f = item.font()
        f.setBold(True)
        item.setFont(f)
    if tooltip:
        item.setToolTip(plain_tooltip(tooltip))
    return item


FACT_PADDING_PX = (10, 28)  # right padding of a fact's label cell and of its value cell (facts_html)


def facts_min_width(design: Sequence[FactRow], font: QFont, columns: int = 2) -> int:
    """The narrowest width (pixels) the facts' table takes without cutting a word: each label and value column as
    wide as its longest word ("2,734.1 TB", a part number), with the padding between them (not the last column's,
    which is blank). The Design tab scrolls sideways below that width rather than clipping the right-hand column."""
    bold = QFont(font)
    bold.setBold(True)
    plain_m, bold_m = QFontMetrics(font), QFontMetrics(bold)
    rows = (len(design) + columns - 1) // columns
    total = -FACT_PADDING_PX[1]
    for c in range(columns):
        facts = design[c * rows:(c + 1) * rows]
        total += max((plain_m.horizontalAdvance(w) for f in facts for w in f.label.split()), default=0)
        total += max((bold_m.horizontalAdvance(w) for f in facts for w in f.text.split()), default=0)
        total += sum(FACT_PADDING_PX)
    return max(total, 0)


def facts_html(design: Sequence[FactRow], columns: int = 2) -> str:
    """The design's facts (`app.views.design`) as a table of label and value pairs, in columns."""
    facts = [(f.label, f.text) for f in design]
    rows = (len(facts) + columns - 1) // columns
    cells = []
    for r in range(rows):
        tds = []
        for c in range(columns):
            i = c * rows + r
            if i < len(facts):
                k, v = facts[i]
                pad_label, pad_value = FACT_PADDING_PX
                tds.append(f"<td style='color:#616e7c; padding:2px {pad_label}px 2px 0'>{html.escape(k)}</td>"
                           f"<td style='color:#1f2933; padding:2px {pad_value}px 2px 0'><b>{html.escape(v)}</b></td>")
        cells.append("<tr>" + "".join(tds) + "</tr>")
    return "<table cellspacing='0'>" + "".join(cells) + "</table>"


class ResultsView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resultsView")
        self.result: SizingResult | None = None
        self.scenario: Scenario | None = None
        self.curve: Curve | None = None
        self.describe: Callable[[str], str] = lambda part_id: part_id

        self.heading = QLabel("")
        self.heading.setObjectName("resultHeading")
        self.banner = QLabel("")
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.TextFormat.RichText)
        self.banner.hide()

        cards = QHBoxLayout()
        cards.setSpacing(8)
        self.cards = {
            "hosts": KpiCard("Hosts"),
            "capex": KpiCard("Capex"),
            "tco": KpiCard("Cost of ownership"),
            "power": KpiCard("Power"),
            "metric": KpiCard("Main estimate"),
            "risk": KpiCard("Warnings"),
        }
        # widths by what each card must show: each at least its figure and longest word (KpiCard.hold_whole_text),
        # the rest to the money and the main estimate with its range (a host or warning count is short)
        for card, stretch in zip(self.cards.values(), (2, 6, 6, 5, 7, 2), strict=True):
            cards.addWidget(card, stretch)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("resultTabs")
        self.tabs.setDocumentMode(True)
        self._build_design_tab()
        self._build_estimates_tab()
        self._build_cost_tab()
        self._build_ownership_tab()
        self._build_reasons_tab()
        self.sensitivity = SensitivityTab()  # the tornado, on request (main_window runs it)
        self.tabs.addTab(self.sensitivity, "Sensitivity")
        self.warnings = _table(["Warning", "Details"], stretch=1)
        self.warnings.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tabs.addTab(self.warnings, "Warnings")

        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 8)
        lay.setSpacing(8)
        lay.addWidget(self.heading)
        lay.addWidget(self.banner)
        lay.addLayout(cards)
        lay.addWidget(self.tabs, 1)
        self._show_empty()

    def _build_design_tab(self) -> None:
        """Overview: the design in words (`app.views.design`) and as a drawing."""
        self.facts = QLabel()
        self.facts.setObjectName("facts")
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.facts.setWordWrap(True)
        self.facts.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.diagram = HostDiagram()
        self.databases_label = QLabel("<b>Databases</b>: the transactions per second each one's VM carries for it at"
                                      " the busiest hour, and what binds that")
        self.databases_label.setTextFormat(Qt.TextFormat.RichText)
        self.databases = _table(list(DATABASE_COLUMNS), stretch=len(DATABASE_COLUMNS) - 1)
        self.databases.setObjectName("databaseTps")
        self.warn_box = QLabel()
        self.warn_box.setObjectName("warnBox")
        self.warn_box.setWordWrap(True)
        self.warn_box.setTextFormat(Qt.TextFormat.RichText)
        self.warn_box.hide()
        overview = QWidget()
        ov = QVBoxLayout(overview)
        ov.setContentsMargins(10, 10, 10, 10)
        ov.setSpacing(10)
        ov.addWidget(self.warn_box)
        ov.addWidget(self.facts)
        ov.addWidget(self.databases_label)
        ov.addWidget(self.databases)
        ov.addWidget(self.diagram)
        ov.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        scroll.setWidget(overview)
        self.tabs.addTab(scroll, "Design")

    def _build_estimates_tab(self) -> None:
        """Estimates: the table and the curve against host count."""
        self.estimates = _table(["Estimate", "P50", "P10 – P90 range", "Unit", ""], stretch=4)
        self.binding = QLabel()
        self.binding.setObjectName("binding")
        self.binding.setWordWrap(True)
        self.curve_chart = ChartView(240)
        self.calibration = QLabel()  # measured vs modelled, when the scenario names measurement profiles
        self.calibration.setObjectName("calibration")
        self.calibration.setWordWrap(True)
        self.calibration.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.calibration.hide()
        est = QWidget()
        el = QVBoxLayout(est)
        el.setContentsMargins(10, 10, 10, 10)
        el.addWidget(self.binding)
        el.addWidget(self.calibration)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.estimates)
        split.addWidget(self.curve_chart)
        split.setSizes([160, 360])
        el.addWidget(split, 1)
        self.tabs.addTab(est, "Estimates")

    def _build_cost_tab(self) -> None:
        """Cost: the BOM and where the money goes."""
        self.bom = _table(["Group", "Part", "Part number", "Qty/host", "Hosts", "Qty", "List unit", "Disc. %",
                           "Net unit", "Extended", "Basis"])
        # the part's name gets a fixed share of the width and wraps (stretched, it shrank to "Lenovo Thin..."
        # beside ten sized-to-contents columns); the table scrolls sideways for the prices
        self.bom.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        self.bom.setColumnWidth(1, BOM_PART_PX)
        self.totals = QLabel()
        self.totals.setObjectName("totals")
        self.totals.setTextFormat(Qt.TextFormat.RichText)
        self.totals.setWordWrap(True)  # capex, TCO, power, racks and energy run past 600 px
        self.cost_chart = ChartView(200)
        cost = QWidget()
        cl = QVBoxLayout(cost)
        cl.setContentsMargins(10, 10, 10, 10)
        csplit = QSplitter(Qt.Orientation.Vertical)
        csplit.addWidget(self.bom)
        csplit.addWidget(self.cost_chart)
        csplit.setSizes([260, 240])
        cl.addWidget(self.totals)
        cl.addWidget(csplit, 1)
        self.tabs.addTab(cost, "Bill of materials")

    def _build_ownership_tab(self) -> None:
        """Cost of ownership and racks."""
        self.tco = _table(["Year", "Hosts", "Hardware", "Licences", "Support", "Energy", "Space", "Operations", "Total",
                           "Cumulative"])
        # nine columns share the panel's width (sized to their contents they ran past it and hid the cumulative)
        self.tco.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for col in (0, 1, 2, 3, 8):  # "Year 1", hosts need little; "Hardware", "Licences", "Cumulative" their header
            self.tco.horizontalHeader().setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.tco_note = QLabel()
        self.tco_note.setWordWrap(True)
        self.tco_note.setTextFormat(Qt.TextFormat.RichText)
        self.rack_view = RackElevation()
        rack_scroll = QScrollArea()
        rack_scroll.setWidgetResizable(False)
        rack_scroll.setWidget(self.rack_view)
        own = QWidget()
        ol = QVBoxLayout(own)
        ol.setContentsMargins(10, 10, 10, 10)
        osplit = QSplitter(Qt.Orientation.Vertical)
        osplit.addWidget(self.tco)
        osplit.addWidget(rack_scroll)
        osplit.setSizes([235, 385])  # every year of a five-year TCO without scrolling
        ol.addWidget(self.tco_note)
        ol.addWidget(osplit, 1)
        self.tabs.addTab(own, "TCO and racks")

    def _build_reasons_tab(self) -> None:
        """The rationale with its sources, and the reference list they number."""
        self.rationale = _table(["Decision", "Why", "Source"], stretch=1)
        self.rationale.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        self.rationale.setColumnWidth(2, 240)
        # rows follow the columns' width as the window or splitter moves: a reason is never cut to "…"
        self.rationale.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.references = QLabel()
        self.references.setObjectName("references")
        self.references.setWordWrap(True)
        self.references.setTextFormat(Qt.TextFormat.RichText)
        self.references.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        why = QWidget()
        wl = QVBoxLayout(why)
        wl.setContentsMargins(0, 0, 0, 0)
        wsplit = QSplitter(Qt.Orientation.Vertical)
        wsplit.addWidget(self.rationale)
        ref_scroll = QScrollArea()
        ref_scroll.setWidgetResizable(True)
        ref_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        ref_scroll.setWidget(self.references)
        wsplit.addWidget(ref_scroll)
        wsplit.setSizes([380, 140])
        wl.addWidget(wsplit)
        self.tabs.addTab(why, "Rationale")


    # -- public ---------------------------------------------------------------------------------------------
    def set_describe(self, describe: Callable[[str], str]) -> None:
        self.describe = describe

    def show_result(self, result: SizingResult | None, scenario: Scenario | None, status: Status,
                    curve: Curve | None = None) -> None:
        changed = result is not self.result
        self.result, self.scenario = result, scenario
        self.heading.setText(html.escape(scenario.name) if scenario else "")
        self._show_status(status)
        if changed:  # a tornado belongs to the design it was computed for
            self.sensitivity.reset(enabled=result is not None)
        if result is None:
            self._show_empty(status)
            return
        if changed:
            self._fill(result)
        self.set_curve(curve)

    def set_curve(self, curve: Curve | None) -> None:
        self.curve = curve
        result = self.result
        if result is None:
            self.curve_chart.set_builder(None)
            return
        metric = headline_metric(result)
        if curve is not None:
            target = self._target_for(metric)
            bound = target_of_metric(metric)
            target_label = bound.label.lower() if bound is not None else "target"

            def curve_figure() -> Figure:
                from app.charts import estimate_vs_hosts  # matplotlib: only when the chart is drawn

                return estimate_vs_hosts(
                    curve.hosts, curve.p10, curve.p50, curve.p90, metric_label=metric_label(curve.metric),
                    unit=curve.unit, current_hosts=curve.current_hosts, target=target, target_label=target_label,
                    title=f"{metric_label(curve.metric)} against the number of hosts",
                )

            self.curve_chart.set_builder(curve_figure)
            return
        # no host sweep for this kind: show every estimate's range against its target instead
        ordered = sorted(result.estimates.items(), key=lambda kv: kv[0] != metric)
        rows = [(metric_label(n), e.p10, e.p50, e.p90, e.unit) for n, e in ordered]
        targets = [self._target_for(n) for n, _ in ordered]

        def ranges_figure() -> Figure:
            from app.charts import estimate_ranges

            return estimate_ranges(rows, targets=targets,
                                   title="Estimates: P50 with the P10–P90 range (dashed line: target)")

        self.curve_chart.set_builder(ranges_figure)

    def _show_calibration(self, r: SizingResult) -> None:
        """Measured vs modelled (`app.views.calibration`), above the estimates, when the design was sized on it."""
        if r.calibration is None:
            self.calibration.hide()
            return
        from app.views.calibration import rows, summary

        cells = "".join(
            f"<tr><td>{html.escape(x.resource)}</td><td align='right'>{html.escape(x.modelled)}</td>"
            f"<td align='right'>{html.escape(x.measured)}</td><td align='right'>{html.escape(x.ratio)}</td>"
            f"<td>{html.escape(x.verdict)}</td><td>{html.escape(x.unit)}</td></tr>" for x in rows(r.calibration))
        links = r.calibration["no_good_links"]
        self.calibration.setText(
            f"<b>Measured vs modelled</b> — {html.escape(summary(r.calibration))}"
            "<table cellspacing='0' cellpadding='3'><tr><th align='left'>Resource</th><th>Modelled</th>"
            f"<th>Measured</th><th>Ratio</th><th align='left'>Verdict</th><th align='left'>Unit</th></tr>{cells}"
            "</table>" + (f"No good links: {html.escape(', '.join(links))}" if links else ""))
        self.calibration.show()

    def _target_for(self, metric: str) -> float | None:
        target = target_of_metric(metric)
        if self.scenario is None or target is None:
            return None
        value = getattr(self.scenario.targets, target.name, None)
        return float(value) if value is not None else None

    # -- filling --------------------------------------------------------------------------------------------
    def _show_status(self, status: Status) -> None:
        kind, text = "info", ""
        if status.engine_missing:
            kind, text = "error", html.escape(status.engine_missing)
        elif status.input_problems:
            n = len(status.input_problems)
            lead = f"{n} input problem{'s' if n > 1 else ''}"
            tail = " — showing the last good result" if self.result is not None else ""
            items = "; ".join(html.escape(p) for p in status.input_problems[:3])
            more = f" (+{n - 3} more)" if n > 3 else ""
            kind, text = "warn", f"<b>{lead}{tail}.</b> {items}{more}"
        elif status.sizing_problems:
            items = "; ".join(html.escape(p) for p in status.sizing_problems[:3])
            tail = " — showing the last good result" if self.result is not None else ""
            kind, text = "error", f"<b>Cannot size this scenario{tail}.</b> {items}"
        elif status.computing and self.result is not None:
            kind, text = "busy", "Updating…"
        # a result kept on screen while the inputs are invalid or refused is marked on each card, not only above
        stale = self.result is not None and bool(status.input_problems or status.sizing_problems)
        for card in self.cards.values():
            card.set_stale(stale)
        self.banner.setProperty("kind", kind)
        self.banner.setText(text)
        self.banner.setVisible(bool(text))
        self.banner.style().unpolish(self.banner)
        self.banner.style().polish(self.banner)

    def _show_empty(self, status: Status | None = None) -> None:
        for card in self.cards.values():
            card.set("–")
        computing = status is not None and status.computing
        self.facts.setText("<span style='color:#616e7c'>Sizing…</span>" if computing else
                           "<span style='color:#616e7c'>No result yet.</span>")
        self.facts.setMinimumWidth(0)
        self.diagram.set_hosts((), "bare-metal", message="Sizing…" if computing else "No design yet")
        self.databases.setRowCount(0)
        for w in (self.databases_label, self.databases):
            w.hide()
        for t in (self.estimates, self.bom, self.rationale, self.warnings):
            t.setRowCount(0)
        self.totals.setText("")
        self.binding.setText("")
        self.calibration.hide()
        self.warn_box.hide()
        self.curve_chart.set_builder(None)
        self.cost_chart.set_builder(None)

    def _fill(self, r: SizingResult) -> None:
        refs = ReferenceList()  # numbered in the order this design's rationale cites them, as in the PDF
        for why in r.rationale:
            refs.mark(why.source)
        self._fill_cards(r, refs)
        self._fill_design(r, refs)
        self._fill_estimates(r)
        self._fill_bom(r)
        self._fill_ownership(r)
        self._fill_reasons(r, refs)

    def _fill_money_cards(self, r: SizingResult) -> None:
        """Capex with the first year beside it, and the cost of ownership over the horizon (N stated)."""
        o = ownership(r)
        cur = o.currency
        self.cards["capex"].set(money_short(o.capex, cur), f"1st year {money_short(o.first_year, cur)}",
                                f"One-time {money(o.capex, cur, cents=False)}"
                                + (f" ({o.quote_clause})" if o.quote_clause else "") + "; the first year "
                                f"{money(o.first_year, cur, cents=False)} with subscriptions and support, "
                                "energy and rack space")
        self.cards["tco"].title.setText(o.horizon.upper())
        self.cards["tco"].set(money_short(o.tco, cur), f"{money_short(o.recurring_per_year, cur)}/year recurring",
                              f"Cost of ownership over the {o.years}-year planning horizon: "
                              f"{money(o.tco, cur, cents=False)}; subscriptions and support "
                              f"{money(o.recurring_per_year, cur, cents=False)} a year")

    def _fill_cards(self, r: SizingResult, refs: ReferenceList) -> None:
        """The headline cards: hosts, capex, power, the main estimate, warnings."""
        d, t = r.design, r.totals
        extra_hosts = d.total_hosts - d.worker_hosts
        total_hosts = d.total_hosts
        sub = f"{d.segment_hosts} {worker_role(d.kind, d.segment_hosts)}"
        if extra_hosts:
            coord = role_label("coord.", d.greenplum_version)  # Greenplum 6: master
            counts = [(d.segment_hosts, "seg."), (d.coordinator_hosts, coord), (d.etl_hosts, "ETL")]  # short: a card
            sub = " + ".join(f"{n} {what}" for n, what in counts if n)
        details = ", ".join(f"{h.count} × {role_label(h.role, d.greenplum_version)}" for h in d.hosts)
        self.cards["hosts"].set(str(total_hosts), sub, details)
        self._fill_money_cards(r)
        racks = f" ({t.rack_u / 42:.1f} racks of 42 U)" if t.rack_u > 42 else ""
        self.cards["power"].set(power(t.power_w), f"{t.rack_u} U · {number(t.kwh_per_year / 1000)} MWh/y",
                                f"{t.rack_u} U{racks}; {number(t.kwh_per_year)} kWh a year at the assumed load")
        head = headline(r)  # the metric the scenario's target names, else the kind's main one
        if head is not None:
            main = head.estimate
            self.cards["metric"].title.setText(head.label.upper())
            band = estimate_range(main)
            spread = band == "no spread"
            if is_fraction(main.unit):  # a share reads as a percentage: "100 %", "of baseline throughput" under it
                value = f"{bare(main.p50, main.unit)} %"
                what = unit_text(main.unit).removeprefix("%").strip()
                sub = (f"{what} · " if what else "") + (
                    band if spread else f"P10–P90 {bare(main.p10, main.unit)} – {bare(main.p90, main.unit)} %")
            elif len(main.unit) <= 8:
                value, sub = estimate_p50(main), f"P10–P90 {band}"
            else:  # a long unit goes under the number, not beside it
                value = number(main.p50)
                sub = f"{main.unit} · " + (band if spread else f"P10–P90 {band.removesuffix(main.unit)}")
            self.cards["metric"].set(value, f"{sub} · {head.binding}",
                                     f"{head.label}: {estimate_p50(main)}; binding resource: {head.binding}")
        n_warn = len(r.warnings)
        self.cards["risk"].set(str(n_warn), "none" if not n_warn else "to review",
                               "\n".join(readable(w.full_text, refs) for w in r.warnings))
        self.cards["risk"].setProperty("alert", n_warn > 0)
        self.cards["risk"].style().unpolish(self.cards["risk"])
        self.cards["risk"].style().polish(self.cards["risk"])

    def _fill_design(self, r: SizingResult, refs: ReferenceList) -> None:
        """The Design tab: the facts (`app.views.design`), the host drawing and the first warnings."""
        d = r.design
        n_warn = len(r.warnings)
        self.facts.setText(facts_html(design_rows(r)))
        self.facts.ensurePolished()
        self.facts.setMinimumWidth(facts_min_width(design_rows(r), self.facts.font()))
        self._fill_databases(r)
        self.diagram.set_hosts(d.hosts, d.deployment, self.describe, version=d.greenplum_version)
        if r.warnings:
            items = "".join(f"<li><b>{html.escape(w.title)}</b>: {html.escape(readable(w.full_text, refs))}</li>"
                            for w in r.warnings[:4])
            more = f"<li>… and {n_warn - 4} more (Warnings tab)</li>" if n_warn > 4 else ""
            self.warn_box.setText(f"<b>{n_warn} warning{'s' if n_warn > 1 else ''}</b><ul style='margin:2px 0 0 -20px'>"
                                  f"{items}{more}</ul>")
            self.warn_box.show()
        else:
            self.warn_box.hide()

    def _fill_databases(self, r: SizingResult) -> None:
        """The PostgreSQL databases' table (`app.views.design.database_rows`), tall enough for its rows up to a
        screenful; hidden for the other kinds."""
        rows = database_rows(r)
        t = self.databases
        t.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for col, text in enumerate(row.cells()):
                t.setItem(i, col, _cell(text, right=col in (2, 3, 4), bold=col == 3 and row.short,
                                        tooltip="below the peak asked" if col == 3 and row.short else ""))
        t.resizeRowsToContents()
        shown = min(len(rows), 12)
        t.setFixedHeight(t.horizontalHeader().height() + sum(t.rowHeight(i) for i in range(shown)) + 2 * t.frameWidth())
        for w in (self.databases_label, t):
            w.setVisible(bool(rows))

    def _fill_estimates(self, r: SizingResult) -> None:
        """The Estimates tab: the table, the binding resource, measured against modelled."""
        self.estimates.setRowCount(len(r.estimates))
        lead = headline_metric(r)
        for row, (name, est) in enumerate(sorted(r.estimates.items(), key=lambda kv: kv[0] != lead)):
            is_main = name == lead
            self.estimates.setItem(row, 0, _cell(metric_label(name), bold=is_main, tooltip=name))
            # shares in percent, like everywhere else: "100" with the unit "% of baseline throughput"
            band = estimate_range(est)
            if band != "no spread":
                band = f"{bare(est.p10, est.unit)} – {bare(est.p90, est.unit)}"
            self.estimates.setItem(row, 1, _cell(bare(est.p50, est.unit), right=True, bold=is_main))
            self.estimates.setItem(row, 2, _cell(band, right=True))
            self.estimates.setItem(row, 3, _cell(unit_text(est.unit)))
            self.estimates.setItem(row, 4, _cell("main metric" if is_main else ""))
        self.binding.setText(f"Binding resource: <b>{html.escape(r.binding_resource)}</b> — the part of the design "
                             "that limits the main estimate; adding more of anything else will not improve it.")
        self._show_calibration(r)

    def _fill_bom(self, r: SizingResult) -> None:
        """The BOM tab: the lines by group with subtotals, the totals and the cost chart."""
        t = r.totals
        table = bom_table(r)
        self.bom.clearSpans()
        self.bom.setRowCount(len(table.rows))
        for row, b in enumerate(table.rows):
            if b.kind == "line":
                origin = b.price_basis + (f" {b.quote}" if b.quote else "") + (
                    f", {converted_from(b.source_price, b.source_currency, b.fx_rate)}"
                    if b.source_currency != b.currency else "")
                # the catalog id only in the tooltip: the table shows the part by name and vendor part number
                tip = f"catalog id {b.part_id} ({b.part_kind}), {origin}, price as of {b.price_as_of}" + (
                    f"; {b.note}" if b.note else "")
                cells = [b.group, b.description or b.part_id, b.part_number, str(b.qty_per_host), str(b.hosts),
                         str(b.qty), priced_amount(b.list_unit_price, b.price_status),
                         f"{b.discount_pct:g}" if b.discount_pct else "", priced_amount(b.unit_price, b.price_status),
                         priced_amount(b.extended, b.price_status, b.recurring), origin]
                for c, text in enumerate(cells):
                    self.bom.setItem(row, c, _cell(text, right=3 <= c <= 9, tooltip=tip if c in (1, 2) else ""))
            else:
                label = f"Subtotal {b.role}" if b.kind == "subtotal" else b.label.capitalize()
                for c in range(11):
                    self.bom.setItem(row, c, _cell(""))
                self.bom.setItem(row, 0, _cell(label, bold=True))
                # the label spans the columns left of the amount: "Subtotal database host" no longer widens
                # the group column, and the part names keep the room
                self.bom.setSpan(row, 0, 1, 9)
                self.bom.setItem(row, 9, _cell(priced_amount(b.extended, b.price_status) if b.price_status != "priced"
                                               else money(b.extended, b.currency), right=True, bold=True))
        self.bom.resizeRowsToContents()
        excludes = ownership(r).quote_clause  # parts on quote are in no figure: the capex says so
        self.totals.setText(
            f"<b>Capex {html.escape(money(t.capex, t.currency))}</b>"
            + (f" ({html.escape(excludes)})" if excludes else "") + " + "
            f"<b>{html.escape(money(t.recurring_per_year, t.currency))}/year</b> &nbsp;·&nbsp; "
            f"{t.tco_years}-year TCO {html.escape(money(t.tco, t.currency))} &nbsp;·&nbsp; "
            f"{html.escape(power(t.power_w))} &nbsp;·&nbsp; {t.racks} rack(s), {t.rack_u} U &nbsp;·&nbsp; "
            f"{number(t.kwh_per_year)} kWh/year"
        )
        bom = bom_as_shown(r)

        def cost_figure() -> Figure:
            from app.charts import cost_breakdown, cost_items

            return cost_breakdown(cost_items(bom), t.currency, title="BOM (first year) by role and part",
                                  size_in=self.cost_chart.shown_size_in())

        self.cost_chart.set_builder(cost_figure)

    def _fill_ownership(self, r: SizingResult) -> None:
        """The TCO year by year, the exchange rates and the racks."""
        t = r.totals
        self.tco.setRowCount(len(r.tco))
        # whole units (thousands from a million on), so the nine columns fit the panel at 1280x720; the cents
        # are in each cell's tooltip and in the report
        scale = 1000.0 if any(abs(y.cumulative) >= 1e6 for y in r.tco) else 1.0
        for row, y in enumerate(r.tco):
            amounts = (y.hardware, y.licences, y.support, y.energy, y.space, y.operations, y.total, y.cumulative)
            for c, v in enumerate((f"Year {y.year}", str(y.hosts), *(money_figure(x / scale, cents=False)
                                                                      for x in amounts))):
                exact = money(amounts[c - 2], t.currency) if c >= 2 else ""
                self.tco.setItem(row, c, _cell(v, right=c > 0, bold=c == 8, tooltip=exact))
        t_ = self.tco  # tall enough for every year (up to ten) without a scroll bar
        rows_px = sum(t_.rowHeight(i) for i in range(min(t_.rowCount(), 10)))
        t_.setMinimumHeight(t_.horizontalHeader().height() + rows_px + 2 * t_.frameWidth() + 2)
        rates = "; ".join(f"1 {x['from']} = {x['rate']:.6g} {x['to']} (as of {x['as_of']})" for x in r.exchange_rates)
        self.tco_note.setText(
            f"Cost of ownership over {t.tco_years} years in {'thousands of ' if scale > 1 else ''}"
            f"{html.escape(t.currency)}: purchases, licences, support, "
            f"energy (with the scenario PUE), rack space and the hosts' operations, year by year."
            + (f" Converted at {html.escape(rates)}." if rates else " No currency conversion was needed."))
        self.rack_view.set_racks(racks_as_shown(r))

    def _fill_reasons(self, r: SizingResult, refs: ReferenceList) -> None:
        """The rationale, the warnings and the references they number."""
        n_warn = len(r.warnings)
        self.rationale.setRowCount(len(r.rationale))
        for row, why in enumerate(r.rationale):
            text = readable(why.text, refs)
            cited = refs.mark(why.source)
            self.rationale.setItem(row, 0, _cell(role_label(why.decision, r.design.greenplum_version), bold=True))
            self.rationale.setItem(row, 1, _cell(text, tooltip=text))
            self.rationale.setItem(row, 2, _cell(cited, tooltip=cited))
        self.rationale.setColumnWidth(2, max(220, self.rationale.viewport().width() // 4))
        self.rationale.resizeRowsToContents()
        self.warnings.setRowCount(len(r.warnings))
        for row, w in enumerate(r.warnings):
            text = readable(w.full_text, refs)
            title = role_label(w.title, r.design.greenplum_version) + (f" ({field_label(w.field)})" if w.field else "")
            critical = w.severity == "critical"
            self.warnings.setItem(row, 0, _cell(title, bold=critical, tooltip=f"{w.code} ({w.severity})"))
            self.warnings.setItem(row, 1, _cell(text, tooltip=text))
        self.warnings.resizeRowsToContents()
        self.references.setText(
            "<b>References</b> ([n] in the Source column is entry n; the section, table or figure follows it)"
            + "".join(f"<br>[{n}] {html.escape(ref.entry())}" for n, ref in refs.entries()))
        self.tabs.setTabText(self.tabs.indexOf(self.warnings), f"Warnings ({n_warn})" if n_warn else "Warnings")


__all__ = ["ResultsView", "Status"]

"""The window renders the same rows as the CLI and the PDF (tests/app/views/test_rendered_once.py): the Design
tab's facts are `design_rows`, the compare table's cells `compare_rows`, with nothing formatted on the side."""

from __future__ import annotations

import html
import re

import pytest

from app.gui.compare_view import KindPanel
from app.gui.results_view import ResultsView, Status
from app.views.compare import compare_rows
from app.views.design import DATABASE_COLUMNS, database_rows, design_rows
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample


@pytest.mark.parametrize("name", ["retail-dw-gen5", "pg-consolidation", "sap-iq"])
def test_the_design_tab_shows_the_design_rows_and_only_those(qtbot, seed: HardwareCatalog,  # type: ignore[no-untyped-def]
                                                             name: str) -> None:
    s = sample(name)
    r = size(s, seed)
    view = ResultsView()
    qtbot.addWidget(view)
    view.show_result(r, s, Status())
    cells = [html.unescape(c) for c in re.findall(r"<td[^>]*>(?:<b>)?(.*?)(?:</b>)?</td>", view.facts.text())]
    rows = design_rows(r)
    shown = dict(zip(cells[::2], cells[1::2], strict=True))
    assert shown == {f.label: f.text for f in rows}


def test_the_compare_table_shows_the_rows_cells(qtbot, seed: HardwareCatalog) -> None:  # type: ignore[no-untyped-def]
    results = [size(sample(n), seed) for n in ("retail-dw-gen5", "retail-dw-dual-socket-sas")]
    rows = compare_rows(results)
    panel = KindPanel("greenplum-analytics")
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show_rows([r.scenario_name for r in results], rows)
    t = panel.table
    assert [t.verticalHeaderItem(i).text() for i in range(t.rowCount())] == [r.heading for r in rows]
    for i, row in enumerate(rows):
        for col in range(2):
            rng = row.range_text(col)
            expected = [row.text(col), *([f"({rng})"] if rng else []), *([row.delta_text(col)] if col else [])]
            assert t.item(i, col).text().split("\n") == [x for x in expected if x], row.key


@pytest.mark.parametrize("name", ["pg-consolidation", "retail-dw-gen5"])
def test_the_design_tab_lists_each_databases_tps_from_the_view_rows(qtbot, seed: HardwareCatalog,  # type: ignore[no-untyped-def]
                                                                     name: str) -> None:
    s = sample(name)
    r = size(s, seed)
    view = ResultsView()
    qtbot.addWidget(view)
    view.show()
    view.show_result(r, s, Status())
    rows = database_rows(r)
    t = view.databases
    shown = [tuple(t.item(i, c).text() for c in range(t.columnCount())) for i in range(t.rowCount())]
    assert shown == [row.cells() for row in rows]
    assert [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())] == list(DATABASE_COLUMNS)
    assert t.isVisibleTo(view) == bool(rows) == (name == "pg-consolidation")


def test_the_window_shows_runaway_streams_and_an_unpriced_san_as_the_rows_say(  # type: ignore[no-untyped-def]
        qtbot, seed: HardwareCatalog) -> None:
    """SAP IQ on bare metal, 700 streams on 9 TB and no SAN price: the Design tab shows the streams_bound rows, the
    BOM tab's SAN subtotal reads "on quote" (not 0.00) and its capex says what it leaves out."""
    from app.views.ownership import ownership

    s = sample("sap-iq", workload={"data_tb": 9, "query_streams": 700},
               platform={"deployment": "bare-metal", "server_id": None, "drive_id": None, "nic_id": None})
    r = size(s, seed)
    view = ResultsView()
    qtbot.addWidget(view)
    view.show_result(r, s, Status())
    facts = html.unescape(view.facts.text())
    assert "Best achievable at the cap" in facts and "Nodes the streams' share needs" in facts
    subtotal = [i for i in range(view.bom.rowCount()) if view.bom.item(i, 0).text() == "Subtotal shared storage"]
    assert len(subtotal) == 1 and view.bom.item(subtotal[0], 9).text() == "on quote"
    assert ownership(r).quote_clause in html.unescape(view.totals.text())

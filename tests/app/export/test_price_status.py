"""A BOM line's price reads as what it is (issue 29, item 4): "incl." for a server's CPUs and base DIMMs (priced in
the server line), "on quote" for a part the catalog has no public price for, never "0.00" that procurement would
read as free; the CSV and XLSX keep the unit price a number (their formulas add up) and say the status beside it;
the capex says it leaves out the parts priced on quote."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest
from docx import Document
from openpyxl import load_workbook

from app.cli.commands.size import render_text
from app.export import bom_table, write_bom_csv, write_bom_xlsx
from app.export.bom import COLUMNS
from app.export.deliverable_rows import bom_summary
from app.export.docx_report import render_docx
from app.export.pdf_money import _amount as pdf_amount
from app.export.report import render_report
from app.views.ownership import ownership
from app.views.summary import kpi_rows
from models.hardware import HardwareCatalog, Licence, Support
from models.scenario import Scenario, parse_scenario
from models.sizing import bom
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.app.export.conftest import SAMPLES, flat, pdf_text

R670 = "dell-r670-10x-u3-2x-xeon-6740e"
SAS = "kioxia-pm7-r-7680gb-sas-sff"
NVME = "kioxia-cm7-r-7680gb-u3"


def _r670(drive: str, raid: str, **commercial: object) -> Scenario:
    """The dual-socket SAS sample on three R670s: small enough to render in a second."""
    data = json.loads((SAMPLES / "retail-dw-dual-socket-sas.json").read_text())
    data["targets"] = {}
    data["platform"].update({"server_id": R670, "drive_id": drive, "drives_per_host": 10, "raid": raid,
                             "nic_id": "nvidia-connectx-6-lx-2x25gbe"})
    data["commercial"] = {"currency": "USD", **commercial}
    return parse_scenario(data, "test")


@pytest.fixture(scope="module")
def sas(catalog: HardwareCatalog) -> tuple[Scenario, SizingResult]:
    s = _r670(SAS, "none")
    return s, size(s, catalog)


def _status(r: SizingResult, kind: str) -> set[str]:
    return {ln.price_status for ln in r.bom if ln.kind == kind}


def test_each_line_says_how_it_is_priced(sas: tuple[Scenario, SizingResult], catalog: HardwareCatalog) -> None:
    _, r = sas
    assert _status(r, "cpu") == _status(r, "base-dimm") == {"included"}
    assert _status(r, "controller") == _status(r, "rails") == _status(r, "power-cord") == {"on_quote"}
    assert _status(r, "server") == _status(r, "drive") == _status(r, "nic") == {"priced"}
    # on quote is exactly the hardware whose catalog part has no price; free software stays priced
    for ln in r.bom:
        no_price = catalog.get(ln.part_id).price == 0 and ln.category not in ("software", "support")
        assert (ln.price_status == "on_quote") == (no_price and ln.kind not in ("cpu", "base-dimm")), ln.part_id
    (w,) = [w for w in r.warnings if w.code == "price-missing"]
    assert f"{bom.parts_on_quote(r.bom)} BOM part(s)" in w.text and ownership(r).parts_on_quote >= 5


def test_a_quoted_price_takes_a_part_off_quote(catalog: HardwareCatalog) -> None:
    """Rails priced by the vendor's quote are a priced line: the count beside the capex drops by one."""
    rails = {a.id for a in catalog.accessories if a.use == "rails" and a.vendor == "Dell"}
    quoted = HardwareCatalog.of([dataclasses.replace(p, price=38.5, price_basis="quote") if p.id in rails else p
                                 for p in catalog.parts], catalog.rates)
    s = _r670(SAS, "none")
    before, after = size(s, catalog), size(s, quoted)
    assert _status(after, "rails") == {"priced"}
    assert bom.parts_on_quote(after.bom) == bom.parts_on_quote(before.bom) - 1
    assert after.totals.capex == before.totals.capex + 38.5 * sum(ln.qty for ln in after.bom if ln.kind == "rails")


def test_the_cli_and_pdf_print_incl_and_on_quote_never_zero(sas: tuple[Scenario, SizingResult],
                                                            tmp_path: Path) -> None:
    s, r = sas
    rows = {ln.split()[0]: ln for ln in render_text(r).splitlines() if ln.split() and ln.split()[0] in (
        "cpu", "base-dimm", "controller", "rails")}
    assert rows["cpu"].count("incl.") == 3 and rows["base-dimm"].count("incl.") == 3
    assert rows["controller"].count("on quote") == 3 and rows["rails"].count("on quote") == 3
    assert not any("0.00" in row for row in rows.values())
    n = ownership(r).parts_on_quote
    assert f"(excludes {n} parts priced on quote)" in render_text(r)
    out = tmp_path / "r.pdf"
    render_report([r], [s], out)
    text = flat(pdf_text(out))
    assert "Intel Xeon 6740E" in text and "incl. incl. incl." in text and "on quote on quote on quote" in text
    assert f"one-time, excludes {n} parts priced on quote" in text  # the cover's capex tile
    assert f"(excludes {n} parts priced on quote) and draws" in text  # the executive summary's sentence


def test_spreadsheets_keep_a_number_and_name_the_status(sas: tuple[Scenario, SizingResult], tmp_path: Path) -> None:
    s, r = sas
    table = bom_table(r, s.customer)
    write_bom_csv([table], tmp_path / "b.csv")
    write_bom_xlsx([table], tmp_path / "b.xlsx")
    lines = [x for x in csv.DictReader(io.StringIO((tmp_path / "b.csv").read_text("utf-8-sig"))) if x["Row"] == "line"]
    by_kind = {x["Kind"]: x for x in lines}
    assert by_kind["cpu"]["Price status"] == "included" and by_kind["controller"]["Price status"] == "on quote"
    assert by_kind["server"]["Price status"] == "priced" and float(by_kind["controller"]["Unit price"]) == 0.0
    ws = load_workbook(tmp_path / "b.xlsx").worksheets[0]
    head = next(i for i, row in enumerate(ws.iter_rows(values_only=True), start=1) if row[0] == "Row")
    status, unit, ext = (COLUMNS.index(c) + 1 for c in ("Price status", "Unit price", "Extended price"))
    quoted = [i for i in range(head + 1, ws.max_row + 1) if ws.cell(i, status).value == "on quote"]
    assert quoted and all(ws.cell(i, unit).value == 0 for i in quoted)
    assert all(str(ws.cell(i, ext).value).startswith("=ROUND(") for i in quoted)  # a quoted price carries through


def test_the_docx_groups_count_the_lines_on_quote(catalog: HardwareCatalog, tmp_path: Path) -> None:
    """NVMe drives attach without a controller; installation has no public price: its group reads "on quote"."""
    s = _r670(NVME, "raid5", installation_services=True)
    r = size(s, catalog)
    assert not [ln for ln in r.bom if ln.kind == "controller"] and _status(r, "rails") == {"on_quote"}
    rows = {g.label: g for g in bom_summary(bom_table(r, s.customer))}
    assert rows["Installation services"].amount == "on quote"
    assert rows["Segment host"].lines.endswith("on quote)") and rows["Segment host"].amount[0].isdigit()
    (capex,) = [k for k in kpi_rows(r) if k.key == "capex"]
    assert capex.note == f"excludes {ownership(r).parts_on_quote} parts priced on quote"
    render_docx([r], [s], tmp_path / "r.docx")
    cells = [c.text for t in Document(str(tmp_path / "r.docx")).tables for row in t.rows for c in row.cells]
    assert "on quote" in cells and capex.note in cells


def test_a_design_with_every_price_says_nothing_of_quotes(catalog: HardwareCatalog) -> None:
    s = _r670(NVME, "raid5")
    every = HardwareCatalog.of([p if p.price or isinstance(p, Licence | Support) else dataclasses.replace(p, price=10.0)
                                for p in catalog.parts], catalog.rates)
    r = size(s, every)
    assert ownership(r).quote_clause == "" and "on quote" not in render_text(r)


def test_an_unpriced_san_group_subtotals_on_quote(catalog: HardwareCatalog) -> None:
    """SAP IQ on bare metal with no SAN price: the array's group holds only a line on quote, so its subtotal reads
    "on quote" in the table every renderer takes and as the PDF writes it (never "Subtotal shared storage 0.00");
    the capex beside it says it leaves the array out. Priced, the subtotal is its amount again."""
    data = json.loads((SAMPLES / "sap-iq.json").read_text())
    data["workload"].update({"data_tb": 11, "query_streams": 3})
    data["platform"] = {"deployment": "bare-metal", "raid": "none"}
    s = parse_scenario(data, "test")
    r = size(s, catalog)
    sub = next(row for row in bom_table(r).subtotals if row.group == "shared storage")
    assert sub.price_status == "on_quote" and pdf_amount(sub.extended, status=sub.price_status)[0] == "on quote"
    assert ownership(r).quote_clause in render_text(r)
    data["workload"]["san_price_per_tb"] = 450
    priced = size(parse_scenario(data, "test"), catalog)
    assert next(row for row in bom_table(priced).subtotals if row.group == "shared storage").price_status == "priced"
    assert ownership(priced).parts_on_quote == ownership(r).parts_on_quote - 1  # the array, now priced

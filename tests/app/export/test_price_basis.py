"""Each BOM line says where its price comes from (issue 29, item 4): a price the vendor's quote set reads as quoted
with the quote it came from (file and date), a list price as list, an estimate as an estimate, in the CSV, the XLSX
and the PDF alike; the CPUs and base DIMMs priced in a quoted server are quoted with it."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from datetime import date
from pathlib import Path

import pytest
from openpyxl import load_workbook

from app.export import bom_table, write_bom_xlsx
from app.export.bom import bom_csv_text
from app.export.report import render_report
from catalog.quotes import QuoteLine, quoted
from models.hardware import HardwareCatalog
from models.release_words import role_label
from models.scenario import Scenario, parse_scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.app.export.conftest import SAMPLES, flat, pdf_text

R770 = "dell-r770-24x-u3-2x-xeon-6787p"
DRIVE = "samsung-pm1653-3840gb-sas-sff"
NIC = "nvidia-connectx-6-lx-2x25gbe"
QUOTE = "Reseller-Q-20931.xlsx"
WHEN = date(2026, 10, 14)


@pytest.fixture(scope="module")
def quoted_design(catalog: HardwareCatalog) -> tuple[Scenario, SizingResult]:
    """Two R770 segment hosts whose server and drives a reseller's quote priced, the NIC at a list price, the rest
    at the seed's estimates."""
    def requote(p: object) -> object:
        if getattr(p, "id", "") in (R770, DRIVE):
            line = QuoteLine(2, p.id, "", 1, round(p.price * 0.83, 2), p.currency)  # type: ignore[attr-defined]
            return quoted(p, line, QUOTE, WHEN)  # type: ignore[arg-type]
        return dataclasses.replace(p, price_basis="list") if getattr(p, "id", "") == NIC else p  # type: ignore

    cat = HardwareCatalog.of([requote(p) for p in catalog.parts], catalog.rates)  # type: ignore[misc]
    data = json.loads((SAMPLES / "retail-dw-dual-socket-sas.json").read_text())
    data["targets"] = {}
    data["workload"]["data_tb"] = 20
    data["platform"].update({"server_id": R770, "drive_id": DRIVE, "drives_per_host": 12, "raid": "none",
                             "nic_id": NIC})
    data["commercial"] = {"currency": "USD"}
    s = parse_scenario(data, "quoted")
    return s, size(s, cat)


def test_quoted_lines_name_their_quote_and_the_servers_cpus_share_it(
        quoted_design: tuple[Scenario, SizingResult]) -> None:
    _, r = quoted_design
    seen = {ln.kind: ln for ln in r.bom if ln.role == "segment host"}
    for kind in ("server", "cpu", "base-dimm", "drive"):
        assert (seen[kind].price_basis, seen[kind].quote) == ("quote", f"{QUOTE} {WHEN.isoformat()}"), kind
        assert seen[kind].price_as_of == WHEN.isoformat()
    assert (seen["nic"].price_basis, seen["nic"].quote) == ("list", "")
    estimated = [ln for ln in r.bom if ln.price_basis == "estimate"]
    assert estimated and all(ln.quote == "" for ln in estimated)


def test_csv_and_xlsx_carry_the_basis_and_the_quote(quoted_design: tuple[Scenario, SizingResult],
                                                    tmp_path: Path) -> None:
    _, r = quoted_design
    table = bom_table(r)
    rows = [row for row in csv.DictReader(io.StringIO(bom_csv_text([table]))) if row["Row"] == "line"]
    path = tmp_path / "bom.xlsx"
    write_bom_xlsx([table], path)
    sheet = list(load_workbook(path).worksheets[0].iter_rows(values_only=True))
    head = next(i for i, row in enumerate(sheet) if row[0] == "Row")
    xlsx = [dict(zip(sheet[head], row, strict=True)) for row in sheet[head + 1:] if row[0] == "line"]
    assert len(rows) == len(xlsx) == len(r.bom)
    # the BOM shows each role in the release's word (Greenplum 6: master host), keyed here the same way
    by_part = {(role_label(ln.role, r.design.greenplum_version), ln.part_id, ln.kind): ln for ln in r.bom}
    for c, x in zip(rows, xlsx, strict=True):
        ln = by_part[(c["Role"], c["Catalog id"], c["Kind"])]
        assert c["Price basis"] == x["Price basis"] == ln.price_basis
        assert c["Quote"] == (x["Quote"] or "") == ln.quote
    assert {c["Price basis"] for c in rows} == {"quote", "list", "estimate"}
    assert {c["Quote"] for c in rows if c["Kind"] in ("server", "drive", "cpu")} == {f"{QUOTE} 2026-10-14"}


def test_the_pdf_marks_q_with_the_quote_l_and_e(quoted_design: tuple[Scenario, SizingResult],
                                               tmp_path: Path) -> None:
    s, r = quoted_design
    path = tmp_path / "r.pdf"
    render_report([r], [s], path)
    text = flat(pdf_text(path))
    assert f"server · Q {QUOTE} 2026-10-14" in text
    assert f"cpu · Q {QUOTE} 2026-10-14" in text
    assert "nic · L · " in text and "rails · E · " in text
    assert "Q quoted, with the quote and its date" in text

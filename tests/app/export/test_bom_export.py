"""The BOM as CSV and XLSX: same lines and totals as the PDF, numbers as numbers, safe text."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook

from app.export import bom_table, write_bom_csv, write_bom_xlsx
from app.export.bom import COLUMNS, BomTable, extended, group_of, sheet_title
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.bom import total_cents
from models.sizing.engine import size
from models.sizing.result import BomLine, SizingResult
from tests.app.export.conftest import sample_json, scenario_from

Sized = Callable[[str], tuple[Scenario, SizingResult]]


def csv_blocks(path: Path) -> list[tuple[dict[str, str], list[dict[str, str]]]]:
    """Per scenario: the header block and the rows under the column row."""
    text = path.read_text(encoding="utf-8-sig")
    blocks: list[tuple[dict[str, str], list[dict[str, str]]]] = []
    header: dict[str, str] = {}
    rows: list[dict[str, str]] | None = None
    for rec in csv.reader(io.StringIO(text)):
        if not rec:
            if rows:
                blocks.append((header, rows))
                header, rows = {}, None
            continue
        if tuple(rec) == COLUMNS:
            rows = []
        elif rows is None:
            header[rec[0]] = rec[1]
        else:
            rows.append(dict(zip(COLUMNS, rec, strict=True)))
    if rows:
        blocks.append((header, rows))
    return blocks


def xlsx_blocks(path: Path) -> list[tuple[dict[str, object], list[dict[str, object]]]]:
    wb = load_workbook(path)
    out = []
    for ws in wb.worksheets:
        values = [list(r) for r in ws.iter_rows(values_only=True)]
        head = values.index(list(COLUMNS))
        header = {r[0]: r[1] for r in values[:head] if r[0]}
        rows = [dict(zip(COLUMNS, r, strict=True)) for r in values[head + 1:] if any(c is not None for c in r)]
        out.append((header, rows))
    return out


@pytest.fixture
def tables(sized: Sized) -> list[BomTable]:
    return [bom_table(r, s.customer) for s, r in (sized("retail-dw-gen5.json"), sized("pg-consolidation.json"))]


def test_table_groups_with_subtotals_and_the_totals_of_size(sized: Sized) -> None:
    s, r = sized("retail-dw-gen5.json")
    t = bom_table(r, s.customer)
    assert t.grand_total == Decimal(str(r.totals.bom_total)) == total_cents(list(r.bom))
    assert t.one_time_total == Decimal(str(r.totals.capex))
    assert t.per_year_total == Decimal(str(r.totals.recurring_per_year))
    assert sorted(x.part_id for x in t.lines) == sorted(ln.part_id for ln in r.bom)
    lines = list(r.bom)
    for sub in t.subtotals:
        assert sub.extended == total_cents([ln for ln in lines if group_of(ln) == sub.role])
    assert {"Network", "Racks and power", "Software licences", "Support"} <= {sub.role for sub in t.subtotals}
    assert t.price_date == r.bom[0].price_as_of
    assert t.rows[-1].kind == "total"


def test_half_cent_lines_round_like_the_engine() -> None:
    lines = [BomLine("r", f"p{i}", "d", 1, 1, price, "USD", "drive") for i, price in enumerate((0.125, 2.675, 1.005))]
    assert sum(extended(ln) for ln in lines) == total_cents(lines)


def test_csv_and_xlsx_carry_the_same_lines_and_totals(tmp_path: Path, tables: list[BomTable]) -> None:
    write_bom_csv(tables, tmp_path / "bom.csv")
    write_bom_xlsx(tables, tmp_path / "bom.xlsx")
    from_csv = csv_blocks(tmp_path / "bom.csv")
    from_xlsx = xlsx_blocks(tmp_path / "bom.xlsx")
    assert len(from_csv) == len(from_xlsx) == len(tables)
    for t, (ch, crows), (xh, xrows) in zip(tables, from_csv, from_xlsx, strict=True):
        assert ch == {k: v for k, v in t.header()} == {k: str(v) for k, v in xh.items()}
        assert len(crows) == len(xrows) == len(t.rows)
        for c, x, row in zip(crows, xrows, t.rows, strict=True):
            assert c["Catalog id"] == (x["Catalog id"] or "") == row.part_id
            assert c["Part number"] == (x["Part number"] or "") == row.part_number
            assert c["Row"] == x["Row"]
            assert Decimal(c["Extended price"]) == Decimal(str(x["Extended price"])).quantize(Decimal("0.01"))
            assert Decimal(c["Extended price"]) == row.extended
            if row.kind == "line":
                assert int(c["Qty"]) == x["Qty"] == row.qty
                assert Decimal(c["Unit price"]) == Decimal(str(x["Unit price"])).quantize(Decimal("0.01"))
        assert crows[-1]["Row"] == "BOM total (first year)"
        assert Decimal(crows[-1]["Extended price"]) == t.grand_total


def test_xlsx_numbers_are_numbers_with_a_currency_format(tmp_path: Path, tables: list[BomTable]) -> None:
    write_bom_xlsx(tables, tmp_path / "bom.xlsx")
    ws = load_workbook(tmp_path / "bom.xlsx").worksheets[0]
    col = {c.value: c.column for c in ws[6]}
    cell = ws.cell(7, col["Extended price"])
    assert isinstance(cell.value, int | float)
    assert "USD" in cell.number_format and "#,##0.00" in cell.number_format
    assert isinstance(ws.cell(7, col["Qty"]).value, int)


def test_text_that_looks_like_a_formula_stays_text(tmp_path: Path, catalog: HardwareCatalog) -> None:
    data = sample_json("sap-iq.json")
    data.update(name="=HYPERLINK(\"http://x\")", customer="+Łódź 東京")
    s = scenario_from(data)
    t = bom_table(size(s, catalog), s.customer)
    write_bom_csv([t], tmp_path / "b.csv")
    write_bom_xlsx([t], tmp_path / "b.xlsx")
    header, _ = csv_blocks(tmp_path / "b.csv")[0]
    assert header["Scenario"] == "'=HYPERLINK(\"http://x\")" and header["Customer"] == "'+Łódź 東京"
    ws = load_workbook(tmp_path / "b.xlsx").worksheets[0]
    assert ws["B1"].value == "=HYPERLINK(\"http://x\")" and ws["B1"].data_type == "s"
    assert ws["B2"].value == "+Łódź 東京"


def test_sheet_titles_are_valid_and_unique() -> None:
    taken: set[str] = set()
    a = sheet_title("Retail DW: Gen5 [single] socket / with a very long name", taken)
    b = sheet_title("Retail DW: Gen5 [single] socket / with a very long name", taken)
    assert len(a) <= 31 and len(b) <= 31 and a != b
    assert not set("[]:*?/\\") & set(a + b)


def test_a_failed_write_leaves_nothing(tmp_path: Path, tables: list[BomTable]) -> None:
    from app.export import ExportError

    with pytest.raises(ExportError):
        write_bom_csv(tables, tmp_path / "missing-folder" / "bom.csv")
    (tmp_path / "dir.xlsx").mkdir()
    with pytest.raises(ExportError):
        write_bom_xlsx(tables, tmp_path / "dir.xlsx")
    assert [p.name for p in tmp_path.iterdir()] == ["dir.xlsx"]


@pytest.mark.parametrize("name", ["retail-dw-gen5.json", "pg-consolidation.json", "gp-oltp.json"])
def test_lines_carry_the_vendor_part_number_of_their_catalog_part(
        name: str, sized: Sized, catalog: HardwareCatalog, tmp_path: Path) -> None:
    """Procurement orders by the vendor's part number: every catalog line carries exactly its part's number
    (none invented where the catalog has none), in the CSV and the XLSX next to the description."""
    s, r = sized(name)
    t = bom_table(r, s.customer)
    for row in t.lines:
        expected = catalog.get(row.part_id).part_number if row.part_id in catalog else ""
        assert row.part_number == expected, row.part_id
    assert any(row.part_number for row in t.lines)
    write_bom_csv([t], tmp_path / "bom.csv")
    write_bom_xlsx([t], tmp_path / "bom.xlsx")
    (_, crows), = csv_blocks(tmp_path / "bom.csv")
    (_, xrows), = xlsx_blocks(tmp_path / "bom.xlsx")
    assert COLUMNS.index("Part number") == COLUMNS.index("Description") + 1
    for c, x, row in zip(crows, xrows, t.rows, strict=True):
        assert c["Part number"] == (x["Part number"] or "") == row.part_number
        assert c["Description"] == (x["Description"] or "") == row.description

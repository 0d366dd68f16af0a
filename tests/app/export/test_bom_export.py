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
from app.export.bom import COLUMNS, CSV_COLUMNS, BomTable, extended, group_of, sheet_title
from models.hardware import HardwareCatalog
from models.release_words import role_label
from models.scenario import Scenario
from models.sizing.bom import total_cents
from models.sizing.engine import size
from models.sizing.result import BomLine, SizingResult
from tests.app.export.conftest import sample_json, scenario_from

Sized = Callable[[str], tuple[Scenario, SizingResult]]


def csv_blocks(path: Path) -> list[tuple[dict[str, str], list[dict[str, str]]]]:
    """Per scenario (in file order): its scenario and customer, and its rows under COLUMNS. The file is one flat
    table: a single header row, every row led by its scenario and customer."""
    text = path.read_text(encoding="utf-8-sig")
    records = list(csv.reader(io.StringIO(text)))
    assert tuple(records[0]) == CSV_COLUMNS
    assert all(len(rec) == len(CSV_COLUMNS) for rec in records[1:]), "a flat table: no blank or metadata rows"
    blocks: list[tuple[dict[str, str], list[dict[str, str]]]] = []
    for rec in records[1:]:
        head = {"Scenario": rec[0], "Customer": rec[1]}
        if not blocks or blocks[-1][0] != head or blocks[-1][1][-1]["Row"] == "BOM total (first year)":
            blocks.append((head, []))
        blocks[-1][1].append(dict(zip(COLUMNS, rec[2:], strict=True)))
    return blocks


def xlsx_blocks(path: Path) -> list[tuple[dict[str, object], list[dict[str, object]]]]:
    """Per sheet: the header block and the rows, every formula computed as a spreadsheet would (pycel)."""
    from pycel import ExcelCompiler

    wb = load_workbook(path)
    calc = ExcelCompiler(filename=str(path))
    out = []
    for ws in wb.worksheets:
        values = [list(r) for r in ws.iter_rows(values_only=True)]
        head = values.index(list(COLUMNS))
        header = {r[0]: r[1] for r in values[:head] if r[0]}
        rows = []
        for i, r in enumerate(values[head + 1:], start=head + 2):
            if any(c is not None for c in r):
                cells = [calc.evaluate(f"'{ws.title}'!{ws.cell(i, j).coordinate}")
                         if isinstance(c, str) and c.startswith("=") and ws.cell(i, j).data_type == "f" else c
                         for j, c in enumerate(r, start=1)]
                rows.append(dict(zip(COLUMNS, cells, strict=True)))
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
        # the group as the release names it: Greenplum 6's master host for the coordinator host
        assert sub.extended == total_cents([ln for ln in lines
                                            if role_label(group_of(ln), r.design.greenplum_version) == sub.role])
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
        assert ch == {"Scenario": t.scenario, "Customer": t.customer}
        assert {k: v for k, v in t.header()} == {k: str(v) for k, v in xh.items()}
        assert len(crows) == len(xrows) == len(t.rows)
        for c, x, row in zip(crows, xrows, t.rows, strict=True):
            assert c["Catalog id"] == (x["Catalog id"] or "") == row.part_id
            assert c["Part number"] == (x["Part number"] or "") == row.part_number
            assert c["Row"] == x["Row"]
            assert Decimal(c["Extended price"]) == row.extended
            # the sheet recomputes each figure from its formulas; a half cent may round the other way in floats
            assert abs(Decimal(str(x["Extended price"])) - row.extended) <= Decimal("0.005") * len(t.lines)
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
    assert cell.data_type == "f" and cell.value.startswith("=ROUND(")  # a live formula, currency-formatted
    assert "USD" in cell.number_format and "#,##0.00" in cell.number_format
    assert isinstance(ws.cell(7, col["Unit price"]).value, int | float)
    assert isinstance(ws.cell(7, col["Qty per host"]).value, int) and ws.cell(7, col["Qty"]).value == "=F7*G7"


def test_text_that_looks_like_a_formula_stays_text(tmp_path: Path, catalog: HardwareCatalog) -> None:
    data = sample_json("sap-iq.json")
    data.update(name="=HYPERLINK(\"http://x\")", customer="+Łódź 東京")
    s = scenario_from(data)
    t = bom_table(size(s, catalog), s.customer)
    write_bom_csv([t], tmp_path / "b.csv")
    write_bom_xlsx([t], tmp_path / "b.xlsx")
    header, _ = csv_blocks(tmp_path / "b.csv")[0]  # the scenario and customer columns of every row
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


def test_xlsx_totals_follow_an_edited_quantity(tmp_path: Path, sized: Sized) -> None:
    """Procurement edits a quantity in the sheet: the line, its subtotal, the one-time total and the BOM total
    move by quantity x unit price; the per-year total does not (it is a one-time line)."""
    from pycel import ExcelCompiler

    s, r = sized("retail-dw-dual-socket-sas.json")
    t = bom_table(r, s.customer)
    write_bom_xlsx([t], tmp_path / "bom.xlsx")
    wb = load_workbook(tmp_path / "bom.xlsx")
    ws = wb.worksheets[0]
    col = {c.value: c.column_letter for c in ws[6]}
    rows = {ws[f"{col['Row']}{i}"].value: i for i in range(7, ws.max_row + 1)}
    assert {"subtotal", "one-time total", "per-year total", "BOM total (first year)"} <= set(rows)
    line = next(i for i in range(7, ws.max_row + 1)
                if ws[f"{col['Row']}{i}"].value == "line" and ws[f"{col['Per year']}{i}"].value == "no")
    assert ws[f"{col['Qty']}{line}"].value == f"={col['Qty per host']}{line}*{col['Hosts']}{line}"
    for name in ("Extended price",):
        assert str(ws[f"{col[name]}{line}"].value).startswith("=ROUND(")
    assert str(ws[f"{col['Extended price']}{rows['BOM total (first year)']}"].value).startswith("=")
    unit = Decimal(str(ws[f"{col['Unit price']}{line}"].value))
    before = ExcelCompiler(filename=str(tmp_path / "bom.xlsx"))
    sheet = ws.title

    def value(calc: ExcelCompiler, row: int) -> Decimal:
        return Decimal(str(calc.evaluate(f"'{sheet}'!{col['Extended price']}{row}"))).quantize(Decimal("0.01"))

    totals = {k: value(before, rows[k]) for k in ("one-time total", "per-year total", "BOM total (first year)")}
    assert totals["one-time total"] == t.one_time_total and totals["BOM total (first year)"] == t.grand_total
    ws[f"{col['Qty per host']}{line}"] = ws[f"{col['Qty per host']}{line}"].value + 3  # 3 more per host
    wb.save(tmp_path / "edited.xlsx")
    after = ExcelCompiler(filename=str(tmp_path / "edited.xlsx"))
    delta = (3 * ws[f"{col['Hosts']}{line}"].value * unit).quantize(Decimal("0.01"))
    assert value(after, rows["one-time total"]) == totals["one-time total"] + delta
    assert value(after, rows["per-year total"]) == totals["per-year total"]
    assert value(after, rows["BOM total (first year)"]) == totals["BOM total (first year)"] + delta

"""Database inventories (CSV, XLSX, pasted rows) become a consolidation's databases, all or nothing."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.editing.inventory import (
    InventoryError,
    databases_from_rows,
    databases_from_text,
    has_header,
    paste_cells,
    paste_into,
    read_inventory,
)
from app.services.sizing import size
from catalog.seed import seed_catalog
from models.scenario import load_scenario

TABLE = ["name", "size_gb", "peak_clients", "working_set_gb", "peak_tps"]


def _inventory_csv(path: Path, n: int) -> None:
    lines = ["Database,Size (TB),Peak clients,Working set (GiB),Peak TPS,Busy hours"]
    for i in range(n):
        hours = "9-17" if i % 3 == 0 else ("1-4" if i % 3 == 1 else "")
        tps = "" if i % 2 else str(100 + 10 * i)
        lines.append(f"app{i:02d},{0.05 + 0.01 * i:.2f},{10 + i},{2 + i % 7},{tps},\"{hours}\"")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_30_row_inventory_becomes_a_scenario_that_sizes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inventory = tmp_path / "inventory.csv"
    _inventory_csv(inventory, 30)
    out = tmp_path / "pg.json"
    assert main(["new", "postgres-consolidation", "--databases", str(inventory), "-o", str(out),
                 "--customer", "Acme"]) == 0
    scenario = load_scenario(out)
    dbs = scenario.workload.databases  # type: ignore[union-attr]
    assert len(dbs) == 30 and dbs[0].name == "app00" and scenario.customer == "Acme"
    # the figures are the customer's: no template's "replace the workload's figures", where they came from instead
    assert scenario.notes.startswith("Databases from the inventory inventory.csv.") and "replace" not in scenario.notes
    assert dbs[1].size_gb == pytest.approx(60.0)  # 0.06 TB in decimal GB
    assert dbs[3].working_set_gb == pytest.approx(5 * 2**30 / 1e9)  # GiB converted
    assert dbs[0].busy_hours == list(range(9, 18)) and dbs[2].busy_hours is None
    assert dbs[0].peak_tps == 100 and dbs[1].peak_tps is None
    result = size(scenario, seed_catalog(), label=str(out))
    assert result.design.total_hosts >= 2 and len(result.vms) == 30


def test_an_xlsx_inventory_reads_its_first_sheet(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["db_name", "size_gb", "connections", "working_set_mib", "busy_hours"])
    ws.append(["crm", 250, 60, 20480, 14])
    ws.append([None, None, None, None, None])  # a blank row in the middle is skipped
    ws.append([1042, 12.5, 5.0, 512, "8;9"])  # a numeric name, a whole number typed as 5.0
    path = tmp_path / "inv.xlsx"
    wb.save(path)
    assert read_inventory(path) == [
        {"name": "crm", "size_gb": 250.0, "peak_clients": 60, "working_set_gb": pytest.approx(20480 * 2**20 / 1e9),
         "busy_hours": [14]},
        {"name": "1042", "size_gb": 12.5, "peak_clients": 5, "working_set_gb": pytest.approx(512 * 2**20 / 1e9),
         "busy_hours": [8, 9]},
    ]


def _problems(rows: list[list[object]]) -> list[str]:
    with pytest.raises(InventoryError) as info:
        databases_from_rows(rows, "inv.csv")
    return info.value.lines()


def test_a_semicolon_csv_with_decimal_commas_reads_as_excel_wrote_it(tmp_path: Path) -> None:
    # Excel in a German or French locale saves CSV with ';' and decimal commas: it was read as one column
    semi = tmp_path / "inventar.csv"
    semi.write_text("Datenbank;Size (TB);Peak clients;Working set (GiB);Peak TPS\n"
                    "erp;1,5;120;64;2.500\nhr;0,02;10;2,5;\n".replace("Datenbank", "Database"), encoding="utf-8")
    with pytest.raises(InventoryError) as info:  # 2.500: two and a half, or two thousand five hundred?
        read_inventory(semi)
    assert info.value.lines() == ["row 2, 'Peak TPS': '2.500' reads as 2500 or as 2.500: a semicolon-separated file"
                                  " takes a decimal comma; write it without the thousands dot"]
    semi.write_text(semi.read_text(encoding="utf-8").replace("2.500", "2500,0"), encoding="utf-8")
    assert read_inventory(semi) == [
        {"name": "erp", "size_gb": 1500.0, "peak_clients": 120, "working_set_gb": pytest.approx(64 * 2**30 / 1e9),
         "peak_tps": 2500.0},
        {"name": "hr", "size_gb": 20.0, "peak_clients": 10, "working_set_gb": pytest.approx(2.5 * 2**30 / 1e9)}]


def test_every_bad_row_is_named_with_its_column_and_nothing_is_imported() -> None:
    header = ["Name", "Size (GB)", "Peak clients", "Working set (GB)", "Busy hours"]
    assert _problems([header, ["a", 10, 5, 2, ""], ["b", 0, 5, 2, ""], ["c", 10, 2.5, 2, ""], ["a", 10, 5, 2, "25"],
                      ["d", 10, 5, "", "18-9"]]) == [
        "row 3, 'Size (GB)': must be greater than 0 (got 0)",
        "row 4, 'Peak clients': must be a whole number (got 2.5)",
        "row 5, 'Busy hours': hours are 0-23; got 25",
        "row 5, name: 'a' is already the name of row 2",
        "row 6, 'Busy hours': must be hours 0-23, as 9-12 or 9,10,11 (got '18-9')",
        "row 6, 'Working set (GB)': a value is required",
    ]


def test_the_header_must_name_the_columns_and_the_size_units() -> None:
    lines = _problems([["Name", "Size", "Clients", "Workingset (GB)", "Owner"], ["a", 1, 1, 1, "x"]])
    assert lines[0].startswith("column 'Size': say the unit in the header: one of MB, GB, TB, MiB, GiB, TiB")
    assert lines[1].startswith("column 'Workingset (GB)': not a column refarch reads; did you mean 'working set'?")
    assert lines[2].startswith("column 'Owner': not a column refarch reads")
    assert lines[3] == "header: needs the columns working set (sizes with their unit, as 'Size (GB)')"
    assert _problems([["Name", "Size (PB)", "Clients", "Working set (GB)"]])[0].startswith(
        "column 'Size (PB)': say the unit in the header: got 'pb'")


def test_pasted_rows_without_a_header_take_the_tables_columns() -> None:
    text = "orders\t200\t80\t40\t1500\r\nbilling\t1,200.5\t40\t24\t\r\n"  # as a spreadsheet copies them
    assert databases_from_text(text, TABLE) == [
        {"name": "orders", "size_gb": 200.0, "peak_clients": 80, "working_set_gb": 40.0, "peak_tps": 1500.0},
        {"name": "billing", "size_gb": 1200.5, "peak_clients": 40, "working_set_gb": 24.0},
    ]
    with_header = "Name\tSize (TB)\tPeak clients\tWorking set (GB)\nhr\t0.02\t10\t4\n"
    assert databases_from_text(with_header, TABLE) == [
        {"name": "hr", "size_gb": 20.0, "peak_clients": 10, "working_set_gb": 4.0}]
    with pytest.raises(InventoryError) as info:
        databases_from_text("orders\t200\tmany\t40\n", TABLE)
    assert info.value.lines() == ["pasted row 1, 'peak clients': must be a whole number (got 'many')"]


def test_a_paste_replaces_rows_from_the_current_one_down_and_refuses_a_clash() -> None:
    existing = [{"name": n, "size_gb": 1.0, "peak_clients": 1, "working_set_gb": 1.0} for n in ("a", "b", "c")]
    pasted = [{"name": n, "size_gb": 2.0, "peak_clients": 2, "working_set_gb": 2.0} for n in ("x", "y")]
    assert [r["name"] for r in paste_into(existing, pasted, 1)] == ["a", "x", "y"]
    assert [r["name"] for r in paste_into(existing, pasted, 2)] == ["a", "b", "x", "y"]
    assert [r["name"] for r in paste_into(existing, pasted, None)] == ["a", "b", "c", "x", "y"]
    with pytest.raises(InventoryError) as info:
        paste_into(existing, [pasted[0], {**pasted[0], "name": "c"}], 0)  # replaces a and b; c stays, third
    assert info.value.lines() == ["pasted row 2, name: 'c' is already the name of database 3"]
    with pytest.raises(InventoryError) as info:
        paste_into(existing, [{**pasted[0], "name": "a"}], 1)
    assert info.value.lines() == ["pasted row 1, name: 'a' is already the name of database 1"]


def test_cells_pasted_right_of_the_name_replace_the_cells_they_land_on_and_keep_the_rest() -> None:
    # a value copied into Peak clients was read as a whole database named '42' and refused
    existing = [{"name": "erp", "size_gb": 500.0, "peak_clients": 150, "working_set_gb": 90.0, "busy_hours": [9]},
                {"name": "crm", "size_gb": 60.0, "peak_clients": 60, "working_set_gb": 12.0, "peak_tps": 800.0},
                {"name": "hr", "size_gb": 20.0, "peak_clients": 10, "working_set_gb": 4.0}]
    one = paste_cells(existing, "75\n", (1, 2), TABLE)
    assert one[1] == {**existing[1], "peak_clients": 75} and one[0] == existing[0] and one[2] == existing[2]
    block = paste_cells(existing, "1,250\t200\r\n30\t70\r\n", (0, 1), TABLE)  # size and clients of erp and crm
    assert [(r["size_gb"], r["peak_clients"]) for r in block[:2]] == [(1250.0, 200), (30.0, 70)]
    assert block[1]["peak_tps"] == 800.0 and block[0]["busy_hours"] == [9]  # what the block does not cover stays
    cleared = paste_cells(existing, "13\t\n", (1, 3), TABLE)  # an empty cell empties an optional one
    assert cleared[1]["working_set_gb"] == 13.0 and "peak_tps" not in cleared[1]
    with pytest.raises(InventoryError) as info:
        paste_cells(existing, "5\t0\nx\t4\n", (1, 2), TABLE)
    assert info.value.lines() == ["pasted row 1, 'working set': must be greater than 0 (got 0.0)",
                                  "pasted row 2, 'peak clients': must be a whole number (got 'x')"]
    with pytest.raises(InventoryError) as info:
        paste_cells(existing, "1\n2\n3\n", (1, 2), TABLE)
    assert info.value.lines() == ["clipboard: 3 rows pasted from row 2: the table has 3; to add databases, paste"
                                  " whole rows in the Database column"]
    with pytest.raises(InventoryError):
        paste_cells(existing, "1\t2\t3\t4\n", (0, 2), TABLE)  # four columns from the third of five
    assert has_header("Database\tSize (GB)\nerp\t5\n") and not has_header("75\n") and not has_header("")


def test_new_refuses_databases_for_another_kind_and_names_a_bad_file(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    inventory = tmp_path / "inv.csv"
    _inventory_csv(inventory, 3)
    assert main(["new", "greenplum-oltp", "--databases", str(inventory)]) == 2
    assert "--databases is for postgres-consolidation" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("Database,Size (GB),Peak clients,Working set (GB)\nok,1,1,1\nbad,1,1,-1\n", encoding="utf-8")
    out = tmp_path / "never.json"
    assert main(["new", "postgres-consolidation", "--databases", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"nothing imported from {bad}" in err and "row 3, 'Working set (GB)': must be greater than 0" in err
    assert not out.exists()
    assert json.loads(json.dumps(read_inventory(inventory)))[0]["name"] == "app00"

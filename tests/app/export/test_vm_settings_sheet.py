"""The BOM workbook holds every PostgreSQL VM's databases and postgresql.conf values, one row per VM."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from openpyxl import load_workbook

from app.export.vm_settings_sheet import PLACEMENT_COLUMNS, vm_settings_table
from app.services.report import write_bom
from models.hardware import HardwareCatalog
from models.scenario import Scenario, parse_scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.app.export.conftest import SAMPLES

Sized = Callable[[str], tuple[Scenario, SizingResult]]


def _estate() -> Scenario:
    """One VM per database, databases of different shapes (so VMs differ in settings), one named like a formula."""
    data = json.loads((SAMPLES / "pg-consolidation.json").read_text())
    data["name"] = "A consolidation whose name is longer than a sheet's"
    data["workload"]["placement"] = "vm-per-database"
    data["workload"]["databases"] = [
        {"name": "=HYPERLINK(\"x\")" if i == 3 else f"db{i}", "size_gb": 20 + 90 * i, "peak_clients": 5 + 30 * i,
         "working_set_gb": 1 + 9 * i, "busy_hours": [i % 24]} for i in range(7)]
    return parse_scenario(data)


def test_each_vm_is_a_row_with_its_databases_and_every_setting_the_design_sets(
        catalog: HardwareCatalog, sized: Sized, tmp_path: Path) -> None:
    scenario = _estate()
    result = size(scenario, catalog)
    gp_scenario, gp_result = sized("retail-dw-gen5.json")
    path = write_bom([result, gp_result], [scenario, gp_scenario], tmp_path / "bom.xlsx", "xlsx")
    wb = load_workbook(path)
    # the VM sheet follows its scenario's BOM; the Greenplum design, without VMs, has none
    assert len(wb.sheetnames) == 3 and wb.sheetnames[1].endswith(" VM settings") and len(wb.sheetnames[1]) <= 31
    ws = wb[wb.sheetnames[1]]
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    head, body = rows[0], rows[1:]
    assert tuple(head[:len(PLACEMENT_COLUMNS)]) == PLACEMENT_COLUMNS
    assert [r[0] for r in body] == [v.name for v in result.vms] and len(body) == 7
    groups = {g.target: g for g in result.design.settings}
    for vm, row in zip(result.vms, body, strict=True):
        cells = dict(zip(head, row, strict=True))
        assert (cells["Host"], cells["vCPUs"], cells["Memory (GiB)"]) == (vm.host, vm.vcpus, vm.memory_gib)
        assert cells["Databases"] == ", ".join(vm.databases) and cells["Database count"] == len(vm.databases)
        for s in groups[vm.name].settings:  # every postgresql.conf value, under its name and unit
            assert cells[f"{s.name} ({s.unit})" if s.unit else s.name] == s.value
    assert len({tuple(r[len(PLACEMENT_COLUMNS):]) for r in body}) > 1  # VMs of other shapes, other settings
    formula_like = next(ws.cell(i, 7) for i in range(2, 9) if str(ws.cell(i, 7).value).startswith("="))
    assert formula_like.data_type == "s" and formula_like.quotePrefix  # a database name never runs as a formula


def test_a_design_without_vms_has_no_table(sized: Sized) -> None:
    assert vm_settings_table(sized("retail-dw-gen5.json")[1]) is None

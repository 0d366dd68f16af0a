"""The per-VM settings of a PostgreSQL consolidation as a spreadsheet table: one row per VM with where it runs, its
databases and every postgresql.conf value the design sets for it.

The PDF report groups VMs whose settings are identical (a 1,000-database estate stays readable); the full per-VM
detail is here, in the BOM workbook (a sheet beside each scenario's BOM), and in the configuration files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from models.sizing.result import SizingResult

PRODUCT = "postgresql"
PLACEMENT_COLUMNS = ("VM", "Host", "NUMA node", "vCPUs", "Memory (GiB)", "Memory reservation (GiB)", "Databases",
                     "Database count")
SUFFIX = " VM settings"


@dataclass(frozen=True)
class VmSettingsTable:
    """`columns`: the placement columns, then one per setting ("shared_buffers (MB)", "jit"); `rows`: one per VM in
    the design's order, a setting the design does not set for a VM left empty (None)."""

    scenario: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


def vm_settings_table(result: SizingResult) -> VmSettingsTable | None:
    """The table of a result with PostgreSQL VMs; None for a design without them (Greenplum, SAP IQ).

    Settings are columns in the order the first VM that sets each lists them; a VM's NUMA node is "wide" where it
    spans nodes (vNUMA)."""
    if not result.vms:
        return None
    groups = {g.target: g for g in result.design.settings if g.product == PRODUCT}
    names: dict[str, str] = {}  # setting -> its unit, in first-seen order
    for vm in result.vms:
        for s in groups[vm.name].settings if vm.name in groups else ():
            names.setdefault(s.name, s.unit)
    rows = []
    for vm in result.vms:
        values = {s.name: s.value for s in groups[vm.name].settings} if vm.name in groups else {}
        rows.append((vm.name, vm.host, "wide" if vm.numa_node is None else vm.numa_node, vm.vcpus, vm.memory_gib,
                     vm.memory_reservation_gib, ", ".join(vm.databases), len(vm.databases),
                     *(values.get(n) for n in names)))
    columns = (*PLACEMENT_COLUMNS, *(f"{n} ({u})" if u else n for n, u in names.items()))
    return VmSettingsTable(result.scenario_name, columns, tuple(rows))


def sheet_name(scenario: str) -> str:
    """The sheet's name before `bom.sheet_title` makes it unique: the scenario's, cut so the suffix stays."""
    return scenario[: 31 - len(SUFFIX)].rstrip() + SUFFIX


def write_sheet(ws: Any, table: VmSettingsTable, text_cell: Any, widths: Sequence[int] = (24, 6, 10, 7, 13, 14, 40, 9)
                ) -> None:
    """The table on the openpyxl worksheet `ws`: a bold header row frozen above the VMs, text kept as text
    (`text_cell`: a database named "=1+1" is never a formula)."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    bold = Font(bold=True)
    for j, col in enumerate(table.columns, start=1):
        ws.cell(1, j, col).font = bold
    for i, row in enumerate(table.rows, start=2):
        for j, v in enumerate(row, start=1):
            cell = ws.cell(i, j, v)
            if isinstance(v, str):
                text_cell(cell)
    for j in range(1, len(table.columns) + 1):
        ws.column_dimensions[get_column_letter(j)].width = widths[j - 1] if j <= len(widths) else 16
    ws.freeze_panes = ws.cell(2, 2)

"""An RVTools export (XLSX) as observed VMs: the powered-on VMs that are not templates, with what they used.

RVTools writes one sheet per vSphere object. refarch reads:

- vInfo: `VM`, `Powerstate` (poweredOn / poweredOff / suspended), `Template`, `CPUs`, `Memory` (MiB),
  `In Use MiB` (storage the VM uses; `In Use MB` in exports before RVTools 4), `Host`;
- vCPU: `VM`, `Overall` (the CPU the VM used, MHz);
- vMemory: `VM`, `Active` and `Consumed` (memory the VM used, MiB; active where given, else consumed);
- vHost: `Host`, `CPU Model`, `Speed` (MHz per core), `# CPU`, `# Cores` (for the processor the VM ran on);
- vDisk: `VM`, `Capacity MiB` (the VM's disks, where vInfo has no In Use).

Only vInfo is required; without vCPU or vMemory a VM keeps its configured size (`models.estate`). The column
names are those of RVTools 4.x exports as published (the RVTools reference of each tab).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import SupportsFloat

from app.editing.table_files import Rows, RowsError, TableFileError, read_table
from models.estate import ObservedVm
from models.problems import Problem

SHEETS = ("vInfo", "vCPU", "vMemory", "vHost", "vDisk")
MIB_GB = 2**20 / 1e9  # decimal GB per MiB
GIB_PER_MIB = 1 / 1024


class RvToolsError(RowsError):
    """An RVTools export that cannot be used (`RowsError`)."""


@dataclass(frozen=True)
class Estate:
    vms: tuple[ObservedVm, ...]
    powered_off: int
    templates: int


class Sheet:
    """A sheet's rows by header name (matched without regard to case or repeated spaces)."""

    def __init__(self, title: str, rows: Rows, problems: list[Problem]) -> None:
        self.title = title
        self.problems = problems
        start = next((i for i, r in enumerate(rows) if any(c not in (None, "") for c in r)), len(rows))
        header = rows[start] if start < len(rows) else []
        self.columns = {" ".join(str(c).lower().split()): i for i, c in enumerate(header) if c not in (None, "")}
        self.rows = [(n, r) for n, r in enumerate(rows[start + 1:], start=start + 2) if any(c not in (None, "")
                                                                                             for c in r)]

    def index(self, *names: str, required: bool = True) -> int | None:
        for name in names:
            if name.lower() in self.columns:
                return self.columns[name.lower()]
        if required:
            self.problems.append(Problem(f"sheet {self.title}", f"no column {names[0]!r}"))
        return None

    def number(self, n: int, row: Sequence[object], col: int | None, header: str, *, whole: bool = False,
               ) -> float | None:
        value = row[col] if col is not None and col < len(row) else None
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        try:
            if isinstance(value, str):
                number = float(value.replace(",", ""))
            elif isinstance(value, SupportsFloat):  # int, float, Decimal; a date is not a number
                number = float(value)
            else:
                raise TypeError(type(value).__name__)
        except (TypeError, ValueError):
            number = -1.0
        if number < 0 or (whole and not number.is_integer()):
            self.problems.append(Problem(f"sheet {self.title}, row {n}, {header!r}",
                                         f"must be a {'whole ' if whole else ''}number of 0 or more (got {value!r})"))
            return None
        return number


def cell_text(row: Sequence[object], col: int | None) -> str:
    value = row[col] if col is not None and col < len(row) else None
    return "" if value is None else str(value).strip()


def _by_vm(sheet: Sheet | None, *columns: str) -> dict[str, tuple[float | None, ...]]:
    if sheet is None:
        return {}
    vm = sheet.index("VM")
    cols = [sheet.index(c, required=False) for c in columns]
    out: dict[str, tuple[float | None, ...]] = {}
    for n, row in sheet.rows:
        name = cell_text(row, vm)
        if name and name not in out:
            out[name] = tuple(sheet.number(n, row, c, h) for c, h in zip(cols, columns, strict=True))
    return out


def _hosts(sheet: Sheet | None) -> dict[str, tuple[str, float | None, float | None]]:
    """Host name -> (CPU model, MHz per core, cores per socket)."""
    if sheet is None:
        return {}
    host, model, speed = sheet.index("Host"), sheet.index("CPU Model"), sheet.index("Speed", required=False)
    sockets, cores = sheet.index("# CPU", required=False), sheet.index("# Cores", required=False)
    out = {}
    for n, row in sheet.rows:
        count, total = sheet.number(n, row, sockets, "# CPU"), sheet.number(n, row, cores, "# Cores")
        per_socket = total / count if count and total else None
        out[cell_text(row, host)] = (cell_text(row, model), sheet.number(n, row, speed, "Speed"), per_socket)
    return out


def powered_on(state: str) -> bool:
    return state.replace(" ", "").lower() == "poweredon"


def is_template(value: str) -> bool:
    return value.strip().lower() in ("true", "yes", "1")


def read_rvtools(path: Path) -> Estate:
    """The VMs of an RVTools export that run (powered on) and are not templates; RvToolsError names each problem
    by sheet, row and column, and nothing is returned then."""
    try:
        sheets = read_table(path, "RVTools export", SHEETS) if path.suffix.lower() in (".xlsx", ".xlsm") else None
    except TableFileError as exc:
        raise RvToolsError(str(path), exc.problems) from None
    if sheets is None:
        raise RvToolsError(str(path), [Problem("file", "an RVTools export is an XLSX workbook (Export all to Excel)")])
    if "vInfo" not in sheets:
        raise RvToolsError(str(path), [Problem("file", "the workbook has no vInfo sheet: is it an RVTools export?")])
    problems: list[Problem] = []
    parsed = {title: Sheet(title, rows, problems) for title, rows in sheets.items()}
    estate = _estate(parsed, problems)
    if problems:
        raise RvToolsError(str(path), problems)
    if not estate.vms:
        raise RvToolsError(str(path), [Problem("sheet vInfo", "no powered-on VM that is not a template")])
    return estate


def _estate(sheets: dict[str, Sheet], problems: list[Problem]) -> Estate:
    info = sheets["vInfo"]
    cols = {"vm": info.index("VM"), "state": info.index("Powerstate"), "template": info.index("Template"),
            "cpus": info.index("CPUs"), "memory": info.index("Memory"), "host": info.index("Host", required=False),
            "in_use": info.index("In Use MiB", "In Use MB", required="vDisk" not in sheets)}
    if problems:
        return Estate((), 0, 0)
    cpu = _by_vm(sheets.get("vCPU"), "Overall")
    memory = _by_vm(sheets.get("vMemory"), "Active", "Consumed")
    disks: dict[str, float] = {}
    if "vDisk" in sheets:
        disk = sheets["vDisk"]
        vm_col, cap = disk.index("VM"), disk.index("Capacity MiB")
        for n, row in disk.rows:
            owner = cell_text(row, vm_col)
            disks[owner] = disks.get(owner, 0.0) + (disk.number(n, row, cap, "Capacity MiB") or 0.0)
    hosts = _hosts(sheets.get("vHost"))
    vms: list[ObservedVm] = []
    off = templates = 0
    names: set[str] = set()
    for n, row in info.rows:
        if is_template(cell_text(row, cols["template"])):
            templates += 1
            continue
        if not powered_on(cell_text(row, cols["state"])):
            off += 1
            continue
        name = cell_text(row, cols["vm"])[:190] or f"row {n}"
        unique = name
        while unique in names:
            unique = f"{name} ({len(names)})"
        names.add(unique)
        vcpus = info.number(n, row, cols["cpus"], "CPUs", whole=True)
        mem_mib = info.number(n, row, cols["memory"], "Memory")
        in_use = info.number(n, row, cols["in_use"], "In Use MiB")
        if vcpus is None or not vcpus or not mem_mib:
            problems.append(Problem(f"sheet vInfo, row {n}", f"{name}: needs CPUs and Memory above 0"))
            continue
        used_mib = in_use if in_use else disks.get(name, 0.0)
        active, consumed = memory.get(name, (None, None))
        used_memory = active or consumed  # active where the export has it (an idle VM's 0 is not a figure)
        model, mhz, per_socket = hosts.get(cell_text(row, cols["host"]), ("", None, None))
        vms.append(ObservedVm(unique, int(vcpus), mem_mib * GIB_PER_MIB, used_mib * MIB_GB, cpu.get(name, (None,))[0],
                              used_memory * GIB_PER_MIB if used_memory else None, model, mhz, per_socket))
    return Estate(tuple(vms), off, templates)

"""A Live Optics VMware assessment (XLSX, as the Live Optics portal exports it) as observed VMs.

The workbook's sheets refarch reads (the VMware collector's layout):

- VMs: `VM Name`, `Power State`, `Template`, `Virtual CPU`, `Provisioned Memory (MiB)`,
  `Used Memory (active) (MiB)`, `Guest VM Disk Used (MiB)` (else `Virtual Disk Used (MiB)`), `Host`;
- VM Performance: `VM Name`, `Peak vCPU (GHz)`, `Average vCPU (GHz)`, `Peak Memory (MiB)`, `Avg Memory (MiB)`,
  `Peak IOPS`, `Average IOPS`: the figures over the collection period, per VM;
- ESX Hosts: `Host Name`, `CPU Description`, `CPU Clock Speed (GHz)`, `CPU Sockets`, `CPU Cores`.

The VM Performance sheet gives each VM's peak and average over the collection; `--percentile peak` sizes on the
peaks, `average` on the averages (Live Optics publishes a 95th percentile per host, not per VM).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from app.editing.rvtools import MIB_GB, Sheet, cell_text, is_template, powered_on
from app.editing.table_files import RowsError, TableFileError, read_table
from models.estate import ObservedVm
from models.problems import Problem

SHEETS = ("VMs", "VM Performance", "ESX Hosts")
Statistic = Literal["peak", "average"]


class LiveOpticsError(RowsError):
    """A Live Optics export that cannot be used (`RowsError`)."""


@dataclass(frozen=True)
class Observed:
    vms: tuple[ObservedVm, ...]
    powered_off: int
    templates: int


def _hosts(sheet: Sheet | None) -> dict[str, tuple[str, float | None, float | None]]:
    if sheet is None:
        return {}
    name, cpu, ghz = sheet.index("Host Name"), sheet.index("CPU Description"), sheet.index("CPU Clock Speed (GHz)")
    sockets, cores = sheet.index("CPU Sockets", required=False), sheet.index("CPU Cores", required=False)
    out = {}
    for n, row in sheet.rows:
        clock = sheet.number(n, row, ghz, "CPU Clock Speed (GHz)")
        count, total = sheet.number(n, row, sockets, "CPU Sockets"), sheet.number(n, row, cores, "CPU Cores")
        out[cell_text(row, name)] = (cell_text(row, cpu), clock * 1000 if clock else None,
                                     total / count if count and total else None)
    return out


def _performance(sheet: Sheet | None, statistic: Statistic) -> dict[str, tuple[float | None, ...]]:
    if sheet is None:
        return {}
    columns = (("Peak vCPU (GHz)", "Peak Memory (MiB)", "Peak IOPS") if statistic == "peak" else
               ("Average vCPU (GHz)", "Avg Memory (MiB)", "Average IOPS"))
    vm = sheet.index("VM Name")
    cols = [sheet.index(c) for c in columns]
    return {cell_text(row, vm): tuple(sheet.number(n, row, c, h) for c, h in zip(cols, columns, strict=True))
            for n, row in sheet.rows}


def read_liveoptics(path: Path, statistic: Statistic = "peak") -> Observed:
    """The powered-on, non-template VMs of a Live Optics VMware export, with their use at `statistic`;
    LiveOpticsError naming each problem by sheet, row and column, and nothing returned then."""
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        raise LiveOpticsError(str(path), [Problem("file", "a Live Optics export is an XLSX workbook")])
    try:
        sheets = read_table(path, "Live Optics export", SHEETS)
    except TableFileError as exc:
        raise LiveOpticsError(str(path), exc.problems) from None
    if "VMs" not in sheets:
        raise LiveOpticsError(str(path), [Problem("file", "the workbook has no VMs sheet: is it a Live Optics"
                                                          " VMware export?")])
    problems: list[Problem] = []
    parsed = {title: Sheet(title, rows, problems) for title, rows in sheets.items()}
    observed = _observed(parsed, statistic, problems)
    if problems:
        raise LiveOpticsError(str(path), problems)
    if not observed.vms:
        raise LiveOpticsError(str(path), [Problem("sheet VMs", "no powered-on VM that is not a template")])
    return observed


def _observed(sheets: dict[str, Sheet], statistic: Statistic, problems: list[Problem]) -> Observed:
    vms_sheet = sheets["VMs"]
    col = {key: vms_sheet.index(*names, required=required) for key, names, required in (
        ("vm", ("VM Name",), True), ("state", ("Power State",), True), ("template", ("Template",), False),
        ("cpus", ("Virtual CPU",), True), ("memory", ("Provisioned Memory (MiB)",), True),
        ("active", ("Used Memory (active) (MiB)",), False), ("host", ("Host",), False),
        ("disk", ("Guest VM Disk Used (MiB)", "Virtual Disk Used (MiB)"), True))}
    if problems:
        return Observed((), 0, 0)
    perf = _performance(sheets.get("VM Performance"), statistic)
    hosts = _hosts(sheets.get("ESX Hosts"))
    vms: list[ObservedVm] = []
    off = templates = 0
    for n, row in vms_sheet.rows:
        if is_template(cell_text(row, col["template"])):
            templates += 1
            continue
        if not powered_on(cell_text(row, col["state"])):
            off += 1
            continue
        name = cell_text(row, col["vm"])[:190] or f"row {n}"
        vcpus = vms_sheet.number(n, row, col["cpus"], "Virtual CPU", whole=True)
        mem = vms_sheet.number(n, row, col["memory"], "Provisioned Memory (MiB)")
        if not vcpus or not mem:
            problems.append(Problem(f"sheet VMs, row {n}", f"{name}: needs Virtual CPU and Provisioned Memory above 0"))
            continue
        ghz, mem_used, vm_iops = perf.get(name, (None, None, None))
        active = vms_sheet.number(n, row, col["active"], "Used Memory (active) (MiB)")
        used_mib = mem_used or active
        model, mhz, per_socket = hosts.get(cell_text(row, col["host"]), ("", None, None))
        disk = vms_sheet.number(n, row, col["disk"], "Guest VM Disk Used (MiB)") or 0.0
        vms.append(ObservedVm(name, int(vcpus), mem / 1024, disk * MIB_GB, ghz * 1000 if ghz is not None else None,
                              used_mib / 1024 if used_mib else None, model, mhz, per_socket, vm_iops))
    return Observed(tuple(vms), off, templates)

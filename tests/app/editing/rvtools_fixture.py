"""An RVTools export in the exact sheet and column layout of RVTools 4.x (vInfo, vCPU, vMemory, vDisk, vHost), built
with openpyxl: the first columns of each tab as RVTools writes them, then the ones refarch reads."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import openpyxl

VINFO = ["VM", "Powerstate", "Template", "SRM Placeholder", "Config status", "DNS Name", "Connection state",
         "Guest state", "Heartbeat", "Consolidation Needed", "PowerOn", "Suspended To Memory", "Suspend time",
         "Suspend Interval", "Creation date", "Change Version", "CPUs", "Overall Cpu Readiness", "Memory",
         "Active Memory", "NICs", "Disks", "Total disk capacity MiB", "Provisioned MiB", "In Use MiB",
         "Unshared MiB", "Datacenter", "Cluster", "Host", "OS according to the configuration file"]
VCPU = ["VM", "Powerstate", "Template", "SRM Placeholder", "CPUs", "Sockets", "Cores p/s", "Max", "Overall",
        "Level", "Shares", "Reservation", "Entitlement", "DRS Entitlement", "Limit", "Hot Add", "Hot Remove"]
VMEMORY = ["VM", "Powerstate", "Template", "SRM Placeholder", "Size MiB", "Memory Reservation Locked To Max",
           "Overhead", "Max", "Consumed", "Consumed Overhead", "Private", "Shared", "Swapped", "Ballooned", "Active",
           "Entitlement", "DRS Entitlement", "Level", "Shares", "Reservation", "Limit", "Hot Add"]
VDISK = ["VM", "Powerstate", "Template", "SRM Placeholder", "Disk", "Disk Key", "Disk UUID", "Disk Path",
         "Capacity MiB", "Raw", "Disk Mode", "Sharing mode", "Thin"]
VHOST = ["Host", "Datacenter", "Cluster", "Config status", "Compliance Check State", "in Maintenance Mode",
         "in Quarantine Mode", "vSAN Fault Domain Name", "CPU Model", "Speed", "HT Available", "HT Active", "# CPU",
         "Cores per CPU", "# Cores", "CPU usage %", "# Memory"]


@dataclass(frozen=True)
class Vm:
    name: str
    state: str = "poweredOn"
    template: bool = False
    cpus: int = 4
    memory_mib: int = 16384
    in_use_mib: float = 102400.0
    overall_mhz: float | None = 2400.0
    active_mib: float | None = 4096.0
    consumed_mib: float = 12288.0
    host: str = "esx01.example.com"


def _sheet(wb: openpyxl.Workbook, title: str, header: list[str], rows: list[dict[str, object]]) -> None:
    ws = wb.create_sheet(title)
    ws.append(header)
    for row in rows:
        ws.append([row.get(col) for col in header])


def write_rvtools(path: Path, vms: list[Vm], *, cpu_model: str = "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz",
                  speed_mhz: int = 2100, sockets: int = 2, cores: int = 32) -> Path:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    common = [{"VM": v.name, "Powerstate": v.state, "Template": v.template, "SRM Placeholder": False} for v in vms]
    _sheet(wb, "vInfo", VINFO, [{**c, "CPUs": v.cpus, "Memory": v.memory_mib, "In Use MiB": v.in_use_mib,
                                  "Provisioned MiB": v.in_use_mib * 2, "Host": v.host, "Cluster": "prod"}
                                 for c, v in zip(common, vms, strict=True)])
    _sheet(wb, "vCPU", VCPU, [{**c, "CPUs": v.cpus, "Sockets": 1, "Cores p/s": v.cpus, "Max": v.cpus * speed_mhz,
                                "Overall": v.overall_mhz} for c, v in zip(common, vms, strict=True)])
    _sheet(wb, "vMemory", VMEMORY, [{**c, "Size MiB": v.memory_mib, "Consumed": v.consumed_mib, "Active": v.active_mib}
                                     for c, v in zip(common, vms, strict=True)])
    _sheet(wb, "vDisk", VDISK, [{**c, "Disk": "Hard disk 1", "Capacity MiB": v.in_use_mib * 2}
                                 for c, v in zip(common, vms, strict=True)])
    _sheet(wb, "vHost", VHOST, [{"Host": "esx01.example.com", "Cluster": "prod", "CPU Model": cpu_model,
                                  "Speed": speed_mhz, "# CPU": sockets, "# Cores": cores}])
    wb.save(path)
    return path

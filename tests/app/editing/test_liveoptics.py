"""A Live Optics VMware export becomes a consolidation sized on each VM's peak or average over the collection."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.editing.liveoptics import LiveOpticsError, read_liveoptics
from app.services.sizing import size
from catalog.seed import seed_catalog
from models.scenario import load_scenario

# the Live Optics VMware collector's sheets, the columns refarch reads among those around them
VMS = ["VM Name", "Power State", "Template", "VM OS", "Virtual CPU", "Provisioned Memory (MiB)",
       "Used Memory (active) (MiB)", "Consumed Memory (MiB)", "Guest VM Disk Capacity (MiB)",
       "Guest VM Disk Used (MiB)", "Virtual Disk Size (MiB)", "Virtual Disk Used (MiB)", "Datastore", "Host", "Cluster"]
PERF = ["VM Name", "Peak vCPU %", "Peak vCPU (GHz)", "Average vCPU %", "Average vCPU (GHz)", "Peak Memory %",
        "Peak Memory (MiB)", "Avg Memory (MiB)", "Peak IOPS", "Average IOPS"]
HOSTS = ["Host Name", "Cluster", "Manufacturer", "Model", "CPU Sockets", "CPU Cores", "CPU Threads",
         "CPU Description", "CPU Clock Speed (GHz)", "Net Clock Speed (GHz)", "Memory (KiB)"]


def _export(path: Path) -> Path:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    vms, perf, hosts = wb.create_sheet("VMs"), wb.create_sheet("VM Performance"), wb.create_sheet("ESX Hosts")
    for ws, header in ((vms, VMS), (perf, PERF), (hosts, HOSTS)):
        ws.append(header)
    hosts.append(["esx1", "prod", "Dell", "R640", 2, 40, 80, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz", 2.1, 84.0,
                  536870912])
    rows = [("pg-a", "poweredOn", False, 8, 65536, 4.2, 2.1, 20480, 10240, 3000, 900),
            ("pg-b", "poweredOn", False, 4, 16384, 1.05, 0.5, 6144, 4096, 800, 200),
            ("old", "poweredOff", False, 4, 8192, 0, 0, 0, 0, 0, 0),
            ("golden", "poweredOff", True, 2, 4096, 0, 0, 0, 0, 0, 0)]
    for name, state, template, cpus, mem, peak_ghz, avg_ghz, peak_mib, avg_mib, peak_iops, avg_iops in rows:
        vms.append([name, state, template, "Ubuntu", cpus, mem, avg_mib, mem, 204800, 102400, 204800, 153600,
                    "ds1", "esx1", "prod"])
        perf.append([name, 50, peak_ghz, 25, avg_ghz, 60, peak_mib, avg_mib, peak_iops, avg_iops])
    wb.save(path)
    return path


def test_peak_and_average_size_differently_and_idle_vms_are_left_out(tmp_path: Path) -> None:
    export = _export(tmp_path / "LiveOptics_VMWARE.xlsx")
    peak, average = read_liveoptics(export, "peak"), read_liveoptics(export, "average")
    assert [v.name for v in peak.vms] == ["pg-a", "pg-b"] and (peak.powered_off, peak.templates) == (1, 1)
    a_peak, a_avg = peak.vms[0], average.vms[0]
    assert (a_peak.cpu_used_mhz, a_avg.cpu_used_mhz) == (4200.0, 2100.0)
    assert (a_peak.memory_used_gib, a_avg.memory_used_gib) == (20.0, 10.0)
    assert (a_peak.iops, a_avg.iops) == (3000, 900)
    assert a_peak.in_use_gb == pytest.approx(102400 * 2**20 / 1e9)  # the guest's used disk
    assert (a_peak.core_mhz, a_peak.cores_per_socket) == (2100.0, 20.0) and "Gold 6230" in a_peak.cpu_model


def test_a_live_optics_export_becomes_a_consolidation_that_sizes(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    export = _export(tmp_path / "LiveOptics_VMWARE.xlsx")
    out = tmp_path / "lo.json"
    assert main(["new", "postgres-consolidation", "--liveoptics", str(export), "--percentile", "peak",
                 "--comfort", "1.25", "-o", str(out)]) == 0
    scenario = load_scenario(out)
    dbs = {d.name: d for d in scenario.workload.databases}  # type: ignore[union-attr]
    assert sorted(dbs) == ["pg-a", "pg-b"] and "each VM's peak over the collection" in scenario.notes
    assert "Template from refarch" not in scenario.notes and "docs/SCENARIO.md" in scenario.notes
    assert dbs["pg-a"].peak_clients == 30  # 2 cores busy x 1.25 -> 3 vCPUs, 10 clients each
    assert dbs["pg-a"].current is not None and dbs["pg-a"].current.iops == 3000
    assert len(size(scenario, seed_catalog(), label="lo").vms) == 2
    bad = tmp_path / "bad.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Servers"
    wb.save(bad)
    with pytest.raises(LiveOpticsError, match="no VMs sheet"):
        read_liveoptics(bad)
    assert main(["new", "postgres-consolidation", "--liveoptics", str(export), "--rvtools", str(export)]) == 2
    assert "give one of --databases, --rvtools and --liveoptics" in capsys.readouterr().err

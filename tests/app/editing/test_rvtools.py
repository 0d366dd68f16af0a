"""An RVTools export becomes a right-sized consolidation: powered-on VMs only, sized from what they used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.editing.rvtools import RvToolsError, read_rvtools
from app.services.sizing import size
from catalog.seed import seed_catalog
from models.estate import socket_score
from models.scenario import load_scenario
from tests.app.editing.rvtools_fixture import Vm, write_rvtools


def _twelve() -> list[Vm]:
    vms = [Vm(f"pg{i:02d}", cpus=8, memory_mib=32768, overall_mhz=1050.0 * (i % 4 + 1), active_mib=2048.0 * (i % 3 + 1))
           for i in range(9)]
    return [*vms, Vm("old-app", state="poweredOff"), Vm("tmpl-rhel9", template=True, state="poweredOff"),
            Vm("quiet", overall_mhz=None, active_mib=None, consumed_mib=0)]


def test_a_12_vm_export_becomes_a_consolidation_that_sizes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = write_rvtools(tmp_path / "RVTools_export_all.xlsx", _twelve())
    out = tmp_path / "estate.json"
    assert main(["--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "new", "postgres-consolidation", "--rvtools",
                 str(export), "--comfort", "1.5", "--target-cpu", "EPYC 9354", "-o", str(out)]) == 0
    scenario = load_scenario(out)
    dbs = {d.name: d for d in scenario.workload.databases}  # type: ignore[union-attr]
    assert sorted(dbs) == sorted([f"pg{i:02d}" for i in range(9)] + ["quiet"])  # powered off and template left out
    assert "10 VMs powered on" in scenario.notes and "1 VM not powered on and 1 template left out" in scenario.notes
    pg03 = dbs["pg03"]  # 4,200 MHz on 2.1 GHz Gold 6130 cores: 2 busy cores
    ratio = (socket_score("Xeon Gold 6130") / 16) / (socket_score("EPYC 9354") / 32)  # type: ignore[operator]
    expected_vcpus = -(-2 * ratio * 1.5 // 1)
    assert pg03.peak_clients == expected_vcpus * 10
    assert pg03.working_set_gb == pytest.approx(2048 * 1 * 1.5 / 1024 * 2**30 / 1e9, abs=1e-3)
    assert pg03.size_gb == pytest.approx(102400 * 2**20 / 1e9, abs=1e-3)
    assert pg03.current is not None and (pg03.current.vcpus, pg03.current.memory_gib) == (8, 32.0)
    assert "Gold 6130" in pg03.current.cpu_model and "SPECrate2017_int_base per core" in pg03.current.cpu_basis
    assert pg03.current.source == "RVTools export RVTools_export_all.xlsx"  # the export alone
    quiet = dbs["quiet"]  # nothing observed: it keeps what it has
    assert quiet.peak_clients == 40 and quiet.working_set_gb == pytest.approx(16 * 2**30 / 1e9, abs=1e-3)
    assert "quiet: CPU use not observed" in scenario.notes
    result = size(scenario, seed_catalog(), label=str(out))
    assert len(result.vms) == 10 and result.design.total_hosts >= 2
    small = next(v for v in result.vms if v.databases == ("pg03",))
    assert small.vcpus < 8  # right-sized below the 8 vCPUs it has today


def test_an_export_without_its_hosts_says_the_cpu_use_was_seen_but_not_the_core_clock(tmp_path: Path) -> None:
    # without vHost every VM read "CPU use not observed" though vCPU's Overall had been read
    import openpyxl

    from app.editing.estate_import import import_estate

    export = write_rvtools(tmp_path / "RVTools_export_all.xlsx", [Vm("busy", overall_mhz=5200.0),
                                                                  Vm("idle", overall_mhz=None)])
    wb = openpyxl.load_workbook(export)
    del wb["vHost"]
    wb.save(export)
    done = import_estate(export, "rvtools", 1.5)
    assert [d["name"] for d in done.databases] == ["busy", "idle"]
    assert done.notes[0] == ("busy: CPU use observed (5,200 MHz) but not the clock of its host's cores (the export has"
                             " no row for its host), kept its 4 vCPUs")
    assert done.notes[1] == "idle: CPU use not observed, kept its 4 vCPUs"
    assert "2 VMs powered on" in done.summary and "0 VMs not powered on and 0 templates left out" in done.summary


def test_a_bad_export_is_named_by_sheet_row_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = write_rvtools(tmp_path / "bad.xlsx", [Vm("a"), Vm("b", cpus=0), Vm("c", in_use_mib=-5)])
    with pytest.raises(RvToolsError) as info:
        read_rvtools(export)
    assert "sheet vInfo, row 3: b: needs CPUs and Memory above 0" in info.value.lines()
    assert "sheet vInfo, row 4, 'In Use MiB': must be a number of 0 or more (got -5)" in info.value.lines()
    csv = tmp_path / "x.csv"
    csv.write_text("VM\n", encoding="utf-8")
    assert main(["new", "postgres-consolidation", "--rvtools", str(csv)]) == 2
    assert "an RVTools export is an XLSX workbook" in capsys.readouterr().err
    assert main(["new", "postgres-consolidation", "--rvtools", str(export), "--comfort", "0.5"]) == 2
    assert "--comfort must be 1 to 5" in capsys.readouterr().err


def test_the_benchmark_scores_cite_their_source() -> None:
    data = json.loads((Path(__file__).resolve().parents[3] / "resources" / "benchmarks" / "specrate2017_int.json")
                      .read_text(encoding="utf-8"))
    assert "spec.org/cpu2017/results" in data["source"]["url"] and data["benchmark"] == "SPECrate2017_int_base"
    assert socket_score("Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz") == socket_score("Xeon Gold 6130") is not None
    assert socket_score("Xeon Unknown 1234") is None


def test_the_report_shows_each_vm_as_it_is_beside_right_sized(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from pypdf import PdfReader

    from app.export.pdf_estate import estate_rows

    export = write_rvtools(tmp_path / "RVTools.xlsx", _twelve())
    scenario_path = tmp_path / "estate.json"
    assert main(["new", "postgres-consolidation", "--rvtools", str(export), "-o", str(scenario_path)]) == 0
    scenario = load_scenario(scenario_path)
    result = size(scenario, seed_catalog(), label="estate")
    rows = {row[0]: row for row in estate_rows(scenario.workload, result)}  # type: ignore[arg-type]
    assert len(rows) == 10 and rows["pg03"][1:3] == ["8", "32"]
    vm = next(v for v in result.vms if "pg03" in v.databases)
    assert rows["pg03"][5].startswith(str(vm.vcpus)) and rows["quiet"][3] == "not observed"
    pdf = tmp_path / "estate.pdf"
    assert main(["--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "report", str(scenario_path), "-o", str(pdf)]) == 0
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Current VMs, as they are and right-sized" in text and "RVTools export RVTools.xlsx" in text

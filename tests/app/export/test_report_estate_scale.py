"""A report on a consolidation of many databases stays readable: each setting's rule once and the values per VM
(VMs alike on one row), per-VM files on one line, the largest databases and the totals; the full detail stays in
the configuration files and the scenario file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.platypus import Table

from app.cli.main import main
from app.editing.templates import scenario_template
from app.export.config.bundle import ConfigFile
from app.export.fonts import report_fonts, string_width
from app.export.pdf_blocks import Ctx, Numbering
from app.export.pdf_config import file_rows
from app.export.pdf_settings_matrix import CELL_PADDING, split, value_rows, value_tables
from app.export.pdf_styles import make_styles
from models.scenario import parse_scenario, scenario_to_json
from models.sizing.settings import Setting, SettingGroup


def _vm(name: str, work_mem: int, buffers: int = 1024) -> SettingGroup:
    return SettingGroup("postgresql", name, (Setting("shared_buffers", buffers, "MB", "25 %", "s"),
                                             Setting("work_mem", work_mem, "MB", "rule", "s"),
                                             Setting("huge_pages", "try", "", "always", "s")))


def test_settings_alike_share_a_row_and_constant_ones_are_said_once() -> None:
    groups = [_vm("a", 4), _vm("b", 8), _vm("c", 4), _vm("d", 4, 2048)]
    assert split(groups) == (["huge_pages"], ["shared_buffers", "work_mem"])
    rows = value_rows(groups, ["shared_buffers", "work_mem"])
    assert [(r.targets, r.values) for r in rows] == [(("a", "c"), ("1024 MB", "4 MB")), (("b",), ("1024 MB", "8 MB")),
                                                     (("d",), ("2048 MB", "4 MB"))]


def test_many_varying_settings_never_break_a_value_or_a_name_part_and_say_the_unit_once() -> None:
    # eleven settings that differ per VM, five-digit values: one table of eleven columns broke 15360 into 1536/0
    names = [f"setting_number_{i}_of_the_postgresql_conf" for i in range(11)]
    groups = [SettingGroup("postgresql", f"vm-{v}", tuple(Setting(n, 15360 + 7 * v + i, "MB", "r", "s")
                                                         for i, n in enumerate(names))) for v in range(5)]
    same, varying = split(groups)
    assert (same, varying) == ([], names)
    rows = value_rows(groups, varying)
    ctx = Ctx(make_styles(report_fonts()), Numbering())
    tables = [t for t in value_tables(ctx, groups, varying, rows) if isinstance(t, Table)]
    shown = ["".join(t._cellvalues[0][c].text.split("<br/>")[:-1]) for t in tables for c in range(1, len(t._colWidths))]
    assert len(tables) > 1 and shown == names  # every setting once, in the design's order
    cell, head = ctx.styles.cell_num, ctx.styles.cell_head_num
    for t in tables:
        assert sum(t._colWidths) <= ctx.width + 0.01
        for col, width in enumerate(t._colWidths[1:], start=1):
            values = [t._cellvalues[r][col].text for r in range(1, len(rows) + 1)]
            assert all(v.isdigit() for v in values)  # the unit is in the header, not in every cell
            assert max(string_width(v, cell.fontName, cell.fontSize) for v in values) + CELL_PADDING <= width
            lines = t._cellvalues[0][col].text.split("<br/>")
            assert lines[-1] == "(MB)" and "".join(lines[:-1]) in names
            assert all(string_width(x, head.fontName, head.fontSize) + CELL_PADDING <= width for x in lines)


def test_files_of_one_kind_per_vm_are_one_row_once_there_are_many() -> None:
    files = [ConfigFile("README.txt", "", what="this index")] + [
        ConfigFile(f"postgresql/vm-db{i}.conf", "", what=f"postgresql.conf include for VM vm-db{i}") for i in range(30)]
    assert file_rows(files) == [("README.txt", "this index"),
                                ("postgresql/<VM>.conf", "postgresql.conf include for VM <VM>: one for each of 30 VMs")]
    assert file_rows(files[:4]) == [(f.path, f.what) for f in files[:4]]  # a few: each listed


def test_a_report_on_eighty_databases_is_a_few_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = scenario_template("postgres-consolidation", "estate")
    data["workload"]["databases"] = [{"name": f"db{i:03d}", "size_gb": 20 + i % 50, "peak_clients": 5 + i % 20,
                                      "working_set_gb": 2 + i % 6, "busy_hours": [i % 24]} for i in range(80)]
    path = tmp_path / "estate.json"
    path.write_text(json.dumps(scenario_to_json(parse_scenario(data))), encoding="utf-8")
    pdf = tmp_path / "estate.pdf"
    assert main(["--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "report", str(path), "-o", str(pdf)]) == 0
    pages = PdfReader(pdf).pages
    text = " ".join(" ".join(p.extract_text() for p in pages).split())
    assert len(pages) <= 25  # one settings page per VM made it 100
    assert "postgresql.conf of 80 VMs: each setting's rule once" in text
    assert "80 databases:" in text and "The 30 largest follow; every database is in the scenario file." in text
    assert "one for each of 80 VMs" in text

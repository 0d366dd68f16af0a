"""The report's "Measured vs modelled" section: present for a design sized on measurement profiles, its figures
the calibration's, the executive summary still pointing at the warnings' section; absent otherwise."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.export import render_report
from models.hardware import HardwareCatalog
from models.measurements.detect import parse_measurement
from models.measurements.profile import MeasurementProfile, ProfileFile
from models.scenario import parse_scenario
from models.sizing.engine import size
from tests.app.export.conftest import SAMPLES, pdf_text

FIXTURES = Path(__file__).resolve().parents[2] / "models" / "measurements" / "fixtures"


def test_a_measured_design_reports_measured_against_modelled(tmp_path: Path, catalog: HardwareCatalog) -> None:
    name = "gpcheckperf_slow_disks_10gbe.txt"
    now = datetime(2026, 11, 29, tzinfo=UTC)
    prof = MeasurementProfile("slow-10gbe", None, now, (ProfileFile(
        name, now, parse_measurement((FIXTURES / name).read_text(encoding="utf-8"), name)),))
    doc = json.loads((SAMPLES / "retail-dw-gen5.json").read_text(encoding="utf-8"))
    doc["platform"]["measurements"] = ["slow-10gbe"]
    s = parse_scenario(doc)
    r = size(s, catalog, profiles={"slow-10gbe": prof})
    out = tmp_path / "measured.pdf"
    render_report([r], [s], out)
    text = pdf_text(out)
    assert r.calibration is not None
    assert "Measured vs modelled" in text and "Sized on slow-10gbe: segment hosts" in text
    read = next(x for x in r.calibration["resources"] if x["resource"] == "disk_read")
    assert f"{read['ratio']:.2g}" in text and "below 0.9 x" in text and "checked only" in text
    sections = [line for line in text.splitlines() if line[:2].strip().isdigit() and "Warnings" in line]
    number = sections[-1].split()[0] if sections else None
    assert number is not None and f"(section {number})" in " ".join(text.split())


@pytest.mark.parametrize("sample", ["retail-dw-gen5.json"])
def test_without_profiles_there_is_no_such_section(tmp_path: Path, catalog: HardwareCatalog, sample: str) -> None:
    s = parse_scenario(json.loads((SAMPLES / sample).read_text(encoding="utf-8")))
    out = tmp_path / "plain.pdf"
    render_report([size(s, catalog)], [s], out)
    assert "Measured vs modelled" not in pdf_text(out)

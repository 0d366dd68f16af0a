"""`refarch report` from the command line: outputs written, bad input exit 2 without a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from tests.app.export.conftest import SAMPLES, flat, pdf_text


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'catalog.sqlite'}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def capex_of(capsys: pytest.CaptureFixture[str], db: str, scenario: Path) -> float:
    code, out, _ = run(capsys, "--db", db, "size", str(scenario), "--format", "json")
    assert code == 0
    return float(json.loads(out)["totals"]["capex"])


def test_report_writes_pdf_csv_and_xlsx_with_the_size_capex(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            db: str) -> None:
    sample = SAMPLES / "retail-dw-gen5.json"
    pdf, csv_path, xlsx = tmp_path / "r.pdf", tmp_path / "bom.csv", tmp_path / "bom.xlsx"
    code, out, err = run(capsys, "--db", db, "report", str(sample), "-o", str(pdf), "--bom-csv", str(csv_path),
                         "--bom-xlsx", str(xlsx))
    assert code == 0, err
    assert f"wrote {pdf}" in out
    capex = capex_of(capsys, db, sample)
    assert f"{capex:,.2f} USD" in pdf_text(pdf)
    assert f"one-time total,,,,,,,,,,,{capex:.2f},USD" in csv_path.read_text(encoding="utf-8-sig")
    assert xlsx.stat().st_size > 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp files left


def test_several_scenarios_give_a_comparison(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str) -> None:
    pdf = tmp_path / "options.pdf"
    code, _, err = run(capsys, "--db", db, "report", str(SAMPLES / "gp-oltp.json"), str(SAMPLES / "sap-iq.json"),
                       "-o", str(pdf), "--title", "Platform options")
    assert code == 0, err
    text = pdf_text(pdf)
    assert "Contents" in text and "Options compared" in text and "Platform options" in text


def test_energy_price_overrides_the_scenarios(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str) -> None:
    sample = SAMPLES / "sap-iq.json"
    priced = json.loads(sample.read_text(encoding="utf-8"))
    priced["assumptions"] = {"energy_price_per_kwh": 0.4}
    (tmp_path / "priced.json").write_text(json.dumps(priced), encoding="utf-8")
    code, out, _ = run(capsys, "--db", db, "size", str(tmp_path / "priced.json"), "--format", "json")
    energy_cost = json.loads(out)["totals"]["energy_cost_per_year"]
    pdf = tmp_path / "r.pdf"
    code, _, err = run(capsys, "--db", db, "report", str(sample), "-o", str(pdf), "--energy-price", "0.4")
    assert code == 0, err
    text = flat(pdf_text(pdf))
    assert "0.4 USD per kWh" in text
    assert f"{energy_cost:,.0f} USD" in text  # an estimate: whole units, no cents


@pytest.mark.parametrize("content", ["{not json", '{"schema_version": 1, "name": "x", "workload": {"kind": "x"}}'])
def test_broken_scenario_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str, content: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    pdf = tmp_path / "r.pdf"
    code, _, err = run(capsys, "--db", db, "report", str(bad), "-o", str(pdf))
    assert code == 2
    assert "invalid scenario" in err and "Traceback" not in err
    assert not pdf.exists()


@pytest.mark.parametrize("target", ["no-such-folder/r.pdf", "a-folder", "a-file.txt/r.pdf"])
def test_unwritable_output_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str, target: str) -> None:
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file.txt").write_text("x")
    code, _, err = run(capsys, "--db", db, "report", str(SAMPLES / "sap-iq.json"), "-o", str(tmp_path / target))
    assert code == 2
    assert "cannot write the report" in err and "Traceback" not in err


def test_unwritable_bom_output_exits_2_before_rendering(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         db: str) -> None:
    pdf = tmp_path / "r.pdf"
    code, _, err = run(capsys, "--db", db, "report", str(SAMPLES / "sap-iq.json"), "-o", str(pdf), "--bom-xlsx",
                       str(tmp_path / "missing" / "b.xlsx"))
    assert code == 2 and "missing" in err
    assert not pdf.exists()


def test_bad_energy_price_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str) -> None:
    code, _, err = run(capsys, "--db", db, "report", str(SAMPLES / "sap-iq.json"), "-o", str(tmp_path / "r.pdf"),
                       "--energy-price", "-1")
    assert code == 2 and "energy-price" in err

"""`refarch fit-usl FILE.csv`: output formats and exit 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import models.perf.usl as usl_module
from app.cli.main import main
from models.perf.usl import UslFitError, usl

LAM, SIGMA, KAPPA = 900.0, 0.04, 0.0008
CLIENTS = [1, 2, 4, 8, 16, 24, 32, 48, 64]


def _csv(tmp_path: Path, text: str, name: str = "run.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _good(tmp_path: Path) -> Path:
    rows = "\n".join(f"{n},{float(usl(n, LAM, SIGMA, KAPPA)):.3f}" for n in CLIENTS)
    return _csv(tmp_path, "clients,throughput\n" + rows + "\n")


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit-usl", str(_good(tmp_path)), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"lambda", "sigma", "kappa", "peak_clients", "peak_throughput", "r2", "intervals", "points"}
    assert doc["points"] == len(CLIENTS)
    assert doc["lambda"] == pytest.approx(LAM, rel=1e-3)
    assert doc["sigma"] == pytest.approx(SIGMA, rel=1e-2)
    assert doc["kappa"] == pytest.approx(KAPPA, rel=1e-2)
    assert doc["peak_clients"] == pytest.approx(np.sqrt((1 - SIGMA) / KAPPA), rel=1e-2)
    assert doc["r2"] > 0.999
    for name in ("lambda", "sigma", "kappa"):
        lo, hi = doc["intervals"][name]
        assert lo <= doc[name] <= hi


def test_table_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit-usl", str(_good(tmp_path))]) == 0
    out = capsys.readouterr().out
    for word in ("lambda", "sigma", "kappa", "peak clients", "peak throughput", "r2", "95 % low"):
        assert word in out
    assert out.count("\n") > len(CLIENTS)


def test_extra_columns_and_column_order_are_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = "\n".join(f"{float(usl(n, LAM, SIGMA, KAPPA)):.3f},run-a,{n}" for n in CLIENTS)
    path = _csv(tmp_path, "Throughput,label,Clients\n" + rows + "\n")
    assert main(["fit-usl", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == len(CLIENTS)


def test_three_points_give_null_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path, "clients,throughput\n1,1000\n8,6000\n32,9000\n")
    assert main(["fit-usl", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["intervals"] == {"lambda": None, "sigma": None, "kappa": None}
    assert doc["covariance_note"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("", "empty file"),
        ("clients,tps\n1,10\n2,20\n4,30\n", "missing column(s) throughput"),
        ("1,1000\n2,1900\n4,3500\n", "missing column(s) clients, throughput"),
        ("clients,throughput\n1,1000\n2,abc\n4,3500\n", "row 3: throughput 'abc' is not a number"),
        ("clients,throughput\n1,1000\nfour,1900\n4,3500\n", "row 3: clients 'four' is not a number"),
        ("clients,throughput\n1,1000\n2,\n4,3500\n", "row 3: throughput is empty"),
        ("clients,throughput\n1,1000\n2,nan\n4,3500\n", "row 3: throughput 'nan' is not a finite number"),
        ("clients,throughput\n1,1000\n2,1900\n", "at least 3 points"),
        ("clients,throughput\n0,1000\n2,1900\n4,3500\n", "row 2: clients must be > 0"),
        ("clients,throughput\n1,1000\n2,-5\n4,3500\n", "row 3: throughput must be > 0"),
        ("clients,throughput\n2,1000\n2,1100\n4,3500\n4,3600\n", "3 distinct client counts"),
    ],
)
def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str) -> None:
    assert main(["fit-usl", str(_csv(tmp_path, content))]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit-usl", str(tmp_path / "absent.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_binary_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.xlsx"
    path.write_bytes(b"PK\x03\x04\x14\x00\x06\x00\xff\xfe\x00\x00binary")
    assert main(["fit-usl", str(path)]) == 2
    assert "not a CSV text file" in capsys.readouterr().err


def test_all_bad_rows_are_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path, "clients,throughput\nx,1\n2,y\n4,-1\n")
    assert main(["fit-usl", str(path)]) == 2
    err = capsys.readouterr().err
    assert "3 bad value(s)" in err
    assert "row 2" in err and "row 3" in err and "row 4" in err


def test_non_converging_fit_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*_args: object, **_kwargs: object) -> None:
        raise UslFitError("the USL fit did not converge (max 1 evaluations)")

    monkeypatch.setattr(usl_module, "fit_usl", fail)  # the command imports it when it runs
    assert main(["fit-usl", str(_good(tmp_path))]) == 2
    assert "did not converge" in capsys.readouterr().err


@pytest.mark.parametrize(("rows", "expected"), [
    ("1,1e300\n2,2e300\n4,4e300", "throughput must be at most 1e+15 per second: point 1 (1e+300)"),
    ("1,1e308\n2,1.7e308\n3,1.79e308", "throughput must be at most 1e+15"),  # the tester's lambda 1e308, exit 0
    ("1,1e-300\n2,2e-300\n3,3e-300", "throughput must be at least 1e-06 per second"),
    ("1e300,1\n2e300,2\n4e300,3", "clients must be at most 1e+07"),
    ("0.5,10\n2,20\n3,30", "clients must be at least 1"),
    ("1,1\n2,2000\n3,3000000", "more than 1e+06x within one sweep"),
])
def test_extreme_points_are_refused_without_numpy_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            rows: str, expected: str) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning fails the test
        assert main(["fit-usl", str(_csv(tmp_path, f"clients,throughput\n{rows}\n"))]) == 2
    assert expected in capsys.readouterr().err


@pytest.mark.parametrize(("rows", "flag"), [
    ("1,100\n2,100\n3,100\n4,100", "sigma at its bound 1"),
    ("1,100\n2,300\n4,900\n8,2000", "superlinear points"),
])
def test_fits_outside_the_physical_bounds_are_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      rows: str, flag: str) -> None:
    path = _csv(tmp_path, f"clients,throughput\n{rows}\n")
    assert main(["fit-usl", str(path)]) == 0
    assert f"warning: outside the USL's physical bounds: {flag}" in capsys.readouterr().out
    assert main(["fit-usl", str(path), "--format", "json"]) == 0
    assert flag in json.loads(capsys.readouterr().out)["physical_note"]


def test_a_good_sweep_has_no_physical_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit-usl", str(_good(tmp_path)), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["physical_note"] is None


def test_a_huge_csv_is_refused_early_in_a_small_multiple_of_its_size(tmp_path: Path) -> None:
    """The tester's case: a 49 MB USL CSV took 1.9 GB and 30 s. The rows are read lazily and the file refused past
    MAX_POINTS; measured here on a 6 MB file: the reader's peak allocation stays within 3x the file's size."""
    import tracemalloc

    from app.cli.commands import fit_usl
    from app.cli.errors import CliError

    path = tmp_path / "huge.csv"
    rows = "".join(f"{1 + i % 64},{1000 + i % 997}.25\n" for i in range(500_000))
    path.write_text("clients,throughput\n" + rows, encoding="utf-8")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        with pytest.raises(CliError, match="more than 100,000 points"):
            fit_usl.read_points(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size > 5_000_000 and peak < 3 * size, (size, peak)

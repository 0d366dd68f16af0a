"""The report use case is one: File > Export and `refarch report` size, plan and write through
`app.services.report` under one error policy, so the same input gives the same problem and the same notes."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from app.cli.catalog_access import load_catalog
from app.cli.main import main
from app.gui.export_actions import run_export
from app.services import report
from app.services.errors import ServiceError
from models.hardware import HardwareCatalog
from models.problems import Problem
from models.scenario import Scenario, load_scenario
from models.sizing.parts import SizingInputError
from models.tasks import Cancelled
from tests.app.export.conftest import SAMPLES


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'catalog.sqlite'}"


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def gui(kind: str, scenarios: list[Scenario], catalog: HardwareCatalog, path: Path) -> tuple[Path, list[str]]:
    """What File > Export runs on its worker thread."""
    seen: list[tuple[int, int]] = []
    out = run_export(kind, scenarios, catalog, path, threading.Event(), lambda d, t: seen.append((d, t)))  # type: ignore[arg-type]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    return out


def bad_scenario(tmp_path: Path) -> Path:
    data = json.loads((SAMPLES / "retail-dw-gen5.json").read_text(encoding="utf-8"))
    data["platform"]["server_id"] = "no-such-server"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_window_and_the_cli_refuse_the_same_bad_input_with_the_same_problem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str
) -> None:
    bad = bad_scenario(tmp_path)
    code, _, err = cli(capsys, "--db", db, "report", str(bad), "-o", str(tmp_path / "cli.pdf"))
    assert code == 2 and "Traceback" not in err
    with pytest.raises(ServiceError) as caught:
        gui("pdf", [load_scenario(bad)], load_catalog(db), tmp_path / "gui.pdf")
    problems = caught.value.problems
    assert [p.path for p in problems] == ["platform.server_id"]
    assert f"refarch: invalid scenario {bad}" in err
    for p in problems:
        assert f"  - {p}" in err.splitlines()  # word for word
    assert not (tmp_path / "cli.pdf").exists() and not (tmp_path / "gui.pdf").exists()


def test_a_growth_plan_the_engine_cannot_make_is_left_out_and_said_by_both(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_a: object, **_k: object) -> None:
        raise SizingInputError([Problem("workload.horizon_years", "no design holds year 3's data")])

    monkeypatch.setattr("models.whatif.growth", refuse)
    sample = SAMPLES / "sap-iq.json"
    code, out, err = cli(capsys, "--db", db, "report", str(sample), "-o", str(tmp_path / "cli.pdf"))
    assert code == 0 and f"wrote {tmp_path / 'cli.pdf'}" in out
    path, notes = gui("pdf", [load_scenario(sample)], load_catalog(db), tmp_path / "gui.pdf")
    assert path.stat().st_size > 0 and (tmp_path / "cli.pdf").stat().st_size > 0
    assert len(notes) == 1 and "growth plan left out" in notes[0] and "year 3's data" in notes[0]
    # the same note, named by the file on the command line and by the scenario in the window
    assert f"refarch: note: {notes[0].replace(load_scenario(sample).name, str(sample), 1)}" in err


def test_a_bug_in_the_growth_plan_is_not_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window used to drop the section on any exception; a bug now shows as one (the CLI's policy)."""
    from catalog.seed import seed_catalog

    def broken(*_a: object, **_k: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("models.whatif.growth", broken)
    with pytest.raises(ZeroDivisionError):
        gui("pdf", [load_scenario(SAMPLES / "sap-iq.json")], seed_catalog(), tmp_path / "r.pdf")
    assert not (tmp_path / "r.pdf").exists()


def test_size_for_report_cancels_with_the_task_protocol(tmp_path: Path) -> None:
    from catalog.seed import seed_catalog

    scenario = load_scenario(SAMPLES / "retail-dw-gen5.json")
    calls = {"n": 0}

    def cancelled() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(Cancelled):
        report.export_report([scenario], seed_catalog(), tmp_path / "r.pdf", cancelled=cancelled)
    assert list(tmp_path.iterdir()) == []


def test_outputs_are_checked_before_sizing(tmp_path: Path) -> None:
    with pytest.raises(ServiceError) as caught:
        report.check_outputs([tmp_path / "a.pdf", tmp_path / "a.pdf", tmp_path / "missing" / "b.csv"])
    texts = [str(p) for p in caught.value.problems]
    assert "the PDF, CSV, XLSX, DOCX and PPTX outputs must be different files" in texts
    assert any(t.startswith(f"{tmp_path / 'missing' / 'b.csv'}: folder") for t in texts)


@pytest.mark.parametrize("failure", ["xlsx fails", "cancelled after the pdf"])
def test_a_report_set_is_written_whole_or_not_at_all(tmp_path: Path, db: str, monkeypatch: pytest.MonkeyPatch,
                                                     failure: str) -> None:
    """Before: the PDF was renamed into place first, so a failed or cancelled BOM left a new PDF beside old BOMs."""
    from app.export import ExportError

    scenario = load_scenario(SAMPLES / "retail-dw-gen5.json")
    inputs = report.size_for_report([scenario], load_catalog(db), with_growth=False)
    targets = [tmp_path / "r.pdf", tmp_path / "r.csv", tmp_path / "r.xlsx"]
    for path in targets:
        path.write_bytes(b"old " + path.suffix.encode())
    real = report.write_bom
    cancel = threading.Event()

    def failing(results, scenarios, path, fmt):  # type: ignore[no-untyped-def]
        if failure == "xlsx fails" and fmt == "xlsx":
            raise ExportError(f"cannot write {path}: No space left on device")
        out = real(results, scenarios, path, fmt)
        cancel.set()  # the next step sees the cancel
        return out

    monkeypatch.setattr(report, "write_bom", failing)
    with pytest.raises((ServiceError, Cancelled)):
        report.write_report(inputs, targets[0], bom_csv=targets[1], bom_xlsx=targets[2],
                            cancelled=cancel.is_set if failure != "xlsx fails" else None)
    assert [p.read_bytes() for p in targets] == [b"old .pdf", b"old .csv", b"old .xlsx"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".r.")) == []
    monkeypatch.setattr(report, "write_bom", real)
    assert report.write_report(inputs, targets[0], bom_csv=targets[1], bom_xlsx=targets[2]) == targets
    assert targets[0].read_bytes().startswith(b"%PDF") and targets[2].read_bytes().startswith(b"PK")

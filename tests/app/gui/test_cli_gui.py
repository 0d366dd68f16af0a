"""`refarch gui --screenshot`: renders the window with its results and exits; a bad catalog exits 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from app.cli.main import main
from app.gui.launch import render_screenshot
from app.gui.main_window import MainWindow


def test_screenshot_waits_for_the_results(window: MainWindow, tmp_path: Path) -> None:
    window.doc.edit(window.current_uid, ("workload", "data_tb"), 500.0)  # type: ignore[arg-type]
    out = tmp_path / "main.png"
    render_screenshot(window, out, "main")
    assert not window.coordinator.busy()
    assert window.results.result is window.coordinator.results[window.current_uid]  # type: ignore[index]
    assert window.results.result.scenario_name == "Small DW"
    assert window.coordinator.result_inputs[window.current_uid].workload.data_tb == 500  # type: ignore[index, union-attr]
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1400, 900)


@pytest.mark.parametrize("view", ["compare", "catalog"])
def test_cli_screenshot_of_a_view(qapp, tmp_path: Path, project_file: Path, view: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / f"{view}.png"
    code = main(["--db", f"sqlite:///{tmp_path / 'cat.sqlite'}", "gui", str(project_file), "--screenshot", str(out),
                 "--view", view])
    assert code == 0
    assert QImage(str(out)).width() == 1400


def test_cli_screenshot_without_a_catalog_exits_2(qapp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "x.png"
    code = main(["--db", f"sqlite:///{tmp_path / 'missing-dir' / 'cat.sqlite'}", "gui", "--screenshot", str(out)])
    assert code == 2
    assert "cannot open the catalog" in capsys.readouterr().err
    assert not out.exists()


def test_cli_screenshot_of_a_broken_project_exits_2(qapp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.refarch.json"
    bad.write_text('{"kind": "refarch-project", "scenarios": [{"name": "x"}]}')
    code = main(["gui", str(bad), "--screenshot", str(tmp_path / "x.png")])
    assert code == 2
    assert "scenarios[0].workload" in capsys.readouterr().err

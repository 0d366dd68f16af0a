"""The optimizer dialog and the exports: off the UI thread, cancellable, applied back to the scenario."""

from __future__ import annotations

import threading
from pathlib import Path

from app.gui.main_window import MainWindow
from app.gui.optimizer_dialog import OptimizerDialog
from models.tasks import Cancelled


def test_optimizer_runs_and_its_design_goes_back_into_the_scenario(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    uid = window.current_uid
    entry = window.doc.entry(uid)  # type: ignore[arg-type]
    dialog = OptimizerDialog(entry.scenario, window.source.snapshot, window)  # type: ignore[union-attr]
    qtbot.addWidget(dialog)
    dialog.designChosen.connect(lambda platform: window.doc.edit(uid, ("platform",), platform))  # type: ignore[arg-type]
    dialog.start()
    qtbot.waitUntil(lambda: dialog.optimization is not None, timeout=30_000)
    assert dialog.table.rowCount() == len(dialog.optimization.pareto) > 0
    assert dialog.use_btn.isEnabled()
    catalog = window.source.snapshot  # type: ignore[union-attr]
    for row, p in enumerate(dialog.optimization.pareto):  # parts by name, the catalog id only in the tooltip
        server = catalog.get(p.server_id)
        assert dialog.table.item(row, 0).text() == f"{server.vendor} {server.model}"
        assert p.server_id in dialog.table.item(row, 0).toolTip()
    best = dialog.optimization.best
    assert best.server_id not in dialog.summary.text() and best.drive_id not in dialog.summary.text()
    point = dialog.selected_point()
    dialog.use_btn.click()
    platform = window.doc.entry(uid).scenario.platform  # type: ignore[arg-type]
    assert (platform.server_id, platform.drive_id, platform.drives_per_host) == (
        point.server_id, point.drive_id, point.drives_per_host)
    window.doc.undo_stack.undo()  # one undoable step
    assert window.doc.entry(uid).scenario.platform.server_id is None  # type: ignore[arg-type]


def test_a_front_without_a_feasible_design_shows_the_scenarios_currency(  # type: ignore[no-untyped-def]
        qtbot, window: MainWindow) -> None:
    """Nothing feasible, so no sized pick to read the currency from: the front's capex cells still name the project
    currency (they showed bare figures)."""
    entry = window.doc.entries[0]
    scenario = entry.scenario.model_copy(update={  # type: ignore[union-attr]
        "targets": entry.scenario.targets.model_copy(update={"max_full_scan_s": 1.0}),  # type: ignore[union-attr]
        "commercial": entry.scenario.commercial.model_copy(update={"currency": "EUR"})})  # type: ignore[union-attr]
    dialog = OptimizerDialog(scenario, window.source.snapshot, window)  # type: ignore[union-attr]
    qtbot.addWidget(dialog)
    dialog.start()
    qtbot.waitUntil(lambda: dialog.optimization is not None, timeout=30_000)
    assert dialog.optimization.best is None and dialog.table.rowCount() > 0
    assert all(dialog.table.item(row, 6).text().endswith(" EUR") for row in range(dialog.table.rowCount()))


def test_optimizer_target_errors_block_the_run(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    dialog = OptimizerDialog(window.doc.entries[0].scenario, window.source.snapshot, window)  # type: ignore[union-attr]
    qtbot.addWidget(dialog)
    editor = dialog.editors["targets.max_capex"]
    editor.widget.setText("-1")  # type: ignore[attr-defined]
    editor.widget.textEdited.emit("-1")  # type: ignore[attr-defined]
    assert editor.error and not dialog.run_btn.isEnabled()


def test_optimizer_cancel_stops_the_search(qtbot, window: MainWindow, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.gui import optimizer_dialog

    started = threading.Event()

    def slow(scenario, catalog, cancel, progress):  # type: ignore[no-untyped-def]
        started.set()
        while not cancel.wait(0.01):
            progress(1, 100)
        raise Cancelled()

    monkeypatch.setattr(optimizer_dialog, "run_optimizer", slow)
    dialog = OptimizerDialog(window.doc.entries[0].scenario, window.source.snapshot, window)  # type: ignore[union-attr]
    qtbot.addWidget(dialog)
    dialog.start()
    assert started.wait(5)
    dialog.cancel()
    qtbot.waitUntil(lambda: dialog.job is None, timeout=5000)
    assert dialog.summary.text() == "Cancelled." and dialog.optimization is None


def test_export_pdf_and_bom(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    exporter = window.exporter
    assert exporter is not None
    for kind in ("pdf", "csv", "xlsx", "docx", "pptx"):
        target = tmp_path / f"out.{kind}"
        exporter.ask_path = lambda _k, _s, target=target: target
        assert exporter.export(kind)  # type: ignore[arg-type]
        qtbot.waitUntil(lambda: not exporter.busy(), timeout=60_000)
        assert exporter.last_path == target and target.stat().st_size > 0
    assert (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF")
    assert "Small DW" in (tmp_path / "out.csv").read_text(encoding="utf-8-sig")
    from docx import Document
    from pptx import Presentation

    assert Document(str(tmp_path / "out.docx")).paragraphs[0].text == "Small DW"
    assert len(Presentation(str(tmp_path / "out.pptx")).slides) >= 3  # cover, key figures, BOM at least


def test_a_cancelled_export_writes_nothing(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    exporter = window.exporter
    assert exporter is not None
    target = tmp_path / "cancelled.pdf"
    exporter.ask_path = lambda _k, _s: target
    window.scenarios.list.selectAll()  # both scenarios: a longer report
    assert exporter.export("pdf")
    exporter.cancel()
    qtbot.waitUntil(lambda: not exporter.busy(), timeout=60_000)
    assert not target.exists()


def test_export_configuration_writes_the_folder_and_asks_before_overwriting(  # type: ignore[no-untyped-def]
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    exporter = window.exporter
    assert exporter is not None and "export_config" in window.menu_actions
    target = tmp_path / "cfg"
    exporter.ask_path = lambda _k, _s: target
    asked: list[Path] = []
    exporter.confirm_overwrite = lambda folder: asked.append(folder) or False
    assert exporter.export("config")
    qtbot.waitUntil(lambda: not exporter.busy(), timeout=60_000)
    assert exporter.last_path == target and (target / "README.txt").is_file() and not asked
    readme = (target / "README.txt").read_text()
    # a non-empty folder: refused unless the user confirms, and then written again
    assert not exporter.export("config") and asked == [target]
    exporter.confirm_overwrite = lambda _folder: True
    assert exporter.export("config")
    qtbot.waitUntil(lambda: not exporter.busy(), timeout=60_000)
    assert (target / "README.txt").read_text() == readme

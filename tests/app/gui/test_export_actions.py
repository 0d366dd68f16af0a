"""File > Export goes through `app.services`: a scenario the engine refuses is shown with its problems,
and a report that leaves its growth plan out says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.gui.main_window import MainWindow
from models.problems import Problem
from models.sizing.parts import SizingInputError


def test_an_export_of_a_refused_scenario_shows_its_problem(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    uid = window.current_uid
    window.doc.edit(uid, ("platform", "server_id"), "no-such-server")  # type: ignore[arg-type]
    shown: list[tuple[str, str]] = []
    window.show_error = lambda title, text: shown.append((title, text))
    exporter = window.exporter
    assert exporter is not None
    target = tmp_path / "out.pdf"
    exporter.ask_path = lambda _k, _s: target
    assert exporter.export("pdf")
    qtbot.waitUntil(lambda: not exporter.busy(), timeout=60_000)
    # the field's label, as the form and the sizing problems say it (not the JSON path)
    assert shown == [("Export failed", "Server: unknown server id 'no-such-server'")]
    assert not target.exists()


def test_a_report_without_its_growth_plan_says_why(qtbot, window: MainWindow, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_a: object, **_k: object) -> None:
        raise SizingInputError([Problem("workload.horizon_years", "no design holds year 3's data")])

    monkeypatch.setattr("models.whatif.growth", refuse)
    exporter = window.exporter
    assert exporter is not None
    target = tmp_path / "out.pdf"
    exporter.ask_path = lambda _k, _s: target
    assert exporter.export("pdf")
    qtbot.waitUntil(lambda: not exporter.busy(), timeout=60_000)
    assert exporter.last_path == target and target.stat().st_size > 0
    assert len(exporter.last_notes) == 1 and "growth plan left out" in exporter.last_notes[0]
    assert exporter.last_notes[0] in window.statusBar().currentMessage()

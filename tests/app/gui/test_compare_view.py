"""The compare view splits a mixed selection by workload kind, as the PDF and `refarch compare` do: a winner
only among scenarios of one kind, and only where the difference is outside the noise."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from app.gui.compare_view import BEST_BG, CompareView, KindPanel
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, Platform, Project, Scenario, load_scenario
from models.whatif import compare
from tests.app.gui.conftest import open_window

SAMPLES = Path(__file__).parents[3] / "resources" / "samples"


def _window(qtbot, seed: HardwareCatalog, settings: QSettings, tmp_path: Path, project: Project):  # type: ignore[no-untyped-def]
    from app.services.project_files import save_project

    path = tmp_path / "mixed.refarch.json"
    save_project(project, path)
    win = open_window(qtbot, path, seed, settings, tmp_path, size=(1280, 720))
    qtbot.waitUntil(lambda: all(win.coordinator.results.get(e.uid) for e in win.doc.entries), timeout=120_000)
    for e in win.doc.entries:
        win.scenarios._item(e.uid).setSelected(True)  # type: ignore[union-attr]
    win.show_view("compare")
    win._refresh_compare()
    for _ in range(3):
        QApplication.processEvents()
    return win


def _green_columns(panel: KindPanel) -> dict[int, int]:
    """Row -> the column painted as the row's best."""
    t = panel.table
    out = {}
    for row in range(t.rowCount()):
        for col in range(len(panel.names)):
            item = t.item(row, col)
            if item is not None and item.background().color() == BEST_BG:
                assert row not in out, "two best cells in one row"
                out[row] = col
    return out


def test_a_mixed_selection_gets_a_table_per_workload_and_winners_only_within_one(  # type: ignore[no-untyped-def]
        qtbot, seed: HardwareCatalog, settings: QSettings, tmp_path: Path) -> None:
    pg = load_scenario(SAMPLES / "pg-consolidation.json").model_copy(update={"name": "Consolidation"})
    project = Project(name="Mixed", scenarios=[
        Scenario(name="Small DW", workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10)),
        pg,
        # the same work on a named server: ranked against Small DW (a 400 TB design would be other work, not ranked)
        Scenario(name="Big DW", workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10),
                 platform=Platform(server_id="dell-r7625-24x-u3-2x-epyc-9654")),
    ])
    win = _window(qtbot, seed, settings, tmp_path, project)
    view: CompareView = win.compare
    assert view.tabs.count() == 2 and view.tabs.tabBar().isVisible()
    gp, pgp = view.panel("greenplum-analytics"), view.panel("postgres-consolidation")
    assert gp is not None and pgp is not None
    assert gp.names == ["Small DW", "Big DW"] and pgp.names == ["Consolidation"]
    assert "different workloads" in view.hint.text()

    # the lone PostgreSQL option: no "Best" column, nothing green, no chart, and it says why
    assert pgp.table.columnCount() == 1
    assert _green_columns(pgp) == {}
    assert "nothing to rank" in pgp.note.text()

    # the Greenplum table: exactly the winners of comparing the two Greenplum results alone
    results = {e.name: win.coordinator.results[e.uid] for e in win.doc.entries}
    expected = {r.metric: r.verdict.winner for r in compare([results["Small DW"], results["Big DW"]])}
    green = _green_columns(gp)
    assert green, "the two servers' designs differ beyond the noise somewhere"
    for row, cr in enumerate(gp.rows):
        assert expected[cr.key] == cr.winner
        assert green.get(row) == cr.winner, cr.label
        best = gp.table.item(row, len(gp.names))
        assert best is not None and (cr.winner is None) == (not best.text().replace("\n", " ").startswith(
            tuple(gp.names))), best.text()
    # no PostgreSQL metric leaks into the Greenplum table, and the other way round
    assert not {r.key for r in gp.rows} & {m for m in results["Consolidation"].estimates}
    assert not {r.key for r in pgp.rows} & {m for m in results["Small DW"].estimates}

    view.tabs.setCurrentWidget(pgp)
    win._refresh_compare()  # a re-size keeps the tab the user is looking at
    assert view.tabs.currentWidget() is pgp


def test_options_inside_the_noise_have_no_winner(  # type: ignore[no-untyped-def]
        qtbot, seed: HardwareCatalog, settings: QSettings, tmp_path: Path) -> None:
    project = Project(name="Twins", scenarios=[
        Scenario(name="DW A", workload=GreenplumAnalytics(data_tb=50, concurrent_queries=20)),
        Scenario(name="DW B", workload=GreenplumAnalytics(data_tb=50.5, concurrent_queries=20)),
    ])
    win = _window(qtbot, seed, settings, tmp_path, project)
    view: CompareView = win.compare
    assert view.tabs.count() == 1 and not view.tabs.tabBar().isVisible()
    (panel,) = view.panels
    estimates = [r for r in panel.rows if r.low is not None]
    assert estimates, "the estimates are compared"
    for row, cr in enumerate(panel.rows):
        best = panel.table.item(row, len(panel.names))
        assert best is not None
        if cr in estimates:  # 1 % more data: P10-P90 ranges overlap, so no estimate wins
            assert cr.winner is None and best.text().replace("\n", " ").startswith("no clear winner"), cr.label
    assert not {row for row, cr in enumerate(panel.rows) if cr in estimates} & set(_green_columns(panel))


def test_an_option_sized_for_other_work_is_named_as_not_ranked(  # type: ignore[no-untyped-def]
        qtbot, seed: HardwareCatalog, settings: QSettings, tmp_path: Path) -> None:
    # two answers to one question (same data, reports and targets; bare metal or vSphere) and a lab bed a tenth
    # the size: the lab bed's low capex must not read as beaten by a "Best" it was never ranked for
    project = Project(name="Lab beside", scenarios=[
        Scenario(name="DW metal", workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10)),
        Scenario(name="DW vSphere", workload=GreenplumAnalytics(data_tb=20, concurrent_queries=10),
                 platform=Platform(deployment="vsphere")),
        Scenario(name="Lab bed", workload=GreenplumAnalytics(data_tb=2, concurrent_queries=10)),
    ])
    win = _window(qtbot, seed, settings, tmp_path, project)
    hint = win.compare.hint.text()
    assert "Not ranked" in hint and "Lab bed" in hint.split("Not ranked", 1)[1]
    assert "DW metal" not in hint.split("Not ranked", 1)[1] and "DW vSphere" not in hint.split("Not ranked", 1)[1]

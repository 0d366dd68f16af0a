"""Fixtures for the GUI tests: offscreen Qt, a seed catalog in memory, a window on a small project."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before anything imports Qt

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QThreadPool

from app.services import sizing
from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.result import SizingResult
from tests.app.projects import small_project

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # every test here needs Qt: mark them so `-m "not gui"` can skip the lot
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.gui)


@pytest.fixture(scope="session")
def seed() -> HardwareCatalog:
    return seed_catalog()


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # autosaves and the default catalog must never touch the real user data dir
    monkeypatch.setenv("REFARCH_DATA_DIR", str(tmp_path / "userdata"))
    monkeypatch.setenv("REFARCH_DB", f"sqlite:///{tmp_path / 'default-catalog.sqlite'}")
    yield
    QThreadPool.globalInstance().waitForDone(30_000)




@pytest.fixture
def project_file(tmp_path: Path) -> Path:
    from app.services.project_files import save_project

    path = tmp_path / "test.refarch.json"
    save_project(small_project(), path)
    return path


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def open_window(qtbot, project: Path, catalog: HardwareCatalog, settings: QSettings, tmp_path: Path,  # type: ignore[no-untyped-def]
                size: tuple[int, int] = (1400, 900)):
    """The main window on `project`, shown at `size`, that never blocks on a save prompt when it closes."""
    from app.gui.main_window import MainWindow

    win = MainWindow(project_path=project, catalog=catalog, settings=settings, data_dir=tmp_path / "userdata",
                     interactive=False)
    win.ask_save_changes = lambda: "discard"  # teardown closes the window: never block on a prompt
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    return win


@pytest.fixture(scope="session")
def opening_results() -> dict[str, SizingResult]:
    """The small project's sizings on the seed catalog, kept from the first `window` for the others."""
    return {}


@contextmanager
def sized_once(seed: HardwareCatalog, kept: dict[str, SizingResult]) -> Iterator[None]:
    """While the window opens, the engine sizes each scenario of the small project on the seed catalog once per
    session: every `window` would size the same two scenarios again (0.3 s of CPU, ~80 windows). The window's own
    path (request, job, worker thread, result signal, painting) runs in full each time; only the engine call
    inside the worker returns the result kept from the first window. The test itself runs with the real call."""
    real = sizing.size

    def once(scenario: Scenario, catalog: HardwareCatalog, *args: Any, **kwargs: Any) -> SizingResult:
        if catalog is not seed:
            return real(scenario, catalog, *args, **kwargs)
        key = scenario.model_dump_json()
        if key not in kept:
            kept[key] = real(scenario, catalog, *args, **kwargs)
        return kept[key]

    sizing.size = once  # type: ignore[assignment]
    try:
        yield
    finally:
        sizing.size = real  # type: ignore[assignment]


@pytest.fixture
def window(qtbot, seed: HardwareCatalog, project_file: Path, settings: QSettings, tmp_path: Path,  # type: ignore[no-untyped-def]
           opening_results: dict[str, SizingResult]):
    with sized_once(seed, opening_results):
        win = open_window(qtbot, project_file, seed, settings, tmp_path)
        qtbot.waitUntil(lambda: not win.coordinator.busy(), timeout=30_000)
    yield win
    win.coordinator.cancel_all()
    QThreadPool.globalInstance().waitForDone(30_000)

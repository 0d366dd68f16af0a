"""The window's start path: an unchanged SQLite catalog comes from the snapshot cache, the database libraries
and matplotlib load only when a view needs them, and the catalog editor still edits the database."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.services.catalog_source import CatalogSource
from catalog import snapshot_cache
from models.hardware import Drive

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("matplotlib", "sqlalchemy", "alembic", "reportlab", "openpyxl")
START = """
import json, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
from app.gui.launch import wait_until_idle
from app.gui.main_window import MainWindow
app = QApplication(sys.argv[:1])
window = MainWindow(db_url=sys.argv[1], project_path=Path(sys.argv[2]), interactive=False)
window.show()
idle = wait_until_idle(window)
shown = sum(e.uid in window.coordinator.results for e in window.doc.entries)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in json.loads(sys.argv[3]))
window.show_view("catalog")
app.processEvents()
editor = window.catalog_editor
print(json.dumps({"idle": idle, "shown": shown, "scenarios": len(window.doc.entries), "loaded": loaded,
                  "editor_writable": editor is not None and editor.add_btn.isEnabled(),
                  "after_catalog": "sqlalchemy" in sys.modules}))
window.doc.undo_stack.setClean()
window.close()
"""


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "snapshots"
    snapshot_cache.configure(folder)
    yield folder
    snapshot_cache.configure(None)


def test_a_second_start_shows_results_without_database_or_chart_libraries(tmp_path: Path, cache: Path) -> None:
    url = f"sqlite:///{tmp_path / 'catalog.sqlite'}"
    CatalogSource.open(url).close()  # the first start: creates and seeds the catalog, keeps its snapshot
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "REFARCH_CATALOG_CACHE": str(cache),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "REFARCH_DATA_DIR": str(tmp_path / "data"),
           "PYTHONPATH": str(ROOT)}
    sample = ROOT / "resources" / "samples" / "sample.refarch.json"
    proc = subprocess.run([sys.executable, "-c", START, url, str(sample), json.dumps(HEAVY)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["idle"] and seen["shown"] == seen["scenarios"] > 1
    assert seen["loaded"] == []  # every result on screen, none of these imported
    assert seen["editor_writable"] and seen["after_catalog"]  # the Catalog tab opens the store when shown


def test_a_cached_catalog_opens_its_store_when_asked_and_an_edit_renews_the_cache(tmp_path: Path,
                                                                                  cache: Path) -> None:
    url = f"sqlite:///{tmp_path / 'catalog.sqlite'}"
    CatalogSource.open(url).close()
    source = CatalogSource.open(url)
    try:
        assert source.label == f"local catalog {tmp_path / 'catalog.sqlite'}"
        drive = next(p for p in source.snapshot if isinstance(p, Drive))
        store = source.store
        assert store is not None and source.open_error is None
        store.update(dataclasses.replace(drive, model=drive.model + " (edited)"))
        assert source.refresh().get(drive.id).model == drive.model + " (edited)"
        cached = snapshot_cache.load(url)  # the next start reads the edited catalog from the cache
        assert cached is not None and cached.get(drive.id).model == drive.model + " (edited)"
    finally:
        source.close()


def test_a_catalog_that_cannot_be_opened_later_is_shown_read_only(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "catalog.sqlite"
    url = f"sqlite:///{path}"
    CatalogSource.open(url).close()
    source = CatalogSource.open(url)
    path.write_bytes(b"not a database")  # gone bad between the start and the first edit
    assert source.store is None
    assert source.open_error and str(path) in source.open_error
    assert len(source.refresh()) > 0  # the snapshot on screen stays

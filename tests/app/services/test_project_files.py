"""Project files (app.services.project_files): atomic save, round trip, autosave and crash recovery."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.services import project_files as files
from models.scenario import load_project
from tests.app.projects import small_project


def test_save_round_trips_and_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "p.refarch.json"
    files.save_project(small_project(), path)
    assert load_project(path) == small_project()
    assert [p.name for p in tmp_path.iterdir() if p.name != "userdata"] == ["p.refarch.json"]


def test_a_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "p.refarch.json"
    files.save_project(small_project(), path)
    before = path.read_text()

    def boom(*_a: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        files.save_project(small_project().model_copy(update={"name": "changed"}), path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir() if p.name != "userdata"] == ["p.refarch.json"]


def test_with_suffix_adds_the_project_extension() -> None:
    assert files.with_suffix(Path("/x/deal")).name == "deal.refarch.json"
    assert files.with_suffix(Path("/x/deal.json")).name == "deal.json"


def test_recovery_is_offered_only_for_an_autosave_newer_than_the_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = tmp_path / "p.refarch.json"
    files.save_project(small_project(), path)
    assert files.recoverable_autosave(path, data) is None
    auto = files.write_autosave(small_project(), path, data)
    old = time.time() - 100
    os.utime(path, (old, old))
    assert files.recoverable_autosave(path, data) == auto
    os.utime(auto, (old - 100, old - 100))
    assert files.recoverable_autosave(path, data) is None
    files.discard_autosave(path, data)
    assert not auto.exists()


def test_untitled_autosave_of_a_dead_process_is_an_orphan(tmp_path: Path) -> None:
    data = tmp_path / "data"
    mine = files.write_autosave(small_project(), None, data)
    dead = mine.with_name(f"untitled-999999999{files.PROJECT_SUFFIX}")
    dead.write_text(mine.read_text())
    assert files.orphan_untitled_autosaves(data) == [dead]


class _Settings(dict):  # the two QSettings calls the file dialogs use
    def value(self, key: str, default: object = None) -> object:
        return self.get(key, default)

    def setValue(self, key: str, value: object) -> None:
        self[key] = value


def test_dialogs_start_in_documents_then_in_the_last_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    from app.services.project_files import remember_folder, start_folder

    docs = tmp_path / "Documents"
    docs.mkdir()
    monkeypatch.setattr(platformdirs, "user_documents_dir", lambda: str(docs))
    settings = _Settings()
    assert start_folder(settings) == docs  # never the working directory
    (tmp_path / "customer").mkdir()
    remember_folder(settings, tmp_path / "customer" / "a.refarch.json")
    assert start_folder(settings) == (tmp_path / "customer").resolve()
    settings["lastFolder"] = str(tmp_path / "gone")  # a folder deleted since: back to documents
    assert start_folder(settings) == docs


@pytest.mark.parametrize(("scenarios", "note"), [
    (250, "Customer note, 20 words of context. " * 580),  # the 5.3 MB project that could not be opened again
    (500, "€" * 20_000),  # the schema's maximum: 500 scenarios, 20,000-character notes, 3 bytes a character
])
def test_the_largest_valid_projects_open_again_after_a_save(tmp_path: Path, scenarios: int, note: str) -> None:
    base = small_project().scenarios[0]
    note = note[:20_000]
    project = small_project().model_copy(update={"scenarios": [
        base.model_copy(update={"name": f"Option {i}", "notes": note}) for i in range(scenarios)]})
    path = tmp_path / "big.refarch.json"
    files.save_project(project, path)
    assert path.stat().st_size > 5_000_000
    assert load_project(path) == project

"""A configuration folder appears whole or not at all; the README escapes control characters in names."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.cli.main import main
from app.export import atomic
from app.export.atomic import ExportError
from app.export.config import writer
from app.export.config.bundle import ConfigBundle, ConfigFile
from tests.app.export.conftest import SAMPLES


def _bundle(tag: str) -> ConfigBundle:
    return ConfigBundle("s", "greenplum", [ConfigFile("README.txt", f"readme {tag}\n"),
                                           ConfigFile("gp/gpinitsystem_config", f"config {tag}\n"),
                                           ConfigFile("gp/setup.sh", f"echo {tag}\n", executable=True)])


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


def _fail_on_third(monkeypatch: pytest.MonkeyPatch) -> None:
    real, calls = atomic.atomic_write_bytes, []

    def flaky(path: Path, data: bytes, *, executable: bool = False) -> None:
        calls.append(path)
        if len(calls) == 3:
            raise ExportError(f"cannot write {path}: No space left on device")
        real(path, data, executable=executable)

    monkeypatch.setattr(writer, "atomic_write_bytes", flaky)


def test_a_failed_write_leaves_the_old_folder_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    writer.write_bundle(_bundle("old"), out)
    (out / "mine.txt").write_text("kept")
    old = _files(out)
    _fail_on_third(monkeypatch)
    with pytest.raises(ExportError, match="No space left"):
        writer.write_bundle(_bundle("new"), out, force=True)
    assert _files(out) == old  # before: README and the config new, setup.sh old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging folder left


def test_a_failed_write_of_a_new_folder_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_on_third(monkeypatch)
    with pytest.raises(ExportError):
        writer.write_bundle(_bundle("new"), tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_force_replaces_the_bundle_s_files_and_keeps_the_others(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir(mode=0o750)
    (out / "mine.txt").write_text("kept")
    (out / "gp").mkdir()
    (out / "gp" / "setup.sh").write_text("old")
    written = writer.write_bundle(_bundle("new"), out, force=True)
    assert written == [out / "README.txt", out / "gp" / "gpinitsystem_config", out / "gp" / "setup.sh"]
    assert _files(out) == {"README.txt": "readme new\n", "gp/gpinitsystem_config": "config new\n",
                           "gp/setup.sh": "echo new\n", "mine.txt": "kept"}
    assert os.access(out / "gp" / "setup.sh", os.X_OK) and (out.stat().st_mode & 0o777) == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_the_readme_escapes_control_characters_in_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tester's case: the bundle's README copied newlines from names."""
    data = json.loads((SAMPLES / "sap-iq.json").read_text(encoding="utf-8"))
    data["name"] = "IQ\nrm -rf / \x1b[2J\u202e"  # U+202E: text shown right to left from there
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "config", str(scenario), "-o", str(out)]) == 0
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert "\x1b" not in text and "\u202e" not in text, path
            assert not any(line.startswith("rm -rf") for line in text.splitlines()), path
    readme = next(out.rglob("README.txt")).read_text(encoding="utf-8")
    assert "Scenario: IQ\\nrm -rf / \\x1b[2J\\u202e" in readme

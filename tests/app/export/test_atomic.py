"""Atomic writes: old file intact on failure, permissions kept, temporaries of killed processes cleaned up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.export import atomic


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFARCH_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old")
    for mode in (0o644, 0o640, 0o600):
        os.chmod(path, mode)
        atomic.atomic_write_text(path, "new")
        assert path.stat().st_mode & 0o777 == mode
    assert path.read_text() == "new"


def test_a_new_file_gets_the_umask_permissions(tmp_path: Path) -> None:
    path = tmp_path / "new.csv"
    atomic.atomic_write_text(path, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_failure_keeps_the_old_file_and_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old")
    with pytest.raises(RuntimeError), atomic.atomic_write(path) as tmp:
        tmp.write_text("half")
        raise RuntimeError("renderer failed")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir() if p.name != "data"] == ["out.csv"]


def test_stale_temporaries_of_a_killed_process_are_removed_on_next_start(tmp_path: Path, _data_dir: Path) -> None:
    target = tmp_path / "report.pdf"
    code = (
        "import os, sys; from pathlib import Path; from app.export import atomic\n"
        f"with atomic.atomic_write(Path({str(target)!r})) as tmp:\n"
        "    tmp.write_bytes(b'x' * 1000); print(tmp, flush=True); os.kill(os.getpid(), 9)\n"
    )
    env = {**os.environ, "REFARCH_DATA_DIR": str(_data_dir)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    left = Path(proc.stdout.strip())
    assert proc.returncode == -9 and left.exists() and not target.exists()
    assert atomic.remove_stale_temps() == [left.resolve()]
    assert not left.exists()
    assert list((_data_dir / atomic.JOURNAL_DIR).iterdir()) == []


def test_a_live_writers_temporary_is_left_alone(tmp_path: Path) -> None:
    with atomic.atomic_write(tmp_path / "a.csv") as tmp:
        tmp.write_text("x")
        assert atomic.remove_stale_temps() == []
        assert tmp.exists()


def test_write_errors_become_export_errors(tmp_path: Path) -> None:
    with pytest.raises(atomic.ExportError, match="does not exist"):
        atomic.atomic_write_text(tmp_path / "missing" / "x.csv", "x")

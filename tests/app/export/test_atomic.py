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


def test_an_executable_gets_x_wherever_it_has_r_before_the_rename(tmp_path: Path) -> None:
    path = tmp_path / "gpinitsystem.sh"
    path.write_text("old")
    os.chmod(path, 0o640)
    atomic.atomic_write_bytes(path, b"#!/bin/sh\n", executable=True)
    assert path.stat().st_mode & 0o777 == 0o750


def test_a_saved_project_keeps_the_permissions_the_user_gave_it(tmp_path: Path) -> None:
    from app.services import project_files as files
    from tests.app.projects import small_project

    path = tmp_path / "deal.refarch.json"
    files.save_project(small_project(), path)
    os.chmod(path, 0o644)  # shared with the team
    files.save_project(small_project().model_copy(update={"name": "again"}), path)
    assert path.stat().st_mode & 0o777 == 0o644


CHILD = """
import resource, signal, sys
from pathlib import Path
from app.export.atomic import ExportError, atomic_write_text
from catalog.files import render
from catalog.store import CatalogStore
with CatalogStore.open(sys.argv[1]) as store:  # the catalog is read before the limit: only the export meets it
    text = render(store.export_rows(), "json")
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # as most shells leave it: the write fails with EFBIG
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    atomic_write_text(Path(sys.argv[2]), text)
except ExportError as exc:
    print(exc, file=sys.stderr)
    sys.exit(2)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE and SIGXFSZ as on Linux")
def test_a_file_size_limit_during_a_catalog_export_keeps_the_old_file(tmp_path: Path) -> None:
    """`ulimit -f`: the write fails with EFBIG part way; the 10.9 MB export used to be cut to 1 MB in place."""
    root = Path(__file__).resolve().parents[3]
    out = tmp_path / "catalog.json"
    args = [sys.executable, "-c", CHILD, f"sqlite:///{tmp_path / 'c.db'}", str(out)]
    env = {**os.environ, "PYTHONPATH": str(root)}
    assert subprocess.run([*args, str(10**9)], cwd=root, env=env).returncode == 0
    size = out.stat().st_size
    out.write_bytes(out.read_bytes()[: size // 4])  # an old file the limit allows, to be kept as it is
    before = out.read_bytes()
    run = subprocess.run([*args, str(size // 2)], cwd=root, env=env, capture_output=True, text=True)
    assert run.returncode == 2 and "File too large" in run.stderr, run.stderr
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(atomic.TEMP_SUFFIX)] == []

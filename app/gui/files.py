"""Project files on disk: atomic save, autosave and crash recovery, recent files.

A save never leaves a half-written project: the JSON goes to a temporary file in
the same directory (same filesystem, so the rename is atomic), is fsync'ed, then
replaces the target. Autosaves go to the user data dir under a name derived from
the project path, so two open projects do not overwrite each other's autosave.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path

from models.scenario import Project, load_project, project_to_json

PROJECT_SUFFIX = ".refarch.json"
PROJECT_FILTER = "refarch projects (*.refarch.json);;JSON files (*.json);;All files (*)"
MAX_RECENT = 8


def atomic_write_text(path: Path, text: str) -> None:
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the OS allows it
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def project_text(project: Project) -> str:
    return json.dumps(project_to_json(project), indent=2, ensure_ascii=False) + "\n"


def save_project(project: Project, path: Path) -> None:
    atomic_write_text(path, project_text(project))


def with_suffix(path: Path) -> Path:
    """Add `.refarch.json` to a name typed without an extension."""
    return path if path.name.endswith(".json") else path.with_name(path.name + PROJECT_SUFFIX)


def user_data_dir() -> Path:
    override = os.environ.get("REFARCH_DATA_DIR")  # tests and portable installs
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("refarch", "refarch"))


def autosave_path(project_path: Path | None, data_dir: Path | None = None) -> Path:
    base = (data_dir or user_data_dir()) / "autosave"
    if project_path is None:
        return base / f"untitled-{os.getpid()}{PROJECT_SUFFIX}"
    digest = hashlib.sha1(str(Path(project_path).resolve()).encode()).hexdigest()[:10]
    return base / f"{Path(project_path).name.removesuffix(PROJECT_SUFFIX)}-{digest}{PROJECT_SUFFIX}"


def write_autosave(project: Project, project_path: Path | None, data_dir: Path | None = None) -> Path:
    target = autosave_path(project_path, data_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target, project_text(project))
    return target


def discard_autosave(project_path: Path | None, data_dir: Path | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        autosave_path(project_path, data_dir).unlink()


def recoverable_autosave(project_path: Path | None, data_dir: Path | None = None) -> Path | None:
    """The autosave to offer after a crash: one newer than the project file (or any, for a file never saved)."""
    if project_path is None:
        return None
    target = autosave_path(project_path, data_dir)
    if not target.exists():
        return None
    try:
        if Path(project_path).exists() and target.stat().st_mtime <= Path(project_path).stat().st_mtime:
            return None
    except OSError:
        return None
    return target


def orphan_untitled_autosaves(data_dir: Path | None = None) -> list[Path]:
    """Autosaves of never-saved projects whose process is gone: what a crash left behind."""
    base = (data_dir or user_data_dir()) / "autosave"
    found: list[Path] = []
    for p in sorted(base.glob(f"untitled-*{PROJECT_SUFFIX}")):
        pid_text = p.name.removeprefix("untitled-").removesuffix(PROJECT_SUFFIX)
        if pid_text.isdigit() and int(pid_text) != os.getpid() and not _process_alive(int(pid_text)):
            found.append(p)
    return found


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def open_project(path: Path) -> Project:
    return load_project(Path(path))

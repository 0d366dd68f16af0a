"""Project files on disk: atomic save, autosave and crash recovery, recent files.

A save never leaves a half-written project (`app.export.atomic`), keeps the file's
permissions, and refuses a project larger than refarch can open again. Autosaves go
to the user data dir under a name derived from the project path, so two open projects do not
overwrite each other's autosave.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Protocol

import platformdirs

from app.export import atomic
from models.file_input import PROJECT_MAX_BYTES, dump_json_checked
from models.scenario import Project, load_project, project_to_json

PROJECT_SUFFIX = ".refarch.json"
PROJECT_FILTER = "refarch projects (*.refarch.json);;JSON files (*.json);;All files (*)"
MAX_RECENT = 8


LAST_FOLDER_KEY = "lastFolder"


class Settings(Protocol):
    """What the folder memory reads and writes of the window's QSettings (this layer does not import Qt)."""

    def value(self, key: str, default: object = ..., /) -> object: ...

    def setValue(self, key: str, value: object, /) -> None: ...


def start_folder(settings: Settings) -> Path:
    """Where a file dialog opens: the folder last used, else the user's documents folder, else home.

    Never the working directory: launched from a menu or `make run` that is the install folder.
    """
    last = settings.value(LAST_FOLDER_KEY, "")
    if isinstance(last, str) and last and Path(last).is_dir():
        return Path(last)
    docs = Path(platformdirs.user_documents_dir())
    return docs if docs.is_dir() else Path.home()


def remember_folder(settings: Settings, path: Path) -> None:
    settings.setValue(LAST_FOLDER_KEY, str(atomic.resolved_path(path).parent))


def atomic_write_text(path: Path, text: str) -> None:
    """See `app.export.atomic`: temporary file beside the target, fsync, rename; permissions kept."""
    atomic.atomic_write_text(Path(path), text)


def project_text(project: Project, name: str = "project") -> str:
    """The project as JSON, refused (FileInputError) when larger than refarch opens again."""
    return dump_json_checked(project_to_json(project), max_bytes=PROJECT_MAX_BYTES, what="project", name=name)


def save_project(project: Project, path: Path) -> None:
    atomic_write_text(path, project_text(project, str(path)))


def with_suffix(path: Path) -> Path:
    """Add `.refarch.json` to a name typed without an extension."""
    return path if path.name.endswith(".json") else path.with_name(path.name + PROJECT_SUFFIX)


def user_data_dir() -> Path:
    return atomic.data_dir()


def autosave_path(project_path: Path | None, data_dir: Path | None = None) -> Path:
    base = (data_dir or user_data_dir()) / "autosave"
    if project_path is None:
        return base / f"untitled-{os.getpid()}{PROJECT_SUFFIX}"
    digest = hashlib.sha1(str(atomic.resolved_path(project_path)).encode()).hexdigest()[:10]
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

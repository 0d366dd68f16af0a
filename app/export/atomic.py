"""Write every file all or nothing: into a temporary file beside the target, flushed, then renamed over it.

Every file refarch writes (project, autosave, PDF, CSV, XLSX, catalog export, configuration) goes through
`atomic_write` (or `atomic_write_text` / `atomic_write_bytes`), so a failed, cancelled or killed write
leaves the previous file byte-identical (or no file), never half a file:

- the temporary file is in the target's folder (same filesystem, so `os.replace` is atomic) and named
  `.<target name>.<pid>.<random>.refarch-tmp`, so it is hidden and says which process made it;
- the data is fsync'ed before the rename and the folder after it, so a power cut cannot swap a good file
  for an empty one;
- the new file gets the permissions of the file it replaces (a project the user made 0644 stays 0644), or
  the usual `0666 & ~umask` for a new file (mkstemp's 0600 would hide a shared report from colleagues);
- a process killed mid-write cannot remove its temporary file, so each one is also recorded in a journal
  under the user data directory; `remove_stale_temps()` (called when the CLI and the GUI start) deletes the
  temporary files of processes that are gone. A write also sweeps stale temporaries of the same target.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

TEMP_SUFFIX = ".refarch-tmp"
JOURNAL_DIR = "pending-writes"


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()  # read once at import: os.umask is process-wide and exports may run in a worker thread


class ExportError(OSError):
    """The output cannot be written (folder missing, read-only, a directory in the way, disk full).

    An OSError, so callers that already report file-system errors report this one the same way.
    """


def data_dir() -> Path:
    """refarch's user data directory (`$REFARCH_DATA_DIR` for tests and portable installs)."""
    override = os.environ.get("REFARCH_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("refarch", "refarch"))


def resolved_path(path: Path | str) -> Path:
    """The absolute path with symbolic links resolved where they can be: a symlink loop or an unreadable
    folder (Path.resolve raises RuntimeError or OSError for those) gives the absolute path as written, so the
    caller goes on to open it and reports that failure by name."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError):
        return Path(os.path.abspath(path))


def check_writable(path: Path) -> None:
    """Fail early, before an expensive render, when `path` obviously cannot be written."""
    if path.exists() and path.is_dir():
        raise ExportError(f"{path} is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ExportError(f"folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ExportError(f"folder {parent} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise ExportError(f"{path} is read-only")


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but belongs to someone else
        return True
    return True


def _temp_pid(name: str) -> int | None:
    """The pid in `.<target>.<pid>.<random>.refarch-tmp`, or None for a name refarch did not make."""
    if not name.endswith(TEMP_SUFFIX):
        return None
    parts = name[: -len(TEMP_SUFFIX)].rsplit(".", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def _journal_entry(tmp: Path) -> Path:
    digest = hashlib.sha1(str(tmp).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return data_dir() / JOURNAL_DIR / f"{os.getpid()}-{digest}"


def _journal_add(tmp: Path) -> Path | None:
    entry = _journal_entry(tmp)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_text(str(tmp.absolute()), encoding="utf-8", errors="surrogateescape")
    except OSError:
        return None  # no journal (read-only home): the same-folder sweep still cleans up later
    return entry


def _sweep_folder(parent: Path, target_name: str) -> None:
    """Remove temporaries of `target_name` left in `parent` by processes that are gone."""
    with contextlib.suppress(OSError):
        for tmp in parent.glob(f".{target_name}.*{TEMP_SUFFIX}"):
            pid = _temp_pid(tmp.name)
            if pid is not None and not _pid_alive(pid):
                with contextlib.suppress(OSError):
                    tmp.unlink()


def remove_stale_temps(directory: Path | None = None) -> list[Path]:
    """Delete temporary files that killed refarch processes left behind; return what was removed."""
    journal = (directory or data_dir()) / JOURNAL_DIR
    removed: list[Path] = []
    try:
        entries = list(journal.iterdir())
    except OSError:
        return removed
    for entry in entries:
        pid_text = entry.name.split("-", 1)[0]
        if not pid_text.isdigit() or _pid_alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError, UnicodeError):
            tmp = Path(entry.read_text(encoding="utf-8", errors="surrogateescape"))
            if tmp.name.endswith(TEMP_SUFFIX) and tmp.is_dir() and not tmp.is_symlink():
                shutil.rmtree(tmp)  # a configuration folder staged by a killed export
                removed.append(tmp)
            elif tmp.name.endswith(TEMP_SUFFIX) and tmp.exists():
                tmp.unlink()
                removed.append(tmp)
        with contextlib.suppress(OSError):
            entry.unlink()
    return removed


def _fsync_path(path: Path, *, directory: bool = False) -> None:
    flags = os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        if directory:
            return  # some systems cannot open a folder; the rename is still atomic there
        raise
    try:
        os.fsync(fd)
    except OSError:
        if not directory:
            raise
    finally:
        os.close(fd)


def _target_mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)  # keep what the user gave the file
    except OSError:
        return 0o666 & ~_UMASK


@contextlib.contextmanager
def atomic_write(path: Path, *, executable: bool = False) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; on success it replaces `path`, on error it is removed.

    `executable`: the file gets x wherever it has r, before the rename (a script is never there without it).
    Raises ExportError (a message naming the file) for anything the file system refuses.
    """
    path = Path(path)
    check_writable(path)
    parent = path.parent if str(path.parent) else Path(".")
    _sweep_folder(parent, path.name)
    tmp = parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
    entry = _journal_add(tmp)  # journalled before it exists: a kill at any later moment leaves a known name
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600))
    except OSError as exc:
        if entry is not None:
            with contextlib.suppress(OSError):
                entry.unlink()
        raise ExportError(f"cannot write in {parent}: {exc.strerror or exc}") from None
    try:
        yield tmp
        try:
            _fsync_path(tmp)
            mode = _target_mode(path)
            os.chmod(tmp, mode | ((mode & 0o444) >> 2) if executable else mode)
            os.replace(tmp, path)
        except OSError as exc:
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from None
        _fsync_path(parent, directory=True)  # make the rename itself durable where the OS allows it
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        if entry is not None:
            with contextlib.suppress(OSError):
                entry.unlink()


def atomic_write_bytes(path: Path, data: bytes, *, executable: bool = False) -> None:
    """Write `data` to `path` all or nothing (see the module docstring); ExportError when it cannot."""
    with atomic_write(path, executable=executable) as tmp:
        try:
            tmp.write_bytes(data)
        except OSError as exc:  # disk full, file-size limit: the old file stays as it was
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from None


def atomic_write_text(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write `text` to `path` all or nothing; ExportError when it cannot."""
    atomic_write_bytes(path, text.encode(encoding))

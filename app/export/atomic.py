"""Write a file all or nothing: render into a temporary file beside it, then rename over it.

A failed or cancelled export leaves the previous file (or none), never half a PDF.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()  # read once at import: os.umask is process-wide and exports may run in a worker thread


class ExportError(Exception):
    """The output cannot be written (folder missing, read-only, a directory in the way, disk full)."""


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


@contextlib.contextmanager
def atomic_write(path: Path) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; on success it replaces `path`, on error it is removed."""
    check_writable(path)
    parent = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise ExportError(f"cannot write in {parent}: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        try:
            os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; an exported document gets the usual permissions
            os.replace(tmp, path)
        except OSError as exc:
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()

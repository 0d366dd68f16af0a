"""Writing a bundle: refuse a non-empty folder unless forced, nothing written on a render error, and the folder
appears whole or not at all.

The files are written into a hidden staging folder beside the target (with, under --force, the target's other
files copied in first), which then takes the target's place: by one atomic exchange of the two folders on Linux
(renameat2 RENAME_EXCHANGE), elsewhere by two renames. A failure, a full disk or a kill while writing leaves the
old folder (or none) as it was, never a mix of new and old files; a staging folder a killed refarch left behind is
removed by the next write (or the next start, from the journal of pending writes).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from app.export import atomic
from app.export.atomic import TEMP_SUFFIX, ExportError, atomic_write_bytes
from app.export.config.bundle import ConfigBundle


def check_target(out_dir: Path, force: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise ExportError(f"{out_dir} exists and is not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force:
        raise ExportError(f"{out_dir} is not empty: choose an empty folder or pass --force to overwrite its files")


def _folder_mode(out_dir: Path) -> int:
    try:
        return stat.S_IMODE(out_dir.stat().st_mode)  # the folder keeps what the user gave it
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o777 & ~mask


def write_bundle(bundle: ConfigBundle, out_dir: Path, force: bool = False) -> list[Path]:
    """Write every file of `bundle` under `out_dir`, whole or not at all; the paths written, in bundle order."""
    check_target(out_dir, force)
    parent = out_dir.parent if str(out_dir.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {out_dir}: {exc.strerror or exc}") from None
    atomic._sweep_folder(parent, out_dir.name)
    _sweep_folders(parent, out_dir.name)
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=parent))
    except OSError as exc:
        raise ExportError(f"cannot create {out_dir}: {exc.strerror or exc}") from None
    entry = atomic._journal_add(staging)
    try:
        if out_dir.is_dir():  # --force: the folder's other files stay
            shutil.copytree(out_dir, staging, symlinks=True, dirs_exist_ok=True)
        os.chmod(staging, _folder_mode(out_dir))
        for f in bundle.files:
            target = staging / f.path
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(target, f.text.encode("utf-8"), executable=f.executable)  # x wherever r is set
        _swap_in(staging, out_dir)
    except (OSError, shutil.Error) as exc:
        if isinstance(exc, ExportError):
            raise
        raise ExportError(f"cannot write {out_dir}: {getattr(exc, 'strerror', None) or exc}; nothing was "
                          "changed") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # the old folder after an exchange, or a failed write
        if entry is not None:
            with contextlib.suppress(OSError):
                entry.unlink()
    return [out_dir / f.path for f in bundle.files]


def _sweep_folders(parent: Path, name: str) -> None:
    """Remove staging folders of `name` that refarch processes now gone left in `parent`."""
    with contextlib.suppress(OSError):
        for stale in parent.glob(f".{name}.*{TEMP_SUFFIX}"):
            pid = atomic._temp_pid(stale.name)
            if stale.is_dir() and pid is not None and not atomic._pid_alive(pid):
                shutil.rmtree(stale, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2 with RENAME_EXCHANGE); False where the system or the
    file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _swap_in(staging: Path, out_dir: Path) -> None:
    """`staging` takes `out_dir`'s place, which leaves the old folder at `staging` (the caller removes it)."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    if _exchange(staging, out_dir):
        return
    old = out_dir.with_name(f".{out_dir.name}.{os.getpid()}.old{secrets.token_hex(4)}{TEMP_SUFFIX}")
    os.rename(out_dir, old)  # elsewhere two renames: a kill between them leaves the old folder whole beside
    try:
        os.rename(staging, out_dir)
    except OSError:
        os.rename(old, out_dir)  # put the old folder back
        raise
    os.rename(old, staging)

"""Writing a bundle: refuse a non-empty folder unless forced, every file atomic, nothing written on a render error."""

from __future__ import annotations

from pathlib import Path

from app.export.atomic import ExportError, atomic_write_bytes
from app.export.config.bundle import ConfigBundle


def check_target(out_dir: Path, force: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise ExportError(f"{out_dir} exists and is not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force:
        raise ExportError(f"{out_dir} is not empty: choose an empty folder or pass --force to overwrite its files")


def write_bundle(bundle: ConfigBundle, out_dir: Path, force: bool = False) -> list[Path]:
    """Write every file of `bundle` under `out_dir`; returns the paths written, in bundle order."""
    check_target(out_dir, force)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {out_dir}: {exc.strerror or exc}") from None
    written: list[Path] = []
    for f in bundle.files:
        target = out_dir / f.path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ExportError(f"cannot create {target.parent}: {exc.strerror or exc}") from None
        atomic_write_bytes(target, f.text.encode("utf-8"), executable=f.executable)  # x wherever r is set
        written.append(target)
    return written

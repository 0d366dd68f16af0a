"""The configuration export as one use case, called by `refarch config` and by File > Export in the window."""

from __future__ import annotations

from pathlib import Path

from app.export.config.build import build_config
from app.export.config.naming import Naming
from app.export.config.writer import check_target, write_bundle
from models.sizing.result import SizingResult
from models.tasks import IsCancelled, check_cancelled


def export_configuration(result: SizingResult, out_dir: Path, force: bool = False, naming: Naming | None = None,
                         cancelled: IsCancelled | None = None) -> list[Path]:
    """Render every file in memory, then write them all (atomically, file by file); the paths written.

    A folder that is refused (non-empty without `force`, a file in the way) raises ExportError before
    anything is rendered; a bad naming pattern raises NamingError before anything is written.
    """
    check_target(out_dir, force)
    bundle = build_config(result, naming or Naming())
    check_cancelled(cancelled)  # models.tasks.Cancelled before anything is written
    return write_bundle(bundle, out_dir, force)

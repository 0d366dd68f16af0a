"""Refuse to write into a damaged SQLite catalog.

SQLite writes happily into a file whose pages are damaged when the damage lies where the write does not
look, and every write spreads it. So before a store's first write, `PRAGMA quick_check` (the O(N) check of
pages, records and freelists, without index cross-checks) must say "ok"; otherwise the write is refused
with what SQLite found, a copy of the damaged file is kept for recovery (`sqlite3 FILE .recover`), and the
newest backup from a schema upgrade is named when there is one. PostgreSQL checks its own pages.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import URL, Engine
from sqlalchemy.exc import SQLAlchemyError

from catalog.engine import sqlite_file
from catalog.errors import CatalogDamagedError

MAX_REPORTED = 3


def check_integrity(engine: Engine, url: URL, display_url: str) -> None:
    """Raise CatalogDamagedError when the SQLite catalog file fails `PRAGMA quick_check`."""
    path = sqlite_file(url)
    if path is None:
        return
    try:
        with engine.connect() as conn:
            found = [str(row[0]) for row in conn.exec_driver_sql(f"PRAGMA quick_check({MAX_REPORTED})")]
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", exc)
        found = [str(orig).strip() or type(orig).__name__]
    if found == ["ok"]:
        return
    copy = _keep_copy(path)
    backups = sorted(path.parent.glob(f"{path.name}.bak-*"), key=lambda p: p.stat().st_mtime)
    raise CatalogDamagedError(
        f"the catalog file {path} is damaged (SQLite's integrity check: {'; '.join(found)}); nothing was written "
        "and refarch will not write to it. "
        + (f"A copy of the damaged file is at {copy}. " if copy else "")
        + (f"The newest backup is {backups[-1]}: copy it over {path} to restore it. " if backups else "")
        + f"To start again from the bundled catalog, move {path} away."
    )


def _keep_copy(path: Path) -> Path | None:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    try:
        shutil.copy2(path, target)
    except OSError:
        return None
    return target

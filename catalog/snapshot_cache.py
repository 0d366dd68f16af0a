"""The sizing snapshot of a SQLite catalog, kept on disk between processes.

Opening a catalog through SQLAlchemy (and checking its schema) costs a command like `refarch size`
more start-up than the sizing itself, although the catalog rarely changes between two runs. So the
snapshot a process read is stored, and the next process takes it back with the standard library's
`sqlite3` alone, as long as the catalog's data-version token is unchanged. The token is read from
the database itself:

- the schema revision (`alembic_version`): an upgraded catalog is a different catalog;
- the `data_version` row of `catalog_meta`, which every write transaction of `CatalogStore` renews;
- per table, its row count and the sum of the rows' optimistic-concurrency versions (a write by
  anything but `CatalogStore` still moves one of them);

and the key also holds a fingerprint of the code that turns rows into parts (this package's
sources and `models/hardware.py`, `models/money.py`), so a changed refarch reads the database again.

Only plain SQLite file URLs are cached (a shared server catalog is read fresh every time). The cache
is off until the delivery layer names a directory (`configure`), so library use and tests read the
database as always. Any problem with the cache means reading the database: it can only save time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
import tempfile
import urllib.parse
from contextlib import closing
from pathlib import Path

from models.cache_location import CacheLocation
from models.hardware import HardwareCatalog

DATA_VERSION_KEY = "data_version"  # the catalog_meta row every CatalogStore write renews
_SQLITE_PREFIXES = ("sqlite:///", "sqlite+pysqlite:///")
_PACKAGE = Path(__file__).resolve().parent
_MODELS = _PACKAGE.parent / "models"

ENV_VAR = "REFARCH_CATALOG_CACHE"
LOCATION = CacheLocation(ENV_VAR)


def configure(directory: Path | str | None) -> None:
    """Keep snapshots under `directory` (None: off unless `REFARCH_CATALOG_CACHE` names one)."""
    LOCATION.configure(directory)


def cache_directory() -> Path | None:
    return LOCATION.directory()


def sqlite_path(url: str) -> Path | None:
    """The file of a plain `sqlite:///FILE` URL; None for anything else (servers, memory, URI options)."""
    for prefix in _SQLITE_PREFIXES:
        if url.startswith(prefix):
            rest = url[len(prefix):]
            if not rest or rest == ":memory:" or rest.startswith("file:") or "?" in rest:
                return None
            return Path(rest)
    return None


def data_token(path: Path) -> str | None:
    """The catalog's data-version token (see the module docstring); None when it cannot be read."""
    if not path.is_file():
        return None
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
    try:
        with closing(sqlite3.connect(uri, uri=True, timeout=1.0)) as con:
            h = hashlib.sha256()
            (revision,) = con.execute("SELECT group_concat(version_num) FROM alembic_version").fetchone()
            h.update(f"rev={revision}|".encode())
            row = con.execute("SELECT value FROM catalog_meta WHERE key = ?", (DATA_VERSION_KEY,)).fetchone()
            h.update(f"data={row[0] if row else ''}|".encode())
            tables = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            for table in tables:
                columns = {r[1] for r in con.execute(f'PRAGMA table_info("{table}")')}
                versions = "coalesce(sum(version), 0)" if "version" in columns else "0"
                count, total = con.execute(f'SELECT count(*), {versions} FROM "{table}"').fetchone()
                h.update(f"{table}={count},{total}|".encode())
            return h.hexdigest()
    except (sqlite3.Error, OSError, TypeError, ValueError):
        return None


def _code_fingerprint() -> str:
    h = hashlib.sha256()
    files = sorted([*_PACKAGE.glob("*.py"), *(_PACKAGE / "migrations" / "versions").glob("*.py"),
                    _MODELS / "hardware.py", _MODELS / "money.py"])
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def _entry(path: Path) -> Path | None:
    folder = cache_directory()
    if folder is None:
        return None
    name = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]
    return folder / f"{name}.pickle"


def load(url: str) -> HardwareCatalog | None:
    """The stored snapshot of the catalog at `url` if it is still current, else None."""
    path = sqlite_path(url)
    entry = _entry(path) if path is not None else None
    if path is None or entry is None:
        return None
    try:
        with entry.open("rb") as fh:
            key, catalog = pickle.load(fh)
    except Exception:  # missing, truncated, written by another version: read the database
        return None
    token = data_token(path)
    if token is None or key != (token, _code_fingerprint()) or not isinstance(catalog, HardwareCatalog):
        return None
    return catalog


def read_token(url: str) -> str | None:
    """Read the token *before* taking a snapshot: a write in between then only makes the next run miss."""
    path = sqlite_path(url)
    if path is None or cache_directory() is None:
        return None
    return data_token(path)


def store(url: str, token: str | None, catalog: HardwareCatalog) -> None:
    """Keep `catalog`, read at data-version `token`, for the next process."""
    path = sqlite_path(url)
    entry = _entry(path) if path is not None else None
    if entry is None or token is None:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".snapshot-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(((token, _code_fingerprint()), catalog), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, entry)  # a reader sees the old snapshot or the whole new one
        finally:
            Path(tmp).unlink(missing_ok=True)
    except (OSError, pickle.PicklingError):
        pass  # a read-only or full disk only costs the next process a database read

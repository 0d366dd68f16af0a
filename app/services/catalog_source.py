"""The catalog the window sizes against: its current snapshot, and the `CatalogStore` behind it.

The snapshot is an immutable `HardwareCatalog`, so worker threads can size
against it while the catalog editor changes the database; after each change the
window takes a new snapshot and re-sizes.

At start the window only needs the snapshot. While a SQLite catalog is unchanged it comes from the
snapshot cache (`catalog.snapshot_cache`: the standard library's sqlite3 and a pickle), and the store
(SQLAlchemy, the Alembic schema check: about a second of start-up) is opened when something first
asks for it, the catalog editor or a refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from catalog import snapshot_cache
from catalog.errors import CatalogError
from models.hardware import HardwareCatalog

if TYPE_CHECKING:
    from catalog.store import CatalogStore


class CatalogUnavailable(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CatalogSource:
    def __init__(self, store: CatalogStore | None, snapshot: HardwareCatalog, label: str,
                 url: str | None = None) -> None:
        self._store = store
        self.url = url  # the catalog's URL; None for an in-memory catalog
        self._open_later = store is None and url is not None  # the snapshot came from the cache
        self.snapshot = snapshot
        self.label = label  # what the status bar says about where the catalog lives
        self.open_error: str | None = None  # why the store could not be opened later, if it could not

    @classmethod
    def open(cls, url: str | None) -> CatalogSource:
        """Open the catalog at `url` (None: $REFARCH_DB, else the user's SQLite file)."""
        from catalog.location import default_url

        url = default_url() if url is None else url
        cached = snapshot_cache.load(url)
        if cached is not None:
            return cls(None, cached, describe_url(url, shared=False), url)
        from catalog.store import CatalogStore

        try:
            store = CatalogStore.open(url)
            token = snapshot_cache.read_token(url)
            snapshot = store.snapshot()
        except CatalogError as exc:
            raise CatalogUnavailable(str(exc)) from None
        snapshot_cache.store(url, token, snapshot)
        return cls(store, snapshot, describe_url(store.url_display, store.is_shared), url)

    @classmethod
    def in_memory(cls, catalog: HardwareCatalog, label: str = "in-memory catalog (read-only)") -> CatalogSource:
        return cls(None, catalog, label)

    @property
    def store(self) -> CatalogStore | None:
        """The open store (opened now if the snapshot came from the cache); None for an in-memory catalog,
        or when the database cannot be opened any more (`open_error` says why)."""
        if self._open_later and self.url is not None:
            from catalog.store import CatalogStore

            self._open_later = False
            try:
                self._store = CatalogStore.open(self.url)
            except CatalogError as exc:
                self.open_error = str(exc)
        return self._store

    def refresh(self) -> HardwareCatalog:
        store = self.store
        if store is not None:
            token = snapshot_cache.read_token(self.url) if self.url else None
            self.snapshot = store.snapshot()
            if self.url:
                snapshot_cache.store(self.url, token, self.snapshot)  # the next start reads the edited catalog fast
        return self.snapshot

    def describe(self, part_id: str | None) -> str:
        if not part_id:
            return "—"
        if part_id in self.snapshot:
            part = self.snapshot.get(part_id)
            return f"{part.vendor} {part.model}"
        return part_id

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
        self._open_later = False


def describe_url(url_display: str, shared: bool) -> str:
    """The status bar's words for where the catalog lives.

    >>> describe_url("sqlite:////home/ann/catalog.sqlite", shared=False)
    'local catalog /home/ann/catalog.sqlite'
    >>> describe_url("postgresql+psycopg://ann:***@db/refarch", shared=True)
    'shared catalog postgresql+psycopg://ann:***@db/refarch'
    """
    if shared:
        return f"shared catalog {url_display}"
    path = url_display.removeprefix("sqlite:///")
    return f"local catalog {path}" if path != url_display else f"local catalog {url_display}"

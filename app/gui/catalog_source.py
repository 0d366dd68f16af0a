"""The catalog the window sizes against: an open `CatalogStore` and its current snapshot.

The snapshot is an immutable `HardwareCatalog`, so worker threads can size
against it while the catalog editor changes the database; after each change the
window takes a new snapshot and re-sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.errors import CatalogError
from catalog.store import CatalogStore
from models.hardware import HardwareCatalog


class CatalogUnavailable(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class CatalogSource:
    store: CatalogStore | None
    snapshot: HardwareCatalog
    label: str  # what the status bar says about where the catalog lives

    @classmethod
    def open(cls, url: str | None) -> CatalogSource:
        """Open the catalog at `url` (None: $REFARCH_DB, else the user's SQLite file)."""
        try:
            store = CatalogStore.open(url)
            snapshot = store.snapshot()
        except CatalogError as exc:
            raise CatalogUnavailable(str(exc)) from None
        return cls(store, snapshot, describe_store(store))

    @classmethod
    def in_memory(cls, catalog: HardwareCatalog, label: str = "in-memory catalog (read-only)") -> CatalogSource:
        return cls(None, catalog, label)

    def refresh(self) -> HardwareCatalog:
        if self.store is not None:
            self.snapshot = self.store.snapshot()
        return self.snapshot

    def describe(self, part_id: str | None) -> str:
        if not part_id:
            return "—"
        if part_id in self.snapshot:
            part = self.snapshot.get(part_id)
            return f"{part.vendor} {part.model}"
        return part_id

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def describe_store(store: CatalogStore) -> str:
    url = store.url_display
    if store.is_shared:
        return f"shared catalog {url}"
    path = url.removeprefix("sqlite:///")
    return f"local catalog {path}" if path != url else f"local catalog {url}"

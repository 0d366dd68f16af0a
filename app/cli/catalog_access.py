"""Opening the catalog for commands that size against it (size, compare, optimize, report)."""

from __future__ import annotations

from app.cli.errors import CliError
from models.hardware import HardwareCatalog


def load_catalog(db_url: str | None) -> HardwareCatalog:
    from catalog.store import CatalogStore

    from catalog.errors import CatalogOpenError

    try:
        store = CatalogStore.open(db_url)
    except CatalogOpenError as exc:
        raise CliError(f"cannot open the catalog: {exc}") from None
    try:
        return store.snapshot()
    finally:
        store.close()

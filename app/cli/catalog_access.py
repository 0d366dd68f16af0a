"""Opening the catalog for commands that size against it (size, compare, optimize, report)."""

from __future__ import annotations

from app.cli.errors import CliError
from models.hardware import HardwareCatalog


def load_catalog(db_url: str | None) -> HardwareCatalog:
    from catalog.errors import CatalogError
    from catalog.store import CatalogStore

    try:
        with CatalogStore.open(db_url) as store:
            return store.snapshot()
    except CatalogError as exc:
        raise CliError(str(exc)) from None
